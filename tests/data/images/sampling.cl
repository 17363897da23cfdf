// Image reads for tst_images: every pixel copied with the read and write of its channel type (a round
// trip of the format), the image read through a sampler at given coordinates (against a host reference of
// the OpenCL sampling rules), and each image type read into a buffer.
kernel void copy_image(read_only image2d_t src, write_only image2d_t dst)
{
    const int2 at = {get_global_id(0), get_global_id(1)};
    switch (get_image_channel_data_type(src)) {
    case CLK_SIGNED_INT8:
    case CLK_SIGNED_INT16:
    case CLK_SIGNED_INT32:
        write_imagei(dst, at, read_imagei(src, at));
        break;
    case CLK_UNSIGNED_INT8:
    case CLK_UNSIGNED_INT16:
    case CLK_UNSIGNED_INT32:
        write_imageui(dst, at, read_imageui(src, at));
        break;
    default:
        write_imagef(dst, at, read_imagef(src, at));
    }
}

kernel void sample(read_only image2d_t img, sampler_t s, global const float2 *coords, global float4 *out)
{
    const size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}

kernel void read_1d(read_only image1d_t src, global float4 *out)
{
    out[get_global_id(0)] = read_imagef(src, (int)get_global_id(0));
}

kernel void read_1d_buffer(read_only image1d_buffer_t src, global float4 *out)
{
    out[get_global_id(0)] = read_imagef(src, (int)get_global_id(0));
}

kernel void read_1d_array(read_only image1d_array_t src, global float4 *out)
{
    const int x = get_global_id(0), layer = get_global_id(1);
    out[layer * get_global_size(0) + x] = read_imagef(src, (int2)(x, layer));
}

kernel void read_2d_array(read_only image2d_array_t src, global float4 *out)
{
    const int x = get_global_id(0), y = get_global_id(1), layer = get_global_id(2);
    out[(layer * get_global_size(1) + y) * get_global_size(0) + x] = read_imagef(src, (int4)(x, y, layer, 0));
}

kernel void read_3d(read_only image3d_t src, global float4 *out)
{
    const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagef(src, (int4)(x, y, z, 0));
}

// A sampler written in the source (the debugger shows its settings as they are written here).
kernel void sample_nearest(read_only image2d_t img, global const float2 *coords, global float4 *out)
{
    const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    out[get_global_id(0)] = read_imagef(img, nearest, coords[get_global_id(0)]);
}
