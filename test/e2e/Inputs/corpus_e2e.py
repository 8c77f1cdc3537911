"""End to end on one HLO graph: tpuc compile -> tpuc-run vs tpuc interpret.

usage: corpus_e2e.py --bin DIR --workdir DIR GRAPH [--precision f32|mixed_bfloat16]
                     [--max-rel R] [--min-cos C] [--seed S] [--extra FLAG ...] [--scaled-inputs]

Compiles GRAPH with `tpuc compile --precision=P`, runs the
executable on the emulator with `--random-inputs=SEED` and the reference
interpreter on the same inputs, and compares every result (max abs error,
max error relative to the output's largest magnitude, cosine similarity;
see compare.py). The interpreter runs the program the emulator runs: the
original graph for f32, the graph after the precision passes (`tpuc
compile --emit=hlo`) for mixed_bfloat16, so the tolerance measures code
generation, not the precision policy. (No --dump-dir: its per-pass dumps
of a graph with large constants, graphsage's, take ~2 GB.) A module written for several devices
(replica_count x num_partitions) that the default one-device target refuses
is compiled for the slice with that many devices (SLICES) and compared
device by device. Prints one line per result (per device: "device<d>
<name>: ...") and the host wall times, and exits 1 on a mismatch or a
failed step. The result arrays are deleted when everything matches.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from compare import compare_dirs  # noqa: E402


# The slice `tpuc targets` lists for each device count.
SLICES = {4: "tpu-v4-8", 8: "tpu-v3-8", 16: "tpu-v4-32", 32: "tpu-v3-32"}


def run(cmd, check=True):
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0 and not check:
        return None, proc.stdout + proc.stderr
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout)
        sys.stdout.write(proc.stderr)
        print(f"FAILED ({proc.returncode}): {' '.join(cmd)}")
        sys.exit(1)
    return time.monotonic() - start, proc.stdout


def write_inputs(tool, tpx, directory, seed):
    """Scaled inputs for a graph whose uniform random inputs overflow
    (resnet50's batch norms take rsqrt of a random variance): rank >= 2
    floats N(0, 1 / (2 fan_in)) with fan_in the product of all dims but
    the last (a quarter of He's variance, so that resnet50's softmax is
    not saturated and its 1000 outputs all carry information), rank <= 1
    floats uniform in [0.5, 1.5) (scales, variances, counters), integers
    0. Parameter shapes come from the executable."""
    _, text = run([tool("tpuc"), "translate", "--executable-to-text", tpx])
    rng = np.random.default_rng(int(seed))
    os.makedirs(directory, exist_ok=True)
    flags = []
    for line in text.splitlines():
        m = re.match(r'parameter (\d+) "[^"]*" ([A-Z0-9]+)\[([0-9,]*)\]', line)
        if not m:
            continue
        index, dtype = int(m.group(1)), m.group(2)
        shape = [int(d) for d in m.group(3).split(",") if d]
        if dtype in ("F32", "BF16"):
            if len(shape) >= 2:
                fan_in = int(np.prod(shape[:-1]))
                a = rng.normal(0.0, np.sqrt(0.5 / fan_in), shape)
            else:
                a = rng.uniform(0.5, 1.5, shape)
            a = a.astype(np.float32)
        else:
            a = np.zeros(shape, np.int32)
        path = os.path.join(directory, f"arg{index:03d}.npy")
        np.save(path, a)
        flags.append(f"--input=@{path}")
    return flags


def main():
    p = argparse.ArgumentParser()
    p.add_argument("graph")
    p.add_argument("--bin", required=True)
    p.add_argument("--workdir", required=True)
    p.add_argument("--precision", default="f32")
    p.add_argument("--max-rel", type=float, default=1e-2)
    p.add_argument("--min-cos", type=float, default=0.9999)
    p.add_argument("--seed", default="1")
    p.add_argument("--extra", action="append", default=[])
    p.add_argument("--scaled-inputs", action="store_true",
                   help="fan-in-scaled inputs instead of uniform random ones")
    a = p.parse_args()
    work = os.path.join(a.workdir, a.precision)
    os.makedirs(work, exist_ok=True)
    tpx = os.path.join(work, "prog.tpx")
    got, want = os.path.join(work, "got"), os.path.join(work, "want")
    tool = lambda name: os.path.join(a.bin, name)
    compile_args = [tool("tpuc"), "compile", a.graph,
                    f"--precision={a.precision}"] + a.extra
    t_compile, out = run(compile_args + ["-o", tpx], check=False)
    devices = 1
    m = re.search(r"compile for a slice with (\d+) devices", out)
    if t_compile is None and m and int(m.group(1)) in SLICES:
        devices = int(m.group(1))
        compile_args.append(f"--target={SLICES[devices]}")
        print(f"compiled for {SLICES[devices]} ({devices} devices)")
    if t_compile is None:
        t_compile, _ = run(compile_args + ["-o", tpx])
    inputs = [f"--random-inputs={a.seed}"]
    if a.scaled_inputs:
        inputs = write_inputs(tool, tpx, os.path.join(work, "inputs"), a.seed)
    t_run, _ = run([tool("tpuc-run"), tpx, f"--output-dir={got}"] + inputs)
    source = a.graph
    if a.precision != "f32":
        source = os.path.join(work, "hlo.mlir")
        run(compile_args + ["--emit=hlo", "-o", source])
    t_interp, _ = run([tool("tpuc"), "interpret", source, f"--output-dir={want}"] + inputs)
    if devices == 1:
        ok = compare_dirs(got, want, a.max_rel, a.min_cos)
    else:
        ok = True
        for d in range(devices):
            print(f"device{d}")
            ok &= compare_dirs(os.path.join(got, f"device{d}"),
                               os.path.join(want, f"device{d}"), a.max_rel,
                               a.min_cos)
    print(f"wall: compile {t_compile:.2f} s, emulator {t_run:.2f} s, "
          f"interpreter {t_interp:.2f} s")
    if ok:  # the arrays are kept only to look at a mismatch (resnet50's: 300 MB)
        for d in (got, want, os.path.join(work, "inputs")):
            shutil.rmtree(d, ignore_errors=True)
    sys.exit(0 if ok else 1)


main()
