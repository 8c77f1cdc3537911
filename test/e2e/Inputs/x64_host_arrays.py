"""x64-host-arrays.hlo's inputs and comparisons.

usage: x64_host_arrays.py DIR [--given]

Without --given: compares DIR/got and DIR/want (the random-input run) and
writes the given inputs DIR/a.npy (s64[3,5] across the word boundaries),
DIR/i.npy (u64[4], 0 and 2^63 among them) and DIR/a32.npy (s32, refused).
With --given: compares DIR/got2 and DIR/want2. Prints
"<kind> <name> <dtype> <shape> exact|MISMATCH" per result; exit 1 on a
mismatch.
"""
import sys

import numpy as np

out = sys.argv[1]
given = "--given" in sys.argv
ok = True


def compare(kind, got, want):
    global ok
    for name in ("s", "j"):
        g = np.load("%s/%s.npy" % (got, name))
        w = np.load("%s/%s.npy" % (want, name))
        same = g.dtype == w.dtype and g.shape == w.shape and (g == w).all()
        ok &= bool(same)
        print(kind, name, g.dtype, g.shape, "exact" if same else "MISMATCH")


if given:
    compare("given", out + "/got2", out + "/want2")
else:
    compare("random", out + "/got", out + "/want")
    a = np.array([0, 1, -1, 2**31, -(2**31) - 1, 2**32 - 1, 2**33 + 5,
                  -(2**40), 2**62, -(2**63), 2**63 - 1, 12345678901,
                  -7, 4294967295, 65536], np.int64).reshape(3, 5)
    np.save(out + "/a.npy", a)
    np.save(out + "/i.npy", np.array([0, 1, 2**63, 2**64 - 1], np.uint64))
    np.save(out + "/a32.npy", np.zeros((3, 5), np.int32))
sys.exit(0 if ok else 1)
