"""Checks tpuc interpret's results of batch-norm.test's bn.hlo against numpy:
results 0-6 are (y, mean, var) of training, inference, and (dx, dscale,
doffset) of grad; results 7 and 8 are the inputs x and grad_output."""
import os
import sys

import numpy as np

out = sys.argv[1]
r = [np.load(os.path.join(out, f"result{i}.npy")).astype(np.float64) for i in range(9)]
x, g = r[7], r[8]
scale = np.array([1, 2, 0.5, -1.0])
offset = np.array([0, 1, -1, 0.25])
eps = 0.001
axes = (0, 1, 2)
mean = x.mean(axis=axes)
var = x.var(axis=axes)
y = (x - mean) / np.sqrt(var + eps) * scale + offset
# The gradient of y with respect to x, scale and offset for upstream g.
n = x.size / x.shape[3]
xhat = (x - mean) / np.sqrt(var + eps)
dscale = (g * xhat).sum(axis=axes)
doffset = g.sum(axis=axes)
dx = scale / np.sqrt(var + eps) * (g - doffset / n - xhat * dscale / n)


def check(name, got, want):
    ok = np.allclose(got, want, rtol=1e-4, atol=1e-4)
    print(name, "ok" if ok else f"MISMATCH max abs {np.abs(got - want).max()}")


check("training y", r[0], y)
check("training mean", r[1], mean)
check("training variance", r[2], var)
check("inference", r[3], y)
check("grad x", r[4], dx)
check("grad scale", r[5], dscale)
check("grad offset", r[6], doffset)
