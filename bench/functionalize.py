"""Benchmark: functionalizing TF1 control flow, tfmlir against TensorFlow's ``upgrade_legacy`` import.

    python bench/functionalize.py [--reps 3] [--units 125,250,500]

Inputs, built by TensorFlow in a child process (graph mode, control flow v2 off): a chain of
N units, each a ``tf.while_loop`` (3 iterations) whose body holds a ``tf.cond``, so N units
are 2N loops/conds (``--units 500``: 1,000). Every unit reads the previous unit's result.

* TF: ``tf.mlir.experimental.convert_saved_model_v1(..., upgrade_legacy=True)`` on the graph
  saved as a TF1 SavedModel (best of `reps`, in the child): its Graph functionalization,
  import and the standard pipeline it always runs (pruning, executor-to-functional,
  canonicalization, shape inference).
* tfmlir (here): ``import_graph_def`` of the GraphDef (``import``), then
  ``tf-executor-functionalize-control-flow`` (``pass``), best of `reps` each.

Columns: units, loops+conds, graph nodes, TF seconds, tfmlir import, pass, total, ratio
(tfmlir total / TF), and pass seconds per 1,000 nodes (flat when the pass is linear).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

_CHILD = r'''
import json, os, sys, time
import tensorflow as tf
tf1 = tf.compat.v1
tf1.disable_control_flow_v2()
tf1.disable_eager_execution()
units, out, reps = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
graph = tf.Graph()
with graph.as_default():
    x = tf1.placeholder(tf.float32, [4], name="x")
    y = x
    for k in range(units):
        def body(i, v):
            v = tf.cond(tf.reduce_sum(v) > 0.0, lambda: v * 0.5 + 1.0, lambda: v - 1.0)
            return i + 1, v
        _, y = tf1.while_loop(lambda i, v: i < 3, body, [tf.constant(0), y], name=f"loop{k}")
    out_t = tf.identity(y, name="out")
gd = graph.as_graph_def()
with open(os.path.join(out, "graph.pb"), "wb") as f:
    f.write(gd.SerializeToString())
sm = os.path.join(out, "sm")
with tf1.Session(graph=graph) as sess:
    builder = tf1.saved_model.Builder(sm)
    sig = tf1.saved_model.predict_signature_def({"x": x}, {"out": out_t})
    builder.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={"serving_default": sig})
    builder.save()
best = None
for _ in range(reps):
    start = time.perf_counter()
    tf.mlir.experimental.convert_saved_model_v1(sm, "", "serve", lift_variables=False,
                                                include_variables_in_initializers=False,
                                                upgrade_legacy=True, show_debug_info=False)
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(json.dumps({"nodes": len(gd.node), "tf": best}))
'''


def _tf(units, out, reps):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(units), out, str(reps)],
                          capture_output=True, text=True, env=env, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"TensorFlow child failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _ours(path, reps):
    import tfmlir  # noqa: F401
    from mlir import ir
    from tfmlir.importers.api import import_graph_def
    from tfmlir.passes import framework

    best_import = best_pass = None
    for _ in range(reps):
        start = time.perf_counter()
        module = import_graph_def(path, context=ir.Context())
        imported = time.perf_counter()
        framework.run(module, "builtin.module(tf-executor-functionalize-control-flow)")
        done = time.perf_counter()
        text = str(module)
        assert "tf_executor.Merge" not in text and "tf_executor.Enter" not in text
        best_import = min(best_import or 1e9, imported - start)
        best_pass = min(best_pass or 1e9, done - imported)
    return best_import, best_pass


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--units", default="125,250,500")
    args = parser.parse_args(argv)
    print(f"{'units':>6} {'cf':>6} {'nodes':>7} {'TF':>8} {'import':>8} {'pass':>8} {'total':>8} "
          f"{'ratio':>6} {'pass/1k':>8}")
    for units in [int(u) for u in args.units.split(",") if u]:
        with tempfile.TemporaryDirectory() as tmp:
            tf_row = _tf(units, tmp, args.reps)
            imp, run = _ours(os.path.join(tmp, "graph.pb"), args.reps)
        total = imp + run
        nodes = tf_row["nodes"]
        print(f"{units:6d} {2 * units:6d} {nodes:7d} {tf_row['tf']:8.3f} {imp:8.3f} {run:8.3f} "
              f"{total:8.3f} {total / tf_row['tf']:6.2f} {1000 * run / nodes:8.4f}", flush=True)


if __name__ == "__main__":
    main()
