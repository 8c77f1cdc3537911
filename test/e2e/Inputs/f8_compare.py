"""Compares f8 results within one f8 ulp: usage f8_compare.py GOT WANT NAME.

Both are '|V1' .npy files of one f8 type's bits. Adjacent bit patterns of
one sign are adjacent values (ulp steps) in every f8 format, so the
distance of two finite results is the difference of their bits when their
signs agree (and both are within one ulp of zero otherwise). Prints
"NAME: ok within 1 ulp" or the worst element.
"""
import sys

import numpy as np

got = np.load(sys.argv[1]).view(np.uint8).astype(np.int32).ravel()
want = np.load(sys.argv[2]).view(np.uint8).astype(np.int32).ravel()
name = sys.argv[3]
signed_got = np.where(got & 0x80, -(got & 0x7F), got)
signed_want = np.where(want & 0x80, -(want & 0x7F), want)
dist = np.abs(signed_got - signed_want)
worst = int(np.argmax(dist))
if got.shape == want.shape and dist.max() <= 1:
    print("%s: ok within 1 ulp (%d of %d exact)" %
          (name, int((dist == 0).sum()), dist.size))
else:
    print("%s: MISMATCH at %d: %02x vs %02x" %
          (name, worst, got[worst], want[worst]))
    sys.exit(1)
