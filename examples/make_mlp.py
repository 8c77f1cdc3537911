#!/usr/bin/env python3
"""Writes the MLP training step of mlp_train_step.hlo at other sizes.

usage: make_mlp.py BATCH IN HIDDEN CLASSES > step.hlo

mlp_train_step.hlo is x f32[256,64] -> dense 128 (+b1) -> relu -> dense 10
(+b2) -> softmax cross-entropy against one-hot labels, one SGD step. This
script rewrites every dimension of its shapes (256 -> BATCH, 64 -> IN,
128 -> HIDDEN, 10 -> CLASSES; unit dims stay) and the batch constant of the mean, so the
program is the same HLO at the new sizes, e.g. the compute-bound step of
docs/performance.md:

    make_mlp.py 2048 1024 4096 1024 > mlp2048.hlo
"""
import os
import re
import sys


def main(argv):
    if len(argv) != 5 or not all(a.isdigit() and int(a) > 0 for a in argv[1:]):
        sys.stderr.write("usage: make_mlp.py BATCH IN HIDDEN CLASSES\n")
        return 2
    batch, inputs, hidden, classes = argv[1:]
    sizes = {"256": batch, "64": inputs, "128": hidden, "10": classes}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "mlp_train_step.hlo")
    text = open(path).read()

    def shape(match):
        dims = match.group(1).split(",")
        return "[" + ",".join(sizes.get(d, d) for d in dims) + "]"

    # Only the dims inside shapes and the mean's divisor change.
    text = re.sub(r"\[([0-9,]+)\]", shape, text)
    text = text.replace("constant(256)", "constant(%s)" % batch)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
