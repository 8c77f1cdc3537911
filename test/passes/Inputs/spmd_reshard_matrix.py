"""Partitioning under many tilings of 8 partitions, checked numerically.

reshard: programs whose chain of elementwise ops carries a sequence of
shardings (2-D and 3-D meshes, transposed iota, explicit device orders,
partial replication) such that every ordered pair is one step; compared
exactly with the global program (resharding only moves data).
dot: one program of dot_generals and reductions whose lhs, rhs and result
tilings are drawn from 2-D tilings (batch x model meshes, partial
replication, contractions split over a mesh axis); compared within 1e-5.
The partitioned program runs on 8 devices, the global one on 1, both with
tpuc interpret.
Usage: spmd_reshard_matrix.py reshard|dot BIN_DIR WORK_DIR
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


MATRIX_SHARDINGS = [
    "{replicated}",
    "{devices=[8,1]<=[8]}",
    "{devices=[1,8]<=[8]}",
    "{devices=[2,4]<=[8]}",
    "{devices=[4,2]<=[2,4]T(1,0)}",
    "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
    "{devices=[1,2,4]<=[8] last_tile_dim_replicate}",
    "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
    "{devices=[4,1,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}",
    "{devices=[2,2,2]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}",
]


def run(bin_dir, src, part, inputs, outputs_global, outputs_part):
    subprocess.run([os.path.join(bin_dir, "tpuc-opt"), src,
                    "--tpuc-sharding-propagation", "--tpuc-spmd-partition",
                    "-o", part], check=True)
    tpuc = os.path.join(bin_dir, "tpuc")
    ins = [f"--input=@{i}" for i in inputs]
    subprocess.run([tpuc, "interpret", src, "--num-partitions=1"] + ins +
                   [f"--output=@{o}" for o in outputs_global], check=True)
    subprocess.run([tpuc, "interpret", part] + ins +
                   [f"--output=@{o}" for o in outputs_part], check=True)


def dots(bin_dir, work):
    rng = np.random.default_rng(10)
    x, w = os.path.join(work, "x.npy"), os.path.join(work, "w.npy")
    np.save(x, rng.standard_normal((16, 16)).astype(np.float32))
    np.save(w, rng.standard_normal((16, 16)).astype(np.float32))
    n = len(MATRIX_SHARDINGS)
    t = "tensor<16x16xf32>"
    body, results, types = [], [], []
    cases = 48
    for c in range(cases):
        a, b, o, r = (int(v) for v in rng.integers(0, n, 4))
        s = MATRIX_SHARDINGS
        body.append(f'    %x{c} = hlo.negate %x {{hlo.sharding = "{s[a]}"}} : {t}')
        body.append(f'    %w{c} = hlo.negate %w {{hlo.sharding = "{s[b]}"}} : {t}')
        # lhs contracting 1 with rhs 0, or both along 0 (a weight
        # gradient), alternately.
        dims = ("lhs_contracting = [1], rhs_contracting = [0]" if c % 2 == 0
                else "lhs_contracting = [0], rhs_contracting = [0]")
        body.append(f'    %d{c} = hlo.dot_general %x{c}, %w{c}, dims = <{dims}>'
                    f' {{hlo.sharding = "{s[o]}"}} : ({t}, {t}) -> {t}')
        # Sum over one dimension, the result split like a row of `r`.
        red = s[r].replace("[8,1]", "[8]").replace("[1,8]", "[8]")
        one_d = {"{replicated}", "{devices=[8]<=[8]}"}
        red = red if red in one_d else "{replicated}"
        body.append(f"    %r{c} = hlo.reduce(%d{c}) init(%zero) dims = [{c % 2}]"
                    f' {{hlo.sharding = "{red}"}} : ({t}, tensor<f32>)'
                    " -> tensor<16xf32> {")
        body.append("    ^bb0(%p: tensor<f32>, %q: tensor<f32>):")
        body.append("      %s = hlo.add %p, %q : tensor<f32>")
        body.append("      hlo.return %s : tensor<f32>")
        body.append("    }")
        results += [f"%d{c}", f"%r{c}"]
        types += [t, "tensor<16xf32>"]
    src = os.path.join(work, "dots.mlir")
    with open(src, "w") as f:
        f.write("module attributes {hlo.num_partitions = 8 : i64} {\n"
                f"  func.func @main(%x: {t}, %w: {t}) -> ({', '.join(types)}) {{\n"
                "    %zero = hlo.constant dense<0.000000e+00> : tensor<f32>\n"
                + "\n".join(body) + "\n"
                f"    return {', '.join(results)} : {', '.join(types)}\n"
                "  }\n}\n")
    want = [os.path.join(work, f"want{i}.npy") for i in range(len(results))]
    got = [os.path.join(work, f"got{i}.npy") for i in range(len(results))]
    run(bin_dir, src, os.path.join(work, "dots.part.mlir"), [x, w], want, got)
    worst = 0.0
    for a, b in zip(want, got):
        ref, val = np.load(a), np.load(b)
        err = np.max(np.abs(ref - val)) / max(np.max(np.abs(ref)), 1e-30)
        worst = max(worst, float(err))
    ok = worst <= 1e-5
    print(f"{cases} dots and reductions: "
          f"{'within' if ok else 'NOT within'} 1e-5 relative")
    sys.exit(0 if ok else 1)


def main():
    mode, bin_dir, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    if mode == "dot":
        return dots(bin_dir, work)
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
        want = os.path.join(work, f"want{c}.npy")
        got = os.path.join(work, f"got{c}.npy")
        run(bin_dir, src, part, [x], [want], [got])
        if not np.array_equal(np.load(want), np.load(got)):
            print(f"chain {c} {chain}: results differ")
            sys.exit(1)
        steps += len(chain) - 1
    print(f"{len(chains)} chains, {steps} reshards, "
          f"{n * (n - 1)} sharding pairs: bit-identical")


main()
