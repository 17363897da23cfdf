// The kernels of a program built from two sources (issue 14): `clscope-cli run main.cl helpers.cl` passes
// both to clCreateProgramWithSource, `--link` compiles each and links them. scale() is in helpers.cl.
float scale(float x, float k);

kernel void scaled(global const float *in, global float *out, float k)
{
    const size_t i = get_global_id(0);
    out[i] = scale(in[i], k);
}
