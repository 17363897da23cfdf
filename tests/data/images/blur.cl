// A box blur shaped after the Khronos OpenCL-SDK's blur sample: RGBA/UNSIGNED_INT8 images read without a
// sampler, the neighbours inside the image averaged with rounding; and the same with a sampler argument
// and read_imagef, as filters that take normalized images do.
kernel void blur_box(read_only image2d_t input_image, write_only image2d_t output_image, int size)
{
    const int width = get_image_width(input_image);
    const int height = get_image_height(input_image);
    const int2 coord = {get_global_id(0), get_global_id(1)};
    uint4 sum = 0;
    uint num = 0;
    for (int dy = -size; dy <= size; ++dy) {
        for (int dx = -size; dx <= size; ++dx) {
            const int2 at = coord + (int2)(dx, dy);
            if (at.x >= 0 && at.x < width && at.y >= 0 && at.y < height) {
                ++num;
                sum += read_imageui(input_image, at);
            }
        }
    }
    write_imageui(output_image, coord, (sum + num / 2) / num);
}

kernel void blur_sampled(read_only image2d_t input_image, sampler_t sampler, write_only image2d_t output_image,
                         int size)
{
    const int2 coord = {get_global_id(0), get_global_id(1)};
    float4 sum = 0.0f;
    for (int dy = -size; dy <= size; ++dy) {
        for (int dx = -size; dx <= size; ++dx)
            sum += read_imagef(input_image, sampler, coord + (int2)(dx, dy));
    }
    write_imagef(output_image, coord, sum / (float)((2 * size + 1) * (2 * size + 1)));
}
