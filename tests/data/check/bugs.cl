// Kernels with the bugs Oclgrind finds, for tst_checklog and tst_cli_check. Line numbers matter to the
// tests: keep each bug on the line they name (see the comments), or update the tests with it.

// Reads one element past the end of `in` (global size n, buffers of n).
__kernel void oob_read(__global const float *in, __global float *out)
{
    const size_t i = get_global_id(0);
    out[i] = in[i + 1]; // line 8: invalid read in the last work-item
}

// Writes one element past the end of `out`.
__kernel void oob_write(__global float *out)
{
    const size_t i = get_global_id(0);
    out[i + 1] = (float)i; // line 15: invalid write in the last work-item
}

// Every work-item writes the same local slot without synchronisation, then one reads it.
__kernel void local_race(__global int *out, __local int *scratch)
{
    const size_t l = get_local_id(0);
    scratch[0] = (int)l; // line 22: write-write race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[0];
}

// Reads private array elements that were never written: only v[k] is set.
__kernel void uninit_read(__global int *out, const int k)
{
    int v[4];
    v[k] = 1;
    const size_t i = get_global_id(0);
    out[i] = v[i]; // line 33: uninitialised value stored by every work-item but k
}

// Only half of the work-group reaches the barrier.
__kernel void divergent_barrier(__global int *out)
{
    const size_t l = get_local_id(0);
    if (l < get_local_size(0) / 2)
        barrier(CLK_LOCAL_MEM_FENCE); // line 41: barrier divergence
    out[get_global_id(0)] = (int)l;
}

// Correct: no reports.
__kernel void clean(__global const float *in, __global float *out, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n)
        out[i] = in[i] * 2.0f;
}
