"""Compares DIR_A/result<i>.npy with DIR_B/result<i>.npy for i < COUNT.

Usage: compare_results.py DIR_A DIR_B COUNT RTOL
Prints "<COUNT> results match (relative tolerance <RTOL>)" or, for each
result beyond the tolerance, its largest relative error; exits 1 then.
"""
import os
import sys

import numpy as np


def main():
    a_dir, b_dir, count, rtol = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    bad = 0
    for i in range(count):
        a = np.load(os.path.join(a_dir, f"result{i}.npy"))
        b = np.load(os.path.join(b_dir, f"result{i}.npy"))
        if a.shape != b.shape:
            print(f"result {i}: shapes differ {a.shape} vs {b.shape}")
            bad += 1
            continue
        scale = max(float(np.max(np.abs(a))), 1e-30)
        err = float(np.max(np.abs(a.astype(np.float64) - b))) / scale
        if err > rtol:
            print(f"result {i}: relative error {err:.3g} > {rtol:g}")
            bad += 1
    if bad:
        sys.exit(1)
    print(f"{count} results match (relative tolerance {rtol:g})")


if __name__ == "__main__":
    main()
