"""Seeded random convolutions, select_and_scatters and reduce_windows,
compiled (tpuc compile) and run on the emulator against the interpreter.

usage: window_ops_fuzz.py BINDIR conv|select-and-scatter|pool-grad|pool|reduce-window SEED COUNT WORKDIR

Each case is one op with random attributes: convolutions with 1-3 spatial
dims, random dim_labels, strides, padding (negative too), lhs/rhs
dilation, window reversal, feature or batch groups; select_and_scatter of
rank 1-4 with GE/GT/LE/LT (arguments possibly swapped) on operands with
ties, any window, stride and padding; pool-grad: select_and_scatter as
pooling gradients on H and W of NHWC (the VPU kernel: N 1-3, H and W 1-40,
C 1-300, windows 1-5, strides 1-4 (beyond the window too), padding, f32 or
bf16), bit-exact; pool: reduce_window on the same windows (add with inits
0 and 0.5, max, min), bit-exact; reduce_window of rank 1-4 with add/max/min, padding,
base and window dilation. The tools are BINDIR's. Tolerances:
convolutions 2^-7 of the largest output (DEFAULT precision: bf16
operands), pool-grad and pool 0, the others 1e-6. Prints one line per failure
with the module, then "N cases, M failures"; exit status 1 on a failure.
"""
import os
import random
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import load  # noqa: E402 (bf16 results widened)


def T(shape, elem="f32"):
    return "tensor<" + "x".join(str(s) for s in shape) + "x" + elem + ">"


