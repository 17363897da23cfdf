#!/usr/bin/env python3
# pyopencl's answer for the structs of these tests, for tst_structs to compare with CLScope's: the layouts
# pyopencl.tools.match_dtype_to_c_struct asks the device for (size and every field's offset), and the
# forces of the lavaMD kernel run by pyopencl on numpy structured arrays of those dtypes.
# Usage: pyopencl_check.py PLATFORM (a part of the platform's name: pocl, oclgrind). Prints one JSON object.
import json
import os
import sys

import numpy as np
import pyopencl as cl
import pyopencl.cltypes as cltypes
import pyopencl.tools as tools

here = os.path.dirname(os.path.abspath(__file__))
wanted = sys.argv[1].lower()
device = next(d for p in cl.get_platforms() if wanted in (p.name + ' ' + p.vendor).lower() for d in p.get_devices())
context = cl.Context([device])
queue = cl.CommandQueue(context)

declared = {
    'THREE_VECTOR': [('x', '<f4'), ('y', '<f4'), ('z', '<f4')],
    'FOUR_VECTOR': [('v', '<f4'), ('x', '<f4'), ('y', '<f4'), ('z', '<f4')],
    'box_str': [('x', '<i4'), ('y', '<i4'), ('z', '<i4'), ('number', '<i8'), ('offset', '<i8')],
    'par_str': [('alpha', '<f4')],
    'KParam': [('dims', '<i8', (4,)), ('strides', '<i8', (4,)), ('offset', '<i8')],
    'Float3Member': [('pos', cltypes.float3), ('w', '<f4')],
}
dtypes = {}
layouts = {}
for name, fields in declared.items():
    dtype, _ = tools.match_dtype_to_c_struct(device, name, np.dtype(fields), context)
    dtypes[name] = dtype
    layouts[name] = {
        'size': dtype.itemsize,
        'offsets': {f: dtype.fields[f][1] for f in dtype.names if not f.startswith('_pycl')},
    }


def converted(array, dtype):
    out = np.zeros(array.shape, dtype)
    for f in array.dtype.names:
        out[f] = array[f]
    return out


boxes = converted(np.load(os.path.join(here, 'boxes.npy')), dtypes['box_str'])
rv = converted(np.load(os.path.join(here, 'rv.npy')), dtypes['FOUR_VECTOR'])
qv = np.arange(1, 6, dtype=np.float32)
par = np.zeros(1, dtypes['par_str'])
par['alpha'] = 0.5
fv = np.zeros(5, dtypes['FOUR_VECTOR'])
dist = np.zeros(5, dtypes['THREE_VECTOR'])
flags = cl.mem_flags
buffers = [cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=a) for a in (boxes, rv, qv)]
fv_buffer = cl.Buffer(context, flags.READ_WRITE, fv.nbytes)
dist_buffer = cl.Buffer(context, flags.READ_WRITE, dist.nbytes)
with open(os.path.join(here, 'lavamd', 'lavamd.cl')) as f:
    program = cl.Program(context, f.read()).build(options=['-I', os.path.join(here, 'lavamd')])
program.kernel_gpu_opencl(queue, (8,), (4,), par[0], *buffers, fv_buffer, dist_buffer)
cl.enqueue_copy(queue, fv, fv_buffer)
queue.finish()
print(json.dumps({
    'device': device.name,
    'layouts': layouts,
    'lavamd_fv': [[float(r[c]) for c in ('v', 'x', 'y', 'z')] for r in fv],
}))
