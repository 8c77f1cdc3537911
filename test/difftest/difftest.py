"""Differential testing: random HLO programs, emulator against interpreter.

usage: difftest.py --bin DIR --workdir DIR [--seed S] [--count N]
                   [--targets all|t1,t2,...] [--precisions f32,mixed_bfloat16]
                   [--no-minimize] [--max-checks K] [--perturb]
       difftest.py --bin DIR --workdir DIR --hlo FILE --tolerance CLASS ...

For each seed S, S+1, ..., S+N-1, hlogen.py writes a random module; the
driver writes random inputs (.npy, seeded), runs `tpuc interpret` on them,
and for every target preset (`tpuc targets`) and precision compiles the
module (`tpuc compile --target --precision`), runs it with `tpuc-run` on
the same inputs and compares every result with the interpreter's
(compare.py's compare_dirs). For mixed_bfloat16 the interpreter runs the
program after the precision passes (the 00-hlo.mlir dump), so the
tolerance measures code generation, not the precision policy (as
test/e2e/Inputs/corpus_e2e.py does).

Tolerances, per result, from its tolerance class (hlogen.py): the error
relative to the result's largest magnitude, and the cosine similarity.
  exact   0      (bit-identical: integers, pred, data movement, selects)
  fp      1e-5   (f32 arithmetic, reductions in another order)
  transc  1e-4   (transcendental functions)
  loose   1e-1   and cosine >= 0.9995 (bf16 values)
  mxu     5e-1   and cosine >= 0.9995 (f32 DEFAULT-precision dots and
                 convolutions, one bf16 MXU pass: their error is relative
                 to the dot's terms, not to the result, which a later clamp
                 or cosine makes smaller, so the cosine is the real check;
                 seed 1217 has 0.106 after cos(clamp(dot)) and 6e-8 with
                 --dot-precision=highest)
In mixed_bfloat16 every float result is `loose`.

A step that fails is a finding: a crash (signal, assertion), an error of
the compiler or the emulator on a module the interpreter runs, an error of
the interpreter, or a result out of tolerance. Errors matching
KNOWN_LIMITATIONS (below: documented gaps, each with its reason) are counted
as `known`, not as failures; nothing else is skipped. Each failure is
minimized (delta debugging over the ENTRY instructions: drop results,
replace an instruction other than a result by a parameter of its shape,
drop what is dead;
kept when the same kind of failure remains) and written to
WORKDIR/failures/<seed>-<target>-<precision>/{original,minimized}.hlo with
the command that reproduces it.

--perturb adds 1 to every interpreter result before comparing (flips
pred results and a mantissa bit of bf16 ones): the self-test that a wrong
answer fails the run, and that the minimizer reduces a failing program
to a few ops. Prints one line per program
and a summary; exit status 1 when any step failed.
"""
import argparse
import copy
import os
import shutil
import subprocess
import sys
import time
import zlib

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "Inputs"))
sys.path.insert(0, HERE)
from compare import compare_dirs  # noqa: E402
import hlogen  # noqa: E402

TOLERANCES = {"exact": (0.0, 0.9999), "fp": (1e-5, 0.9999),
              "transc": (1e-4, 0.9999), "loose": (1e-1, 0.9995),
              "mxu": (5e-1, 0.9995)}

# Documented gaps: (substring of the first error line, reason). A step that
# fails with one of these is counted as `known`; the list is the whole set
# of exclusions (the generator avoids nothing silently).
KNOWN_LIMITATIONS = [
    ("cannot lower 'hlo.dot_general' with integer operands",
     "integer dots do not compile yet (docs/op-coverage.md, issue 12 item 2)"),
]


# Known gaps the generator leaves out (hlogen.generate's `exclude`), each
# with its reason; --no-exclusions generates them anyway (they then fail
# as KNOWN_LIMITATIONS). Remove an entry when its gap is closed.
EXCLUSIONS = {}


