// Struct shapes whose layout only the device can say: packed and aligned attributes, a float3 member,
// nested and anonymous structs, arrays of structs, a union, a typedef of a tag, and one struct that no
// kernel names (asked for by name).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define N_WEIGHTS 3

typedef struct __attribute__((packed))
{
    char c;
    int i;
    short s;
} Packed;

typedef struct __attribute__((aligned(16)))
{
    int k;
} Aligned16;

typedef struct
{
    float3 pos;
    float w;
} Float3Member;

struct Inner
{
    float b;
    short c[N_WEIGHTS];
};

typedef struct Inner Inner_t;

typedef struct
{
    int a;
    struct Inner inner;
    Float3Member points[2];
    struct
    {
        uchar tag;
        double d;
    } anon; /* an unnamed struct type */
    union {
        int asInt;
        float asFloat;
    };
    float4 v;
} Outer;

typedef union
{
    uint u;
    uchar bytes[4];
} Word;

typedef struct
{
    ulong id;
    float value;
} NotAnArgument;

__kernel void packed_in(Packed p, __global int *out)
{
    out[0] = p.c;
    out[1] = p.i;
    out[2] = p.s;
    out[3] = (int)sizeof(Packed);
}

__kernel void aligned_in(Aligned16 a, Packed p, __global int *out)
{
    out[0] = a.k;
    out[1] = p.i;
}

__kernel void float3_in(Float3Member m, __global Float3Member *out)
{
    const int i = get_global_id(0);
    out[i].pos = m.pos * (float)(i + 1);
    out[i].w = m.w + (float)i;
}

__kernel void nested(__global Outer *o, Outer v, Inner_t in, Word word)
{
    const int i = get_global_id(0);
    o[i] = v;
    o[i].a = v.a + i;
    o[i].inner.c[2] = in.c[0] + in.c[1] + in.c[2];
    o[i].points[1].pos.y = in.b;
    o[i].anon.d = v.anon.d * 2.0;
    o[i].asInt = (int)word.u;
}

__kernel void raw_words(__global void *data, __global uint *out)
{
    out[get_global_id(0)] = ((__global uint *)data)[get_global_id(0)];
}
