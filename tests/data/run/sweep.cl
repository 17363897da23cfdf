// Kernels for the work-group size sweep's tests.

// Writes its work-group's size: a result that depends on the local size, which a sweep must flag.
__kernel void local_size_shows(__global int *out)
{
    out[get_global_id(0)] = (int)get_local_size(0);
}

// The same result whatever the local size.
__kernel void squares(__global const float *in, __global float *out)
{
    const size_t i = get_global_id(0);
    out[i] = in[i] * in[i];
}
