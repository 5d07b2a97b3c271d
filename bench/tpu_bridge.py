"""Benchmark: the whole TPU bridge and steady-state steps, tfmlir against TensorFlow.

    python bench/tpu_bridge.py [--quick] [--programs resnet50,bert4] [--reps 3] [--steps 30]
                               [--rounds 5] [--profile] [--json out.json]
    python bench/tpu_bridge.py --merge run1.json run2.json run3.json   # per-cell medians

Two TF1 programs, each a model call under ``tf.compat.v1.tpu.rewrite`` (resource
variables, an initializer, a ``load_weights`` target assigning values fed as
``load/<i>``), built by TensorFlow in a child process:

* ``resnet50``: ``tf.keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3),
  classes=10, classifier_activation=None)``, batch 2, ``training=False``;
* ``bert4``: a BERT-style encoder written with tf ops (no embeddings): 4 layers, hidden 256,
  4 heads, seq 128, batch 2 (self-attention with four projections, softmax, layer norms,
  a GELU feed-forward block of width 1024).

The weights are the plain graph's initial values (the same builder without ``tpu.rewrite``,
run by ``tf.compat.v1.Session``), which also gives the reference output.

1. tfmlir (this process). ``import``: ``tfmlir.importers.api.import_graph_def`` of the
   GraphDef file with the step's signature (``x:0`` fed, ``out:0`` fetched), as
   ``tfmlir.runtime``'s GraphSession imports it. ``bridge passes``: the ``tf.devices`` list
   GraphSession adds, then ``tfmlir.passes.run(module, "tf-tpu-bridge{v1-compat=false}")``
   (clustering, outside compilation, the TPU rewrite to ``_TPUCompileMlir`` /
   ``TPUExecute``); tfmlir's ``tf-replicated-clustering-bridge-v2`` alone on the same input
   is reported too (what TF's pipeline below covers). Medians of --reps fresh imports, after
   one untimed round (the first run in a process imports the pass modules).
   Then ``tfmlir.runtime.Session(graph_def_path, v1_compat=False)``: the initializer and
   ``load_weights`` run as targets, then ``first compile+step``: the wall time of the first
   ``run("out:0", {"x:0": x})`` (import + bridge of that signature, legalization to
   StableHLO, XLA compile, execute; ``session.timings`` gives the split). The runtime's
   legalization child (TensorFlow's passes, started once per process) is started before,
   as TF's jit child has TensorFlow imported before its first call; its start is reported.
2. TensorFlow's clustering bridge (a TF child process; its LLVM never meets ours) on the
   text of the same imported module: ``tf.mlir.experimental.run_pass_pipeline(text,
   "tf-replicated-clustering-bridge-v2")``, medians of --reps; the column is its time less
   TF's parse + print of the text (the empty pipeline), i.e. the passes alone, as tfmlir's;
   after one untimed run.
   TF's whole bridge cannot be timed this way: TF's wheel does not register
   ``tf-tpu-rewrite`` for ``run_pass_pipeline``.
3. TensorFlow's jit step (a TF child, eager TF2): the same computation without TPU wrappers,
   same weights and input, as ``tf.function(jit_compile=True)``, numpy in, numpy out
   (``f(x).numpy()``, like ``Session.run``). Steady steps (tfmlir's and TF's, after 3+
   warm-up steps) run in --rounds interleaved rounds, --steps per side in all; the figures
   are medians of the single steps. TF's function without XLA (its own kernels) is timed in
   the same rounds, for context. tfmlir's output is compared with the TF1 graph's and TF
   jit's (max relative difference).

Ratios: bridge = tfmlir bridge passes / TF clustering passes (target <= 1.5); step = tfmlir
steady step / TF jit step (target <= 1.1). ``--profile``: where one tfmlir bridge run goes
(MLIR's per-pass timing report, cProfile's top functions by own time) and the clustering
bridge's passes (best of 4 runs each). ``--quick``: bert4
only, fewer repetitions.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

PROGRAMS = ("resnet50", "bert4")
BRIDGE = "tf-tpu-bridge{v1-compat=false}"
CLUSTERING = "tf-replicated-clustering-bridge-v2"

# --- the programs (TensorFlow child) -------------------------------------------------------------
# One builder per program, used three ways: TF1 graph with tpu.rewrite (tfmlir's input), TF1 graph
# without it (the reference values and the weights), eager TF2 under tf.function(jit_compile=True).
_MODELS = r'''
import numpy as np
import tensorflow as tf
tf1 = tf.compat.v1

SHAPES = {"resnet50": [2, 64, 64, 3], "bert4": [2, 128, 256]}


def resnet50():
    model = tf.keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3), classes=10,
                                            classifier_activation=None)
    return (lambda x: model(x, training=False)), model


def bert(var, layers=4, hidden=256, heads=4, seq=128, batch=2):
    def layer_norm(v, name):
        mean, variance = tf.nn.moments(v, axes=[-1], keepdims=True)
        return (v - mean) * tf.math.rsqrt(variance + 1e-6) * var(name + "_g", [hidden]) \
            + var(name + "_b", [hidden], zeros=True)

    def dense(v, name, n_in, n_out):
        return tf.einsum("bsh,hk->bsk", v, var(name, [n_in, n_out])) + var(name + "_b", [n_out], zeros=True)

    def split(t):
        return tf.transpose(tf.reshape(t, [batch, seq, heads, hidden // heads]), [0, 2, 1, 3])

    def call(h):
        for i in range(layers):
            q, k, v = (split(dense(h, f"{n}{i}", hidden, hidden)) for n in "qkv")
            scores = tf.matmul(q, k, transpose_b=True) * (1.0 / (hidden // heads) ** 0.5)
            ctx = tf.matmul(tf.nn.softmax(scores), v)
            ctx = tf.reshape(tf.transpose(ctx, [0, 2, 1, 3]), [batch, seq, hidden])
            h = layer_norm(h + dense(ctx, f"o{i}", hidden, hidden), f"ln1_{i}")
            ff = tf.nn.gelu(dense(h, f"f1_{i}", hidden, 4 * hidden))
            h = layer_norm(h + dense(ff, f"f2_{i}", 4 * hidden, hidden), f"ln2_{i}")
        return h
    return call


def graph_var(name, shape, zeros=False):
    init = tf1.zeros_initializer() if zeros else tf1.glorot_uniform_initializer()
    return tf1.get_variable(name, shape, initializer=init, use_resource=True)


def build_graph(name, tpu):
    """A TF1 graph: x -> model (under tpu.rewrite when `tpu`) -> out; init; load_weights."""
    graph = tf.Graph()
    with graph.as_default():
        tf1.set_random_seed(7)
        x = tf1.placeholder(tf.float32, SHAPES[name], name="x")
        call = resnet50()[0] if name == "resnet50" else bert(graph_var)
        if tpu:
            (y,) = tf1.tpu.rewrite(lambda x: [call(x)], [x])
        else:
            y = call(x)
        tf.identity(y, name="out")
        tf1.global_variables_initializer()  # named "init"
        assigns = []
        for i, v in enumerate(tf1.global_variables()):
            value = tf1.placeholder(v.dtype.base_dtype, v.shape, name=f"load/{i}")
            assigns.append(v.assign(value, read_value=False))
        tf.group(*assigns, name="load_weights")
    return graph
'''

_BUILD_CHILD = _MODELS + r'''
import json, os, sys
tf1.disable_eager_execution()
tf1.enable_control_flow_v2()
name, out = sys.argv[1], sys.argv[2]
tpu_graph = build_graph(name, True)
with open(os.path.join(out, name + ".pb"), "wb") as f:
    f.write(tpu_graph.as_graph_def().SerializeToString())
plain = build_graph(name, False)
rng = np.random.default_rng(2026)
x = rng.uniform(0.0, 1.0, SHAPES[name]).astype(np.float32)
with tf1.Session(graph=plain) as sess:
    sess.run("init")
    with plain.as_default():
        variables = tf1.global_variables()
        values = sess.run([v.read_value() for v in variables])
    names = [v.name for v in variables]
    expected = sess.run("out:0", {"x:0": x})
np.savez(os.path.join(out, name + ".npz"), x=x, expected=expected,
         **{f"w{i}": v for i, v in enumerate(values)})
with open(os.path.join(out, name + ".json"), "w") as f:
    json.dump({"variables": names, "nodes": len(tpu_graph.as_graph_def().node)}, f)
'''

# The model of program argv[1] built eagerly with the weights saved in argv[2] (`call`), as
# TF2 code runs it: used by the jit child here and by first_result.py.
_EAGER_MODEL = r"""
import json, os, sys
name, out = sys.argv[1], sys.argv[2]
data = np.load(os.path.join(out, name + ".npz"))
names = json.load(open(os.path.join(out, name + ".json")))["variables"]
weights = [data[f"w{i}"] for i in range(len(names))]
if name == "resnet50":
    call, model = resnet50()
    # Keras orders model.weights by layer, the graph by creation: matched by name.
    by_name = {n.split(":")[0]: value for n, value in zip(names, weights)}
    assert sorted(by_name) == sorted(w.path for w in model.weights), "weight names"
    for w in model.weights:
        w.assign(by_name[w.path])
