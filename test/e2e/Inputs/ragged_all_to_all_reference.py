"""numpy reference for test/e2e/Inputs/spmd_ragged_all_to_all.hlo.

usage: ragged_all_to_all_reference.py INPUT_DIR OUTPUT_DIR

Writes INPUT_DIR/p.npy and o.npy (seeded), and with OUTPUT_DIR (a tpuc
--output-dir tree) checks device<d>/rr.npy against XLA's ragged-all-to-all
computed here: in each group of 4 replicas, sender i (rank) sends rows
[input_offsets_i[k], + send_sizes_i[k]) of its x = p + replica id to rank k,
which writes them at output_offsets_i[k] of its copy of o. Prints "ok" or
"MISMATCH" per device.
"""
import os
import sys

import numpy as np

TIO = [[0, 3, 6, 9]] * 8
TSS = [[2, 3, 2, 3], [3, 2, 3, 2]] * 4
TOO = [[0] * 4, [4] * 4, [8] * 4, [12] * 4] * 2
GROUPS = [[0, 1, 2, 3], [4, 5, 6, 7]]


def main():
    inputs = sys.argv[1]
    rng = np.random.default_rng(11)
    p = rng.standard_normal((16, 130)).astype(np.float32)
    o = rng.standard_normal((20, 130)).astype(np.float32)
    np.save(os.path.join(inputs, "p.npy"), p)
    np.save(os.path.join(inputs, "o.npy"), o)
    if len(sys.argv) < 3:
        return
    bad = 0
    for group in GROUPS:
        for k, receiver in enumerate(group):
            want = o.copy()
            for sender in group:
                x = p + np.float32(sender)
                start, size = TIO[sender][k], TSS[sender][k]
                at = TOO[sender][k]
                want[at:at + size] = x[start:start + size]
            got = np.load(os.path.join(sys.argv[2], f"device{receiver}",
                                       "rr.npy"))
            same = got.shape == want.shape and np.array_equal(got, want)
            print(f"device {receiver}: {'ok' if same else 'MISMATCH'}")
            bad += not same
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
