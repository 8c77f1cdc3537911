"""Compiles and emulates one program on every target preset (tpuc targets),
checking each against the interpreter and, bit for bit, against the first
preset with the same MXU size.

usage: mxu_targets.py BIN_DIR SOURCE WORK_DIR MAX_REL ACROSS

For every preset prints "<target> <count>x<D> MXUs: <n> results ok,
bit-identical to <reference>" (or a MISMATCH line). The emulator runs its
exact (portable) kernels. Presets with the same D must agree bit for bit:
the kernels only change which MXU computes what. Across MXU sizes the
results listed in ACROSS (comma-separated indices: those of one bf16 pass
per product) must also agree with the first preset's, since the MXU sums K
in order whatever D is; multi-pass (HIGH, HIGHEST) products accumulate
their small products per K step, so their order depends on D. Exit status
1 on any failure.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from compare import errors, load  # noqa: E402

BIN = ""


def run(tool, *args):
    subprocess.run([f"{BIN}/{tool}", *args], check=True,
                   stdout=subprocess.DEVNULL)


def same_bits(a_dir, b_dir, i):
    return np.array_equal(np.load(f"{a_dir}/result{i}.npy"),
                          np.load(f"{b_dir}/result{i}.npy"))


def main():
    global BIN
    BIN = sys.argv[1]
    source, work, max_rel = sys.argv[2], sys.argv[3], float(sys.argv[4])
    across = [int(i) for i in sys.argv[5].split(",")]
    listing = subprocess.run([f"{BIN}/tpuc", "targets"], check=True,
                             capture_output=True, text=True).stdout
    # The chips' table; the slices' table follows a blank line.
    lines = listing.split("\n\n")[0].splitlines()
    column = lines[0].split().index("MXUs")
    targets = [(line.split()[0], line.split()[column]) for line in lines
               if line.startswith("tpu")]
    want_dir = f"{work}/want"
    run("tpuc", "interpret", source, "--random-inputs=4",
        f"--output-dir={want_dir}")
    count = len([f for f in os.listdir(want_dir) if f.startswith("result")])
    first = None      # the first preset's directory
    by_size = {}      # MXU size -> (name, directory) of its first preset
    ok = True
    for name, mxus in targets:
        out = f"{work}/{name}"
        run("tpuc", "compile", source, f"--target={name}", "-o", f"{out}.tpx")
        run("tpuc-run", f"{out}.tpx", "--random-inputs=4",
            "--kernels=portable", f"--output-dir={out}")
        size = mxus.split("x")[-1]
        ref_name, ref = by_size.setdefault(size, (name, out))
        bad = []
        for i in range(count):
            got = load(f"{out}/result{i}.npy")
            want = load(f"{want_dir}/result{i}.npy")
            _, rel, cos = errors(got, want)
            if got.shape != want.shape or rel > max_rel or cos < 0.9999:
                bad.append(f"result{i} max_rel={rel:.3g} cosine={cos:.7f}")
            elif not same_bits(out, ref, i):
                bad.append(f"result{i} differs from {ref_name}")
            elif first and i in across and not same_bits(out, first, i):
                bad.append(f"result{i} differs from {targets[0][0]}")
        first = first or out
        if bad:
            ok = False
            print(f"{name} {mxus} MXUs: MISMATCH " + "; ".join(bad))
        else:
            print(f"{name} {mxus} MXUs: {count} results ok, bit-identical to "
                  f"{ref_name}" + (f" ({len(across)} also to {targets[0][0]})"
                                   if ref_name != targets[0][0] else ""))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
