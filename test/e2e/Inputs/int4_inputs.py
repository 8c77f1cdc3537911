"""Writes the inputs of test/e2e/int4.hlo and int4-quantized-matmul.hlo to
DIR. numpy has no 4-bit integers: s4 arrays are int8 .npy files with values
in [-8, 7], u4 arrays uint8 ones in [0, 15].

  a, b (s4[16,16]): every pair of s4 values (a[i, j] = i - 8, b = j - 8)
  u, v (u4[16,16]): every pair of u4 values
  w (s4[256,128]): seeded random weights over [-8, 7]
  x (f32[8,256]): seeded random integers in [-4, 4] (exact in bf16)
  scale (f32[128]): powers of two per output channel (exact products)
  u5 (u4[5]): 0, 15, 9, 3, 4
  bad_s4 (int8[2,3]): 8 at row-major index 4; bad_u4 (uint8[5]): 16 at 2

usage: int4_inputs.py DIR
"""
import sys

import numpy as np

out = sys.argv[1]
r = np.random.RandomState(4)

i, j = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
np.save(out + "/a.npy", (i - 8).astype(np.int8))
np.save(out + "/b.npy", (j - 8).astype(np.int8))
np.save(out + "/u.npy", i.astype(np.uint8))
np.save(out + "/v.npy", j.astype(np.uint8))
np.save(out + "/w.npy", r.randint(-8, 8, (256, 128)).astype(np.int8))
np.save(out + "/x.npy", r.randint(-4, 5, (8, 256)).astype(np.float32))
np.save(out + "/scale.npy",
        (2.0 ** r.randint(-3, 3, 128)).astype(np.float32))
np.save(out + "/u5.npy", np.array([0, 15, 9, 3, 4], np.uint8))
np.save(out + "/bad_s4.npy",
        np.array([[1, -8, 7, 0, 8, -1]], np.int8).reshape(2, 3))
np.save(out + "/bad_u4.npy", np.array([0, 15, 16, 3, 4], np.uint8))
