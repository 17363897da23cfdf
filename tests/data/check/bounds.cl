// Off-by-one accesses, one kernel per kind, for tst_cli_check's bounds rows: each must be reported by the
// memory check at buffer sizes the memory pool would round up (1024 and 1000 floats). Line numbers matter
// to the tests: keep each access on the line its comment names.

// Reads one element past the end of `a`.
__kernel void read_past_end(__global const float *a, __global float *c)
{
    const size_t i = get_global_id(0);
    c[i] = a[i + 1]; // line 9
}

// Writes one element past the end of `c`.
__kernel void write_past_end(__global float *c)
{
    const size_t i = get_global_id(0);
    c[i + 1] = 1.0f; // line 16
}

// Reads the element before the start of `a` (index -1).
__kernel void read_before_start(__global const float *a, __global float *c)
{
    const int i = (int)get_global_id(0);
    c[i] = a[i - 1]; // line 23
}

// Writes the element before the start of `c` (index -1).
__kernel void write_before_start(__global float *c)
{
    const int i = (int)get_global_id(0);
    c[i - 1] = 1.0f; // line 30
}

// Reads one element past the end of a __local array (the last work-item of each work-group of 8).
__kernel void local_past_end(__global float *c)
{
    __local float tile[8];
    const size_t l = get_local_id(0);
    tile[l] = (float)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    c[get_global_id(0)] = tile[l + 1]; // line 40
}

// A bounds check off by one: work-item n passes `i <= n` and reads a[n], one past a buffer of exactly n.
__kernel void guarded_copy(__global const float *a, __global float *c, const uint n)
{
    const size_t i = get_global_id(0);
    if (i <= n)
        c[i] = a[i]; // line 48
}

// The last four work-items write past the end of `c`, up to four elements past it.
__kernel void write_tail(__global float *c)
{
    const size_t i = get_global_id(0);
    c[i + 4] = 1.0f; // line 55
}
