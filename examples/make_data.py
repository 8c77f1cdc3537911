#!/usr/bin/python3
"""Writes the inputs of the training demo (examples/README.md) as .npy files.

    /usr/bin/python3 examples/make_data.py OUTDIR

OUTDIR/mlp/ and OUTDIR/cnn/ get one file per parameter of
mlp_train_step.hlo and cnn_train_step.hlo, named argN_NAME.npy so that the
sorted file names are the parameter order:

    arg0_b1 arg1_b2 arg2_w1 arg3_w2   the model (the sorted keys of the params
                                      dict, as jax.jit flattens it)
    arg4_x arg5_labels                one fixed batch and its one-hot labels

The weights are He-initialised from a fixed seed and the biases are zero. The
labels are the argmax of a "teacher" network of the same architecture with
other fixed weights (for the CNN, of its pooled features standardised over
the batch), so the task is learnable. Same seed, same bytes: only
numpy's PCG64 generator and float32 arithmetic are used.
"""
import argparse
import os

import numpy as np


def he(rng, shape, fan_in):
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def one_hot(logits, classes):
    return np.eye(classes, dtype=np.float32)[np.argmax(logits, axis=-1)]


def mlp_forward(p, x):
    h = np.maximum(x @ p["w1"] + p["b1"], 0)
    return h @ p["w2"] + p["b2"]


def conv3x3_same(x, w):
    """NHWC x HWIO, stride 1, padding 1 (what the .hlo's convolution does)."""
    n, hgt, wid, _ = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, hgt, wid, w.shape[3]), np.float32)
    for dy in range(3):
        for dx in range(3):
            out += xp[:, dy:dy + hgt, dx:dx + wid, :] @ w[dy, dx]
    return out


def cnn_features(p, x):
    return np.maximum(conv3x3_same(x, p["w1"]) + p["b1"], 0).mean(axis=(1, 2))


def mlp_params(rng, inputs, hidden, classes):
    return {"b1": np.zeros(hidden, np.float32),
            "b2": np.zeros(classes, np.float32),
            "w1": he(rng, (inputs, hidden), inputs),
            "w2": he(rng, (hidden, classes), hidden)}


def cnn_params(rng, channels, filters, classes):
    return {"b1": np.zeros(filters, np.float32),
            "b2": np.zeros(classes, np.float32),
            "w1": he(rng, (3, 3, channels, filters), 9 * channels),
            "w2": he(rng, (filters, classes), filters)}


def write(directory, params, x, labels):
    os.makedirs(directory, exist_ok=True)
    arrays = [params[k] for k in sorted(params)] + [x, labels]
    names = sorted(params) + ["x", "labels"]
    for i, (name, array) in enumerate(zip(names, arrays)):
        np.save(os.path.join(directory, "arg%d_%s.npy" % (i, name)),
                np.ascontiguousarray(array, dtype=np.float32))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    # MLP: x f32[256,64] -> 128 -> 10 classes.
    x = rng.standard_normal((256, 64)).astype(np.float32)
    teacher = mlp_params(rng, 64, 128, 10)
    teacher["b2"] = 0.1 * rng.standard_normal(10).astype(np.float32)
    labels = one_hot(mlp_forward(teacher, x), 10)
    write(os.path.join(args.outdir, "mlp"), mlp_params(rng, 64, 128, 10),
          x, labels)

    # CNN: x f32[8,16,16,3] NHWC -> 3x3 conv to 16 channels -> mean pool ->
    # 10 classes.
    x = rng.standard_normal((8, 16, 16, 3)).astype(np.float32)
    teacher = cnn_params(rng, 3, 16, 10)
    # Mean pooling makes every example's features alike: the teacher
    # standardises them over the batch so that its argmax varies.
    features = cnn_features(teacher, x)
    features = (features - features.mean(0)) / (features.std(0) + 1e-6)
    labels = one_hot(features @ teacher["w2"], 10)
    write(os.path.join(args.outdir, "cnn"), cnn_params(rng, 3, 16, 10),
          x, labels)


if __name__ == "__main__":
    main()
