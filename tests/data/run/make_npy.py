#!/usr/bin/env python3
# Writes the .npy fixtures of tests/data/run without NumPy, byte for byte as numpy.save (format 1.0, data
# aligned to 64 bytes) would: run it in this folder to regenerate them.
import struct


def save(path, descr, shape, values, fortran=False):
    fmt = {'<f4': '<f', '>f4': '>f', '<f8': '<d', '<i8': '<q', '|u1': 'B', '<i4': '<i'}[descr]
    dims = ', '.join(str(d) for d in shape) + (',' if len(shape) == 1 else '')
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (descr, fortran, dims)
    padding = 64 - (8 + 2 + len(header) + 1) % 64
    header = header + ' ' * padding + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode('latin1'))
        f.write(b''.join(struct.pack(fmt, v) for v in values))


save('iota_f4.npy', '<f4', (8,), [float(i) for i in range(8)])
save('mat_f4.npy', '<f4', (2, 4), [float(i) for i in range(8)])
save('vec3_f4.npy', '<f4', (4, 3), [float(i) for i in range(12)])
save('long_i8.npy', '<i8', (4,), [-2**63, 2**63 - 1, 9007199254740993, -1])
save('fortran_f4.npy', '<f4', (2, 4), [float(i) for i in range(8)], fortran=True)
save('bigendian_f4.npy', '>f4', (8,), [float(i) for i in range(8)])
save('double_f8.npy', '<f8', (8,), [i * 0.5 for i in range(8)])
with open('bytes16.bin', 'wb') as f:
    f.write(bytes(range(16)))
