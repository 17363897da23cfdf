#include "helper.h"

// Builds, with a warning here and one in the header.
__kernel void warns(__global float *out, int n)
{
    int i = get_global_id(0);
    i == n;
    out[i] = twice(1.0f);
}
