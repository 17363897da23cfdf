// Kernels for the reliability probes (docs/reliability.md): two __local arguments whose sizes must be
// summed without wrapping, and a kernel that writes one value, for absurd NDRanges and huge buffers.
__kernel void two_locals(__local float *a, __local float *b, __global float *out)
{
    a[get_local_id(0)] = 1.0f;
    b[get_local_id(0)] = 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) == 0)
        out[0] = a[0] + b[0];
}

__kernel void mark(__global uint *out)
{
    if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0)
        out[0] = 1;
}
