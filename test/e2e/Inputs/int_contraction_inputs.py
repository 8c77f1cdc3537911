"""Inputs and numpy references for int-contractions.mlir.

usage: int_contraction_inputs.py OUT_DIR        writes in0.npy ... in11.npy
       int_contraction_inputs.py OUT_DIR check WANT_DIR
                                                 checks the interpreter's
                                                 results against numpy's
                                                 int64 products, wrapped

Values span each type's whole range (its ends included), so the products,
the f32 chunk sums and the s32 accumulation all reach their bounds.
"""
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(19)


def full(dtype, shape):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, size=shape, endpoint=True,
                     dtype=np.int64)
    flat = x.reshape(-1)
    flat[:4] = [info.min, info.max, info.min, info.max]
    return x.astype(dtype)


inputs = [
    full(np.int8, (8, 2100)), full(np.int8, (2100, 16)),      # s8 dot, 3 chunks
    full(np.uint8, (8, 600)), full(np.uint8, (600, 16)),      # u8 x u8, 3 chunks
    full(np.int32, (128, 600)), full(np.int32, (600, 256)),   # s32, wraps
    full(np.uint32, (8, 40)), full(np.uint32, (40, 16)),      # u32
    full(np.int16, (8, 64)), full(np.int16, (64, 16)),        # s16 -> s16
    full(np.int8, (2, 9, 9, 130)), full(np.int8, (3, 3, 130, 16)),  # conv
]

if len(sys.argv) == 2:
    for i, x in enumerate(inputs):
        np.save("%s/in%d.npy" % (out, i), x)
    sys.exit(0)


def wrap(x, dtype):
    """x (uint64 words: integers mod 2^64) as `dtype`, wrapped."""
    bits = np.iinfo(dtype).bits
    x = np.asarray(x).astype(np.uint64) & np.uint64((1 << bits) - 1)
    return x.astype(np.dtype("u%d" % (bits // 8))).view(dtype)


def mm(a, b):
    """The integer matmul mod 2^64 (numpy's uint64 matmul wraps)."""
    return a.astype(np.int64).view(np.uint64) @ b.astype(np.int64).view(np.uint64)


def conv(x, w, pad):  # NHWC x HWIO, stride 1
    x = np.pad(x.astype(np.int64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    n, h, wd, c = x.shape
    kh, kw, _, o = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    y = np.zeros((n, oh, ow, o), dtype=np.int64)
    for i in range(kh):
        for j in range(kw):
            y += np.einsum("nhwc,co->nhwo", x[:, i:i + oh, j:j + ow, :],
                           w[i, j].astype(np.int64))
    return y.view(np.uint64)


a = inputs
# Grouped convolution (feature_group_count 2) of the first 16 features.
g0 = conv(a[10][..., :8], a[11][:, :, :8, :8], 0)
g1 = conv(a[10][..., 8:16], a[11][:, :, :8, 8:16], 0)
want = [
    wrap(mm(a[0], a[1]), np.int32),
    wrap(mm(a[2], a[3]), np.int32),
    wrap(mm(a[4], a[5]), np.int32),
    wrap(mm(a[6], a[7]), np.uint32),
    wrap(mm(a[8], a[9]), np.int16),
    wrap(conv(a[10], a[11], 1), np.int32),
    wrap(np.concatenate([g0, g1], axis=-1), np.int32),
    wrap(mm(a[0], a[1]), np.int32).astype(np.float32),
    wrap(mm(a[0][:4, :8], a[1][:8, :4]), np.int8),
]
ok = True
for i, w in enumerate(want):
    got = np.load("%s/result%d.npy" % (sys.argv[3], i))
    same = got.dtype == w.dtype and got.shape == w.shape and (got == w).all()
    ok &= bool(same)
    print("numpy result%d: %s" % (i, "same" if same else "DIFFERENT"))
sys.exit(0 if ok else 1)
