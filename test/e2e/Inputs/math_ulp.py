"""Compares tpuc-run's results with tpuc interpret's in ulp, output by output.

usage: math_ulp.py GOT_DIR WANT_DIR TOLERANCE...

One TOLERANCE per result<i>.npy: MAX_ULP (error in units in the last place
of the interpreter's value, in the result's own type: f32, bf16 or exact
s32 equality with 0) or abs:MAX_ABS (absolute error, for results whose
ulp is meaningless, such as sin of a huge argument). NaN must be NaN and
an infinity the same infinity. Prints per result the max error, where it
happens, and "ok" or "MISMATCH"; exit status 1 on any mismatch. bf16
results (2-byte '<V2' elements) are widened to f32 exactly.
"""
import sys

import numpy as np


def load(path):
    a = np.load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        bits = a.reshape(-1).view(np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).reshape(a.shape), "bf16"
    return a, str(a.dtype)


def ulp_of(want, kind):
    """The spacing of the type's floats at |want| (the subnormal spacing
    below the smallest normal)."""
    w = np.abs(want.astype(np.float32))
    spacing = np.spacing(w).astype(np.float64)
    if kind == "bf16":
        spacing *= 2.0**16
    return spacing


def compare(got, want, kind, tol):
    if kind.startswith("int"):
        bad = got != want
        return int(bad.sum()), 0.0, bad, tol == "0"
    with np.errstate(invalid="ignore", divide="ignore"):
        return _compare_floats(got, want, kind, tol)


def _compare_floats(got, want, kind, tol):
    g, w = got.astype(np.float64), want.astype(np.float64)
    nan_w, nan_g = np.isnan(w), np.isnan(g)
    inf_w = np.isinf(w)
    special_bad = (nan_w != nan_g) | (inf_w & (g != w)) | (~inf_w & np.isinf(g))
    finite = ~nan_w & ~inf_w & ~np.isinf(g) & ~nan_g
    err = np.zeros_like(w)
    if tol.startswith("abs:"):
        err[finite] = np.abs(g - w)[finite]
        limit = float(tol[4:])
    else:
        err[finite] = (np.abs(g - w) / ulp_of(w, kind))[finite]
        limit = float(tol)
    return int(special_bad.sum()), float(err.max()) if err.size else 0.0, \
        special_bad | (err > limit), None


def main():
    got_dir, want_dir, tols = sys.argv[1], sys.argv[2], sys.argv[3:]
    ok = True
    for i, tol in enumerate(tols):
        got, kind = load(f"{got_dir}/result{i}.npy")
        want, _ = load(f"{want_dir}/result{i}.npy")
        if got.shape != want.shape:
            print(f"result{i}: MISMATCH shape {got.shape} vs {want.shape}")
            ok = False
            continue
        specials, err, bad, int_ok = compare(got.ravel(), want.ravel(), kind, tol)
        good = not bad.any()
        ok &= good
        unit = "abs" if tol.startswith("abs:") else "ulp"
        where = ""
        if bad.any():
            j = int(np.argmax(bad))
            where = f" first bad at flat index {j}: got {got.ravel()[j]!r} want {want.ravel()[j]!r}"
        status = "ok" if good else "MISMATCH"
        if kind.startswith("int"):
            summary = f"mismatches={specials}"
        else:
            summary = (f"max_{unit}={err:.3g} (tolerance {tol.removeprefix('abs:')}) "
                       f"special_mismatches={specials}")
        print(f"result{i}: {status} {kind} {summary}{where}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
