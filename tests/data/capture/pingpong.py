# A ping-pong pipeline for range replay: two buffers, one kernel whose output is the next launch's input,
# six launches alternating the buffers, and one write of the program's own between the third and the
# fourth launch (what a range replay must take from the capture rather than from the launch before).
import sys

import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
program = cl.Program(ctx, """
__kernel void relax(__global const float *src, __global float *dst, float scale)
{
    const int i = get_global_id(0);
    dst[i] = src[i] * scale + (float)(i % 7);
}
""").build()
n = 4096
a = np.arange(n, dtype=np.float32)
mf = cl.mem_flags
buf_a = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
buf_b = cl.Buffer(ctx, mf.READ_WRITE, a.nbytes)
bufs = [buf_a, buf_b]
for k in range(6):
    if k == 3:
        cl.enqueue_copy(queue, bufs[k % 2], np.full(n, 2.0, dtype=np.float32))
    program.relax(queue, (n,), None, bufs[k % 2], bufs[(k + 1) % 2], np.float32(0.5))
out = np.empty_like(a)
cl.enqueue_copy(queue, out, bufs[0])
queue.finish()
print("checksum", float(out.sum()))
sys.exit(0)
