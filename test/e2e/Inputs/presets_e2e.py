"""Compiles programs for every single-device target preset, runs them on the
emulator and compares each with the reference interpreter.

usage: presets_e2e.py --bin DIR --workdir DIR [--max-rel R] [--min-cos C]
                      PROGRAM...

The presets are read from `tpuc targets --json`, so a new preset
is covered without editing the test. Each program is interpreted once
(`--random-inputs=1`) and, per preset, compiled with `--target=PRESET`, run
by tpuc-run with the same inputs and compared output by output
(compare.py's rule: error relative to the output's largest magnitude, and
cosine similarity). Prints one line per preset and program:
  PRESET PROGRAM: ok (N results, worst max_rel=...)
or MISMATCH with compare.py's lines, and exits 1 on any mismatch.
"""
import argparse
import contextlib
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def presets(tpuc):
    """Single-device preset names, from `tpuc targets --json`."""
    text = subprocess.run([tpuc, "targets", "--json"], check=True,
                          capture_output=True, text=True).stdout
    return [target["name"] for target in json.loads(text)["targets"]]


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"FAILED ({result.returncode}): {' '.join(cmd)}\n{result.stderr}")
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--max-rel", type=float, default=1e-2)
    parser.add_argument("--min-cos", type=float, default=0.9999)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    tpuc = os.path.join(args.bin, "tpuc")
    tpuc_run = os.path.join(args.bin, "tpuc-run")
    targets = presets(tpuc)
    print(f"presets: {' '.join(targets)}")
    ok = True
    for program in args.programs:
        name = os.path.splitext(os.path.basename(program))[0]
        want = os.path.join(args.workdir, name, "want")
        run([tpuc, "interpret", program, "--random-inputs=1",
             f"--output-dir={want}"])
        for target in targets:
            work = os.path.join(args.workdir, name, target)
            tpx = os.path.join(work, "program.tpx")
            got = os.path.join(work, "got")
            os.makedirs(got, exist_ok=True)
            run([tpuc, "compile", program, f"--target={target}", "-o", tpx])
            run([tpuc_run, tpx, "--random-inputs=1", f"--output-dir={got}"])
            lines = io.StringIO()
            with contextlib.redirect_stdout(lines):
                good = compare.compare_dirs(got, want, args.max_rel,
                                            args.min_cos)
            report = lines.getvalue().splitlines()
            worst = max((float(line.split("max_rel=")[1].split()[0])
                         for line in report if "max_rel=" in line),
                        default=0.0)
            if good:
                print(f"{target} {name}: ok ({len(report)} results, "
                      f"worst max_rel={worst:.3g})")
            else:
                print(f"{target} {name}: MISMATCH")
                print("\n".join("  " + line for line in report))
            ok &= good
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
