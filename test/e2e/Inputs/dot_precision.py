"""Inputs and an exact reference for test/e2e/dot-precision.mlir.

usage: dot_precision.py inputs DIR M K N
         writes DIR/x.npy (f32[M,K]) and DIR/w.npy (f32[K,N]), uniform [-1,1)
       dot_precision.py check DIR RESULT.npy MAX_ULPS
         compares RESULT with x @ w computed in float64 and prints the
         largest error in f32 ulps of the largest |x @ w| and relative to it;
         exit status 1 when the error exceeds MAX_ULPS

The reference interpreter computes an f32 dot in f32, so against it even an
exact product shows its summation error; float64 shows what each MXU
precision itself loses.
"""
import sys

import numpy as np


def main():
    if sys.argv[1] == "inputs":
        out, m, k, n = sys.argv[2], *map(int, sys.argv[3:6])
        rng = np.random.default_rng(1234)
        np.save(f"{out}/x.npy", rng.uniform(-1, 1, (m, k)).astype(np.float32))
        np.save(f"{out}/w.npy", rng.uniform(-1, 1, (k, n)).astype(np.float32))
        return
    directory, result, max_ulps = sys.argv[2], sys.argv[3], float(sys.argv[4])
    x = np.load(f"{directory}/x.npy").astype(np.float64)
    w = np.load(f"{directory}/w.npy").astype(np.float64)
    exact = x @ w
    got = np.load(result).astype(np.float64)
    scale = float(np.abs(exact).max())
    ulp = 2.0 ** (np.floor(np.log2(scale)) - 23)
    err = float(np.abs(got - exact).max())
    ulps = err / ulp
    good = ulps <= max_ulps
    print(f"{'ok' if good else 'TOO BIG'}: max_abs={err:.3g} "
          f"max_rel={err / scale:.3g} ulps={ulps:.1f} (tolerance {max_ulps:g})")
    sys.exit(0 if good else 1)


main()
