"""Benchmark: does every Python pass scale linearly in op count? Time and memory at 1k / 10k / 100k.

    python bench/pass_scaling.py [--sizes 1000,10000,100000] [--passes a,b] [--reps 3]
                                 [--json out.json]

Input: ``tfmlir.testing.corpus.synthetic_graph(n)``, a ``tf_executor`` graph of n single-op
islands (AddV2/Mul lanes, resource reads/writes every 16th op, control edges), so ~2n+ ops.
Each registered Python pass runs alone (``passes.run(module, "<flag>")``, its default options)
on a fresh copy of the module of each size; the time is the best of --reps (one run at the
largest size). Memory: the peak resident set above the resident set before the run (the
kernel's VmHWM, reset through ``/proc/self/clear_refs`` first; Linux only).

Columns: seconds per size, microseconds per op at the largest size, the growth of the time
from the second-largest to the largest size divided by the growth of the op count (1.0 is
linear; above 1.5 is flagged SUPERLINEAR), the peak memory at the largest size, and how the
pass ended on this input (ok, or the first line of its error: many TPU passes have nothing to
do on a graph without TPU clusters, or refuse it, which still measures their walk).
"""
import argparse
import gc
import json
import os
import re
import sys
import time


def _rss_kib(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _count_ops(module):
    from mlir import ir
    count = [0]

    def visit(_op):
        count[0] += 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return count[0]


def measure(flag, modules, reps):
    """{size: (seconds, peak KiB or None, status)} of pass `flag` on each module."""
    from mlir import ir
    from tfmlir import passes

    out = {}
    largest = max(modules)
    smallest = modules[min(modules)][0].operation.clone()  # warm-up: imports the pass's modules
    try:
        passes.run(smallest, flag)
    except Exception:
        pass
    smallest.erase()
    for size, (module, _ops) in sorted(modules.items()):
        best, peak, status = None, None, "ok"
        for _ in range(1 if size == largest else reps):
            copy = module.operation.clone()
            gc.collect()
            reset = _reset_peak()
            before = _rss_kib("VmRSS")
            t0 = time.perf_counter()
            try:
                passes.run(copy, flag)
            except ir.MLIRError as err:
                lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
                status = re.sub(r"^error: [^ ]+ ", "", lines[1] if len(lines) > 1 else lines[0])[:70]
            except Exception as err:  # a pass the synthetic input cannot reach
                status = f"{type(err).__name__}: {err}".splitlines()[0][:70]
            took = time.perf_counter() - t0
            if reset and before is not None:
                high = _rss_kib("VmHWM")
                peak = max(peak or 0, high - before) if high is not None else peak
            best = took if best is None else min(best, took)
            copy.erase()
        out[size] = (best, peak, status)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--passes", help="comma-separated flags (default: every Python pass)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args(argv)

    import tfmlir  # noqa: F401
    from mlir import ir
    from tfmlir.passes import framework
    from tfmlir.testing.corpus import synthetic_graph

    sizes = [int(s) for s in args.sizes.split(",")]
    context = ir.Context()
    modules = {}
    for n in sizes:
        module = ir.Module.parse(synthetic_graph(n), context)
        modules[n] = (module, _count_ops(module))
    flags = (args.passes.split(",") if args.passes else
             sorted({cls.argument for cls in framework.registered_passes().values()
                     if not cls.argument.startswith("test-")}))
    largest, previous = sizes[-1], sizes[-2] if len(sizes) > 1 else None
    rows = []
    print("ops per size: " + ", ".join(f"{n}: {modules[n][1]}" for n in sizes), flush=True)
    header = ("pass", *[f"{n // 1000}k s" for n in sizes], "us/op", "growth", "peak MiB", "status")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for flag in flags:
        with context:
            result = measure(flag, modules, args.reps)
        times = [result[n][0] for n in sizes]
        ops = modules[largest][1]
        growth = None
        if previous is not None and times[-2] > 0:
            growth = (times[-1] / times[-2]) / (modules[largest][1] / modules[previous][1])
        peak = result[largest][1]
        status = result[largest][2]
        row = dict(flag=flag, seconds={str(n): t for n, t in zip(sizes, times)},
                   us_per_op=times[-1] / ops * 1e6, growth=growth,
                   peak_mib=None if peak is None else peak / 1024, status=status)
        rows.append(row)
        flagged = " SUPERLINEAR" if growth is not None and growth > 1.5 else ""
        print("| " + " | ".join([flag, *[f"{t:.4f}" for t in times], f"{row['us_per_op']:.2f}",
                                 ("-" if growth is None else f"{growth:.2f}") + flagged,
                                 "-" if peak is None else f"{peak / 1024:.1f}", status]) + " |",
              flush=True)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(dict(sizes=sizes, ops={str(n): modules[n][1] for n in sizes}, rows=rows), f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
