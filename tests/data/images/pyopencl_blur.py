#!/usr/bin/env python3
# pyopencl's answer for tst_cli_images: blur.cl's two kernels run by pyopencl on picture.png (read with
# PIL), the outputs saved as .npy for the test to compare with clscope-cli's --save.
# Usage: pyopencl_blur.py PLATFORM OUTDIR (PLATFORM: a part of the platform's name: pocl, oclgrind).
import os
import sys

import numpy as np
import pyopencl as cl
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
wanted, outdir = sys.argv[1].lower(), sys.argv[2]
device = next(d for p in cl.get_platforms() if wanted in (p.name + ' ' + p.vendor).lower() for d in p.get_devices())
context = cl.Context([device])
queue = cl.CommandQueue(context)
picture = np.ascontiguousarray(np.asarray(Image.open(os.path.join(here, 'picture.png')).convert('RGBA')))
height, width = picture.shape[:2]
with open(os.path.join(here, 'blur.cl')) as f:
    program = cl.Program(context, f.read()).build()
mf = cl.mem_flags


def run(kernel, channel_type, extra, size):
    fmt = cl.ImageFormat(cl.channel_order.RGBA, channel_type)
    src = cl.Image(context, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(width, height), hostbuf=picture)
    dst = cl.Image(context, mf.WRITE_ONLY, fmt, shape=(width, height))
    args = [src] + extra + [dst, np.int32(size)]
    getattr(program, kernel)(queue, (width, height), None, *args)
    out = np.empty_like(picture)
    cl.enqueue_copy(queue, out, dst, origin=(0, 0), region=(width, height))
    queue.finish()
    return out


box = run('blur_box', cl.channel_type.UNSIGNED_INT8, [], 1)
sampler = cl.Sampler(context, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
sampled = run('blur_sampled', cl.channel_type.UNORM_INT8, [sampler], 2)
np.save(os.path.join(outdir, 'box.npy'), box)
np.save(os.path.join(outdir, 'sampled.npy'), sampled)
print(device.name)
