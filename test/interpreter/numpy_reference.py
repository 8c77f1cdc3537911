"""Independent numpy references for corpus graphs run by `tpuc interpret`.

usage: numpy_reference.py GRAPH SEED RESULT.npy

Regenerates the --random-inputs=SEED parameters with a numpy re-implementation
of the SplitMix64 generator in docs/host-arrays.md, computes the graph in
numpy (float64 arithmetic, rounded to bf16 wherever the graph produces bf16),
loads tpuc's result and checks the error against the stated tolerance. Prints
the error figures; exits 1 when they are out of tolerance.
"""
import sys

import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def splitmix64(seed, param_index, count):
    state = np.uint64((seed * 1000003 + param_index) % 2**64)
    with np.errstate(over="ignore"):
        z = state + GOLDEN * np.arange(1, count + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def bf16(x):
    """Rounds to the nearest bf16 (ties to even), returned as float64."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1)))
    bits = (bits & np.uint64(0xFFFF0000)).astype(np.uint32)
    return bits.view(np.float32).astype(np.float64)


def random_bf16(seed, param_index, shape):
    r = splitmix64(seed, param_index, int(np.prod(shape)))
    x = (r >> np.uint64(40)).astype(np.float64) * 2.0**-23 - 1.0
    return bf16(x).reshape(shape)


def bf16_from_npy(path):
    a = np.load(path)
    bits = a.view(np.uint16).astype(np.uint32) << np.uint32(16)
    return bits.view(np.float32).astype(np.float64)


def attention(seed):
    shape = (1, 12, 128, 64)
    q, k, v = (random_bf16(seed, i, shape) for i in range(3))
    s = bf16(np.einsum("bhqd,bhkd->bhqk", q, k))  # f32 accumulate, one rounding
    s = bf16(s * 0.125)
    s = bf16(s - s.max(axis=3, keepdims=True))
    e = bf16(np.exp(s))
    total = bf16(e.sum(axis=3, keepdims=True).astype(np.float32))
    p = bf16(e / total)
    return bf16(np.einsum("bhqk,bhkd->bhqd", p, v))


def layer_norm(seed):
    x = random_bf16(seed, 0, (1, 4096, 768))
    mean = bf16((x.sum(axis=2, keepdims=True) / 768).astype(np.float32))
    centred = bf16(x - mean)
    var = bf16((bf16(centred * centred).sum(axis=2, keepdims=True) / 768))
    std = bf16(np.sqrt(bf16(var + bf16(1.001e-05))))
    return bf16(centred / std)


def sum_axis(seed):
    x = random_bf16(seed, 0, (1, 4096, 1024))
    return bf16(x.sum(axis=2))


def sort_full(seed):
    # JAX's comparator canonicalises NaN and -0 then compares in TOTALORDER;
    # the random inputs have neither, so it is a plain ascending sort.
    x = random_bf16(seed, 0, (1024, 4096))
    return np.sort(x, axis=1, kind="stable")


# Graph -> (reference, tolerance on max |error| / max |reference|). Every
# graph's output is bf16: one bf16 ulp (2^-7 relative) covers a different
# rounding of an intermediate by the f32 (tpuc) vs f64 (numpy) accumulation.
GRAPHS = {
    "mha_block_1x12x128x64_bf16.hlo": (attention, 2.0**-7),
    "layer_norm_1x4096x768_bf16.hlo": (layer_norm, 2.0**-7),
    "sum_axis_1x4096x1024_bf16.hlo": (sum_axis, 2.0**-7),
    "sort_full_1024x4096_bf16.hlo": (sort_full, 0.0),
}


def main():
    graph, seed, result = sys.argv[1].split("/")[-1], int(sys.argv[2]), sys.argv[3]
    reference_fn, tolerance = GRAPHS[graph]
    expected = reference_fn(seed)
    actual = bf16_from_npy(result).reshape(expected.shape)
    error = np.abs(actual - expected)
    scale = np.abs(expected).max()
    max_abs = error.max()
    max_rel = max_abs / scale
    exact = np.mean(error == 0)
    print(f"{graph}: max abs error {max_abs:.3g}, max error / max |ref| "
          f"{max_rel:.3g} (tolerance {tolerance:.3g}), bit-exact {exact:.4f}")
    if not np.isfinite(actual).all() or max_rel > tolerance:
        print("FAIL: out of tolerance")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
