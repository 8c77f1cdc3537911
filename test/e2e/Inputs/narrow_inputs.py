"""Writes the inputs of test/e2e/int-narrow.mlir to DIR: a, b (s32[16, 16],
every pair of 16 values around the 8- and 16-bit limits: 0, +-1, 127, -128,
128, 255, 256, 32767, -32768, 65535, ...), s (s32 shift amounts 0 to 17 and
-1) and f (f32: fractions, values past the 8- and 16-bit ranges, NaN, inf).

usage: narrow_inputs.py DIR
"""
import sys

import numpy as np

out = sys.argv[1]
vals = [0, 1, -1, 127, -128, 128, 255, 256, 32767, -32768, 65535, 100, -100,
        200, 1000, 40000]
a = np.array([[v for _ in vals] for v in vals], np.int32)
b = np.array([vals for _ in vals], np.int32)
shifts = [0, 1, 3, 7, 8, 9, 15, 16, 17, -1, 2, 4, 5, 6, 12, 31]
s = np.array([shifts for _ in vals], np.int32)
fv = [0.5, -0.5, 127.9, -128.9, 200.0, 255.5, 256.0, -1.5, 32767.5,
      -40000.0, 70000.0, np.nan, np.inf, -np.inf, 3.0, -7.9]
f = np.array([fv for _ in vals], np.float32)
for name, arr in [("a", a), ("b", b), ("s", s), ("f", f)]:
    np.save("%s/%s.npy" % (out, name), arr)