def A(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def conv(rng):
    n = rng.choice([1, 2, 2, 3])

    def labels(kind):
        syms = (["i", "o"] if kind == "k" else ["b", "f"]) + [
            str(i) for i in range(n)]
        rng.shuffle(syms)
        return "".join(syms)

    il, kl, ol = labels("in"), labels("k"), labels("in")
    fg = bg = 1
    r = rng.random()
    if r < 0.25:
        fg = rng.choice([2, 3, 4])
    elif r < 0.4:
        bg = rng.choice([2, 3])
    cg = rng.randint(1, 3)
    ins = {"b": rng.randint(1, 2) * bg, "f": cg * fg}
    ker = {"i": cg, "o": rng.randint(1, 3) * fg * bg}
    out = {"b": ins["b"] // bg, "f": ker["o"]}
    st, pad, ld, rd, rev = [], [], [], [], []
    for d in range(n):
        k, size = rng.randint(1, 3), rng.randint(3, 7)
        s, l, r_ = rng.randint(1, 2), rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
        lo, hi = rng.randint(-1, 2), rng.randint(-1, 2)
        dil, win = (size - 1) * l + 1, (k - 1) * r_ + 1
        if dil + lo + hi < win:
            lo += win - dil - lo - hi
        ins[str(d)], ker[str(d)] = size, k
        out[str(d)] = (dil + lo + hi - win) // s + 1
        st.append(s), pad.extend([lo, hi]), ld.append(l), rd.append(r_)
        rev.append("true" if rng.random() < 0.3 else "false")
    ti = T([ins[c] for c in il])
    tk = T([ker[c] for c in kl])
    to = T([out[c] for c in ol])
    return (f"func.func @main(%x: {ti}, %w: {tk}) -> {to} {{\n"
            f"  %0 = hlo.convolution %x, %w, dim_labels = <\"{il}_{kl}->{ol}\"> "
            f"{{window_strides = {A(st)}, padding = {A(pad)}, lhs_dilation = "
            f"{A(ld)}, rhs_dilation = {A(rd)}, window_reversal = array<i1: "
            f"{', '.join(rev)}>, feature_group_count = {fg} : i64, "
            f"batch_group_count = {bg} : i64}} : ({ti}, {tk}) -> {to}\n"
            f"  return %0 : {to}\n}}\n"), 2.0 ** -7


def window(rng, dilations):
    rank = rng.randint(1, 4)
    xs = [rng.randint(1, 9) for _ in range(rank)]
    win = [rng.randint(1, 3) for _ in range(rank)]
    st = [rng.randint(1, 3) for _ in range(rank)]
    bd = [rng.choice([1, 1, 2]) if dilations else 1 for _ in range(rank)]
    wd = [rng.choice([1, 1, 2]) if dilations else 1 for _ in range(rank)]
    pad, os_ = [], []
    for d in range(rank):
        lo, hi = rng.randint(0, 2), rng.randint(0, 2)
        dil, w = (xs[d] - 1) * bd[d] + 1, (win[d] - 1) * wd[d] + 1
        if dil + lo + hi < w:
            hi += w - dil - lo - hi
        pad.extend([lo, hi])
        os_.append((dil + lo + hi - w) // st[d] + 1)
    return xs, win, st, pad, bd, wd, os_


def select_and_scatter_module(rng, xs, win, st, pad, os_, elem="f32"):
    """The module of one select_and_scatter with a random GE/GT/LE/LT
    select (arguments possibly swapped) and an add scatter; the operand is
    rounded to multiples of 1/2, so windows have ties."""
    direction = rng.choice(["GE", "GT", "LE", "LT"])
    args = "%b, %a" if rng.random() < 0.5 else "%a, %b"
    tx, ti, ts = T(xs, elem), T(xs, "i32"), T(os_, elem)
    s = f"tensor<{elem}>"
    return (f"func.func @main(%x0: {tx}, %dy: {ts}) -> {tx} {{\n"
            f"  %zero = hlo.constant dense<0.0> : {s}\n"
            f"  %two = hlo.constant dense<2.0> : {tx}\n"
            f"  %x2 = hlo.multiply %x0, %two : {tx}\n"
            f"  %xi = hlo.convert %x2 : ({tx}) -> {ti}\n"
            f"  %x = hlo.convert %xi : ({ti}) -> {tx}\n"
            f"  %0 = hlo.select_and_scatter %x, %dy, %zero {{window_dimensions = "
            f"{A(win)}, window_strides = {A(st)}, padding = {A(pad)}}} : ({tx}, "
            f"{ts}, {s}) -> {tx} select {{\n"
            f"  ^bb0(%a: {s}, %b: {s}):\n"
            f"    %c = hlo.compare {direction}, {args} : ({s}, "
            f"{s}) -> tensor<i1>\n"
            f"    hlo.return %c : tensor<i1>\n"
            f"  }} scatter {{\n"
            f"  ^bb0(%a: {s}, %b: {s}):\n"
            f"    %s = hlo.add %a, %b : {s}\n"
            f"    hlo.return %s : {s}\n"
            f"  }}\n  return %0 : {tx}\n}}\n")


def select_and_scatter(rng):
    xs, win, st, pad, _, _, os_ = window(rng, False)
    return select_and_scatter_module(rng, xs, win, st, pad, os_), 1e-6


def nhwc_window(rng):
    """A random pool window on H and W of NHWC as the VPU kernels take it:
    the element type, operand shape, window, strides, padding and the
    window grid's shape."""
    elem = rng.choice(["f32", "f32", "bf16"])
    xs = [rng.randint(1, 3), rng.randint(1, 40), rng.randint(1, 40),
          rng.choice([1, 5, 64, 128, 130, 300])]
    win, st, pad, os_ = [1, 0, 0, 1], [1, 0, 0, 1], [0, 0], []
    for d in (1, 2):
        win[d] = rng.randint(1, 5)
        st[d] = rng.randint(1, 4)
        lo, hi = rng.randint(0, win[d] - 1), rng.randint(0, win[d] - 1)
        if xs[d] + lo + hi < win[d]:
            hi = win[d] - xs[d] - lo
        pad += [lo, hi]
    pad += [0, 0]
    for d in range(4):
        os_.append((xs[d] + pad[2 * d] + pad[2 * d + 1] - win[d]) // st[d] + 1)
    return elem, xs, win, st, pad, os_


def pool_grad(rng):
    """A pooling gradient the VPU kernel takes; its adds run in the
    interpreter's order, so it is bit-exact (bf16 too)."""
    elem, xs, win, st, pad, os_ = nhwc_window(rng)
    return select_and_scatter_module(rng, xs, win, st, pad, os_, elem), 0.0


def pool(rng):
    """A pool the VPU kernel takes (windows on H and W of NHWC, f32 or
    bf16, add/max/min, padding); it combines in the interpreter's order,
    so it is bit-exact."""
    elem, xs, win, st, pad, os_ = nhwc_window(rng)
    op, init = rng.choice([("add", "0.0"), ("add", "0.5"),
                           ("maximum", "0xFF80" if elem == "bf16" else "0xFF800000"),
                           ("minimum", "0x7F80" if elem == "bf16" else "0x7F800000")])
    tx, to, s = T(xs, elem), T(os_, elem), f"tensor<{elem}>"
    return (f"func.func @main(%x: {tx}) -> {to} {{\n"
            f"  %i = hlo.constant dense<{init}> : {s}\n"
            f"  %0 = hlo.reduce_window(%x) init(%i) {{window_dimensions = "
            f"{A(win)}, window_strides = {A(st)}, padding = {A(pad)}}} : "
            f"({tx}, {s}) -> {to} {{\n"
            f"  ^bb0(%a: {s}, %b: {s}):\n"
            f"    %s = hlo.{op} %a, %b : {s}\n"
            f"    hlo.return %s : {s}\n"
            f"  }}\n  return %0 : {to}\n}}\n"), 0.0


def reduce_window(rng):
    xs, win, st, pad, bd, wd, os_ = window(rng, True)
    op, init = rng.choice([("add", "0.0"), ("maximum", "0xFF800000"),
                           ("minimum", "0x7F800000")])
    return (f"func.func @main(%x: {T(xs)}) -> {T(os_)} {{\n"
            f"  %i = hlo.constant dense<{init}> : tensor<f32>\n"
            f"  %0 = hlo.reduce_window(%x) init(%i) {{window_dimensions = "
            f"{A(win)}, window_strides = {A(st)}, padding = {A(pad)}, "
            f"base_dilations = {A(bd)}, window_dilations = {A(wd)}}} : "
            f"({T(xs)}, tensor<f32>) -> {T(os_)} {{\n"
            f"  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            f"    %s = hlo.{op} %a, %b : tensor<f32>\n"
            f"    hlo.return %s : tensor<f32>\n"
            f"  }}\n  return %0 : {T(os_)}\n}}\n"), 1e-6


def run(bindir, args):
    return subprocess.run([os.path.join(bindir, args[0])] + args[1:],
                          capture_output=True, text=True)


def main():
    bindir, kind, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    count, work = int(sys.argv[4]), sys.argv[5]
    make = {"conv": conv, "select-and-scatter": select_and_scatter,
            "pool-grad": pool_grad, "pool": pool,
            "reduce-window": reduce_window}[kind]
    rng = random.Random(seed)
    os.makedirs(work, exist_ok=True)
    failures = 0
    for case in range(count):
        src, tolerance = make(rng)
        d = os.path.join(work, "case%d" % case)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "op.mlir")
        with open(path, "w") as f:
            f.write(src)
        steps = [["tpuc", "compile", path, "-o", d + "/op.tpx"],
                 ["tpuc-run", d + "/op.tpx", "--random-inputs=3",
                  "--output-dir=" + d + "/got"],
                 ["tpuc", "interpret", path, "--random-inputs=3",
                  "--output-dir=" + d + "/want"]]
        error = None
        for step in steps:
            p = run(bindir, step)
            if p.returncode:
                error = "%s failed: %s" % (step[0], p.stderr.strip())
                break
        if not error:
            got = load(d + "/got/result0.npy")
            want = load(d + "/want/result0.npy")
            if got.shape != want.shape:
                error = "shape %s, expected %s" % (got.shape, want.shape)
            else:
                # Infinities (max over padding only) and NaNs must agree
                # exactly; finite values within the tolerance.
                finite = np.isfinite(got) & np.isfinite(want)
                same = (got == want) | (np.isnan(got) & np.isnan(want))
                scale = np.abs(want[finite]).max() if finite.any() else 0.0
                err = np.abs(got[finite] - want[finite]).max() if finite.any() else 0.0
                if not np.all(finite | same):
                    error = "non-finite values differ"
                elif err > tolerance * max(scale, 1e-30):
                    error = "mismatch: max abs error %g, largest output %g" % (
                        err, scale)
        if error:
            failures += 1
            print("case %d: %s\n%s" % (case, error, src))
    print("%d cases, %d failures" % (count, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
