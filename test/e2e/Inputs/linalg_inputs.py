"""Writes the inputs of the linalg-* e2e tests to DIR as .npy (f32).

usage: linalg_inputs.py DIR

spd<n>.npy: a batch of 2 symmetric positive definite n x n matrices
(X X^T / n + I) whose strict upper triangle holds garbage (cholesky with
lower=true must not read it); spd<n>u.npy the same with the garbage in the
strict lower triangle (for lower=false). tri<b>x<n>.npy: b well-conditioned
n x n matrices (diagonal 1 to 2, off-diagonal N(0, 1/n^2)) with both
triangles filled (a triangular solve reads one); rhs<name>.npy: N(0, 1).
"""
import sys

import numpy as np

rng = np.random.default_rng(12)
out = sys.argv[1]


def save(name, a):
    np.save("%s/%s.npy" % (out, name), np.asarray(a, np.float32))


def spd(batch, n, lower):
    x = rng.standard_normal((batch, n, n))
    a = x @ np.swapaxes(x, -1, -2) / n + np.eye(n)
    garbage = rng.standard_normal((batch, n, n)) * 100
    keep = np.tril(np.ones((n, n))) if lower else np.triu(np.ones((n, n)))
    return np.where(keep > 0, a, garbage)


for n in (1, 7, 130):
    save("spd%d" % n, spd(2, n, True))
    save("spd%du" % n, spd(2, n, False))

for batch, n in ((2, 1), (2, 7), (12, 7), (2, 130)):
    a = rng.standard_normal((batch, n, n)) / n
    idx = np.arange(n)
    a[:, idx, idx] = 1 + rng.random((batch, n))
    save("tri%dx%d" % (batch, n), a)

for name, shape in (("l1", (2, 1, 4)), ("l7", (2, 7, 5)), ("r7", (2, 3, 7)),
                    ("d7", (12, 7, 3)), ("dr7", (12, 4, 7)),
                    ("l130", (2, 130, 3)), ("r130", (2, 5, 130))):
    save("rhs" + name, rng.standard_normal(shape))
