kernel void r(global float *restrict out, global volatile int *flag, global float *const p, global const float *__restrict in) {}
