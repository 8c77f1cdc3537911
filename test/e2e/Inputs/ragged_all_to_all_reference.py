"""numpy reference for test/e2e/Inputs/spmd_ragged_all_to_all.hlo.

usage: ragged_all_to_all_reference.py [--per-peer=2] INPUT_DIR [OUTPUT_DIR]

Writes INPUT_DIR/p.npy and o.npy (seeded), and with OUTPUT_DIR (a tpuc
--output-dir tree) checks device<d>/rr.npy against XLA's ragged-all-to-all
computed here: in each group of 4 replicas, sender i (rank) sends, for its
updates j = k * per_peer + u, rows [input_offsets_i[j], + send_sizes_i[j])
of its x = p + replica id to rank k, which writes them at
output_offsets_i[j] of its copy of o (XLA's RaggedAllToAllThunk). Without
--per-peer the tables of spmd_ragged_all_to_all.hlo (one update per peer),
with --per-peer=2 those of spmd_ragged_all_to_all_multi.hlo. Prints "ok" or
"MISMATCH" per device.
"""
import os
import sys

import numpy as np

GROUPS = [[0, 1, 2, 3], [4, 5, 6, 7]]


def tables(per_peer):
    if per_peer == 1:
        return ([[0, 3, 6, 9]] * 8, [[2, 3, 2, 3], [3, 2, 3, 2]] * 4,
                [[0] * 4, [4] * 4, [8] * 4, [12] * 4] * 2)
    # Update j of sender s: 1 or 2 rows from row 2j, into the receiver's
    # 4-row slot of rank s at 2u.
    updates = 4 * per_peer
    return ([[2 * j for j in range(updates)] for s in range(8)],
            [[1 + (s + j) % 2 for j in range(updates)] for s in range(8)],
            [[(s % 4) * 4 + (j % per_peer) * 2 for j in range(updates)]
             for s in range(8)])


def main():
    args = sys.argv[1:]
    per_peer = 1
    if args and args[0].startswith("--per-peer="):
        per_peer = int(args.pop(0).split("=")[1])
    tio, tss, too = tables(per_peer)
    inputs = args[0]
    rng = np.random.default_rng(11)
    p = rng.standard_normal((16, 130)).astype(np.float32)
    o = rng.standard_normal((20, 130)).astype(np.float32)
    np.save(os.path.join(inputs, "p.npy"), p)
    np.save(os.path.join(inputs, "o.npy"), o)
    if len(args) < 2:
        return
    bad = 0
    for group in GROUPS:
        for k, receiver in enumerate(group):
            want = o.copy()
            for sender in group:
                x = p + np.float32(sender)
                for j in range(k * per_peer, (k + 1) * per_peer):
                    start, size = tio[sender][j], tss[sender][j]
                    at = too[sender][j]
                    want[at:at + size] = x[start:start + size]
            got = np.load(os.path.join(args[1], f"device{receiver}",
                                       "rr.npy"))
            same = got.shape == want.shape and np.array_equal(got, want)
            print(f"device {receiver}: {'ok' if same else 'MISMATCH'}")
            bad += not same
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
