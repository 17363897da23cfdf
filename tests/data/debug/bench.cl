// A launch for the debugger's cost: every work-item sums a loop; the breakpoint's line runs in no work-item.
__kernel void work(__global const float *in, __global float *out, const int n)
{
    const int gid = get_global_id(0);
    float acc = 0.0f;
    for (int i = 0; i < 16; i++)
        acc += in[(gid + i) % n] * 0.5f;
    if (gid < 0)
        acc = -1.0f;
    out[gid] = acc;
}
