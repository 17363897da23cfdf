// Sum reduction with local memory: each work-group reduces its slice to one partial sum.
// Run with a local size that is a power of two, and scratch = local:(local size * 4) bytes.
// The launch below sums 4096 ones in 16 groups of 256: every partial sum is 256.
// clscope-run: --kernel reduce_sum --global 4096 --local 256 --arg input=buffer:float:4096:fill=1
// clscope-run: --arg partial=buffer:float:16:zeros --arg scratch=local:1024 --arg n=uint:4096 --print partial
__kernel void reduce_sum(__global const float *input, __global float *partial, __local float *scratch,
                         const uint n)
{
    const size_t gid = get_global_id(0);
    const size_t lid = get_local_id(0);
    const size_t lsize = get_local_size(0);

    scratch[lid] = gid < n ? input[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t stride = lsize / 2; stride > 0; stride >>= 1) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
