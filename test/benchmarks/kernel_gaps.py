"""Per HLO op: modeled time against its own bound, largest gaps first.

usage: kernel_gaps.py PROFILE TRACE [TOP] [MXU_FLOPS_PER_S] [HBM_BYTES_PER_S]

PROFILE is `tpuc-run G.tpx --timing-only --profile=json` (its `ops`: flops
and HBM bytes per HLO op), TRACE `tpuc-run G.tpx --timing-only
--trace=t.json` (the `kernels` track, instruction runs named after the HLO
op they lower). Time is the trace's durations summed by name: the ops of a
fusion's side cone (rsqrt of batch norm's variance) count under their own
names, not their convolution's. Bound = max(flops at the MXU peak, bytes at
HBM bandwidth); defaults tpu-v3: 61.6 TFLOP/s, 450 GB/s. Prints the
totals, then the TOP (20) ops by time above bound, in us.
"""
import collections
import json
import sys


def main():
    prof = json.load(open(sys.argv[1]))
    trace = json.load(open(sys.argv[2]))["traceEvents"]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    peak = float(sys.argv[4]) if len(sys.argv) > 4 else 61.6e12
    bandwidth = float(sys.argv[5]) if len(sys.argv) > 5 else 450e9
    time = collections.Counter()
    for e in trace:
        if e.get("ph") == "X":
            time[e["name"]] += e["dur"]
    rows = []
    for op in prof["ops"]:
        name = op["hlo_op"]
        mxu = op["flops"] / peak * 1e6
        hbm = op["hbm_bytes"] / bandwidth * 1e6
        bound = max(mxu, hbm)
        rows.append((time[name] - bound, name, time[name], bound,
                     "MXU" if mxu > hbm else "HBM"))
    rows.sort(reverse=True)
    convs = [r for r in rows if r[1].startswith("conv")]
    print("all ops: %.1f us (bound %.1f); convolutions: %.1f us (bound %.1f)"
          % (sum(time.values()), sum(r[3] for r in rows),
             sum(r[2] for r in convs), sum(r[3] for r in convs)))
    for gap, name, t, bound, unit in rows[:top]:
        print("%-28s %8.2f us  bound %8.2f (%s)  gap %7.2f"
              % (name, t, bound, unit, gap))


if __name__ == "__main__":
    main()
