"""Checks that `tpuc fit`'s verdicts are what `tpuc compile` does.

usage: fit_agrees.py TPUC FILE [FLAG ...]

Runs `tpuc fit FILE --report-format=json --timing=false FLAGS`, then for
every target `tpuc compile FILE --target=T FLAGS`: a target that fits must
compile (exit 0), one that does not must fail with XLA's out-of-memory
message; likewise for every fix `tpuc fit` lists, with its flags added.
Prints one line per check and exits 1 on the first disagreement.
"""
import json
import subprocess
import sys


def compile_agrees(tpuc, path, flags, target, fits, used):
    run = subprocess.run([tpuc, "compile", path, "--target=" + target] + flags,
                         capture_output=True, text=True)
    oom = "Ran out of memory in memory space hbm" in run.stderr
    ok = (run.returncode == 0) if fits else (run.returncode == 1 and oom)
    verdict = "fits" if fits else "does not fit"
    print(f"{target} {' '.join(flags)}: fit says {verdict} ({used} bytes), "
          f"compile exit {run.returncode}{' OOM' if oom else ''}: "
          f"{'agree' if ok else 'DISAGREE'}")
    if not ok:
        sys.stderr.write(run.stderr)
    return ok


def main():
    tpuc, path, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = subprocess.run([tpuc, "fit", path, "--report-format=json",
                          "--timing=false"] + flags,
                         capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    for t in report["targets"]:
        if not compile_agrees(tpuc, path, flags, t["target"], t["fits"],
                              t["used_bytes"]):
            return 1
        for fix in t["fixes"]:
            # A fix's flags replace the given flags of the same names.
            changed = fix["flags"].split()
            names = {f.split("=")[0] for f in changed}
            fixed = [f for f in flags if f.split("=")[0] not in names]
            if not compile_agrees(tpuc, path, fixed + changed,
                                  t["target"], fix["fits"], fix["used_bytes"]):
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
