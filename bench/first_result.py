"""Benchmark: the first result from a fresh process, tfmlir.runtime against TF's jit_compile.

    python bench/first_result.py [--programs bert4,resnet50] [--runs 3] [--json out.json]

The programs of ``bench/tpu_bridge.py`` (built there by a TensorFlow child: a TF1 graph
under ``tpu.rewrite`` with resource variables, an initializer and a ``load_weights``
target). Every figure is a fresh Python process, timed from its first line to the first
result in hand (imports included; the interpreter's own start is the same for both):

* ``tfmlir cold``: ``tfmlir.runtime.Session(graph_def_path, v1_compat=False)``, the
  initializer and ``load_weights`` (weights fed) as targets, then ``run("out:0", ...)``, with
  an empty on-disk cache (``TFMLIR_CACHE_DIR`` a new folder): TensorFlow's legalization and
  XLA's compilation happen for real;
* ``tfmlir warm``: the same in a new process whose cache the cold run filled (legalized
  StableHLO and executables come from disk);
* ``TF jit``: ``import tensorflow``, the same model built eagerly with the same weights
  (``tf.Variable``; bert4's are created by one eager call, as in ``tpu_bridge.py``), then
  ``tf.function(call, jit_compile=True)(x).numpy()``.

Runs alternate (cold, warm, TF) ``--runs`` times; medians. Ratios: tfmlir / TF jit (goals:
cold <= 1.0, warm <= 0.3). The split columns are tfmlir's own ``session.timings`` of the
cold and warm runs (seconds in bridging, legalization, XLA compilation) and the time until
the Session existed and until the targets had run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tpu_bridge  # noqa: E402  (the programs and their builder)

_TFMLIR_CHILD = r"""
import time
T0 = time.perf_counter()
import json, sys
import numpy as np
from tfmlir import runtime
name, out = sys.argv[1], sys.argv[2]
data = np.load(f"{out}/{name}.npz")
meta = json.load(open(f"{out}/{name}.json"))
weights = {f"load/{i}:0": data[f"w{i}"] for i in range(len(meta["variables"]))}
session = runtime.Session(f"{out}/{name}.pb", v1_compat=False)
made = time.perf_counter() - T0
session.run(targets=["init"])
session.run(targets=["load_weights"], feeds=weights)
targets = time.perf_counter() - T0
got = session.run("out:0", {"x:0": data["x"]})
first = time.perf_counter() - T0
timings = session.timings
session.close()
err = float(np.max(np.abs(got - data["expected"])) / max(1e-30, float(np.max(np.abs(data["expected"])))))
print(json.dumps(dict(first=first, session=made, targets=targets, rel_err=err,
                      bridge=timings["bridge"], legalize=timings["legalize"],
                      compile=timings["compile"])))
"""

# Timed from the child's first line: TensorFlow's import, the model, the first jit call.
_TF_CHILD = (r"""
import time
T0 = time.perf_counter()
""" + tpu_bridge._MODELS + tpu_bridge._EAGER_MODEL + r"""
jit = tf.function(call, jit_compile=True)
got = jit(data["x"]).numpy()
first = time.perf_counter() - T0
print(json.dumps(dict(first=first)))
""")


def _run(code, args, env=None, timeout=1800):
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", **(env or {})),
                          timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit(f"child failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure(name, tmp, runs):
    tpu_bridge._child(tpu_bridge._BUILD_CHILD, name, tmp)
    rows = {"cold": [], "warm": [], "tf": []}
    for _ in range(runs):
        cache_dir = tempfile.mkdtemp(prefix="tfmlir-cache-", dir=tmp)
        env = {"TFMLIR_CACHE_DIR": cache_dir}
        rows["cold"].append(_run(_TFMLIR_CHILD, [name, tmp], env))
        rows["warm"].append(_run(_TFMLIR_CHILD, [name, tmp], env))
        rows["tf"].append(_run(_TF_CHILD, [name, tmp]))

    def med(which, key):
        return statistics.median(r[key] for r in rows[which])

    result = {"program": name, "runs": runs, "tf_jit": med("tf", "first")}
    for which in ("cold", "warm"):
        for key in ("first", "session", "targets", "bridge", "legalize", "compile", "rel_err"):
            result[f"{which}_{key}"] = med(which, key)
        result[f"{which}_ratio"] = result[f"{which}_first"] / result["tf_jit"]
    return result


def print_table(rows):
    print("| program | TF jit first (s) | tfmlir cold (s) | ratio | tfmlir warm (s) | ratio | "
          "cold: session / targets / bridge / legalize / compile | warm: same |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        split = [" / ".join(f"{r[f'{w}_{k}']:.2f}" for k in ("session", "targets", "bridge", "legalize", "compile"))
                 for w in ("cold", "warm")]
        print(f"| {r['program']} | {r['tf_jit']:.2f} | {r['cold_first']:.2f} | {r['cold_ratio']:.2f}x | "
              f"{r['warm_first']:.2f} | {r['warm_ratio']:.2f}x | {split[0]} | {split[1]} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", default="bert4")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in [p for p in args.programs.split(",") if p]:
            if name not in tpu_bridge.PROGRAMS:
                raise SystemExit(f"unknown program {name!r} (known: {', '.join(tpu_bridge.PROGRAMS)})")
            rows.append(measure(name, tmp, args.runs))
            print(f"[{name} done]", file=sys.stderr, flush=True)
    print(f"load average before {load:.1f}, after {os.getloadavg()[0]:.1f}")
    print_table(rows)
    for r in rows:
        if max(r["cold_rel_err"], r["warm_rel_err"]) > 1e-3:
            raise SystemExit(f"{r['program']}: tfmlir's result differs from TF's graph "
                             f"(max relative error {max(r['cold_rel_err'], r['warm_rel_err']):.2e})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
