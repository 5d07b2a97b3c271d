"""Measures how tfmlir.runtime legalizes each op TensorFlow can compile for XLA CPU.

Regeneration command (TensorFlow 2.21, jax/jaxlib 0.10.2 and a built tfmlir
importable):

    python scripts/gen_legalization_coverage.py

For each of the ops with an XLA_CPU_JIT kernel in the registry snapshot
(``third_party/tensorflow/op_registry.json``), ``coverage_samples.py`` builds
a small device program in TensorFlow (a child process), and this script
legalizes it the way :func:`tfmlir.runtime.legalize.legalize` does:

* ``mlir``: TensorFlow's MLIR passes (``mlir_route.PIPELINE``) leave no op
  behind;
* ``graph``: they leave ops, and the graph route
  (:mod:`tfmlir.runtime.graph_route`, ``tf.function(jit_compile=True)``)
  compiles the program;
* ``none``: neither (``reason``: what the MLIR route left, the graph route's
  error);
* ``not_probed``: no sample program could be built (``reason``).

Each probed op also records ``xla_compiles`` (jaxlib's XLA compiles the
StableHLO of the route that worked; else the error's first line in
``xla_error``) and ``mlir_left`` (the ops the MLIR route left). The result,
sorted and without run-dependent text, goes
to ``python/tfmlir/runtime/data/legalization_coverage.json``; ``--output``
writes elsewhere, ``--ops A,B`` measures only those ops (and prints them).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
REGISTRY = os.path.join(ROOT, "third_party", "tensorflow", "op_registry.json")
OUTPUT = os.path.join(ROOT, "python", "tfmlir", "runtime", "data", "legalization_coverage.json")
SAMPLES = os.path.join(HERE, "coverage_samples.py")
STATUSES = ("mlir", "graph", "none", "not_probed")


def first_line(text):
    """The first non-empty line of an error, without what varies between runs."""
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    line = lines[0] if lines else ""
    line = re.sub(r"0x[0-9a-fA-F]+", "0x?", line)
    line = re.sub(r"(_inference_[\w<>]+?)_\d+(__\.\d+|_\d+)*\b", r"\1_N", line)
    line = re.sub(r"(/[\w.\-]+)+\.(py|cc|h)", r"<file>.\2", line)
    line = re.sub(r"\bloc\((#loc\d*|\"[^\"]*\"|[^)]*)\)", "loc(...)", line)
    return line[:400]


def _compile(stablehlo):
    from tfmlir.runtime import device

    try:
        executable = device.Executable(stablehlo, 1)
        executable.release()
        return True, None
    except Exception as err:  # XLA's error: recorded, not raised
        return False, first_line(err)


def classify(program):
    """The record of one probed op."""
    from tfmlir.runtime import graph_route, mlir_route
    from tfmlir.runtime.errors import GraphRouteError, GraphRouteRefused, LegalizationError

    record = {}
    try:
        text, left = mlir_route.to_stablehlo(program)
    except LegalizationError as err:
        text, left = None, None
        record["mlir_error"] = first_line(err)
    if left:
        record["mlir_left"] = sorted({name for name, _ in left})
    if left == []:
        record["status"] = "mlir"
        stablehlo = text
    else:
        try:
            stablehlo = graph_route.to_stablehlo(program)
            record["status"] = "graph"
        except GraphRouteError as err:
            record["status"] = "none"
            mlir = (f"MLIR route left {', '.join(record['mlir_left'])}" if "mlir_left" in record
                    else f"MLIR route failed: {record['mlir_error']}")
            taken = "graph route not taken" if isinstance(err, GraphRouteRefused) else "graph route"
            record["reason"] = f"{mlir}; {taken}: {first_line(err)}"
            return record
    ok, error = _compile(stablehlo)
    record["xla_compiles"] = ok
    if error:
        record["xla_error"] = error
    return record


def measure(ops, log=None):
    """{op: record} for `ops`, sample programs built in one TensorFlow child."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", OMP_NUM_THREADS="1",
               TF_NUM_INTEROP_THREADS="1", TF_NUM_INTRAOP_THREADS="1")
    child = subprocess.Popen([sys.executable, SAMPLES], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)
    child.stdin.write("".join(op + "\n" for op in ops))
    child.stdin.close()
    records = {}
    for line in child.stdout:
        sample = json.loads(line)
        op = sample["op"]
        if "program" in sample:
            records[op] = classify(sample["program"])
        else:
            records[op] = {"status": "not_probed", "reason": sample["not_probed"]}
        if log:
            log(f"{len(records)}/{len(ops)} {op}: {records[op]['status']}")
    if child.wait() != 0 or set(records) != set(ops):
        raise RuntimeError(f"the sample builder stopped (exit status {child.returncode}) after "
                           f"{len(records)} of {len(ops)} ops")
    return records


def document(records, tf_version, jax_version):
    counts = {status: sum(r["status"] == status for r in records.values()) for status in STATUSES}
    counts["total"] = len(records)
    counts["xla_compiles"] = sum(bool(r.get("xla_compiles")) for r in records.values())
    return {"tensorflow_version": tf_version, "jax_version": jax_version, "counts": counts,
            "ops": dict(sorted(records.items()))}


def versions():
    from importlib import metadata

    return metadata.version("tensorflow"), metadata.version("jax")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", help="comma-separated op names (default: every XLA_CPU_JIT op)")
    parser.add_argument("--output", default=OUTPUT)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    with open(REGISTRY) as f:
        all_ops = json.load(f)["xla_cpu_jit_ops"]
    ops = args.ops.split(",") if args.ops else all_ops
    start = time.monotonic()
    log = None if args.quiet else (lambda message: print(message, file=sys.stderr, flush=True))
    from tfmlir import tf_child

    try:
        records = measure(ops, log)
    finally:
        tf_child.shutdown()
    doc = document(records, *versions())
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if args.ops and args.output == OUTPUT:
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as f:
            f.write(text)
    print(f"{doc['counts']} in {time.monotonic() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
