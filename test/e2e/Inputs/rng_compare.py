"""Compares tpuc-run's results with tpuc interpret's bit for bit.

usage: rng_compare.py GOT_DIR WANT_DIR N_RESULTS

Results are result<i>.npy, of the same element type and shape on both sides
(tpuc-run writes an s64/u64 result as the 64-bit array, though the device
holds its 32-bit words: docs/executable-format.md); bf16 results compare as
16-bit words. Prints one line per result; exit 1 on any difference.
"""
import sys

import numpy as np

got_dir, want_dir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
ok = True
for i in range(count):
    got = np.load("%s/result%d.npy" % (got_dir, i))
    want = np.load("%s/result%d.npy" % (want_dir, i))
    same = (got.shape == want.shape and got.dtype == want.dtype and
            got.tobytes() == want.tobytes())
    ok &= same
    print("result%d: %s shape=%s" % (i, "exact" if same else "MISMATCH",
                                      list(want.shape)))
sys.exit(0 if ok else 1)
