#!/usr/bin/env python3
# Writes the .npy fixtures of tests/data/structs with NumPy (Debian's python3-numpy): run it in this
# folder to regenerate them.
import numpy as np

# Complex numbers for complex.cl.
np.save('complex64.npy', np.array([1 + 2j, 3 - 1j, -0.5j], np.complex64))
np.save('complex128.npy', np.array([1 + 2j], np.complex128))
