#!/usr/bin/env python3
# pyopencl's answer for tst_cli_hotspot: hotspot.cl's Rodinia-shaped kernel run by pyopencl on the grid of
# temp_64.npy and power_64.npy, its temp_dst saved as OUTDIR/temp_dst.npy for the test to compare with
# clscope-cli's --save. The sizes are Rodinia's host's: local BLOCK_SIZE x BLOCK_SIZE, global
# ceil(grid / (BLOCK_SIZE - 2 * iteration)) * BLOCK_SIZE per axis; the result is also checked against a
# numpy model of `iteration` whole-grid steps (float64, within float32 rounding).
# Usage: pyopencl_hotspot.py PLATFORM OUTDIR NAME=VALUE... (PLATFORM: a part of the platform's name:
# pocl, oclgrind; the scalars the test passes clscope-cli: iteration, grid_cols, grid_rows, border_cols,
# border_rows, Cap, Rx, Ry, Rz, step, as the same text).
#        pyopencl_hotspot.py --make-inputs  (writes temp_64.npy and power_64.npy next to this script)
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
BLOCK_SIZE = 16
AMBIENT_TEMP = 80.0


def make_inputs():
    # A 64 x 64 chip of the temperatures and powers Rodinia's inputs have: about 320-345 K, a few hot
    # units drawing up to about 2 W per cell.
    rng = np.random.default_rng(14)
    y, x = np.mgrid[0:64, 0:64].astype(np.float64)
    temp = 323.0 + 12.0 * np.exp(-((x - 20) ** 2 + (y - 40) ** 2) / 300.0) + rng.uniform(0.0, 4.0, (64, 64))
    power = np.zeros((64, 64))
    for cx, cy, w, p in ((20, 40, 6, 2.0), (48, 12, 4, 1.5), (50, 52, 8, 0.8)):
        power += p * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2.0 * w * w))
    power += rng.uniform(0.0, 0.05, (64, 64))
    np.save(os.path.join(here, 'temp_64.npy'), temp.astype(np.float32))
    np.save(os.path.join(here, 'power_64.npy'), power.astype(np.float32))


def model(temp, power, steps, Cap, Rx, Ry, Rz, step):
    t = temp.astype(np.float64)
    p = power.astype(np.float64)
    for _ in range(steps):
        north = np.vstack([t[:1], t[:-1]])
        south = np.vstack([t[1:], t[-1:]])
        west = np.hstack([t[:, :1], t[:, :-1]])
        east = np.hstack([t[:, 1:], t[:, -1:]])
        t = t + step / Cap * (p + (south + north - 2.0 * t) / Ry + (east + west - 2.0 * t) / Rx +
                              (AMBIENT_TEMP - t) / Rz)
    return t


def main():
    if sys.argv[1:] == ['--make-inputs']:
        make_inputs()
        return
    import pyopencl as cl

    wanted, outdir = sys.argv[1].lower(), sys.argv[2]
    values = dict(a.split('=', 1) for a in sys.argv[3:])
    ints = {k: np.int32(int(values[k])) for k in ('iteration', 'grid_cols', 'grid_rows', 'border_cols',
                                                  'border_rows')}
    # numpy rounds the text to float32 as the C library does: the same bits clscope-cli passes.
    floats = {k: np.float32(values[k]) for k in ('Cap', 'Rx', 'Ry', 'Rz', 'step')}
    device = next(d for p in cl.get_platforms() if wanted in (p.name + ' ' + p.vendor).lower()
                  for d in p.get_devices())
    context = cl.Context([device])
    queue = cl.CommandQueue(context)
    temp = np.load(os.path.join(here, 'temp_64.npy'))
    power = np.load(os.path.join(here, 'power_64.npy'))
    rows, cols = temp.shape
    assert (rows, cols) == (ints['grid_rows'], ints['grid_cols']) and power.shape == temp.shape
    with open(os.path.join(here, 'hotspot.cl')) as f:
        program = cl.Program(context, f.read()).build()
    mf = cl.mem_flags
    power_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=power)
    src_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=temp)
    dst = np.zeros_like(temp)
    dst_buf = cl.Buffer(context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=dst)
    inner = BLOCK_SIZE - 2 * int(ints['iteration'])
    global_size = (-(-cols // inner) * BLOCK_SIZE, -(-rows // inner) * BLOCK_SIZE)
    program.hotspot(queue, global_size, (BLOCK_SIZE, BLOCK_SIZE), ints['iteration'], power_buf, src_buf,
                    dst_buf, ints['grid_cols'], ints['grid_rows'], ints['border_cols'], ints['border_rows'],
                    floats['Cap'], floats['Rx'], floats['Ry'], floats['Rz'], floats['step'])
    cl.enqueue_copy(queue, dst, dst_buf)
    queue.finish()
    expected = model(temp, power, int(ints['iteration']),
                     *(float(floats[k]) for k in ('Cap', 'Rx', 'Ry', 'Rz', 'step')))
    worst = float(np.max(np.abs(dst - expected)))
    if worst > 2e-4:
        sys.exit('the kernel is off the numpy model by %g K' % worst)
    np.save(os.path.join(outdir, 'temp_dst.npy'), dst.reshape(-1))
    print(device.name)
    print('global %d,%d' % global_size)
    print('model %g' % worst)


main()
