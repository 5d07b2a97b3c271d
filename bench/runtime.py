"""Benchmark: tfmlir.runtime's steady-state step against TensorFlow's XLA, side by side in one run.

    python bench/runtime.py [--rounds 7] [--round-seconds 0.3] [--resnet-batch 1] [--parts matmul,resnet,callbacks] [--json out.json]
    python bench/runtime.py --merge run1.json run2.json run3.json    # per-cell medians of several runs

(a) matmul: a bridged program (compile launch + ``TPUExecute`` of a device
    program ``x @ w``) run with ``Session.run`` (numpy in, numpy out), against
    ``tf.function(jit_compile=True)`` of the same math on the same inputs, both
    numpy in / numpy out (``f(x, w).numpy()``) and tensors in / tensor out;
    results must agree within 1e-6 relative.
(b) ResNet50: Keras ResNet50 (weights=None, seed 0, batch --resnet-batch,
    224x224x3) frozen with ``convert_variables_to_constants_v2`` (weights are
    constants of the device program), imported with ``tfmlir.importers``,
    made functional (``tf-executor-to-functional-conversion``) and embedded as
    the ``_TPUCompileMlir`` program of a bridged host program; against
    ``tf.function(jit_compile=True)`` of the frozen function.
(c) dispatch overhead per execute, for each of those programs: the raw PJRT
    execute of the session's own compiled executable with the arguments
    already on the device (``execute_sharded`` + waiting for the results),
    then each layer above it: ``_jaxlib.execute`` (results to numpy),
    ``device.Executable.run`` (argument checks, numpy to device), ``Session.run``
    (feeds, the host plan, fetches). Overhead = Session.run - raw, in wall time
    and in CPU time of the calling thread.
(d) cost per host callback: a device while loop whose body calls a host
    computation (one TF op: ``AddV2``) for K iterations; each iteration makes
    two callbacks (the loop predicate sent to the host, and the host
    computation). (time(K) - time(0)) / K per iteration, against the same loop
    in jax with ``jax.experimental.io_callback`` doing the same addition in
    NumPy (XLA's own Python-callback cost, no host thread to meet) and without
    any callback (the loop itself).

Timing: every measured callable is warmed up, then run in --rounds rounds of
about --round-seconds each (at least 1 s for ResNet50), the rounds of the
compared callables interleaved; the figure is the median over rounds of the
mean time per call. The load average before and after is recorded: on a
shared machine single figures move by up to 2x, so compare medians of runs.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "python"))

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import runtime_programs as P  # noqa: E402


# --- timing --------------------------------------------------------------------------------------

def measure(callables, rounds, round_seconds):
    """({name: median over rounds of wall seconds per call}, {name: the same for the calling
    thread's CPU time}, {name: per-round wall seconds}); rounds interleaved across `callables`.

    The CPU time of the calling thread is what a layer adds on the thread that dispatches
    (Python, argument transfers); unlike wall time it does not grow while other processes
    hold the cores."""
    counts = {}
    for name, fn in callables.items():
        for _ in range(3):
            fn()
        t0 = time.perf_counter()
        n = 0
        while time.perf_counter() - t0 < round_seconds / 4:
            fn()
            n += 1
        per = (time.perf_counter() - t0) / n
        counts[name] = max(1, int(round_seconds / per))
    wall = {name: [] for name in callables}
    cpu = {name: [] for name in callables}
    for _ in range(rounds):
        for name, fn in callables.items():
            n = counts[name]
            c0, t0 = time.thread_time(), time.perf_counter()
            for _ in range(n):
                fn()
            wall[name].append((time.perf_counter() - t0) / n)
            cpu[name].append((time.thread_time() - c0) / n)
    return ({name: statistics.median(v) for name, v in wall.items()},
            {name: statistics.median(v) for name, v in cpu.items()}, wall)


# --- programs ------------------------------------------------------------------------------------

def bridged(device_text, args, results, entry):
    """A bridged host program: compile launch + one TPUExecute of `device_text` on `args`.
    `args`: [(name, type)], `results`: [type]."""
    operands = ", ".join(f"%{n}" for n, _ in args)
    in_types = ", ".join(t for _, t in args)
    out = ", ".join(results)
    many = len(results) > 1
    res = f"%r:{len(results)}" if many else "%r"
    e = f"%e:{len(results)}" if many else "%e"
    ret_e = ", ".join(f"%e#{i}" for i in range(len(results))) if many else "%e"
    ret_r = ", ".join(f"%r#{i}" for i in range(len(results))) if many else "%r"
    body = P.compile_ops(device_text) + f'''    {res} = "tf_device.launch"() ({{
      {e} = "tf.TPUExecute"({operands}, %compile#1) : ({in_types}, {P.KEY}) -> ({out})
      tf_device.return {ret_e} : {out}
    }}) {{device = "{P.TPU}"}} : () -> ({out})
    func.return {ret_r} : {out}
'''
    signature = ", ".join(f"%{n}: {t}" for n, t in args)
    return P.host_module(signature, body, entry, f" -> ({out})")


def matmul_program(n):
    t = f"tensor<{n}x{n}xf32>"
    device = P.device_module(f'''  func.func @main(%x: {t}, %w: {t}) -> {t} {{
    %0 = "tf.MatMul"(%x, %w) {{transpose_a = false, transpose_b = false}} : ({t}, {t}) -> {t}
    func.return %0 : {t}
  }}''')
    return bridged(device, [("x", t), ("w", t)], [t], ("x,w", "y"))


LOOP_DEVICE = P.device_module('''  func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
    %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %r:2 = "tf.WhileRegion"(%x, %zero) ({
    ^bb0(%acc: tensor<4xf32>, %i: tensor<i32>):
      %p = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "tf.XlaSendToHost"(%p) {key = "while_condition_channel_0", Tinput = i1} : (tensor<i1>) -> ()
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%acc: tensor<4xf32>, %i: tensor<i32>):
      %h = "tf._XlaHostComputeMlir"(%acc) {send_key = "host_compute_channel_0_args", recv_key = "host_compute_channel_0_retvals", host_mlir_module = ""} : (tensor<4xf32>) -> tensor<4xf32>
      %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "tf.Yield"(%h, %j) : (tensor<4xf32>, tensor<i32>) -> ()
    }) {is_stateless = false} : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
    func.return %r#0 : tensor<4xf32>
  }''')


def loop_program():
    """acc <- host(acc) = acc + 1 (one AddV2 on TensorFlow's kernel) while i < n, on the device."""
    host = f'''          %z = "tf.Const"() {{value = dense<0> : tensor<i32>}} : () -> tensor<i32>
          %w = "tf.WhileRegion"(%z) ({{
          ^bb0(%c: tensor<i32>):
            %p = "tf._XlaRecvAtHost"(%compile#1) {{key = "while_condition_channel_0", device_ordinal = 0 : i64}} : ({P.KEY}) -> tensor<i1>
            "tf.Yield"(%p) : (tensor<i1>) -> ()
          }}, {{
          ^bb0(%c: tensor<i32>):
            %a = "tf._XlaRecvAtHost"(%compile#1) {{key = "host_compute_channel_0_args", device_ordinal = 0 : i64}} : ({P.KEY}) -> tensor<4xf32>
            %one = "tf.Const"() {{value = dense<1.0> : tensor<f32>}} : () -> tensor<f32>
            %o = "tf.AddV2"(%a, %one) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
            "tf._XlaSendFromHost"(%o, %compile#1) {{key = "host_compute_channel_0_retvals", device_ordinal = 0 : i64}} : (tensor<4xf32>, {P.KEY}) -> ()
            "tf.Yield"(%c) : (tensor<i32>) -> ()
          }}) {{is_stateless = false}} : (tensor<i32>) -> tensor<i32>
'''
    call = f'"tf.TPUExecute"(%x, %n, %compile#1) : (tensor<4xf32>, tensor<i32>, {P.KEY}) -> (tensor<4xf32>)'
    body = P.compile_ops(LOOP_DEVICE) + P._parallel(host, call, ["tensor<4xf32>"]) + \
        "    func.return %r#0 : tensor<4xf32>\n"
    return P.host_module("%x: tensor<4xf32>, %n: tensor<i32>", body, ("x,n", "y"), " -> tensor<4xf32>")


# --- (a) + (c): matmul -------------------------------------------------------------------------------

def bench_matmul(tf, rt, n, args):
    from tfmlir.runtime import _jaxlib

    rng = np.random.default_rng(n)
    x = rng.standard_normal((n, n)).astype(np.float32)
    w = rng.standard_normal((n, n)).astype(np.float32)
    session = rt.Session(matmul_program(n))
    feeds = {"x": x, "w": w}
    (y,) = session.run(["y"], feeds)
    f = tf.function(lambda a, b: tf.matmul(a, b), jit_compile=True)
    ref = f(x, w).numpy()
    np.testing.assert_allclose(y, ref, rtol=1e-6, atol=1e-6 * float(np.abs(ref).max()))
    xt, wt = tf.constant(x), tf.constant(w)

    program = next(iter(session._programs.values()))
    executable = program.executable(1)
    on_device = [_jaxlib.replicated_argument([v], executable.devices) for v in (x, w)]
    raw_exe = executable._executable

    def raw():
        outs = raw_exe.execute_sharded(on_device).disassemble_into_single_device_arrays()
        for out in outs:
            for shard in out:
                shard.block_until_ready()

    medians, cpu, samples = measure({
        "session": lambda: session.run(["y"], feeds),
        "tf_numpy": lambda: f(x, w).numpy(),
        "tf_tensor": lambda: f(xt, wt),
        "raw_pjrt": raw,
        "jaxlib_execute": lambda: _jaxlib.execute(raw_exe, on_device),
        "executable_run": lambda: executable.run([[x, w]]),
    }, args.rounds, args.round_seconds)
    session.close()
    return {"n": n, "seconds": medians, "thread_cpu_seconds": cpu, "rounds": samples}


# --- (b): ResNet50 ------------------------------------------------------------------------------------

def resnet_device_program(tf, batch):
    """(frozen ConcreteFunction, tf-dialect text of the device program, seconds per stage)."""
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    from mlir import ir

    from tfmlir.importers import import_graph_def
    from tfmlir.passes import framework

    stages = {}
    t0 = time.perf_counter()
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.applications.ResNet50(weights=None, input_shape=(224, 224, 3))
    concrete = tf.function(lambda x: model(x, training=False)).get_concrete_function(
        tf.TensorSpec([batch, 224, 224, 3], tf.float32, name="x"))
    frozen = convert_variables_to_constants_v2(concrete)
    graph_def = frozen.graph.as_graph_def().SerializeToString()
    stages["keras_and_freeze"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    context = ir.Context()
    module = import_graph_def(graph_def, input_names=[frozen.inputs[0].name.split(":")[0]],
                              input_data_shapes=[[batch, 224, 224, 3]], output_names=[frozen.outputs[0].name],
                              context=context)
    framework.run(module, "builtin.module(tf-executor-to-functional-conversion)")
    text = str(module)
    stages["import_functional_print"] = time.perf_counter() - t0
    del module, context
    return frozen, text, stages


def resnet_host_program(device_text, batch):
    """The bridged host program of `device_text`, as an ``mlir.ir.Module``: parsed with a placeholder
    device program, the real one (200 MB of text, the weights as constants) then set as the
    ``mlir_module`` attribute rather than escaped into the host program's text and parsed back."""
    from mlir import ir

    import tfmlir

    text = bridged("placeholder", [("x", f"tensor<{batch}x224x224x3xf32>")], [f"tensor<{batch}x1000xf32>"],
                   ("x", "y"))
    context = ir.Context()
    module = tfmlir.parse_module(text, context)

    def visit(op):
        if op.name == "tf._TPUCompileMlir":
            op.attributes["mlir_module"] = ir.StringAttr.get(device_text, context)
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    visit(inner.operation)

    for op in module.body.operations:
        visit(op.operation)
    return module, context


def bench_resnet(tf, rt, batch, args):
    from tfmlir.runtime import _jaxlib

    frozen, device_text, stages = resnet_device_program(tf, batch)
    module, _context = resnet_host_program(device_text, batch)
    device_mb = len(device_text) / 1e6
    del device_text
    t0 = time.perf_counter()
    session = rt.Session(module)
    stages["session_build"] = time.perf_counter() - t0
    timings = session.timings
    stages["legalize"], stages["compile"] = timings["legalize"], timings["compile"]
    del module

    x = np.random.default_rng(0).random((batch, 224, 224, 3), np.float32)
    (y,) = session.run(["y"], {"x": x})

    @tf.function(jit_compile=True)
    def step(v):
        out = frozen(v)
        return out[0] if isinstance(out, (list, tuple)) else out

    ref = step(x).numpy()
    diff = float(np.abs(y - ref).max())
    scale = float(np.abs(ref).max())
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5 * scale)
    xt = tf.constant(x)

    program = next(iter(session._programs.values()))
    executable = program.executable(1)
    on_device = [_jaxlib.replicated_argument([x], executable.devices)]
    raw_exe = executable._executable

    def raw():
        for out in raw_exe.execute_sharded(on_device).disassemble_into_single_device_arrays():
            for shard in out:
                shard.block_until_ready()

    medians, cpu, samples = measure({
        "session": lambda: session.run(["y"], {"x": x}),
        "tf_numpy": lambda: step(x).numpy(),
        "tf_tensor": lambda: step(xt),
        "raw_pjrt": raw,
        "jaxlib_execute": lambda: _jaxlib.execute(raw_exe, on_device),
        "executable_run": lambda: executable.run([[x]]),
    }, args.rounds, max(args.round_seconds, 1.0))
    session.close()
    return {"batch": batch, "device_program_mb": device_mb, "build_seconds": stages,
            "max_abs_diff_vs_tf": diff, "max_abs_output": scale, "seconds": medians, "thread_cpu_seconds": cpu,
            "rounds": samples}


# --- (d): host callbacks -----------------------------------------------------------------------------

def bench_callbacks(rt, k, args):
    import jax
    from jax.experimental import io_callback

    x = np.arange(4, dtype=np.float32)
    session = rt.Session(loop_program())
    (y,) = session.run(["y"], {"x": x, "n": np.int32(k)})
    np.testing.assert_array_equal(y, x + k)
    before = session.timings["callbacks"]
    session.run(["y"], {"x": x, "n": np.int32(k)})
    per_run = session.timings["callbacks"] - before

    def host(a):
        return a + np.float32(1)

    @jax.jit
    def jloop(a, count):
        return jax.lax.fori_loop(0, count, lambda i, acc: io_callback(
            host, jax.ShapeDtypeStruct((4,), np.float32), acc, ordered=True), a)

    @jax.jit
    def jplain(a, count):
        return jax.lax.fori_loop(0, count, lambda i, acc: acc + np.float32(1), a)

    xj = jax.device_put(x)
    np.testing.assert_array_equal(np.asarray(jloop(xj, k)), x + k)
    np.testing.assert_array_equal(np.asarray(jplain(xj, k)), x + k)
    medians, cpu, samples = measure({
        "session_k": lambda: session.run(["y"], {"x": x, "n": np.int32(k)}),
        "session_0": lambda: session.run(["y"], {"x": x, "n": np.int32(0)}),
        "jax_k": lambda: jloop(xj, k).block_until_ready(),
        "jax_0": lambda: jloop(xj, 0).block_until_ready(),
        "plain_k": lambda: jplain(xj, k).block_until_ready(),
        "plain_0": lambda: jplain(xj, 0).block_until_ready(),
    }, args.rounds, args.round_seconds)
    session.close()
    return {"k": k, "callbacks_per_run": per_run, "seconds": medians, "thread_cpu_seconds": cpu,
            "rounds": samples,
            "session_per_iteration": (medians["session_k"] - medians["session_0"]) / k,
            "jax_per_iteration": (medians["jax_k"] - medians["jax_0"]) / k,
            "plain_per_iteration": (medians["plain_k"] - medians["plain_0"]) / k}


# --- report ----------------------------------------------------------------------------------------

def us(s):
    return f"{s * 1e6:,.1f} us" if s < 1e-2 else f"{s * 1e3:,.2f} ms"


def report(results):
    lines = []
    lines.append("| program | Session.run | TF jit (numpy in/out) | ratio | TF jit (tensors) | ratio |")
    lines.append("|---|---:|---:|---:|---:|---:|")
    rows = [(f"matmul {m['n']}x{m['n']} @ {m['n']}x{m['n']}", m["seconds"]) for m in results["matmul"]]
    cpus = [m["thread_cpu_seconds"] for m in results["matmul"]]
    if results.get("resnet"):
        r = results["resnet"]
        rows.append((f"ResNet50 frozen, batch {r['batch']}", r["seconds"]))
        cpus.append(r["thread_cpu_seconds"])
    for name, s in rows:
        lines.append(f"| {name} | {us(s['session'])} | {us(s['tf_numpy'])} | "
                     f"{s['session'] / s['tf_numpy']:.2f}x | {us(s['tf_tensor'])} | "
                     f"{s['session'] / s['tf_tensor']:.2f}x |")
    lines.append("")
    lines.append("| dispatch layers (per execute) | raw PJRT | + results to numpy | + Executable.run | "
                 "Session.run | overhead over raw | calling thread CPU: raw / Session.run / overhead |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for (name, s), c in zip(rows, cpus):
        if "raw_pjrt" not in s:
            continue
        lines.append(f"| {name} | {us(s['raw_pjrt'])} | {us(s['jaxlib_execute'])} | "
                     f"{us(s['executable_run'])} | {us(s['session'])} | "
                     f"{us(s['session'] - s['raw_pjrt'])} | {us(c['raw_pjrt'])} / {us(c['session'])} / "
                     f"{us(c['session'] - c['raw_pjrt'])} |")
    r = results.get("resnet")
    if r:
        b = r["build_seconds"]
        lines.append("")
        lines.append(f"ResNet50 batch {r['batch']}: device program {r['device_program_mb']:.0f} MB of MLIR text; "
                     f"Session built in {b['session_build']:.1f} s (legalize {b['legalize']:.1f} s, "
                     f"compile {b['compile']:.1f} s); max |Session - TF| = {r['max_abs_diff_vs_tf']:.2g} "
                     f"(outputs up to {r['max_abs_output']:.2g})")
    c = results.get("callbacks")
    if c:
        s = c["seconds"]
        lines.append("")
        lines.append(f"| host callbacks, K = {c['k']} | time(K) | time(0) | per iteration "
                     f"({(c['callbacks_per_run'] - 1) / c['k']:g} callbacks) |")
        lines.append("|---|---:|---:|---:|")
        lines.append(f"| Session.run (host thread meets the device) | {us(s['session_k'])} | "
                     f"{us(s['session_0'])} | {us(c['session_per_iteration'])} |")
        lines.append(f"| jax io_callback in fori_loop (NumPy, 1 callback) | {us(s['jax_k'])} | "
                     f"{us(s['jax_0'])} | {us(c['jax_per_iteration'])} |")
        lines.append(f"| jax fori_loop, no callback | {us(s['plain_k'])} | {us(s['plain_0'])} | "
                     f"{us(c['plain_per_iteration'])} |")
    return "\n".join(lines)


def merge(runs):
    """One results dict whose figures are the medians over `runs` (results dicts of one configuration)."""
    def median_seconds(entries, field="seconds"):
        return {key: statistics.median(e[field][key] for e in entries) for key in entries[0][field]}

    merged = {"matmul": [], "runs": len(runs)}
    for i, m in enumerate(runs[0].get("matmul", [])):
        entries = [r["matmul"][i] for r in runs]
        merged["matmul"].append({"n": m["n"], "seconds": median_seconds(entries),
                                 "thread_cpu_seconds": median_seconds(entries, "thread_cpu_seconds")})
    if runs[0].get("resnet"):
        entries = [r["resnet"] for r in runs]
        merged["resnet"] = dict(entries[0], seconds=median_seconds(entries),
                                thread_cpu_seconds=median_seconds(entries, "thread_cpu_seconds"))
        merged["resnet"]["build_seconds"] = {key: statistics.median(e["build_seconds"][key] for e in entries)
                                             for key in entries[0]["build_seconds"]}
        merged["resnet"]["max_abs_diff_vs_tf"] = max(e["max_abs_diff_vs_tf"] for e in entries)
    if runs[0].get("callbacks"):
        entries = [r["callbacks"] for r in runs]
        c = dict(entries[0], seconds=median_seconds(entries))
        k, sec = c["k"], c["seconds"]
        for name in ("session", "jax", "plain"):
            c[f"{name}_per_iteration"] = (sec[f"{name}_k"] - sec[f"{name}_0"]) / k
        merged["callbacks"] = c
    return merged


def _load(triple):
    return ", ".join(f"{v:.2f}" for v in triple)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--round-seconds", type=float, default=0.3)
    p.add_argument("--sizes", default="8,256", help="matmul sizes n (n x n @ n x n)")
    p.add_argument("--loop-k", type=int, default=100)
    p.add_argument("--resnet-batch", type=int, default=1)
    p.add_argument("--parts", default="matmul,resnet,callbacks", help="which parts to run")
    p.add_argument("--json", default=None)
    p.add_argument("--merge", nargs="+", metavar="RUN.json",
                   help="print the table of the per-cell medians of earlier runs' --json files (runs nothing)")
    args = p.parse_args(argv)
    if args.merge:
        print(report(merge([json.load(open(path)) for path in args.merge])))
        return

    import tensorflow as tf
    from tfmlir import runtime as rt

    results = {"command": " ".join(["python", "bench/runtime.py"] + list(sys.argv[1:] if argv is None else argv)),
               "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                           "tensorflow": tf.__version__}}
    import jax
    results["machine"]["jax"] = jax.__version__
    results["machine"]["load_average_before"] = os.getloadavg()
    parts = set(args.parts.split(","))
    results["matmul"] = [bench_matmul(tf, rt, int(n), args) for n in args.sizes.split(",")] \
        if "matmul" in parts else []
    if "resnet" in parts:
        results["resnet"] = bench_resnet(tf, rt, args.resnet_batch, args)
    if "callbacks" in parts:
        results["callbacks"] = bench_callbacks(rt, args.loop_k, args)
    results["machine"]["load_average_after"] = os.getloadavg()
    table = report(results)
    table += (f"\n\nload average (1, 5, 15 min) before {_load(results['machine']['load_average_before'])}, "
              f"after {_load(results['machine']['load_average_after'])}")
    print(table)
    results["table"] = table
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
