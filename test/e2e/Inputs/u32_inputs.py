"""Writes the inputs of test/e2e/int-u32.mlir to DIR: a, b (u32[16, 16],
every pair of 16 values around the sign bit and the ends: 0, 1, 2, 7,
2^31 - 1, 2^31, 2^31 + 1, 2^32 - 2, 2^32 - 1, 3e9, 4e9, ...; b's 0 column
divides by zero), s (u32 shift amounts 0 to 33 and 2^31, 2^32 - 1) and f
(f32: fractions, negatives, 2^31, 2^32 and past it, NaN, inf).

usage: u32_inputs.py DIR
"""
import sys

import numpy as np

out = sys.argv[1]
vals = [0, 1, 2, 7, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE,
        0xFFFFFFFF, 3000000000, 4000000000, 123456789, 0x80000005, 10,
        65536, 2147483000]
a = np.array([[v for _ in vals] for v in vals], np.uint32)
b = np.array([vals for _ in vals], np.uint32)
shifts = [0, 1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 0x80000000, 0xFFFFFFFF, 2,
          4, 30]
s = np.array([shifts for _ in vals], np.uint32)
fv = [0.5, -0.5, 2147483648.0, 4294967040.0, 4294967296.0, 5e9, -3e9,
      3000000000.0, 255.9, np.nan, np.inf, -np.inf, 1.0, 2147483520.0,
      -0.0, 16777217.0]
f = np.array([fv for _ in vals], np.float32)
for name, arr in [("a", a), ("b", b), ("s", s), ("f", f)]:
    np.save("%s/%s.npy" % (out, name), arr)
