"""Writes dense sweeps of math function domains, with their edge values.

usage: math_sweep.py [--bf16] OUT_DIR ROWS COLS DOMAIN...

For each DOMAIN writes OUT_DIR/DOMAIN.npy, an f32[ROWS, COLS] array (s32
for the *_int domains): the domain's edge values first (+-0, +-inf, NaN,
the smallest subnormal and normal, domain boundaries and their float
neighbours), then an evenly spaced sweep of the interval and a
log-spaced sweep of both signs over the magnitudes the function takes,
then the float neighbours of special points (multiples of pi/2 for the
trigonometric functions). Deterministic: the same arguments give the same
bytes. With --bf16 the float arrays are rounded to nearest even bf16 and
saved as the tools save bf16 (2-byte '<V2' elements).
"""
import sys

import numpy as np

F = np.float32
INF = np.inf
TINY = [np.float32(1e-45), np.finfo(F).tiny, 1e-30, 1e-10, 1e-7, 1e-4]

# name: (linear interval, log-spaced magnitude range, extra edge values)
DOMAINS = {
    # |x| up to 2^13 * pi/2: the exact range of the Cody-Waite reduction.
    "trig": ((-20.0, 20.0), (-30, np.log10(12867.0)), [np.pi / 2, np.pi, 1e4]),
    # Huge arguments: reduced with the same 4-part pi/2 (absolute error).
    "trig_huge": ((-1e5, 1e5), (4, 9), [1e6, 3e7, 1e9, 2e9]),
    # Beyond 2^31 pi/2 the s32 k saturates: not reduced (docs only).
    "trig_beyond": ((3.4e9, 1e10), (9.53, 38), [3.4e9, 1e20, 3e38]),
    "atan": ((-10.0, 10.0), (-38, 38), [0.41421356, 2.41421356, 1.0]),
    "unit": ((-1.0, 1.0), (-38, 0), [1.0, 0.5, 1.0000001, 0.99999994, 2.0]),
    "acosh": ((1.0, 20.0), (0, 38), [1.0, 1.0000001, 0.99999994, 4096.0, -1.0]),
    "hyperbolic": ((-12.0, 12.0), (-38, np.log10(89.4)), [88.0, 88.72, 89.0, 89.4, 90.0]),
    "wide": ((-100.0, 100.0), (-38, 38), [4096.0, 4097.0]),
    "expm1": ((-20.0, 20.0), (-38, np.log10(88.7)), [0.5, -0.5, 88.7, 89.0, -104.0]),
    "log1p": ((-0.999, 10.0), (-38, 38), [-1.0, -0.99999994, -1.5, 8388608.0]),
    "erf": ((-5.0, 5.0), (-38, 1.5), [0.875, 0.87499994, 4.0, 3.9999998]),
    "cbrt": ((-1000.0, 1000.0), (-45, 38), [8.0, 27.0, -64.0, 1e-45]),
    # power: base and exponent sweeps (pow_base x pow_exp elementwise).
    "pow_base": ((-4.0, 4.0), (-10, 10), [-1.0, 1.0, -2.0, 0.5]),
    "pow_exp": ((-8.0, 8.0), (-3, 1.3), [2.0, 3.0, -3.0, 0.5, 1e9]),
    "int_base": None,
    "int_exp": None,
}


def edges(extra):
    vals = [0.0, -0.0, INF, -INF, np.nan]
    for v in TINY + list(extra):
        v = F(v)
        for w in (v, np.nextafter(v, F(INF)), np.nextafter(v, F(-INF))):
            vals += [w, -w]
    return np.array(vals, dtype=F)


def sweep(name, n):
    rng = np.random.default_rng(sum(map(ord, name)))
    if name == "int_base":
        v = np.concatenate([np.arange(-16, 17), [2**31 - 1, -(2**31), 46341]])
        rest = rng.integers(-20, 21, n - v.size)
        return np.concatenate([v, rest]).astype(np.int32)
    if name == "int_exp":
        v = np.concatenate([np.arange(-3, 33), [2**31 - 1, -(2**31)]])
        rest = rng.integers(-2, 40, n - v.size)
        return np.concatenate([v, rest]).astype(np.int32)
    (lo, hi), (elo, ehi), extra = DOMAINS[name]
    e = edges(extra)
    left = n - e.size
    n_lin = left // 2
    lin = np.linspace(lo, hi, n_lin).astype(F)
    mags = np.logspace(elo, ehi, (left - n_lin) // 2).astype(F)
    logs = np.concatenate([mags, -mags])
    out = np.concatenate([e, lin, logs])
    if out.size < n:
        out = np.concatenate([out, rng.uniform(lo, hi, n - out.size).astype(F)])
    if name in ("pow_base", "pow_exp"):
        # Pair every edge base with every edge exponent somewhere.
        rng.shuffle(out[e.size:])
        k = e.size
        grid = np.repeat(e, k) if name == "pow_base" else np.tile(e, k)
        out[e.size:e.size + grid.size] = grid
    return out[:n]


def to_bf16(a):
    """f32 -> bf16 bits, round to nearest even (NaN stays a quiet NaN)."""
    bits = a.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    rounded = np.where(np.isnan(a), 0x7FC0, rounded)
    return rounded.astype(np.uint16).view("<V2")


def main():
    args = sys.argv[1:]
    bf16 = args[0] == "--bf16"
    if bf16:
        args = args[1:]
    out_dir, rows, cols = args[0], int(args[1]), int(args[2])
    for name in args[3:]:
        a = sweep(name, rows * cols).reshape(rows, cols)
        if bf16 and a.dtype == np.float32:
            a = to_bf16(a)
        np.save(f"{out_dir}/{name}.npy", a)


if __name__ == "__main__":
    main()
