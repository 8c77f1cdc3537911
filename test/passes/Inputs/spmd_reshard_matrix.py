"""Resharding between many tilings of 8 partitions, checked bit for bit.

Writes programs whose chain of elementwise ops carries a sequence of
shardings (2-D and 3-D meshes, transposed iota, explicit device orders,
partial replication), partitions each with tpuc-opt, runs the partitioned
program on 8 devices and the global one on 1 with tpuc interpret, and
compares the results exactly (resharding only moves data).
Usage: spmd_reshard_matrix.py BIN_DIR WORK_DIR
"""
import os
import subprocess
import sys

import numpy as np

SHARDINGS = [
    "{replicated}",
    "{devices=[8,1,1]<=[8]}",
    "{devices=[1,8,1]<=[8]}",
    "{devices=[2,4,1]<=[8]}",
    "{devices=[4,2,1]<=[2,4]T(1,0)}",
    "{devices=[2,2,2]<=[2,2,2]T(2,0,1)}",
    "{devices=[2,1,1,4]<=[8] last_tile_dim_replicate}",
    "{devices=[1,2,2,2]<=[2,2,2]T(1,2,0) last_tile_dim_replicate}",
    "{devices=[1,1,4,2]0,2,4,6,1,3,5,7 last_tile_dim_replicate}",
    "{devices=[2,4,1]3,1,0,2,7,5,6,4}",
    "{devices=[1,4,1,2]<=[8] last_tile_dims={replicated}}",
    "{devices=[1,2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}",
]
OPS = ["hlo.negate", "hlo.exponential", "hlo.sine", "hlo.abs"]


def program(order):
    t = "tensor<8x8x4xf32>"
    lines = ["module attributes {hlo.num_partitions = 8 : i64} {",
             f'  func.func @main(%v0: {t} {{hlo.sharding = "{SHARDINGS[order[0]]}"}})'
             f' -> ({t} {{hlo.sharding = "{SHARDINGS[order[-1]]}"}}) {{']
    for i, s in enumerate(order[1:-1]):
        op = OPS[i % len(OPS)]
        lines.append(f'    %v{i + 1} = {op} %v{i} {{hlo.sharding = "{SHARDINGS[s]}"}} : {t}')
    lines.append(f"    return %v{len(order) - 2} : {t}")
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(9)
    x = os.path.join(work, "x.npy")
    np.save(x, rng.standard_normal((8, 8, 4)).astype(np.float32))
    n = len(SHARDINGS)
    # Every ordered pair (a, b) with a != b is one step of some chain: the
    # chain for offset k visits 0, k, 2k, ... (mod n), for k = 1 .. n-1
    # (n is not prime, so chains restart until every pair is covered).
    pairs = {(a, b) for a in range(n) for b in range(n) if a != b}
    chains = []
    while pairs:
        a, b = min(pairs)
        chain = [a, b]
        pairs.discard((a, b))
        while True:
            nxt = [p for p in sorted(pairs) if p[0] == chain[-1]]
            if not nxt:
                break
            chain.append(nxt[0][1])
            pairs.discard(nxt[0])
        chains.append(chain)
    steps = 0
    for c, chain in enumerate(chains):
        # The chain's first sharding is the parameter's and its last the
        # result's; ops carry the ones between, so pad a one-step chain.
        if len(chain) < 3:
            chain = [chain[0], chain[0], chain[1]]
        src = os.path.join(work, f"chain{c}.mlir")
        part = os.path.join(work, f"chain{c}.part.mlir")
        with open(src, "w") as f:
            f.write(program(chain))
        subprocess.run([os.path.join(bin_dir, "tpuc-opt"), src,
                        "--tpuc-sharding-propagation", "--tpuc-spmd-partition",
                        "-o", part], check=True)
        want = os.path.join(work, f"want{c}.npy")
        got = os.path.join(work, f"got{c}.npy")
        tpuc = os.path.join(bin_dir, "tpuc")
        subprocess.run([tpuc, "interpret", src, "--num-partitions=1",
                        f"--input=@{x}", f"--output=@{want}"], check=True)
        subprocess.run([tpuc, "interpret", part, f"--input=@{x}",
                        f"--output=@{got}"], check=True)
        if not np.array_equal(np.load(want), np.load(got)):
            print(f"chain {c} {chain}: results differ")
            sys.exit(1)
        steps += len(chain) - 1
    print(f"{len(chains)} chains, {steps} reshards, "
          f"{n * (n - 1)} sharding pairs: bit-identical")


main()
