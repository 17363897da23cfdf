// The helper of main.cl, and a kernel of its own: a program's kernels come from every source.
float scale(float x, float k)
{
    return x * k + 1.0f;
}

kernel void offset(global float *data, float by)
{
    data[get_global_id(0)] += by;
}
