"""Writes the f16 test inputs (f16.mlir, f16-entry.mlir) to DIR.

a.npy, b.npy: f16[16,16], every pair of 16 values at the f16 limits
(a[i, j] = v[i], b[i, j] = v[j]): 0, -0, 1, -1.5, 65504, -65504, 2^-24,
-2^-24, 2^-14, 1023 * 2^-24 (the largest subnormal), 0.1, 1/3, 2049 -> 2048,
inf, -inf, NaN.
f.npy: f32[16,16], values to round to f16: 65504, 65519.996, 65520 (-> inf),
2^-24, 2^-25 (a tie -> 0), 2^-25 above it, 3 * 2^-25 and 5 * 2^-25 (subnormal
ties -> even), 1 + 2^-11 and 1 + 3 * 2^-11 (ties), 2^-14 less 2^-26, NaN, -0,
f32 subnormals, then random values from 2^-30 to 2^17.
x.npy: f32[8,128] random values for dot, convolution and reduce.
"""
import sys

import numpy as np

out = sys.argv[1]
v = np.array([0.0, -0.0, 1.0, -1.5, 65504.0, -65504.0, 2.0**-24, -2.0**-24,
              2.0**-14, 1023 * 2.0**-24, 0.1, 1.0 / 3, 2049.0, np.inf,
              -np.inf, np.nan], dtype=np.float16)
np.save(out + "/a.npy", np.repeat(v[:, None], 16, axis=1))
np.save(out + "/b.npy", np.repeat(v[None, :], 16, axis=0))
edge = np.array([65504.0, 65519.996, 65520.0, -65520.0, 2.0**-24, 2.0**-25,
                 2.0**-25 * (1 + 2.0**-20), 3 * 2.0**-25, 5 * 2.0**-25,
                 -5 * 2.0**-25, 1 + 2.0**-11, 1 + 3 * 2.0**-11,
                 2.0**-14 - 2.0**-26, np.nan, -0.0, 1e-40, -3e-39, np.inf],
                dtype=np.float32)
rng = np.random.default_rng(16)
rand = (rng.standard_normal(256) *
        2.0**rng.integers(-30, 17, 256)).astype(np.float32)
f = np.concatenate([edge, rand[edge.size:]]).reshape(16, 16)
np.save(out + "/f.npy", f)
np.save(out + "/x.npy", rng.standard_normal((8, 128)).astype(np.float32))
