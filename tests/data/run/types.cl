// Kernels for tst_runner, tst_runnererrors and tst_cli_run: every scalar type through private arguments,
// vectors of each width, int/long/double/half buffers, a 2D kernel for offsets, structs, a required
// work-group size, and arguments the runner does not support yet.
typedef struct {
    float x;
    int y;
} Pair;

__kernel void echo_scalars(__global long *ints, __global double *floats, char c, uchar uc, short s,
                           ushort us, int i, uint u, long l, ulong ul, float f, double d)
{
    ints[0] = c;
    ints[1] = uc;
    ints[2] = s;
    ints[3] = us;
    ints[4] = i;
    ints[5] = u;
    ints[6] = l;
    ints[7] = (long)ul;
    floats[0] = f;
    floats[1] = d;
}

__kernel void echo_vectors(__global int *out, int2 a, int3 b, int4 c, int8 d, int16 e)
{
    vstore2(a, 0, out);
    vstore3(b, 0, out + 2);
    vstore4(c, 0, out + 5);
    vstore8(d, 0, out + 9);
    vstore16(e, 0, out + 17);
}

__kernel void scale_int(__global const int *in, __global int *out, const int k, const int b)
{
    const size_t i = get_global_id(0);
    out[i] = in[i] * k + b;
}

__kernel void add_long(__global const long *in, __global long *out, const long k)
{
    const size_t i = get_global_id(0);
    out[i] = in[i] + k;
}

__kernel void axpy_double(__global const double *x, __global double *y, const double a)
{
    const size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void scale_float4(__global const float4 *in, __global float4 *out, const float4 s)
{
    const size_t i = get_global_id(0);
    out[i] = in[i] * s;
}

// float3 buffers have a 16-byte stride, as the runner stores them.
__kernel void add_float3(__global const float3 *in, __global float3 *out, const float3 s)
{
    const size_t i = get_global_id(0);
    out[i] = in[i] + s;
}

__kernel void twice_half(__global const half *in, __global half *out)
{
    const size_t i = get_global_id(0);
    vstore_half(vload_half(i, in) * 2.0f, i, out);
}

__kernel void grid(__global int *out, const uint width)
{
    const size_t x = get_global_id(0);
    const size_t y = get_global_id(1);
    out[y * width + x] = (int)(y * 1000 + x);
}

__kernel void pairs(__global Pair *p)
{
    const size_t i = get_global_id(0);
    p[i].x = (float)i;
    p[i].y = (int)i * 2;
}

__kernel void pair_by_value(__global int *out, Pair v)
{
    out[0] = v.y + (int)v.x;
}

__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed_group(__global uint *out)
{
    out[get_global_id(0)] = (uint)get_local_size(0);
}

__kernel void with_image(read_only image2d_t img, __global int *out)
{
    out[0] = get_image_width(img);
}

__kernel void with_sampler(__global int *out, sampler_t s)
{
    out[0] = 1;
}

// A __constant buffer larger than a device's CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE (64 KiB on Oclgrind)
// fails at the launch: a driver error that no check before it sees.
__kernel void big_constant(__constant float *table, __global float *out)
{
    out[0] = table[0];
}
