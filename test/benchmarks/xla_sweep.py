"""XLA's own HLO test modules through tpuc: import, then end to end.

usage: xla_sweep.py --repo GITDIR --bin DIR --workdir DIR [--sample N] [--seed S]
                    [--filter REGEX] [--timeout SECONDS]

GITDIR is a git directory of openxla/xla (the `fetch` tool's snapshot of
openxla/openxla works: /work/.mirror/openxla+openxla/repo). The modules are
every `*.hlo` / `*.hlo.txt` file split at `// -----`, and every raw string
of a `*_test.cc` file that holds `HloModule` and `ENTRY` and no template
hole (`$`, `%s`), deduplicated by content; --filter keeps the modules whose
text matches REGEX. Each is written to WORKDIR/mods/<sha1[:12]>.hlo with
WORKDIR/mods/SOURCES naming its file and line.

Then `tpuc import M -o /dev/null` on each module (first diagnostic kept),
and test/e2e/Inputs/corpus_e2e.py (compile, emulator, interpreter, compare
at 1e-3 of the largest output) on a seeded sample of --sample imported
modules. Prints the counts, the import diagnostics and the end-to-end
outcomes grouped by message (file names and numbers folded), and writes
WORKDIR/import.txt and WORKDIR/e2e.txt (one line a module).
"""
import argparse
import collections
import hashlib
import os
import random
import re
import subprocess
import sys


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True,
                          text=True, errors="replace").stdout


def extract(repo, out, pattern):
    os.makedirs(out, exist_ok=True)
    files = [f for f in git(repo, "ls-tree", "-r", "--name-only", "HEAD").split("\n")
             if f.startswith("xla/") and
             (re.search(r"\.hlo(\.txt)?$", f) or f.endswith("_test.cc"))]
    seen = {}
    for f in files:
        text = git(repo, "show", "HEAD:" + f)
        mods = []
        if f.endswith(".cc"):
            for m in re.finditer(r'R"(\w*)\((.*?)\)\1"', text, re.S):
                body = m.group(2)
                if ("HloModule" in body and "ENTRY" in body and "$" not in body
                        and "%s" not in body):
                    mods.append((text[:m.start()].count("\n") + 1, body))
        else:
            for i, part in enumerate(text.split("// -----")):
                if "ENTRY" in part or re.search(r"^\s*\w+\s*[{(]", part, re.M):
                    mods.append((i, part))
        for line, body in mods:
            if pattern and not re.search(pattern, body):
                continue
            h = hashlib.sha1(body.encode()).hexdigest()[:12]
            if h not in seen:
                seen[h] = "%s:%s" % (f, line)
                with open(os.path.join(out, h + ".hlo"), "w") as o:
                    o.write(body)
    with open(os.path.join(out, "SOURCES"), "w") as o:
        for h, s in sorted(seen.items(), key=lambda x: x[1]):
            o.write("%s %s\n" % (h, s))
    return sorted(seen)


def fold(message):
    """A message without its file, line, quoted names and numbers."""
    message = re.sub(r"^\S+\.hlo(:\d+:\d+)?: ", "", message)
    message = re.sub(r"'[^']*'", "Q", message)
    return re.sub(r"\d+(\.\d+)?", "N", message)[:160]


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, "timed out"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--filter", default="")
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    mods = os.path.join(args.workdir, "mods")
    hashes = extract(args.repo, mods, args.filter)
    tpuc = os.path.join(args.bin, "tpuc")
    imported, causes = [], collections.Counter()
    with open(os.path.join(args.workdir, "import.txt"), "w") as log:
        for h in hashes:
            path = os.path.join(mods, h + ".hlo")
            rc, text = run([tpuc, "import", path, "-o", os.devnull], 30)
            first = next((l for l in text.splitlines() if "error" in l), "")
            if rc == 0:
                imported.append(path)
            else:
                causes[fold(first) or "exit %d" % rc] += 1
            log.write("%s %d %s\n" % (h, rc, first))
    print("modules %d, import %d" % (len(hashes), len(imported)))
    for cause, n in causes.most_common(25):
        print("  %5d  %s" % (n, cause))
    random.Random(args.seed).shuffle(imported)
    sample = imported[:args.sample]
    e2e = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e",
                       "Inputs", "corpus_e2e.py")
    outcomes = collections.Counter()
    with open(os.path.join(args.workdir, "e2e.txt"), "w") as log:
        for path in sample:
            h = os.path.basename(path)[:-4]
            rc, text = run([sys.executable, e2e, "--bin", args.bin, "--workdir",
                            os.path.join(args.workdir, "e2e", h), path,
                            "--max-rel", "1e-3"], args.timeout)
            lines = [l for l in text.splitlines()
                     if "error" in l or "MISMATCH" in l]
            what = "match" if rc == 0 else fold(lines[0]) if lines else \
                "exit %d" % rc
            outcomes[what] += 1
            log.write("%s %d %s\n" % (h, rc, lines[0] if lines else ""))
    print("end to end on %d of them (seed %d):" % (len(sample), args.seed))
    for what, n in outcomes.most_common(40):
        print("  %5d  %s" % (n, what))


if __name__ == "__main__":
    main()