class Failure(Exception):
    def __init__(self, kind, detail):
        super().__init__(kind)
        self.kind, self.detail = kind, detail


def run(cmd, step, timeout=300):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(f"{step}-timeout", " ".join(cmd))
    if proc.returncode == 0:
        return proc.stdout
    out = proc.stderr + proc.stdout
    crashed = (proc.returncode < 0 or proc.returncode >= 128 or
               "PLEASE submit a bug report" in out or "Assertion" in out or
               "Stack dump" in out)
    first = next((line for line in out.splitlines() if "error" in line.lower()),
                 out.strip().splitlines()[0] if out.strip() else f"exit {proc.returncode}")
    for pattern, reason in KNOWN_LIMITATIONS:
        if pattern in out:
            raise Failure("known", f"{reason}: {first}")
    raise Failure(f"{step}-{'crash' if crashed else 'error'}", first.strip())


def npy_inputs(prog, seed, directory):
    """One .npy per parameter, from a generator seeded by the program seed
    and the parameter's name (so minimizing keeps the other values)."""
    os.makedirs(directory, exist_ok=True)
    flags = []
    params = [i for i in prog.live() if i.opcode == "parameter"]
    for k, p in enumerate(params):
        rng = np.random.default_rng([seed, zlib.crc32(p.name.encode())])
        shape = tuple(p.dims)
        if p.dtype in ("f32", "bf16"):
            a = rng.uniform(-2.0, 2.0, shape).astype(np.float32)
            a[rng.random(shape) < 0.05] = 0.0
            if p.dtype == "bf16":  # round to nearest even, saved as '<V2'
                bits = np.asarray(a).reshape(-1).view(np.uint32).astype(np.uint64)
                bits = (bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1))) \
                    >> np.uint64(16)
                a = bits.astype(np.uint16).view("V2").reshape(shape)
        elif p.dtype == "s32":
            a = rng.integers(-10, 40, shape).astype(np.int32)
        else:
            a = rng.random(shape) < 0.5
        path = os.path.join(directory, f"arg{k:03d}.npy")
        np.save(path, np.asarray(a))
        flags.append(f"--input=@{path}")
    return flags


class Checker:
    def __init__(self, args):
        self.a = args
        self.tool = lambda name: os.path.join(args.bin, name)

    def interpret(self, source, inputs, out):
        run([self.tool("tpuc"), "interpret", source, f"--output-dir={out}"] + inputs,
            "interpret")
        if self.a.perturb:
            for n in os.listdir(out):
                path = os.path.join(out, n)
                v = np.load(path)
                if v.dtype.kind in "fi":
                    np.save(path, v + 1)
                elif v.dtype.kind == "b":
                    np.save(path, ~v)
                else:  # bf16 bits ('<V2'): flip a mantissa bit
                    np.save(path, (v.view(np.uint16) ^ 0x0040).view(v.dtype))

    def check(self, prog, classes, seed, target, precision, work):
        """Raises Failure when `prog` fails on (target, precision)."""
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        hlo = os.path.join(work, "prog.hlo")
        with open(hlo, "w") as f:
            f.write(prog.text())
        inputs = npy_inputs(prog, seed, os.path.join(work, "inputs"))
        tpx, dump = os.path.join(work, "prog.tpx"), os.path.join(work, "dump")
        got, want = os.path.join(work, "got"), os.path.join(work, "want")
        run([self.tool("tpuc"), "compile", hlo, f"--target={target}",
             f"--precision={precision}", f"--dump-dir={dump}", "-o", tpx], "compile")
        run([self.tool("tpuc-run"), tpx, f"--output-dir={got}"] + inputs, "run")
        source = hlo if precision == "f32" else os.path.join(dump, "00-hlo.mlir")
        self.interpret(source, inputs, want)
        table = prog.by_name()
        tolerances = {}
        for r in prog.results:
            cls = classes.get(r, "loose")
            if precision != "f32" and table[r].dtype in hlogen.FLOAT and cls != "mxu":
                cls = "loose"
            tolerances[r] = TOLERANCES[cls]
        log = os.path.join(work, "compare.txt")
        with open(log, "w") as f:
            saved, sys.stdout = sys.stdout, f
            try:
                ok = compare_dirs(got, want, 0.0, 0.9999, tolerances)
            finally:
                sys.stdout = saved
        if not ok:
            with open(log) as f:
                bad = [line.strip() for line in f if "MISMATCH" in line]
            raise Failure("mismatch", bad[0] if bad else "mismatch")


