"""Compares tpuc-run's results with tpuc interpret's bit for bit.

usage: rng_compare.py GOT_DIR WANT_DIR N_RESULTS

Results are result<i>.npy. A u64/s64 result of the interpreter is compared
as its u32 words, planar [2, ...] (the low words, then the high words), the
form the executable returns it in (tpuc-expand-x64); bf16 results compare as
16-bit words. Prints one line per result; exit 1 on any difference.
"""
import sys

import numpy as np

got_dir, want_dir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
ok = True
for i in range(count):
    got = np.load("%s/result%d.npy" % (got_dir, i))
    want = np.load("%s/result%d.npy" % (want_dir, i))
    if want.dtype.itemsize == 8:
        want = np.moveaxis(want.reshape(want.shape + (1,)).view(np.uint32),
                           -1, 0)
    same = (got.shape == want.shape and
            got.dtype.itemsize == want.dtype.itemsize and
            got.tobytes() == want.tobytes())
    ok &= same
    print("result%d: %s shape=%s" % (i, "exact" if same else "MISMATCH",
                                      list(want.shape)))
sys.exit(0 if ok else 1)
