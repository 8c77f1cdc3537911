"""Checks tpuc interpret's cholesky and triangular-solve against numpy.

usage: linalg_numpy.py TPUC_BIN_DIR WORK_DIR

Every case is an HLO module run by `tpuc interpret` on .npy inputs; the
result is compared with numpy (float64) within a relative tolerance of
1e-5 of the largest reference value (f32 results). Prints one line per case
and OK or FAIL at the end.
"""
import os
import subprocess
import sys

import numpy as np

tpuc = os.path.join(sys.argv[1], "tpuc")
work = sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(12)
failures = 0


def run(name, hlo, inputs):
    path = os.path.join(work, name + ".hlo")
    with open(path, "w") as f:
        f.write(hlo)
    args = [tpuc, "interpret", path]
    for i, value in enumerate(inputs):
        npy = os.path.join(work, "%s.in%d.npy" % (name, i))
        np.save(npy, value.astype(np.float32))
        args.append("--input=@" + npy)
    out = os.path.join(work, name + ".out.npy")
    args.append("--output=@" + out)
    subprocess.run(args, check=True)
    return np.load(out)


def check(name, got, want):
    global failures
    err = np.max(np.abs(got.astype(np.float64) - want)) / max(1e-30, np.max(np.abs(want)))
    ok = err <= 1e-5
    failures += not ok
    print("%s: relative error %.2g %s" % (name, err, "ok" if ok else "TOO LARGE"))


def shape(s):
    return ",".join(str(d) for d in s)


# cholesky: a batch of SPD matrices; garbage in the triangle not read.
batch, n = 3, 37
m = rng.standard_normal((batch, n, n))
spd = m @ np.swapaxes(m, -1, -2) + n * np.eye(n)
for lower in (True, False):
    noise = rng.standard_normal((batch, n, n)) * 100
    mask = np.tril(np.ones((n, n))) if lower else np.triu(np.ones((n, n)))
    a = np.where(mask > 0, spd, noise)
    hlo = ("HloModule chol\nENTRY e {\n  a = f32[%s] parameter(0)\n"
           "  ROOT c = f32[%s] cholesky(a), lower=%s\n}\n"
           % (shape(a.shape), shape(a.shape), "true" if lower else "false"))
    got = run("cholesky_%s" % lower, hlo, [a])
    want = np.linalg.cholesky(spd.astype(np.float32).astype(np.float64))
    if not lower:
        want = np.swapaxes(want, -1, -2)
    check("cholesky lower=%s" % lower, got, want)

# A non-positive-definite matrix is all NaN (XLA's CholeskyExpander).
bad = np.array([[4.0, 0, 0], [2, -1, 0], [1, 1, 5]], np.float32)
got = run("cholesky_nan", "HloModule c\nENTRY e {\n  a = f32[3,3] parameter(0)\n"
          "  ROOT c = f32[3,3] cholesky(a), lower=true\n}\n", [bad])
nan_ok = bool(np.isnan(got).all())
failures += not nan_ok
print("cholesky not positive definite: %s" % ("ok" if nan_ok else "WRONG %s" % got))

# triangular-solve: every left_side/lower/unit_diagonal/transpose_a.
m_, k_ = 19, 7
for left in (True, False):
    for lower in (True, False):
        for unit in (True, False):
            for transpose in ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"):
                a = rng.standard_normal((2, m_, m_)) + 4 * np.eye(m_)
                a = a.astype(np.float32).astype(np.float64)
                b = rng.standard_normal((2, m_, k_) if left else (2, k_, m_))
                b = b.astype(np.float32).astype(np.float64)
                tri = np.tril(a) if lower else np.triu(a)
                if unit:  # the diagonal is not read: ones
                    tri = tri.copy()
                    for i in range(2):
                        np.fill_diagonal(tri[i], 1.0)
                op = tri if transpose == "NO_TRANSPOSE" else np.swapaxes(tri, -1, -2)
                if left:
                    want = np.linalg.solve(op, b)
                else:
                    want = np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2),
                                                       np.swapaxes(b, -1, -2)), -1, -2)
                flags = "left_side=%s, lower=%s, unit_diagonal=%s, transpose_a=%s" % (
                    str(left).lower(), str(lower).lower(), str(unit).lower(), transpose)
                hlo = ("HloModule ts\nENTRY e {\n  a = f32[%s] parameter(0)\n"
                       "  b = f32[%s] parameter(1)\n"
                       "  ROOT x = f32[%s] triangular-solve(a, b), %s\n}\n"
                       % (shape(a.shape), shape(b.shape), shape(b.shape), flags))
                name = "ts_%s_%s_%s_%s" % (left, lower, unit, transpose)
                got = run(name, hlo, [a, b])
                check("triangular-solve " + flags, got, want)

print("OK" if failures == 0 else "FAIL: %d cases" % failures)