def minimize(checker, prog, classes, seed, target, precision, kind, work, max_checks):
    """Delta debugging over the ENTRY: returns the smallest program found
    that fails with the same kind."""
    checks = 0

    def fails(candidate):
        nonlocal checks
        checks += 1
        try:
            checker.check(candidate, classes, seed, target, precision, work)
        except Failure as f:
            return f.kind == kind
        return False

    best = prog
    progress = True
    while progress and checks < max_checks:
        progress = False
        # Fewer results.
        for r in list(best.results):
            if len(best.results) == 1 or checks >= max_checks:
                break
            cand = copy.deepcopy(best)
            cand.results.remove(r)
            if fails(cand):
                best, progress = cand, True
        # An instruction becomes a parameter of its shape (its operands die).
        for inst in reversed(best.live()):
            if checks >= max_checks:
                break
            if (inst.opcode == "parameter" or inst.tuple_type is not None or
                    inst.name in best.results):
                continue
            cand = copy.deepcopy(best)
            target_inst = cand.by_name()[inst.name]
            target_inst.opcode, target_inst.operands, target_inst.attrs = "parameter", [], ""
            target_inst.calls = []
            target_inst.layout = list(range(len(target_inst.dims) - 1, -1, -1))
            if fails(cand):
                best, progress = cand, True
    return best, checks


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", required=True, help="directory of tpuc and tpuc-run")
    p.add_argument("--workdir", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--targets", default="tpu-v3",
                   help="comma-separated presets, or 'all' (every `tpuc targets` preset)")
    p.add_argument("--precisions", default="f32,mixed_bfloat16")
    p.add_argument("--hlo", help="check this module instead of generated ones")
    p.add_argument("--tolerance", default="loose", choices=sorted(TOLERANCES),
                   help="with --hlo: the tolerance class of every result")
    p.add_argument("--no-minimize", action="store_true")
    p.add_argument("--no-exclusions", action="store_true",
                   help="generate the features EXCLUSIONS leaves out")
    p.add_argument("--max-checks", type=int, default=200,
                   help="compile/run/interpret rounds per minimization")
    p.add_argument("--perturb", action="store_true",
                   help="self-test: add 1 to the interpreter's results")
    a = p.parse_args()
    checker = Checker(a)
    if a.targets == "all":
        out = run([checker.tool("tpuc"), "targets", "--json"], "targets")
        import json
        a.targets = ",".join(t["name"] for t in json.loads(out)["targets"])
    targets = a.targets.split(",")
    precisions = a.precisions.split(",")

    if a.hlo:
        programs = [(a.seed, parse_module(a.hlo, a.tolerance))]
    else:
        exclude = () if a.no_exclusions else tuple(EXCLUSIONS)
        for key in exclude:
            print(f"excluded: {key} ({EXCLUSIONS[key]})")
        programs = [(s, hlogen.generate(s, exclude))
                    for s in range(a.seed, a.seed + a.count)]

    counts = {"ok": 0, "known": 0, "failed": 0}
    start = time.monotonic()
    for seed, prog in programs:
        classes = prog.result_classes()
        status = []
        for target in targets:
            for precision in precisions:
                work = os.path.join(a.workdir, f"{seed}-{target}-{precision}")
                try:
                    checker.check(prog, classes, seed, target, precision, work)
                    counts["ok"] += 1
                    status.append("ok")
                    shutil.rmtree(work, ignore_errors=True)
                except Failure as f:
                    if f.kind == "known":
                        counts["known"] += 1
                        status.append("known")
                        print(f"seed {seed} {target} {precision}: known limitation: {f.detail}")
                        continue
                    counts["failed"] += 1
                    status.append(f.kind)
                    print(f"seed {seed} {target} {precision}: FAIL {f.kind}: {f.detail}")
                    report(checker, a, prog, classes, seed, target, precision, f, work)
        n_ops = len([i for i in prog.live() if i.opcode != "parameter"])
        print(f"seed {seed}: {n_ops} ops, "
              f"{sum(s == 'ok' for s in status)}/{len(status)} ok", flush=True)
    print(f"{len(programs)} programs, {len(targets)} targets x {len(precisions)} "
          f"precisions: {counts['ok']} ok, {counts['known']} known, "
          f"{counts['failed']} failed ({time.monotonic() - start:.1f} s)")
    sys.exit(1 if counts["failed"] else 0)


