"""Checks that two --output-dir trees of a multi-device run are bit-identical.

usage: spmd_compare.py GOT_DIR WANT_DIR DEVICES

Both hold DIR/device<d>/<name>.npy for d < DEVICES with the same names;
every array must have the same dtype, shape and bytes. Prints one line per
result name ("<name>: identical on N devices"), "MISMATCH ..." otherwise,
and exits 1 on any mismatch.
"""
import os
import sys

import numpy as np


def main():
    got, want, devices = sys.argv[1], sys.argv[2], int(sys.argv[3])
    names = sorted(os.listdir(os.path.join(want, "device0")))
    bad = 0
    for name in names:
        same = 0
        for d in range(devices):
            a = np.load(os.path.join(got, f"device{d}", name))
            b = np.load(os.path.join(want, f"device{d}", name))
            if a.dtype == b.dtype and a.shape == b.shape and \
                    a.tobytes() == b.tobytes():
                same += 1
            else:
                print(f"MISMATCH {name} on device {d}: {a.dtype}{list(a.shape)}"
                      f" vs {b.dtype}{list(b.shape)}")
                bad += 1
        if same == devices:
            print(f"{name[:-4]}: identical on {devices} devices")
    sys.exit(1 if bad else 0)


main()
