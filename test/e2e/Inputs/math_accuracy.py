"""Measures tpuc-expand-math's error against the interpreter (libm).

usage: math_accuracy.py BIN_DIR WORK_DIR [ROWS COLS]

For every expanded function and each element type (f32, bf16), builds a
module applying it to the dense sweep of its domain (math_sweep.py, with
the edge values), compiles it with `tpuc compile`, runs it on the
emulator (`tpuc-run`) and in the interpreter (`tpuc interpret`), and
prints a markdown table: the max error in ulp of the interpreter's value
(in the result's type), the argument where it occurs, and the number of
elements whose NaN/infinity disagrees (should be 0). docs/math-functions.md
records its output.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import math_sweep  # noqa: E402
from math_ulp import compare, load, ulp_of  # noqa: E402

# (op, argument domains, what the row measures)
ROWS = [
    ("sine", ["trig"], "ulp"), ("sine", ["trig_huge"], "ulp"),
    ("sine", ["trig_beyond"], "abs"),
    ("cosine", ["trig"], "ulp"), ("cosine", ["trig_huge"], "ulp"),
    ("tan", ["trig"], "ulp"), ("tan", ["trig_huge"], "ulp"),
    ("atan", ["atan"], "ulp"), ("atan2", ["pow_base", "pow_exp"], "ulp"),
    ("asin", ["unit"], "ulp"), ("acos", ["unit"], "ulp"),
    ("sinh", ["hyperbolic"], "ulp"), ("cosh", ["hyperbolic"], "ulp"),
    ("asinh", ["wide"], "ulp"), ("acosh", ["acosh"], "ulp"),
    ("atanh", ["unit"], "ulp"), ("erf", ["erf"], "ulp"), ("cbrt", ["cbrt"], "ulp"),
    ("exponential_minus_one", ["expm1"], "ulp"),
    ("log_plus_one", ["log1p"], "ulp"), ("power", ["pow_base", "pow_exp"], "ulp"),
    ("power", ["int_base", "int_exp"], "exact"),
]


def describe(domain):
    (lo, hi), (elo, ehi), _ = math_sweep.DOMAINS[domain]
    return f"[{lo:g}, {hi:g}], +-1e{elo:.3g}..1e{ehi:.3g}"


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def measure(bin_dir, work, op, domains, unit, ty, rows, cols):
    t = f"tensor<{rows}x{cols}x{ty}>"
    args = ", ".join(f"%a{i}: {t}" for i in range(len(domains)))
    operands = ", ".join(f"%a{i}" for i in range(len(domains)))
    module = (f"func.func @main({args}) -> {t} {{\n"
              f"  %0 = hlo.{op} {operands} : {t}\n  return %0 : {t}\n}}\n")
    path = f"{work}/m.mlir"
    with open(path, "w") as f:
        f.write(module)
    inputs = []
    for d in domains:
        a = math_sweep.sweep(d, rows * cols).reshape(rows, cols)
        if ty == "bf16" and a.dtype == np.float32:
            a = math_sweep.to_bf16(a)
        np.save(f"{work}/{d}.npy", a)
        inputs.append(f"--input=@{work}/{d}.npy")
    for sub in ("got", "want"):
        os.makedirs(f"{work}/{sub}", exist_ok=True)
    run([f"{bin_dir}/tpuc", "compile", path, "-o", f"{work}/m.tpx"])
    run([f"{bin_dir}/tpuc-run", f"{work}/m.tpx", *inputs, f"--output-dir={work}/got"])
    run([f"{bin_dir}/tpuc", "interpret", path, *inputs, f"--output-dir={work}/want"])
    got, kind = load(f"{work}/got/result0.npy")
    want, _ = load(f"{work}/want/result0.npy")
    if unit == "exact":
        return None, None, int((got != want).sum())
    tol = "abs:0" if unit == "abs" else "0"
    specials, err, _, _ = compare(got.ravel(), want.ravel(), kind, tol)
    # Where the largest error is (first argument).
    g, w = got.ravel().astype(np.float64), want.ravel().astype(np.float64)
    finite = np.isfinite(g) & np.isfinite(w)
    with np.errstate(invalid="ignore", divide="ignore"):
        e = np.abs(g - w)
        if unit == "ulp":
            e = e / ulp_of(w, kind)
    e = np.where(finite, e, 0)
    x = math_sweep.sweep(domains[0], rows * cols)
    if ty == "bf16":
        x = load_bf16(math_sweep.to_bf16(x))
    at = x[int(np.argmax(e))]
    return err, at, specials


def load_bf16(v2):
    bits = v2.view(np.uint16).astype(np.uint32) << 16
    return bits.view(np.float32)


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    rows, cols = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (1024, 1024)
    os.makedirs(work, exist_ok=True)
    print(f"| function | domain (linear, log-spaced, + edge values) | f32 max error | at (first argument) | "
          f"bf16 max error | NaN/inf mismatches |")
    print("|---|---|---|---|---|---|")
    for op, domains, unit in ROWS:
        if unit == "exact":
            mismatches = measure(bin_dir, work, op, domains, unit, "i32", rows, cols)[2]
            print(f"| `{op}` (s32) | bases -16..16, -20..20, INT_MIN, INT_MAX; exponents "
                  f"-3..39, INT_MIN, INT_MAX | exact: {mismatches} mismatches | | | |")
            continue
        f32 = measure(bin_dir, work, op, domains, unit, "f32", rows, cols)
        bf16 = measure(bin_dir, work, op, domains, unit, "bf16", rows, cols)
        dom = "; ".join(describe(d) for d in domains)
        u = " ulp" if unit == "ulp" else " (abs)"
        print(f"| `{op}` | {dom} | {f32[0]:.3g}{u} | {f32[1]:.9g} | {bf16[0]:.3g}{u} | "
              f"{f32[2]} / {bf16[2]} |", flush=True)


if __name__ == "__main__":
    main()
