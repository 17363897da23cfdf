kernel void img(read_only image2d_t in, __write_only image2d_t out, image3d_t def, read_write image1d_t rw, sampler_t s) {}
