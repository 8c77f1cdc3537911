"""Inputs of test/e2e/f8.mlir and f8-dot-scaled.hlo.

f.npy: f32[16,16], row 0 the conversion edge values (the same for every
f8 type: zeros, ties, subnormals, the maxima of the types, overflow, inf,
NaN), the rest values from -600 to 600 spread over every binade down to
2^-20. a.npy, b.npy: f8e4m3fn[16,16] ('|V1', the bytes as ml_dtypes saves
them), every pair of 16 values (a[i, j] = V[i], b[i, j] = V[j]): +-0, the
smallest and largest subnormals, the smallest normal, +-1, 1.5, +-448, NaN,
32, 3, 0.5625, 15, 256. x.npy: f8e4m3fn[16,32], y.npy: f8e5m2[32,16], random
values of both signs from 2^-5 to 2^4; xs.npy, ys.npy, zs.npy: f32[] scales.
"""
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.RandomState(8)

edges = [0.0, -0.0, 1.0, 1.0625, 1.1875, 2.0**-9, 2.0**-10, 1.5 * 2.0**-10,
         448.0, 464.0, 465.0, -1e6, np.inf, -np.inf, np.nan, 2.0**-6]
rest = (rng.choice([-1, 1], 240) * 2.0 ** rng.uniform(-20, 9.3, 240))
f = np.concatenate([np.array(edges), rest]).astype(np.float32)
np.save(out + "/f.npy", f.reshape(16, 16))

v = np.array([0x00, 0x80, 0x01, 0x07, 0x08, 0x38, 0xB8, 0x3C, 0x7E, 0xFE,
              0x7F, 0x60, 0x44, 0x31, 0x57, 0x70], dtype=np.uint8)
np.save(out + "/a.npy", np.repeat(v[:, None], 16, 1).view("V1"))
np.save(out + "/b.npy", np.repeat(v[None, :], 16, 0).view("V1"))


def f8_bits(shape, mantissa_bits, bias):
    sign = rng.randint(0, 2, shape) << 7
    exponent = rng.randint(bias - 5, bias + 5, shape) << mantissa_bits
    mantissa = rng.randint(0, 1 << mantissa_bits, shape)
    return (sign | exponent | mantissa).astype(np.uint8)


np.save(out + "/x.npy", f8_bits((16, 32), 3, 7).view("V1"))
np.save(out + "/y.npy", f8_bits((32, 16), 2, 15).view("V1"))
np.save(out + "/xs.npy", np.float32(0.5))
np.save(out + "/ys.npy", np.float32(2.0 ** -6))
np.save(out + "/zs.npy", np.float32(0.75))
