#include "config.h"

// Builds cleanly: the cache and CLI tests copy it with config.h and change the header.
__kernel void scale(__global float *data, float factor)
{
    const size_t i = get_global_id(0);
    data[i] = data[i] * factor + OFFSET;
}
