#include "helper.h"

// Two warnings (one in the header), notes on Oclgrind, and one error.
__kernel void mixed(__global float *out)
{
    int i = get_global_id(0);
    i == 3;
    out[i] = twice(y);
}
