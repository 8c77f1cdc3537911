#!/usr/bin/python3
"""HBM traffic of the executable against the fusion report's promise.

For every graph given (default: the corpus, test/Inputs/corpus/hlo), compiles
it with `tpuc compile --report=fusion --report-format=json -o G.tpx`, runs
`tpuc-run G.tpx --timing-only --profile=json` and prints, side by side:

  hbm_bytes_fused  the fusion report's model (each kernel reads its operands
                   and writes its results once, logical bytes)
  exe_hbm_bytes    what the emulator's DMAs moved (padded tiles)
  ratio            exe_hbm_bytes / hbm_bytes_fused (docs/fusion.md, issue 11:
                   aim <= 1.10)
  cycles           the modeled step time

Usage:
  /usr/bin/python3 test/benchmarks/fusion_traffic.py --bin build/bin \
      [--target tpu-v3] [--precision f32] [--json out.json] \
      [--max-ratio GRAPH=BOUND ...] [GRAPH.hlo ...]

--max-ratio makes it a check: exit 1 when a graph's ratio exceeds its bound
(test/e2e/fusion-traffic.test). A graph that fails to compile or run is
reported with its error and also fails the run.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "Inputs", "corpus", "hlo")


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ":\n" + proc.stderr.strip())
    return proc.stdout


def measure(tools, graph, workdir, target, precision):
    name = os.path.splitext(os.path.basename(graph))[0]
    exe = os.path.join(workdir, name + ".tpx")
    report = json.loads(run([
        os.path.join(tools, "tpuc"), "compile", graph, "-o", exe,
        "--target=" + target, "--precision=" + precision,
        "--report=fusion", "--report-format=json"]))
    profile = json.loads(run([
        os.path.join(tools, "tpuc-run"), exe, "--timing-only", "--random-inputs=1",
        "--profile=json"]))
    fused = report["hbm_bytes_fused"]
    exe_bytes = profile["hbm_bytes"]
    return {
        "graph": name,
        "hbm_bytes_fused": fused,
        "hbm_bytes_unfused": report["hbm_bytes_unfused"],
        "exe_hbm_bytes": exe_bytes,
        "ratio": exe_bytes / fused if fused else float("inf"),
        "cycles": profile["cycles"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="directory of tpuc, tpuc-run")
    parser.add_argument("--target", default="tpu-v3")
    parser.add_argument("--precision", default="f32")
    parser.add_argument("--json", help="also write the rows as JSON here")
    parser.add_argument("--workdir", help="keep the executables here")
    parser.add_argument("--max-ratio", action="append", default=[],
                        metavar="GRAPH=BOUND",
                        help="fail when GRAPH's ratio exceeds BOUND")
    parser.add_argument("graphs", nargs="*")
    args = parser.parse_args()

    bounds = {}
    for item in args.max_ratio:
        graph, sep, bound = item.partition("=")
        if not sep:
            parser.error("--max-ratio takes GRAPH=BOUND, not '%s'" % item)
        bounds[graph] = float(bound)
    graphs = args.graphs or sorted(
        os.path.join(CORPUS, f) for f in os.listdir(CORPUS) if f.endswith(".hlo"))

    workdir = args.workdir or tempfile.mkdtemp(prefix="fusion-traffic-")
    os.makedirs(workdir, exist_ok=True)
    rows, failed = [], False
    print("%-40s %14s %14s %7s %12s" % ("graph", "report_fused", "exe_hbm", "ratio", "cycles"))
    for graph in graphs:
        name = os.path.splitext(os.path.basename(graph))[0]
        try:
            row = measure(args.bin, graph, workdir, args.target, args.precision)
        except RuntimeError as err:
            print("%-40s ERROR %s" % (name, err))
            failed = True
            continue
        rows.append(row)
        verdict = ""
        for key, bound in bounds.items():
            if key in name:
                verdict = " ok (<= %.2f)" % bound
                if row["ratio"] > bound:
                    verdict = " ABOVE BOUND %.2f" % bound
                    failed = True
        print("%-40s %14d %14d %7.2f %12d%s" % (
            name, row["hbm_bytes_fused"], row["exe_hbm_bytes"], row["ratio"],
            row["cycles"], verdict))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
