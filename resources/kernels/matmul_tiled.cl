// Tiled matrix multiply C = A * B for square N x N matrices (row-major), TILE x TILE work-groups.
// N must be a multiple of TILE. Build with -D TILE=16 to change the tile size.
// The launch below multiplies 256x256 matrices of ones and twos: every element of C is 512.
// clscope-run: --kernel matmul_tiled --global 256,256 --local 16,16 --arg A=buffer:float:65536:fill=1
// clscope-run: --arg B=buffer:float:65536:fill=2 --arg C=buffer:float:65536:zeros --arg N=int:256 --print C
#ifndef TILE
#define TILE 16
#endif

__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C, const int N)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];

    const int row = get_global_id(1);
    const int col = get_global_id(0);
    const int lrow = get_local_id(1);
    const int lcol = get_local_id(0);

    float acc = 0.0f;
    for (int t = 0; t < N / TILE; ++t) {
        As[lrow][lcol] = A[row * N + t * TILE + lcol];
        Bs[lrow][lcol] = B[(t * TILE + lrow) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc += As[lrow][k] * Bs[k][lcol];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