else:
    it = iter(weights)
    variables = {}

    def eager_var(vname, shape, zeros=False):
        # The graph builder creates variables in call order; the same order here.
        if vname not in variables:
            value = next(it)
            assert list(value.shape) == list(shape), (vname, value.shape, shape)
            variables[vname] = tf.Variable(value, name=vname)
        return variables[vname]

    call = bert(eager_var)
    call(tf.constant(data["x"]))  # creates the variables eagerly, outside tf.function
"""

_JIT_CHILD = _MODELS + _EAGER_MODEL + r"""
import time
x = data["x"]
jit = tf.function(call, jit_compile=True)
plain = tf.function(call)  # TF's own kernels, no XLA: context only
t0 = time.perf_counter()
got = jit(x).numpy()
first = time.perf_counter() - t0
np.save(os.path.join(out, name + ".jit.npy"), got)
for _ in range(3):
    jit(x).numpy()
    plain(x).numpy()
print(json.dumps({"first": first}), flush=True)
# Serves timed rounds: a line "jit K" or "plain K" runs K steps and answers their times.
for line in sys.stdin:
    which, k = line.split()
    fn = jit if which == "jit" else plain
    times = []
    for _ in range(int(k)):
        t0 = time.perf_counter()
        fn(x).numpy()
        times.append(time.perf_counter() - t0)
    print(json.dumps(times), flush=True)
