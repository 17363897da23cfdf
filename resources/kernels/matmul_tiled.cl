// Tiled matrix multiply C = A * B for square N x N matrices (row-major). A work-group of any shape tx x ty
// (each dividing N and at most LOCAL_DIM_MAX) computes a ty x tx block of C, taking the shared dimension
// TILE at a time through local memory (N must be a multiple of TILE; build with -D TILE=32 to change it).
// Every element sums over k in the same order whatever the shape, so every local size gives the same C:
// `clscope-cli sweep matmul_tiled.cl` tries them all and flags one that does not.
// The launch below multiplies 256x256 matrices of ones and twos: every element of C is 512.
// clscope-run: --kernel matmul_tiled --global 256,256 --local 16,16 --arg A=buffer:float:65536:fill=1
// clscope-run: --arg B=buffer:float:65536:fill=2 --arg C=buffer:float:65536:zeros --arg N=int:256 --print C
#ifndef TILE
#define TILE 16
#endif
#define LOCAL_FLOATS 4096 // 16 KiB for each of the two tiles
#define LOCAL_DIM_MAX (LOCAL_FLOATS / TILE)

__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C, const int N)
{
    __local float As[LOCAL_FLOATS]; // ty rows of A, TILE columns
    __local float Bs[LOCAL_FLOATS]; // TILE rows of B, tx columns

    const int row = get_global_id(1);
    const int col = get_global_id(0);
    const int ly = get_local_id(1);
    const int lx = get_local_id(0);
    const int tx = get_local_size(0);
    const int ty = get_local_size(1);

    float acc = 0.0f;
    for (int t = 0; t < N / TILE; ++t) {
        for (int c = lx; c < TILE; c += tx)
            As[ly * TILE + c] = A[row * N + t * TILE + c];
        for (int r = ly; r < TILE; r += ty)
            Bs[r * tx + lx] = B[(t * TILE + r) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc += As[ly * TILE + k] * Bs[k * tx + lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
