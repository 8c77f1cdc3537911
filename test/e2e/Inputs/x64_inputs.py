"""Writes the inputs of the 64-bit integer e2e tests to DIR: NAME.npy (s64,
u64 or f32), for the interpreter and tpuc-run alike (the executable holds a
64-bit array as its 32-bit words; tpuc-run splits and joins them).

usage: x64_inputs.py DIR

a, b: s64[16, 16], every pair of 16 values that exercise the carries and
the sign bit (0, +-1, INT64_MIN/MAX, 2^32 - 1, 2^32, 2^31, -2^32, ...);
s: shift amounts (0, 1, 31, 32, 33, 63, 64, 65, -1, 2^32, ...) along dim 1;
f: f32[16, 16] for the float to 64-bit converts (NaN, +-inf, +-2^63, 2^64,
fractions, the u32/u64 word boundaries).
"""
import sys

import numpy as np

out = sys.argv[1]
vals = [0, 1, -1, -(2**63), 2**63 - 1, 2**32 - 1, 2**32, 2**31, -(2**32),
        -(2**31) - 1, 0x923456789ABCDEF0 - 2**64, 0x0FEDCBA987654321,
        0x00000001FFFFFFFF, 0x7FFFFFFF00000000, -12345678901, 97]
a = np.array([[v for _ in vals] for v in vals], np.int64)
b = np.array([vals for _ in vals], np.int64)
shifts = [0, 1, 31, 32, 33, 63, 64, 65, 100, -1, 2**32, 2**32 + 1, 7, 40,
          62, -(2**63)]
s = np.array([shifts for _ in vals], np.int64)
fv = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.0**31, 2.0**32, 3.0e9, -3.0e9,
      2.0**63, -(2.0**63), 2.0**64, 1.0e19, -9.3e18, 123456789.0]
fspecial = [np.nan, np.inf, -np.inf, 2.0**62, -(2.0**62), 4294967295.0,
            2.0**33 + 2.0**10, -1.0e20, 1.0e-3, 7.9e18, 1.7e19, 16777217.0,
            -16777216.0, 2.0**40, 9.0e15, -1.0]
f = np.array([fv] * 8 + [fspecial] * 8, np.float32)
for name, arr in [("a", a), ("b", b), ("s", s), ("f", f)]:
    np.save("%s/%s.npy" % (out, name), arr)
