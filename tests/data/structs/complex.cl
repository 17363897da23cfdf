// pyopencl's complex numbers (pyopencl-complex.h, from the folder of the installed pyopencl, as pyopencl
// adds it to every build): cfloat_t scalars and buffers.
#include <pyopencl-complex.h>

__kernel void scale(__global const cfloat_t *a, cfloat_t s, __global cfloat_t *out)
{
    const int i = get_global_id(0);
    out[i] = cfloat_add(cfloat_mul(a[i], s), cfloat_fromreal((float)i));
}

__kernel void magnitude(__global const cfloat_t *a, __global float *out)
{
    const int i = get_global_id(0);
    out[i] = cfloat_abs(a[i]);
}
