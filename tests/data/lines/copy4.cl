// A copy of four floats per work-item (vload4/vstore4): 32 bytes moved per work-item, 8 per float, no
// flops. The one-float `copy` of work.cl issues four times the loads and stores for the same bytes; on
// NVIDIA's H100 it ran at 74 % of the bandwidth roof (docs/benchmarks.md), this one is the copy a tuned
// program would write.
__kernel void copy4(__global const float *a, __global float *b)
{
    const size_t i = get_global_id(0);
    vstore4(vload4(i, a), i, b);
}
