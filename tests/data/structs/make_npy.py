#!/usr/bin/env python3
# Writes the .npy fixtures of tests/data/structs with NumPy (Debian's python3-numpy): run it in this
# folder to regenerate them. The struct files use numpy's own layouts, which are not the device's:
# fields in another order and without padding, so that a reader has to match them by name.
import numpy as np

# box_str of lavamd/main.h is {int x, y, z; long number, offset} (32 bytes with padding on the device);
# here the longs come first and nothing is padded (28 bytes).
boxes = np.zeros(2, np.dtype([('offset', '<i8'), ('number', '<i8'), ('x', '<i4'), ('y', '<i4'), ('z', '<i4')]))
boxes['x'] = [1, 4]
boxes['y'] = [2, 5]
boxes['z'] = [3, 6]
boxes['number'] = [2, 3]
boxes['offset'] = [0, 2]
np.save('boxes.npy', boxes)

# FOUR_VECTOR {v, x, y, z}: positions (v unused) of 5 particles.
rv = np.zeros(5, np.dtype([('x', '<f4'), ('y', '<f4'), ('z', '<f4'), ('v', '<f4')]))
rv['x'] = [0, 1, 0, 2, 0]
rv['y'] = [0, 0, 1, 0, 2]
rv['z'] = [0, 0, 0, 1, 1]
np.save('rv.npy', rv)

# A field box_str does not have, and one of the wrong type.
np.save('boxes_extra.npy', np.zeros(2, np.dtype([('x', '<i4'), ('w', '<i4')])))
np.save('boxes_double.npy', np.zeros(2, np.dtype([('x', '<f8')])))

# Float3Member {float3 pos; float w} of layouts.cl with pos as 3 floats, and an aligned numpy dtype.
m = np.zeros(2, np.dtype([('w', '<f4'), ('pos', '<f4', (3,))], align=True))
m['pos'] = [[1, 2, 3], [4, 5, 6]]
m['w'] = [7, 8]
np.save('float3member.npy', m)

# Complex numbers for complex.cl.
np.save('complex64.npy', np.array([1 + 2j, 3 - 1j, -0.5j], np.complex64))
np.save('complex128.npy', np.array([1 + 2j], np.complex128))
