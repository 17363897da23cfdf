// A kernel whose answer depends on the device: native_ functions have implementation-defined precision, so
// two drivers may differ in the last digits of a few elements (the user guide's Run on all devices picture).
// clscope-run: --kernel waves --global 4096 --arg x=buffer:float:4096:random=7 --arg y=buffer:float:4096:zeros --arg n=uint:4096 --print y
__kernel void waves(__global const float *x, __global float *y, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n)
        y[i] = native_sin(x[i] * 40.0f) * native_exp(x[i] * 3.0f) + native_recip(x[i] + 0.1f);
}
