// Every kind of kernel argument the signature parser must spell as the drivers do.
typedef struct {
    float x;
    int y;
} Pair;

/* A block comment with __kernel void fake(int a) in it. */
__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void first(__global const float4 *restrict a, __local int *l, __constant float *c, int n,
           __read_only image2d_t img, unsigned int u, uint2 v, global volatile uint *vol, sampler_t s)
{
    // kernel void inComment(int x)
    l[0] = n;
}

kernel void second(global Pair *p, const int k, __global unsigned char *bytes, write_only image1d_t o)
{
}
