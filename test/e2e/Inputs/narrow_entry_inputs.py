"""Writes the inputs of test/e2e/int-narrow-entry.mlir to DIR: a (s8[16,16]),
b (u8[16,16]), c (s16[3,130]), d (u16[3,130]), each every limit of its type
(min, min + 1, -1, 0, 1, max - 1, max) then seeded random values, and x
(s32[16,16], random over the whole range).

usage: narrow_entry_inputs.py DIR
"""
import sys

import numpy as np

out = sys.argv[1]
r = np.random.RandomState(3)


def array(dtype, shape):
    info = np.iinfo(dtype)
    edges = [info.min, info.min + 1, -1, 0, 1, info.max - 1, info.max]
    edges = [v for v in edges if info.min <= v <= info.max]
    flat = r.randint(info.min, int(info.max) + 1, int(np.prod(shape)))
    flat[:len(edges)] = edges
    return flat.astype(dtype).reshape(shape)


np.save(out + "/a.npy", array(np.int8, (16, 16)))
np.save(out + "/b.npy", array(np.uint8, (16, 16)))
np.save(out + "/c.npy", array(np.int16, (3, 130)))
np.save(out + "/d.npy", array(np.uint16, (3, 130)))
np.save(out + "/x.npy", r.randint(-2**31, 2**31, (16, 16)).astype(np.int32))
