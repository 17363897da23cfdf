__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void w(__global int *p) {}
kernel void __attribute__((vec_type_hint(float4))) v(global float4 *x) {}