def report(checker, a, prog, classes, seed, target, precision, failure, work):
    out = os.path.join(a.workdir, "failures", f"{seed}-{target}-{precision}")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "original.hlo"), "w") as f:
        f.write(prog.text())
    if a.no_minimize:
        return
    small, checks = minimize(checker, prog, classes, seed, target, precision, failure.kind,
                             work + "-min", a.max_checks)
    path = os.path.join(out, "minimized.hlo")
    with open(path, "w") as f:
        f.write(small.text())
    cls = max((classes.get(r, "loose") for r in small.results), key=hlogen.CLASSES.index)
    n = len([i for i in small.live() if i.opcode != "parameter"])
    print(f"  minimized to {n} ops in {checks} checks: {path}\n"
          f"  reproduce: {sys.executable} {os.path.abspath(__file__)} --bin {a.bin} "
          f"--workdir /tmp/repro --hlo {path} --targets {target} "
          f"--precisions {precision} --tolerance {cls} --seed {seed}")


def parse_module(path, tolerance):
    """The Program of an HLO file as hlogen.py prints them (a minimized
    reproducer): called computations kept as text, ENTRY instructions
    parsed, ROOT a tuple. Every result gets the class `tolerance`."""
    with open(path) as f:
        text = f.read()
    prog = hlogen.Program(os.path.splitext(os.path.basename(path))[0].replace("-", "_"))
    blocks = text.split("\n\n")
    for block in blocks:
        block = block.strip()
        if not block or block.startswith("HloModule"):
            continue
        if block.startswith("ENTRY"):
            for line in block.splitlines()[1:-1]:
                parse_entry_line(prog, line.strip(), tolerance)
        else:
            prog.comps[block.split()[0]] = block
    return prog


def parse_entry_line(prog, line, tolerance):
    root = line.startswith("ROOT ")
    name, rest = line[5 if root else 0:].split(" = ", 1)
    if rest.startswith("("):
        depth = 0
        for end, ch in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                break
        type_text, rest = rest[:end + 1], rest[end + 2:]
    else:
        type_text, rest = rest.split(" ", 1)
    opcode, rest = rest.split("(", 1)
    args, attrs = rest.split(")", 1) if opcode != "constant" else rest.rsplit(")", 1)
    operands = [x.strip() for x in args.split(",") if x.strip()]
    if opcode in ("parameter", "constant"):
        operands = []
    if root:
        prog.results = operands
        return
    if type_text.startswith("("):
        inst = hlogen.Instr(name, None, [], opcode, operands, attrs, tuple_type=type_text)
    else:
        dtype, dims = type_text.split("[", 1)
        dims, _, layout = dims.partition("]")
        dims = [int(d) for d in dims.split(",") if d]
        layout = [int(d) for d in layout.strip("{}").split(",") if d] or None
        inst = hlogen.Instr(name, dtype, dims, opcode,
                            operands, attrs,
                            layout=layout, cls=tolerance,
                            value=args if opcode == "constant" else None)
    prog.instrs.append(inst)


if __name__ == "__main__":
    main()
