// A struct the reader gets wrong: it cannot know that the compiler is clang, so it takes the #else
// branch and the probe asks for a field the compiler never saw.
#ifdef __clang__
typedef struct { int seen; } Hidden;
#else
typedef struct { int other; } Hidden;
#endif

__kernel void k(Hidden h, __global int *out)
{
    out[0] = h.seen;
}
