kernel void al(global float * __attribute__((aligned(16))) p) {}
