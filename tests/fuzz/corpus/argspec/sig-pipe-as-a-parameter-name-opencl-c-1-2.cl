kernel void named(global int *pipe, int n) {}
