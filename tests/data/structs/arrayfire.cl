// After ArrayFire's OpenCL kernels (src/backend/opencl/kernel/KParam.hpp and the kernels that take it):
// the array's shape travels by value as a KParam next to the buffer. ArrayFire's dim_t is long long; in
// OpenCL C it is long.
typedef long dim_t;

typedef struct
{
    dim_t dims[4];
    dim_t strides[4];
    dim_t offset;
} KParam;

// out = in transposed, both described by their KParam (as ArrayFire's transpose.cl).
__kernel void transpose(__global float *out, const KParam oInfo, __global const float *in, const KParam iInfo)
{
    const dim_t x = get_global_id(0);
    const dim_t y = get_global_id(1);
    if (x >= iInfo.dims[0] || y >= iInfo.dims[1])
        return;
    out[oInfo.offset + x * oInfo.strides[1] + y * oInfo.strides[0]] =
        in[iInfo.offset + y * iInfo.strides[1] + x * iInfo.strides[0]];
}

// Every field back, to check the layout end to end.
__kernel void echo(KParam p, __global dim_t *out)
{
    for (int i = 0; i < 4; ++i) {
        out[i] = p.dims[i];
        out[4 + i] = p.strides[i];
    }
    out[8] = p.offset;
}
