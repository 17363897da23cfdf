// Kernels for the debugger's tests (tests/app/tst_cli_debug.cpp), shaped like real projects' (a tiled
// matmul as in the Khronos OpenCL-SDK and Rodinia, a work-group reduction, helper functions, a struct
// argument, a float4 private variable). Each printf prints what the debugger must print at that line: the
// test breaks at the line marked "// @NAME" (before it runs) and compares the debugger's value with the
// printf's, for several work-items.

typedef struct {
    float scale;
    int offset;
    float4 bias;
} Params;

#define TILE 4

// C = A * B for n x n matrices, n a multiple of TILE, local size TILE x TILE.
__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C, int n)
{
    __local float Asub[TILE][TILE];
    __local float Bsub[TILE][TILE];
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        Asub[ty][tx] = A[row * n + t * TILE + tx];
        Bsub[ty][tx] = B[(t * TILE + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += Asub[ty][k] * Bsub[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    printf("matmul %d %d acc %.9g\n", col, row, acc); // @matmul
    C[row * n + col] = acc;
}

// Each work-group sums its part of in into out[group], through local memory and barriers.
__kernel void reduce(__global const float *in, __global float *out, __local float *scratch)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    scratch[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float total = scratch[0];
    printf("reduce %d %d total %.9g\n", gid, 0, total); // @reduce
    if (lid == 0)
        out[get_group_id(0)] = total;
}

float square_plus(float x, float add)
{
    float y = x * x + add;
    printf("helper %d %d y %.9g\n", (int)get_global_id(0), 0, y); // @helper
    return y;
}

float poly(float x)
{
    return square_plus(x, 1.0f) * 0.5f;
}

__kernel void helpers(__global const float *in, __global float *out)
{
    const int gid = get_global_id(0);
    out[gid] = poly(in[gid]);
}

__kernel void with_struct(__global const float *in, __global float *out, Params p)
{
    const int gid = get_global_id(0);
    float4 v = vload4(gid, in) * p.scale + p.bias;
    printf("struct %d %d v %.9g %.9g %.9g %.9g\n", gid, 0, v.x, v.y, v.z, v.w); // @struct
    vstore4(v, gid, out);
    out[gid * 4] += (float)p.offset;
}
