"""Compares the result<i>.npy files of two `tpuc interpret --output-dir` runs.

usage: compare_outputs.py REF_DIR TEST_DIR (--exact | --min-cosine C --max-rel R)

--exact: every file must be byte-identical (f32 bit-identical results).
Otherwise, per output: max abs error, max error relative to the reference's
largest magnitude, and cosine similarity; fails when cosine < C or the
relative error > R. bf16 files (<V2, raw bits) are widened to f32. NaNs must match the
reference's; the other elements are compared.
Prints one line per output and exits 1 on any failure.
"""
import argparse
import glob
import os
import sys

import numpy as np


def load(path):
    a = np.load(path)
    if a.dtype == np.dtype("<V2"):  # bf16 bits
        a = (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float64) if a.dtype.kind in "fiub" else a


def main():
    p = argparse.ArgumentParser()
    p.add_argument("ref")
    p.add_argument("test")
    p.add_argument("--exact", action="store_true")
    p.add_argument("--min-cosine", type=float, default=0.999)
    p.add_argument("--max-rel", type=float, default=0.02)
    args = p.parse_args()
    files = sorted(glob.glob(os.path.join(args.ref, "result*.npy")))
    if not files:
        print("no results in", args.ref)
        return 1
    failed = False
    for ref_path in files:
        name = os.path.basename(ref_path)
        test_path = os.path.join(args.test, name)
        if args.exact:
            same = open(ref_path, "rb").read() == open(test_path, "rb").read()
            print(f"{name}: {'identical' if same else 'DIFFERENT'}")
            failed |= not same
            continue
        r, t = load(ref_path), load(test_path)
        if r.shape != t.shape:
            print(f"{name}: shape {t.shape} != {r.shape}")
            failed = True
            continue
        r, t = r.ravel(), t.ravel()
        # NaN where the reference has NaN (random inputs can make a
        # variance negative) must stay NaN; the rest is compared.
        nan_r, nan_t = np.isnan(r), np.isnan(t)
        if not np.array_equal(nan_r, nan_t):
            print(f"{name}: NaN in {int(nan_t.sum())} elements, "
                  f"reference {int(nan_r.sum())}")
            failed = True
            continue
        r, t = r[~nan_r], t[~nan_r]
        abs_err = float(np.max(np.abs(r - t))) if r.size else 0.0
        scale = float(np.max(np.abs(r))) if r.size else 0.0
        rel = abs_err / scale if scale else abs_err
        nr, nt = np.linalg.norm(r), np.linalg.norm(t)
        cos = float(np.dot(r, t) / (nr * nt)) if nr and nt else float(nr == nt)
        ok = cos >= args.min_cosine and rel <= args.max_rel
        print(f"{name}: max_abs={abs_err:.3g} max_rel={rel:.3g} "
              f"cosine={cos:.6f} nan={int(nan_r.sum())} "
              f"{'ok' if ok else 'FAIL'}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
