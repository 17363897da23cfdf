// After Rodinia's lavaMD kernel_gpu_opencl.cl: one work-group per box, par_str by value, the boxes,
// positions, charges and forces in buffers of structs (simplified: each particle's force comes from its
// own box's particles only).
#include "main.h"

__kernel void kernel_gpu_opencl(par_str d_par_gpu, __global const box_str *d_box_gpu,
                                __global const FOUR_VECTOR *d_rv_gpu, __global const fp *d_qv_gpu,
                                __global FOUR_VECTOR *d_fv_gpu, __global THREE_VECTOR *d_dist)
{
    const int bx = get_group_id(0);
    const int tx = get_local_id(0);
    const box_str box = d_box_gpu[bx];
    const fp a2 = 2.0f * d_par_gpu.alpha * d_par_gpu.alpha;
    if (tx >= box.number)
        return;
    const long i = box.offset + tx;
    FOUR_VECTOR f = {0.0f, 0.0f, 0.0f, 0.0f};
    for (long j = box.offset; j < box.offset + box.number; ++j) {
        const fp dx = d_rv_gpu[i].x - d_rv_gpu[j].x;
        const fp dy = d_rv_gpu[i].y - d_rv_gpu[j].y;
        const fp dz = d_rv_gpu[i].z - d_rv_gpu[j].z;
        const fp r2 = dx * dx + dy * dy + dz * dz;
        const fp s = d_qv_gpu[j] * (a2 * r2 + 1.0f);
        f.v += s;
        f.x += s * dx;
        f.y += s * dy;
        f.z += s * dz;
    }
    d_fv_gpu[i] = f;
    d_dist[i].x = (fp)box.x;
    d_dist[i].y = (fp)box.y;
    d_dist[i].z = (fp)box.z;
}
