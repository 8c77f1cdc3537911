"""Checks the step log of `tpuc interpret --steps` and `tpuc-run --steps`.

usage: train_log.py falls LOG
       train_log.py compare GOT_LOG WANT_LOG MAX_REL
       train_log.py reference LOG mlp|cnn DATA_DIR LR

A log line is "step K/N: NAME=V ..." (NAME the result's HLO instruction,
e.g. neg.48, or resultI); the loss is the first value.
falls: at least two steps printed, each later loss below the first and the
  last the lowest; prints "loss falls: FIRST -> LAST" or "FAIL ...".
compare: the same steps, and every loss within MAX_REL of WANT's, relative
  to max(|want|, 1e-3); prints "losses agree" or each disagreement.
reference: the losses against a NumPy implementation of the same training
  step (forward, backward by hand, SGD) run on DATA_DIR (make_data.py's
  argN_NAME.npy files) in float32 with learning rate LR; relative error
  at most 1e-4. Prints "reference agrees" or each disagreement.
Exit status 1 on any failure.
"""
import glob
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "examples"))


def losses(path):
    out = {}
    for line in open(path):
        m = re.match(r"step (\d+)/(\d+): [\w.\-]+=(\S+)", line)
        if m:
            out[int(m.group(1))] = float(m.group(3))
    return out


def falls(path):
    log = losses(path)
    steps = sorted(log)
    if len(steps) < 2:
        return "FAIL: fewer than two steps printed"
    first, later = log[steps[0]], [log[s] for s in steps[1:]]
    if max(later) >= first or min(later) != later[-1]:
        return "FAIL: losses %s" % [log[s] for s in steps]
    return "loss falls: %g -> %g" % (first, later[-1])


def agree(got, want, max_rel, what):
    bad = []
    if sorted(got) != sorted(want):
        return "FAIL: steps %s vs %s" % (sorted(got), sorted(want))
    for s in sorted(want):
        if abs(got[s] - want[s]) > max_rel * max(abs(want[s]), 1e-3):
            bad.append("step %d: %g vs %g" % (s, got[s], want[s]))
    return "FAIL: " + "; ".join(bad) if bad else what


def cross_entropy(z, labels):
    """Mean softmax cross-entropy and its gradient with respect to z."""
    shifted = z - z.max(1, keepdims=True)
    e = np.exp(shifted)
    total = e.sum(1, keepdims=True)
    loss = -np.mean(np.sum(labels * (shifted - np.log(total)), -1))
    return loss, (e / total - labels) / z.shape[0]


def mlp_step(b1, b2, w1, w2, x, labels):
    a = x @ w1 + b1
    h = np.maximum(a, 0)
    loss, dz = cross_entropy(h @ w2 + b2, labels)
    da = np.where(a > 0, dz @ w2.T, 0)
    return loss, (da.sum(0), dz.sum(0), x.T @ da, h.T @ dz)


def cnn_step(b1, b2, w1, w2, x, labels):
    from make_data import conv3x3_same
    a = conv3x3_same(x, w1) + b1
    pooled = np.maximum(a, 0).mean((1, 2))
    loss, dz = cross_entropy(pooled @ w2 + b2, labels)
    pixels = a.shape[1] * a.shape[2]
    da = np.where(a > 0, (dz @ w2.T)[:, None, None, :] / pixels, 0)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    dw1 = np.zeros_like(w1)
    for i in range(3):
        for j in range(3):
            window = padded[:, i:i + a.shape[1], j:j + a.shape[2], :]
            dw1[i, j] = np.einsum("nhwc,nhwo->co", window, da)
    return loss, (da.sum((0, 1, 2)), dz.sum(0), dw1, pooled.T @ dz)


def reference(path, kind, data, lr):
    arrays = [np.load(f) for f in sorted(glob.glob(data + "/arg*.npy"))]
    params, x, labels = arrays[:4], arrays[4], arrays[5]
    log = losses(path)
    want = {}
    step = mlp_step if kind == "mlp" else cnn_step
    for s in range(1, max(log) + 1):
        loss, grads = step(*params, x, labels)
        want[s] = float(loss)
        params = [(p - np.float32(lr) * g).astype(np.float32)
                  for p, g in zip(params, grads)]
    return agree(log, {s: want[s] for s in log}, 1e-4, "reference agrees")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "falls":
        result = falls(args[0])
    elif command == "compare":
        result = agree(losses(args[0]), losses(args[1]), float(args[2]),
                       "losses agree")
    else:
        result = reference(args[0], args[1], args[2], float(args[3]))
    print(result)
    return 1 if result.startswith("FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())
