// One error (undeclared identifier) and nothing else.
__kernel void broken(__global float *out, int n)
{
    out[get_global_id(0)] = x + 1.0f;
}
