#!/usr/bin/python3
"""The executable against the compiler's plans: HBM traffic and HBM used.

For every graph given (default: the corpus, test/Inputs/corpus/hlo), compiles
it with `tpuc compile --report=memory,fusion --report-format=json -o G.tpx`,
runs `tpuc-run G.tpx --timing-only --profile=json` and prints, side by side:

  hbm_bytes_fused  the fusion report's model (each kernel reads its operands
                   and writes its results once, logical bytes)
  exe_hbm_bytes    what the emulator's DMAs moved (padded tiles)
  ratio            exe_hbm_bytes / hbm_bytes_fused (docs/fusion.md, issue 11:
                   aim <= 1.10)
  padded           exe_hbm_bytes / the report's hbm_bytes_fused_padded (the
                   same model with every array counted as laid out: what
                   the executable would move if it followed the plan, so
                   what is above 1 is traffic of the code generator's own,
                   not the layouts' padding)
  cycles           the modeled step time
  plan_used        the memory report's totals.used_bytes
  exe_used         tpuc-run's hbm_used_bytes: arguments, constants and the
                   executable's heap (docs/executable-format.md, "HBM")
  used_ratio       exe_used / plan_used (1.00: the code generator stores
                   nothing the plan does not)

Every run also checks that the three agree where they must: the executable's
hbm_planned_bytes is the report's totals.used_bytes (one plan), and its
hbm_used_bytes is what the report's "executable" section says.

Usage:
  /usr/bin/python3 test/benchmarks/fusion_traffic.py --bin build/bin \
      [--target tpu-v3] [--precision f32] [--json out.json] \
      [--max-ratio GRAPH=BOUND ...] [--max-used-ratio GRAPH=BOUND ...]
      [--max-padded-ratio GRAPH=BOUND ...]
      [--min-ratio BOUND]
      [GRAPH.hlo ...]

--max-ratio, --max-used-ratio and --max-padded-ratio make it a check: exit 1 when a graph's
ratio exceeds its bound, --min-ratio BOUND when any graph's traffic ratio is
below BOUND (test/e2e/fusion-traffic.test). A graph that fails to compile or run is
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
        "--report=memory,fusion", "--report-format=json"]))
    profile = json.loads(run([
        os.path.join(tools, "tpuc-run"), exe, "--timing-only", "--random-inputs=1",
        "--profile=json"]))
    fused = report["fusion"]["hbm_bytes_fused"]
    exe_bytes = profile["hbm_bytes"]
    plan_used = report["totals"]["used_bytes"]
    exe_used = profile["hbm_used_bytes"]
    if profile["hbm_planned_bytes"] != plan_used:
        raise RuntimeError("the executable's plan (%d bytes) is not the memory "
                           "report's (%d)" % (profile["hbm_planned_bytes"], plan_used))
    if report["executable"]["used_bytes"] != exe_used:
        raise RuntimeError("the report says the executable uses %d bytes, "
                           "tpuc-run says %d" % (report["executable"]["used_bytes"],
                                                 exe_used))
    return {
        "plan_used_bytes": plan_used,
        "exe_used_bytes": exe_used,
        "used_ratio": exe_used / plan_used if plan_used else float("inf"),
        "graph": name,
        "hbm_bytes_fused": fused,
        "hbm_bytes_unfused": report["fusion"]["hbm_bytes_unfused"],
        "exe_hbm_bytes": exe_bytes,
        "ratio": exe_bytes / fused if fused else float("inf"),
        "hbm_bytes_fused_padded": report["fusion"]["hbm_bytes_fused_padded"],
        "padded_ratio": (exe_bytes / report["fusion"]["hbm_bytes_fused_padded"]
                         if report["fusion"]["hbm_bytes_fused_padded"]
                         else float("inf")),
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
    parser.add_argument("--max-used-ratio", action="append", default=[],
                        metavar="GRAPH=BOUND",
                        help="fail when GRAPH's used_ratio exceeds BOUND")
    parser.add_argument("--max-padded-ratio", action="append", default=[],
                        metavar="GRAPH=BOUND",
                        help="fail when GRAPH's padded ratio exceeds BOUND")
    parser.add_argument("--min-ratio", type=float, metavar="BOUND",
                        help="fail when any graph's ratio is below BOUND (the "
                        "report promises traffic the executable does not move: "
                        "the model is wrong)")
    parser.add_argument("graphs", nargs="*")
    args = parser.parse_args()

    def parse_bounds(items, flag):
        bounds = {}
        for item in items:
            graph, sep, bound = item.partition("=")
            if not sep:
                parser.error("%s takes GRAPH=BOUND, not '%s'" % (flag, item))
            bounds[graph] = float(bound)
        return bounds
    bounds = parse_bounds(args.max_ratio, "--max-ratio")
    used_bounds = parse_bounds(args.max_used_ratio, "--max-used-ratio")
    padded_bounds = parse_bounds(args.max_padded_ratio, "--max-padded-ratio")
    graphs = args.graphs or sorted(
        os.path.join(CORPUS, f) for f in os.listdir(CORPUS) if f.endswith(".hlo"))

    workdir = args.workdir or tempfile.mkdtemp(prefix="fusion-traffic-")
    os.makedirs(workdir, exist_ok=True)
    rows, failed = [], False
    print("%-40s %14s %14s %7s %7s %12s %12s %12s %6s" % (
        "graph", "report_fused", "exe_hbm", "ratio", "padded", "cycles",
        "plan_used", "exe_used", "used"))
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
        if args.min_ratio is not None:
            if row["ratio"] < args.min_ratio:
                verdict += " traffic BELOW BOUND %.2f" % args.min_ratio
                failed = True
        for what, key_bounds, value in (("traffic", bounds, row["ratio"]),
                                        ("used", used_bounds, row["used_ratio"]),
                                        ("padded", padded_bounds,
                                         row["padded_ratio"])):
            for key, bound in key_bounds.items():
                if key in name:
                    if value > bound:
                        verdict += " %s ABOVE BOUND %.2f" % (what, bound)
                        failed = True
                    else:
                        verdict += " %s ok (<= %.2f)" % (what, bound)
        print("%-40s %14d %14d %7.2f %7.2f %12d %12d %12d %6.2f%s" % (
            name, row["hbm_bytes_fused"], row["exe_hbm_bytes"], row["ratio"],
            row["padded_ratio"], row["cycles"], row["plan_used_bytes"], row["exe_used_bytes"],
            row["used_ratio"], verdict))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
