"""Reference values for the serializer's end-to-end tests.

random_input() re-implements the --random-inputs generator of
docs/host-arrays.md, so a test can recompute what tpuc-run fed the program.
"""
import sys

import numpy as np

MASK = (1 << 64) - 1


def random_input(seed, index, shape, dtype):
    """Parameter `index` as tpuc-run --random-inputs=seed generates it."""
    state = (seed * 1000003 + index) & MASK
    values = np.empty(int(np.prod(shape)), dtype=np.float64)
    for i in range(values.size):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        values[i] = (z >> 40) * 2.0**-23 - 1
    x = values.astype(np.float32).reshape(shape)
    if dtype == "bf16":
        bits = x.view(np.uint32).astype(np.uint64)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        x = bits.astype(np.uint32).view(np.float32)
    return x


def report(name, got, want, max_abs):
    err = np.abs(got.astype(np.float64) - want).max()
    cos = (got.ravel() @ want.ravel()) / (
        np.linalg.norm(got) * np.linalg.norm(want))
    status = "ok" if err <= max_abs and cos > 0.99999 else "MISMATCH"
    print(f"{name}: {status} max_abs_err={err:.3g} (tolerance {max_abs}) "
          f"cosine={cos:.7f}")


def softmax(out_dir):
    x = random_input(1, 0, (64, 256), "f32").astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    report("softmax", np.load(f"{out_dir}/result0.npy"),
           e / e.sum(axis=1, keepdims=True), 1e-6)


def matmul(out_dir):
    a = random_input(1, 0, (256, 256), "bf16").astype(np.float64)
    b = random_input(1, 1, (256, 256), "bf16").astype(np.float64)
    report("matmul", np.load(f"{out_dir}/result0.npy"), a @ b, 1e-4)


if __name__ == "__main__":
    {"softmax": softmax, "matmul": matmul}[sys.argv[1]](sys.argv[2])
