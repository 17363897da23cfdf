// Kernels whose work is known by arithmetic, for the line profile (tests/app/tst_cli_lines.cpp).
__kernel void copy(__global const float *a, __global float *b)
{
    const size_t i = get_global_id(0);
    b[i] = a[i];
}

// C = A * B, n x n: n^3 multiply-adds, 2 n^3 flops.
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, const int n)
{
    const int row = get_global_id(1);
    const int col = get_global_id(0);
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

// A work-group sum through local memory: one barrier per step, log2(64) + 1 steps.
__kernel void reduce(__global const float *in, __global float *out, __local float *scratch)
{
    const size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (l < stride)
            scratch[l] += scratch[l + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}

// Odd and even work-items take different sides in every group (an atomic on one side: no select can stand
// in for the branch).
__kernel void diverge(__global const float *x, __global float *y, __global int *evens)
{
    const size_t i = get_global_id(0);
    if (i % 2)
        y[i] = x[i] * 3.0f;
    else
        atomic_inc(evens);
}

__kernel void vec4(__global const float *a, __global float *b)
{
    const size_t i = get_global_id(0);
    vstore4(vload4(i, a) * 2.0f, i, b);
}

__kernel void count(__global int *counter)
{
    atomic_inc(counter);
}

// Work that depends on the data, group by group: every work-item of group g runs steps[g] iterations, so a
// sample of the groups estimates the total (tst_cli_lines measures how well).
__kernel void uneven(__global const int *steps, __global float *out)
{
    const int n = steps[get_group_id(0)];
    float acc = 0.0f;
    for (int s = 0; s < n; ++s)
        acc += 0.5f * s;
    out[get_global_id(0)] = acc;
}
