"""Compares tpuc-run's results with tpuc interpret's, output by output.

usage: compare.py GOT_DIR WANT_DIR N_RESULTS MAX_REL [MIN_COS]

The results are paired by file name (tpuc-run and tpuc interpret name them
alike: after the HLO instruction, e.g. neg.48.npy, or result<i>.npy); both
directories must hold the same names, and the first N_RESULTS of them in
result order (result2 before result10) are compared. For each prints max abs error, max error relative to the
largest |want| of that output, and the cosine similarity, then "ok" or
"MISMATCH". The relative error is scaled by the output's largest
magnitude (not per element), so values near zero do not dominate.
Exit status 1 on any mismatch. bf16 results (saved as 2-byte '<V2'
elements, which numpy cannot convert) are widened to f32 exactly; f8
results ('|V1') are compared by their byte codes (equal or a mismatch).
"""
import os
import sys

import numpy as np


def load(path):
    a = np.load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        bits = a.reshape(-1).view(np.uint16).astype(np.uint32) << 16
        a = bits.view(np.float32).reshape(a.shape)
    elif a.dtype.kind == "V" and a.dtype.itemsize == 1:
        # An f8 result ('|V1': the file does not say which format): its
        # codes, so only equal bytes give no error (one code apart is
        # >= 1/255 of the largest code, above every tolerance used).
        a = a.view(np.uint8)
    return a.astype(np.float64)


def errors(got, want):
    """(max abs error, max error relative to want's largest magnitude,
    cosine similarity) of two float64 arrays of one shape."""
    abs_err = float(np.abs(got - want).max()) if got.size else 0.0
    scale = float(np.abs(want).max()) if want.size else 0.0
    rel = abs_err / scale if scale > 0 else abs_err
    denom = np.linalg.norm(got) * np.linalg.norm(want)
    cos = float(got.ravel() @ want.ravel() / denom) if denom > 0 else 1.0
    return abs_err, rel, cos


def result_files(got_dir, want_dir, count):
    """[(name, got path, want path)] of the first `count` .npy files of both
    directories in result order (result2 before result10), or None after
    printing a MISMATCH line when the names differ or are fewer."""
    want = sorted((n for n in os.listdir(want_dir) if n.endswith(".npy")),
                  key=lambda n: (len(n), n))
    got = sorted((n for n in os.listdir(got_dir) if n.endswith(".npy")),
                 key=lambda n: (len(n), n))
    if got != want or len(want) < int(count):
        print(f"MISMATCH results {got} vs {want} (expected {count})")
        return None
    return [(n[:-4], os.path.join(got_dir, n), os.path.join(want_dir, n))
            for n in want[:int(count)]]


def compare_dirs(got_dir, want_dir, max_rel, min_cos, tolerances=None):
    """Compares every result of two --output-dir directories (paired by
    name; both must hold the same names), prints one line per result and
    returns True when all are within tolerance: error relative to the
    output's largest magnitude <= max_rel, cosine >= min_cos, and NaN/Inf
    at the same places (the errors are taken over the finite rest).
    `tolerances` maps a result name to its own (max_rel, min_cos)."""
    tolerances = tolerances or {}
    names = sorted(n for n in os.listdir(want_dir) if n.endswith(".npy"))
    got_names = sorted(n for n in os.listdir(got_dir) if n.endswith(".npy"))
    if names != got_names:
        print(f"MISMATCH results {got_names} vs {names}")
        return False
    ok = True
    for name in sorted(names, key=lambda n: (len(n), n)):
        got = load(os.path.join(got_dir, name))
        want = load(os.path.join(want_dir, name))
        label = name[:-4]
        tol_rel, tol_cos = tolerances.get(label, (max_rel, min_cos))
        if got.shape != want.shape:
            print(f"{label}: MISMATCH shape {got.shape} vs {want.shape}")
            ok = False
            continue
        # NaN/Inf must sit at the same places; errors are over the rest.
        same_nonfinite = bool((np.isfinite(got) == np.isfinite(want)).all() and
                              (np.isnan(got) == np.isnan(want)).all())
        finite = np.isfinite(got) & np.isfinite(want)
        abs_err, rel, cos = errors(np.where(finite, got, 0.0),
                                   np.where(finite, want, 0.0))
        good = rel <= tol_rel and cos >= tol_cos and same_nonfinite
        ok &= good
        print(f"{label}: {'ok' if good else 'MISMATCH'} shape={list(got.shape)} "
              f"max_abs={abs_err:.3g} max_rel={rel:.3g} (tolerance {tol_rel:g}) "
              f"cosine={cos:.7f}"
              + ("" if finite.all() else f" nonfinite={int((~finite).sum())}"))
    return ok


def main():
    got_dir, want_dir, count, max_rel = sys.argv[1:5]
    min_cos = float(sys.argv[5]) if len(sys.argv) > 5 else 0.9999
    files = result_files(got_dir, want_dir, count)
    if files is None:
        sys.exit(1)
    ok = True
    for name, got_path, want_path in files:
        got = load(got_path)
        want = load(want_path)
        if got.shape != want.shape:
            print(f"{name}: MISMATCH shape {got.shape} vs {want.shape}")
            ok = False
            continue
        abs_err, rel, cos = errors(got, want)
        good = rel <= float(max_rel) and cos >= min_cos and np.isfinite(got).all()
        ok &= good
        print(f"{name}: {'ok' if good else 'MISMATCH'} shape={list(got.shape)} "
              f"max_abs={abs_err:.3g} max_rel={rel:.3g} (tolerance {max_rel}) "
              f"cosine={cos:.7f}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
