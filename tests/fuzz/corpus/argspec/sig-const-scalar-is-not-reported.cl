kernel void c(const int k, const float4 v) {}