"""

_TF_BRIDGE_CHILD = r"""
import json, statistics, sys, time
import tensorflow as tf
text = open(sys.argv[1]).read()
reps = int(sys.argv[2])
out = {}
tf.mlir.experimental.run_pass_pipeline(text, sys.argv[3], show_debug_info=False)  # warm-up
for key, pipeline in (("pp", ""), ("clust", sys.argv[3])):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        result = tf.mlir.experimental.run_pass_pipeline(text, pipeline, show_debug_info=False)
        times.append(time.perf_counter() - t0)
    out[key] = statistics.median(times)
out["cluster_funcs"] = result.count("tf_device.cluster_func")
print(json.dumps(out))
"""


def _child(code, *args, timeout=3600):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit(f"TensorFlow child failed:\n{proc.stderr[-4000:]}")
    lines = proc.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else None


class _JitServer:
    """The TF jit child: set up once, then timed rounds on request (interleaved with ours)."""

    def __init__(self, name, tmp):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
        self.proc = subprocess.Popen([sys.executable, "-c", _JIT_CHILD, name, tmp], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the TF jit child for {name} failed (exit status {self.proc.wait()})")
        self.first = json.loads(line)["first"]

    def steps(self, which, k):
        self.proc.stdin.write(f"{which} {k}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


# --- tfmlir --------------------------------------------------------------------------------------

def _import(path, shape):
    from mlir import ir
    from tfmlir import driver

    context = ir.Context()
    t0 = time.perf_counter()
    module = driver.import_graph_def(path, [("x:0", "float32", shape)], ["out:0"], context=context)
    took = time.perf_counter() - t0
    driver.assign_devices(module, 1)
    return module, took


def _bridge_times(path, shape, reps):
    import gc

    import tfmlir
    from tfmlir import passes

    # One untimed round first: the first run in a process imports the pass modules.
    module, _ = _import(path, shape)
    passes.run(module, BRIDGE)
    del module
    imports, bridges, clusters, text, ops = [], [], [], None, None
    for _ in range(reps):
        module, took = _import(path, shape)
        imports.append(took)
        if text is None:
            text = tfmlir.print_ir(module)
        gc.collect()
        t0 = time.perf_counter()
        passes.run(module, BRIDGE)
        bridges.append(time.perf_counter() - t0)
        if ops is None:
            bridged = tfmlir.print_ir(module)
            ops = {op: bridged.count(op) for op in ("tf._TPUCompileMlir", "tf.TPUExecute")}
        del module
        module, _ = _import(path, shape)
        gc.collect()
        t0 = time.perf_counter()
        passes.run(module, CLUSTERING)
        clusters.append(time.perf_counter() - t0)
        del module
    return dict(import_=statistics.median(imports), bridge=statistics.median(bridges),
                clust=statistics.median(clusters), text=text, ops=ops)


def _per_pass(path, shape, pipeline, reps):
    """[(pass name, best wall seconds)] of `pipeline`'s passes in MLIR's timing report, best of
    `reps` runs on fresh imports (position by position)."""
    import re

    from tfmlir import passes

    best = None
    for _ in range(reps):
        module, _ = _import(path, shape)
        with tempfile.TemporaryFile("w+") as captured:
            saved = os.dup(2)
            sys.stderr.flush()
            os.dup2(captured.fileno(), 2)
            try:
                passes.run(module, pipeline, timing=True)
                del module
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            captured.seek(0)
            report = captured.read()
        rows = []
        for line in report.splitlines():
            m = re.match(r"\s*([0-9.]+) \(\s*[0-9.]+%\)  (\S.*)$", line)
            if m and not line.startswith("     "):
                rows.append((m.group(2).strip(), float(m.group(1))))
        best = rows if best is None else [(n, min(t, b)) for (n, t), (_, b) in zip(rows, best)]
    return best


def _profile(path, shape, top=8):
    """Where one bridge run goes: MLIR's per-pass timing report (wall seconds per pass, from
    ``PassPipeline(timing=True)``, which writes it to stderr) and cProfile's functions by
    their own time."""
    import cProfile
    import pstats

    from tfmlir import passes

    per_pass = [(t, n) for n, t in _per_pass(path, shape, BRIDGE, 1)
                if not n.startswith(("'", "(", "Rest", "Total"))]
    module, _ = _import(path, shape)
    prof = cProfile.Profile()
    prof.enable()
    passes.run(module, BRIDGE)
    prof.disable()
    stats = pstats.Stats(prof)
    functions = sorted(((tt, f"{os.path.basename(fn)}:{func}") for (fn, _, func), (_, _, tt, _, _)
                        in stats.stats.items()), reverse=True)[:top]
    per_pass.sort(reverse=True)
    times = sorted(t for t, _ in per_pass)
    clustering = _per_pass(path, shape, CLUSTERING, 4)
    return {"passes": len(per_pass), "median_pass": times[len(times) // 2] if times else None,
            "top_passes": [(n, t) for t, n in per_pass[:top]],
            "top_functions": [(n, t) for t, n in functions],
            "clustering_passes": [(n, t) for n, t in clustering if t >= 0.003 or n in ("Rest", "Total")]}


def _session_times(path, data, variables, steps, rounds, jit):
    """tfmlir.runtime.Session on the GraphDef: first step and steady steps; the steady steps
    in `rounds` rounds interleaved with the TF jit child's (and TF's no-XLA function's)."""
    from tfmlir import runtime
    from tfmlir.runtime import mlir_route

    x = data["x"]
    weights = {f"load/{i}:0": data[f"w{i}"] for i in range(variables)}
    # The legalization child (TensorFlow's passes, one per process) is started before the
    # first step, as TF's jit child has TensorFlow imported before its first call.
    t0 = time.perf_counter()
    mlir_route.to_stablehlo("module {\n}\n")
    child_start = time.perf_counter() - t0
    session = runtime.Session(path, v1_compat=False)
    try:
        session.run(targets=["init"])
        session.run(targets=["load_weights"], feeds=weights)
        before = session.timings
        t0 = time.perf_counter()
        got = session.run("out:0", {"x:0": x})
        first = time.perf_counter() - t0
        after = session.timings
        split = {k: after[k] - before[k] for k in ("bridge", "legalize", "compile", "execute")}
        for _ in range(3):
            session.run("out:0", {"x:0": x})
        ours, tf_jit, tf_plain = [], [], []
        per_round = max(1, steps // rounds)
        before = session.timings
        for _ in range(rounds):
            for _ in range(per_round):
                t0 = time.perf_counter()
                session.run("out:0", {"x:0": x})
                ours.append(time.perf_counter() - t0)
            tf_jit += jit.steps("jit", per_round)
            tf_plain += jit.steps("plain", per_round)
        after = session.timings
        execute = (after["execute"] - before["execute"]) / max(1, after["executions"] - before["executions"])
    finally:
        session.close()
    return dict(first=first, split=split, child_start=child_start, step=statistics.median(ours),
                execute=execute, tf_jit=statistics.median(tf_jit),
                tf_plain=statistics.median(tf_plain), got=got)


def _rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


# --- main ----------------------------------------------------------------------------------------

def run_program(name, tmp, args):
    _child(_BUILD_CHILD, name, tmp)
    path = os.path.join(tmp, name + ".pb")
    with open(os.path.join(tmp, name + ".json")) as f:
        meta = json.load(f)
    data = dict(np.load(os.path.join(tmp, name + ".npz")))
    shape = data["x"].shape

    ours = _bridge_times(path, shape, args.reps)
    text_path = os.path.join(tmp, name + ".mlir")
    with open(text_path, "w") as f:
        f.write(ours.pop("text"))
    tf_bridge = _child(_TF_BRIDGE_CHILD, text_path, args.reps, CLUSTERING)
    jit = _JitServer(name, tmp)
    try:
        session = _session_times(path, data, len(meta["variables"]), args.steps, args.rounds, jit)
    finally:
        jit.close()
    jit_out = np.load(os.path.join(tmp, name + ".jit.npy"))
    return dict(program=name, nodes=meta["nodes"], import_=ours["import_"], bridge=ours["bridge"],
                clust=ours["clust"], bridged_ops=ours["ops"], tf_pp=tf_bridge["pp"],
                tf_clust_total=tf_bridge["clust"], tf_clust=tf_bridge["clust"] - tf_bridge["pp"],
                tf_cluster_funcs=tf_bridge["cluster_funcs"], first=session["first"],
                first_split=session["split"], legalize_child_start=session["child_start"],
                step=session["step"], step_execute=session["execute"], tf_jit_first=jit.first,
                tf_jit=session["tf_jit"], tf_plain=session["tf_plain"],
                diff_graph=_rel(session["got"], data["expected"]),
                diff_jit=_rel(session["got"], jit_out),
                profile=_profile(path, shape) if args.profile else None)


_NUMERIC = ("import_", "bridge", "clust", "tf_pp", "tf_clust_total", "tf_clust", "first",
            "legalize_child_start", "step", "step_execute", "tf_jit_first", "tf_jit", "tf_plain")


def merge(runs):
    """Per-cell medians of several runs' rows (the first run's other fields)."""
    rows = []
    for group in zip(*runs):
        row = dict(group[0])
        for key in _NUMERIC:
            row[key] = statistics.median(r[key] for r in group)
        row["first_split"] = {k: statistics.median(r["first_split"][k] for r in group)
                              for k in group[0]["first_split"]}
        # Ratios: medians of each run's ratio (both sides of a run share its load).
        row["bridge_ratio"] = statistics.median(r["bridge"] / r["tf_clust"] for r in group)
        row["clust_ratio"] = statistics.median(r["clust"] / r["tf_clust"] for r in group)
        row["step_ratio"] = statistics.median(r["step"] / r["tf_jit"] for r in group)
        row["runs"] = len(group)
        rows.append(row)
    return rows


def print_table(rows):
    print("| program | tfmlir import | tfmlir bridge passes | TF clustering bridge | ratio | "
          "first compile+step | tfmlir steady step | TF jit step | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        bridge_ratio = r.get("bridge_ratio", r["bridge"] / r["tf_clust"])
        step_ratio = r.get("step_ratio", r["step"] / r["tf_jit"])
        print(f"| {r['program']} | {r['import_']:.3f} s | {r['bridge']:.3f} s | {r['tf_clust']:.3f} s | "
              f"{bridge_ratio:.1f}x | {r['first']:.2f} s | {r['step'] * 1e3:.1f} ms | "
              f"{r['tf_jit'] * 1e3:.1f} ms | {step_ratio:.2f}x |")
    print()
    for r in rows:
        s = r["first_split"]
        print(f"{r['program']}: {r['nodes']} GraphDef nodes; bridged: {r['bridged_ops']}")
        print(f"  tfmlir tf-replicated-clustering-bridge-v2 alone {r['clust']:.3f} s "
              f"({r.get('clust_ratio', r['clust'] / r['tf_clust']):.1f}x TF's); TF run_pass_pipeline {r['tf_clust_total']:.3f} s "
              f"= parse+print {r['tf_pp']:.3f} s + passes {r['tf_clust']:.3f} s "
              f"({r['tf_cluster_funcs']} tf_device.cluster_func out)")
        print(f"  first step split: bridge {s['bridge']:.2f} s, legalize {s['legalize']:.2f} s, "
              f"compile {s['compile']:.2f} s, execute {s['execute']:.3f} s (legalization child "
              f"started before: {r['legalize_child_start']:.2f} s); TF jit first call "
              f"{r['tf_jit_first']:.2f} s")
        print(f"  steady step: tfmlir {r['step'] * 1e3:.1f} ms (XLA execute with transfers "
              f"{r['step_execute'] * 1e3:.1f} ms), TF jit {r['tf_jit'] * 1e3:.1f} ms, TF without XLA "
              f"{r['tf_plain'] * 1e3:.1f} ms")
        if "diff_graph" in r:
            print(f"  max relative difference of tfmlir's output: vs TF1 graph {r['diff_graph']:.1e}, "
                  f"vs TF jit {r['diff_jit']:.1e}")
        p = r.get("profile")
        if p:
            print(f"  {p['passes']} passes, median {p['median_pass'] * 1e3:.1f} ms each; top passes: "
                  + ", ".join(f"{n} {t * 1e3:.0f} ms" for n, t in p["top_passes"]))
            print("  cProfile, own time: " + ", ".join(f"{n} {t * 1e3:.0f} ms" for n, t in p["top_functions"]))
            print("  clustering bridge per pass (best of 4, >= 3 ms): " + ", ".join(
                f"{n} {t * 1e3:.1f} ms" for n, t in p["clustering_passes"]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="bert4 only, 1 rep, 10 steps")
    parser.add_argument("--programs", default=",".join(PROGRAMS))
    parser.add_argument("--reps", type=int, default=3, help="repetitions of import and bridges")
    parser.add_argument("--steps", type=int, default=30, help="timed steady steps per side")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the steps")
    parser.add_argument("--profile", action="store_true", help="where one tfmlir bridge run goes")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--merge", nargs="+", metavar="JSON", help="print the per-cell medians of runs")
    args = parser.parse_args(argv)
    if args.merge:
        runs = []
        for path in args.merge:
            with open(path) as f:
                runs.append(json.load(f))
        print(f"per-cell medians of {len(runs)} runs (ratios: medians of the runs' ratios)")
        print_table(merge(runs))
        return
    if args.quick:
        args.programs, args.reps, args.steps, args.rounds = "bert4", 1, 10, 2
    import tfmlir  # noqa: F401  (first: our MLIR before TensorFlow's in this process)

    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # The runtime's on-disk cache starts empty: first steps legalize and compile for real
        # (bench/first_result.py measures the warm cache).
        os.environ["TFMLIR_CACHE_DIR"] = os.path.join(tmp, "cache")
        for name in [p for p in args.programs.split(",") if p]:
            if name not in PROGRAMS:
                raise SystemExit(f"unknown program {name!r} (known: {', '.join(PROGRAMS)})")
            rows.append(run_program(name, tmp, args))
            print(f"[{name} done]", file=sys.stderr, flush=True)
    print(f"load average before {load:.1f}, after {os.getloadavg()[0]:.1f}")
    print_table(rows)
    if args.json:
        for r in rows:
            r.pop("got", None)
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
