// A struct by value with a vector, an inline struct and an array, and a buffer of structs with a float3:
// the kernel the user guide's struct editor picture runs (docs/make-screenshots.sh).
typedef struct {
    float x;
    float4 v;
    struct {
        uchar a;
        int b[3];
    } inner;
} Params;

typedef struct {
    float3 pos;
    float mass;
} Particle;

kernel void apply(Params p, global Particle *out)
{
    const int i = get_global_id(0);
    out[i].pos = (float3)(p.x + i, p.v.y, p.inner.b[2]);
    out[i].mass += p.inner.a * 0.5f + i;
}
