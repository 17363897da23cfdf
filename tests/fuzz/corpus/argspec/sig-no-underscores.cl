kernel void k(global int *p, local float4 *l, constant uint *c) { }
