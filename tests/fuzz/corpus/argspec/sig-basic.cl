__kernel void add(__global const float *a, __global float *b, int n) {}
