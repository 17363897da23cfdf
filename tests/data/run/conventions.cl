// What real kernels do that the CLI must take as written: names that PoCL's compiler renames (it reports
// step, length, min, max as _cl_step...), values JSON cannot write as numbers, and printf.
__kernel void ramp(__global float *out, const float step, const uint length, const float min, const float max)
{
    const size_t i = get_global_id(0);
    if (i < length)
        out[i] = clamp(i * step, min, max);
}

__kernel void nonfinite(__global float *f, __global double *d)
{
    const size_t i = get_global_id(0);
    const float values[4] = {INFINITY, -INFINITY, NAN, 1.5f};
    f[i] = values[i];
    d[i] = (double)values[i];
}

// printf output is reported apart from the run's own output (JSON key printf).
__kernel void hello(__global int *out)
{
    const int i = get_global_id(0);
    printf("item %d of %d\n", i, (int)get_global_size(0));
    out[i] = i;
}
