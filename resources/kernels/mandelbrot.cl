// Mandelbrot set: iteration counts for a width x height grid over [-2.5, 1] x [-1, 1].
// clscope-run: --kernel mandelbrot --global 512,512 --arg iterations=buffer:uint:262144:zeros
// clscope-run: --arg width=uint:512 --arg height=uint:512 --arg max_iter=uint:256 --print iterations
__kernel void mandelbrot(__global uint *iterations, const uint width, const uint height, const uint max_iter)
{
    const uint x = get_global_id(0);
    const uint y = get_global_id(1);
    if (x >= width || y >= height)
        return;

    const float cr = -2.5f + 3.5f * (float)x / (float)width;
    const float ci = -1.0f + 2.0f * (float)y / (float)height;
    float zr = 0.0f, zi = 0.0f;
    uint i = 0;
    while (i < max_iter && zr * zr + zi * zi <= 4.0f) {
        const float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++i;
    }
    iterations[y * width + x] = i;
}
