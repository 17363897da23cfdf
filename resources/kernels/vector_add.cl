// Vector addition: c[i] = a[i] + b[i]. The "hello world" of OpenCL.
// The launch below fills the Arguments panel (and `clscope-cli run` without --global): c = i + 2.
// clscope-run: --kernel vector_add --global 1024 --arg a=buffer:float:1024:iota --arg b=buffer:float:1024:fill=2
// clscope-run: --arg c=buffer:float:1024:zeros --arg n=uint:1024 --print c
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
