"""Bit-exact comparison of tpuc-run's results with tpuc interpret's.

usage: dm-compare.py GOT_DIR WANT_DIR N_RESULTS

The results are paired by file name, as compare.py pairs them.

For data movement (transpose, reshape, gather ...) every element must be
copied unchanged, so the arrays are compared as raw bits (bf16 arrays are
saved as 2-byte void '<V2' and compared the same way). Prints per result
"ok" or "MISMATCH" with the number of differing elements and the first
differing index; exit status 1 on any mismatch.
"""
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from compare import result_files  # noqa: E402


def bits(a):
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def main():
    got_dir, want_dir, count = sys.argv[1:4]
    files = result_files(got_dir, want_dir, count)
    if files is None:
        sys.exit(1)
    ok = True
    for name, got_path, want_path in files:
        got = np.load(got_path)
        want = np.load(want_path)
        if got.shape != want.shape or got.dtype.itemsize != want.dtype.itemsize:
            print(f"{name}: MISMATCH shape {got.shape} {got.dtype} vs "
                  f"{want.shape} {want.dtype}")
            ok = False
            continue
        diff = bits(got) != bits(want)
        bad = int(diff.sum())
        if bad:
            first = tuple(int(x) for x in np.argwhere(diff)[0])
            print(f"{name}: MISMATCH shape={list(got.shape)} {bad} of "
                  f"{got.size} elements differ, first at {first}: "
                  f"got {bits(got)[first]:#x} want {bits(want)[first]:#x}")
            ok = False
        else:
            print(f"{name}: ok shape={list(got.shape)} bit-exact")
    sys.exit(0 if ok else 1)


main()
