"""tfmlir demo: a TF1 TPU program from TensorFlow to XLA's numbers, every stage shown.

    python -m tfmlir.demo [--steps N] [--device cpu|gpu] [--full-ir]
    python -m tfmlir.demo --input model.pb --fetch out [--feed x=x.npy] [--target init] [...]

By default TensorFlow builds, in graph mode, a TF1 TPU program: a resource
variable with its initializer, ``tf.compat.v1.tpu.replicate`` over 2 replicas
whose computation sends values to the host for string ops
(``tf.strings.as_string`` / ``to_number`` under
``tf.compat.v1.tpu.outside_compilation``), runs a ``tf.while_loop``, sums over
the replicas with ``cross_replica_sum`` and updates the variable. The demo then

1. describes the GraphDef (nodes, ops by type, the TPU computation);
2. imports it with tfmlir (``tfmlir.importers``) into a ``tf_executor`` module;
3. runs TF's TPU bridge with tfmlir's passes in three chunks --
   ``tf-replicated-clustering-bridge-v2`` up to ``tf-tpu-cluster-formation``, then
   up to ``tf-extract-outside-compilation``, then the rest and
   ``tfrt-lower-cluster-to-runtime-ops-tpu`` -- printing excerpts of the IR after
   each (the ``tf_device.cluster``, the ``tf_device.parallel_execute`` of the host
   computation, the ``_TPUCompileMlir`` / ``TPUExecute`` ops) and op counts;
4. runs the bridged program with ``tfmlir.runtime`` on XLA (2 replicas, the host
   computation on TensorFlow's kernels): the initializer, then a few steps whose
   values change as the variable is updated;
5. runs the same computation without the TPU wrappers in a
   ``tf.compat.v1.Session`` and compares: PASS when every value is within 1e-6
   of plain TensorFlow's relative to the fetch's largest magnitude;
6. prints the timings.

``--input model.pb`` (or ``.pbtxt``) takes a user's TF1 GraphDef through the same
stages with ``--feed NAME=file.npy|literal``, ``--fetch NAME`` (required) and
``--target NAME`` (run once first, e.g. the initializer); the comparison with
plain TensorFlow needs the program without its TPU wrappers, which the demo
does not have then: step 5 says so. ``tfmlir.runtime.Session(graph_def)`` and
``tfmlir run model.pb`` run GraphDefs the same way with TF's v1 bridge flavour.
Exit code 0 on success, 1 on any failure (a comparison outside the tolerance
included).
"""
import argparse
import collections
import os
import re
import sys
import time

import numpy as np

RTOL = 1e-6
DEFAULT_STEPS = 3
REPLICAS = 2

# Ops whose counts tell the bridge's story, in the order they appear.
KEY_OPS = ("tf_executor.island", "tf.While", "tf.WhileRegion", "tf.CrossReplicaSum", "tf_device.replicate",
           "tf_device.cluster", "tf_device.parallel_execute", "tf_device.launch", "tf._XlaHostComputeMlir",
           "tf._XlaRecvAtHostV2", "tf._XlaSendFromHostV2", "tf_device.cluster_func", "tf._TPUCompileMlir",
           "tf.TPUCompileSucceededAssert", "tf.TPUExecute", "tf.TPUExecuteAndUpdateVariables")


class DemoError(Exception):
    """A failure with a message meant for the user."""


class Program:
    """A GraphDef to run: `graph` (tfmlir's decoded message), feeds {tensor: array}, fetches,
    targets (run once first), `plain` (None, or a callable steps -> [[value per fetch] per
    step] running the program without TPU wrappers in TensorFlow)."""

    def __init__(self, graph, origin, feeds, fetches, targets, plain=None, about=()):
        self.graph, self.origin, self.feeds = graph, origin, feeds
        self.fetches, self.targets, self.plain, self.about = fetches, targets, plain, list(about)


# --- the built-in program ------------------------------------------------------------------------

def build_default_program():
    """The built-in TF1 TPU program, built by TensorFlow in graph mode, and its plain twin."""
    import tfmlir  # noqa: F401  (tfmlir first: TensorFlow imported after it is safe)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        import tensorflow as tf
    except ImportError as e:
        raise DemoError(f"TensorFlow builds the built-in program ({e}); install tensorflow or pass "
                        "--input model.pb") from e
    from .runtime.graph_session import load_graph_def

    tf1 = tf.compat.v1
    rng = np.random.default_rng(2026)
    x_value = rng.uniform(-1.0, 1.0, (REPLICAS, 4)).astype(np.float32)
    w_value = rng.uniform(-1.0, 1.0, (4,)).astype(np.float32)

    def host_round_trip(v):
        # String ops have no XLA kernel: they run on the host.
        return tf.strings.to_number(tf.strings.as_string(v, precision=6))

    def build(tpu):
        graph = tf.Graph()
        with graph.as_default():
            x = tf1.placeholder(tf.float32, [REPLICAS, 4], name="x")  # one row per replica
            w = tf1.get_variable("w", initializer=tf.constant(w_value), use_resource=True)
            rows = [x[r] for r in range(REPLICAS)]

            def local(xi):
                a = xi * 2.0
                r = tf1.tpu.outside_compilation(host_round_trip, a) if tpu else host_round_trip(a)
                v = r + w

                def body(i, v):
                    return i + 1, tf.tanh(v * w) + 0.5 * v

                return tf.while_loop(lambda i, v: i < 3, body, [tf.constant(0), v])[1]

            if tpu:
                def computation(xi):
                    v = local(xi)
                    total = tf1.tpu.cross_replica_sum(v)
                    update = w.assign_sub(0.1 * total)
                    with tf.control_dependencies([update]):
                        return [tf.identity(v), tf.identity(total)]

                outputs = tf1.tpu.replicate(computation, [[row] for row in rows])
            else:
                # The replicas one after another; the cross-replica sum is the sum of their
                # values; every replica's update is the same: it happens once.
                values = [local(row) for row in rows]
                total = tf.add_n(values)
                update = w.assign_sub(0.1 * total)
                with tf.control_dependencies([update]):
                    outputs = [[tf.identity(v), tf.identity(total)] for v in values]
            fetched = [tf.identity(outputs[r][0], name=f"v_{r}") for r in range(REPLICAS)]
            fetched.append(tf.identity(outputs[0][1], name="total"))
            with tf.control_dependencies(fetched):
                tf.identity(w.read_value(), name="w_after")
            tf1.global_variables_initializer()  # the node "init"
        return graph

    fetches = [f"v_{r}" for r in range(REPLICAS)] + ["total", "w_after"]
    try:
        graph = build(tpu=True)
        plain_graph = build(tpu=False)
    except Exception as e:  # TF raises a variety of types here
        raise DemoError(f"TensorFlow failed to build the built-in program: {e}") from e

    def plain(steps):
        with tf1.Session(graph=plain_graph) as session:
            session.run("init")
            return [session.run([f + ":0" for f in fetches], {"x:0": x_value}) for _ in range(steps)]

    about = [f"built by TensorFlow {tf.__version__} in graph mode: tf.compat.v1.tpu.replicate over "
             f"{REPLICAS} replicas (one row of x each);",
             "a resource variable w (initializer 'init'); x * 2 to the host for "
             "tf.strings.as_string / to_number (outside compilation);",
             "+ w, a tf.while_loop of tanh(v * w) + 0.5 * v, cross_replica_sum, w -= 0.1 * sum;",
             "fetches: v_<replica> (the loop's value), total (the sum), w_after (w after the step)"]
    return Program(load_graph_def(graph.as_graph_def().SerializeToString()), "the built-in TF1 TPU program",
                   {"x": x_value}, fetches, ["init"], plain, about)


def load_user_program(args):
    from .runtime.cli import _feed, _UsageError
    from .runtime.graph_session import load_graph_def
    from .runtime.errors import ProgramError

    if not args.fetch:
        raise DemoError("--input needs --fetch (the tensors to fetch)")
    if not os.path.isfile(args.input):
        raise DemoError(f"cannot read {args.input}: no such file")
    try:
        graph = load_graph_def(args.input)
        feeds = dict(_feed(f) for f in args.feed)
    except (ProgramError, _UsageError) as e:
        raise DemoError(str(e)) from None
    nodes = {node.name: node for node in graph.node}
    feeds = {name: _as_placeholder_type(nodes, name, value) for name, value in feeds.items()}
    for what, names in (("fetch", args.fetch), ("target", args.target)):
        for name in names:
            if _node_name(name) not in nodes:
                raise DemoError(f"{what} '{name}': the graph has no node '{_node_name(name)}'")
    return Program(graph, args.input, feeds, list(args.fetch), list(args.target))


def _node_name(tensor):
    from .tfcore.tensor_names import parse_tensor_name
    return parse_tensor_name(tensor)[0]


def _as_placeholder_type(nodes, name, value):
    """A fed value as its placeholder's dtype (as a TF1 session converts feeds)."""
    from .tfcore import tf_types
    from .runtime.device import element_dtype

    node = nodes.get(_node_name(name))
    if node is None:
        raise DemoError(f"feed '{name}': the graph has no node '{_node_name(name)}'")
    attr = node.attr.get("dtype") if node.op in ("Placeholder", "PlaceholderV2",
                                                 "PlaceholderWithDefault") else None
    if attr is None:
        return value
    try:
        dtype = element_dtype(tf_types.element_type(int(attr.type)))
    except Exception:
        dtype = None
    if dtype is None or value.dtype == dtype:
        return value
    if dtype == np.dtype(object) or value.dtype.kind in "SUO":
        if dtype == np.dtype(object) and value.dtype.kind in "SUO":
            return value.astype(object)
        raise DemoError(f"feed '{name}': {value.dtype} values cannot feed the {node.op} '{node.name}' "
                        f"of {tf_types.dtype_name(int(attr.type))}")
    return value.astype(dtype)


# --- IR helpers ----------------------------------------------------------------------------------

def bridge_stages():
    """[(title, what it shows, passes, excerpt patterns)]: the bridge in three chunks."""
    from .passes import bridge_pipelines as bp
    from .passes.pipeline import split_pipeline

    passes = split_pipeline(bp.BRIDGE_V2)

    def after(name):
        return next(i for i, p in enumerate(passes) if p == name) + 1

    formed, extracted = after("tf-tpu-cluster-formation"), after("tf-extract-outside-compilation")
    return [
        ("clustering", "tf-tpu-validate-inputs ... tf-tpu-cluster-formation",
         "each TPU computation becomes a tf_device.cluster (inside a tf_device.replicate when "
         "replicated); ops for the host keep their _xla_outside_compilation mark",
         # TF's session prunes the graph to the signature first (as GraphSession does).
         ["func.func(tf-executor-graph-pruning)"] + passes[:formed],
         (r"tf_device\.replicate", r'"tf_device\.cluster"', r"_xla_outside_compilation",
          r"tf\.CrossReplicaSum", r"^\s*\}\) \{.*_replication_info")),
        ("outside compilation", "... tf-extract-outside-compilation",
         "ops for the host (outside compilation) move into a tf_device.parallel_execute beside "
         "the cluster, which reaches them through _XlaHostComputeMlir",
         passes[formed:extracted],
         (r"tf_device\.parallel_execute", r"TPU_REPLICATED_HOST", r"_XlaRecvAtHost", r"tf\.AsString",
          r"tf\.StringToNumber", r"_XlaSendFromHost", r'"tf_device\.cluster"', r"_XlaHostComputeMlir")),
        ("TPU rewrite", "... the rest of the clustering bridge, tfrt-lower-cluster-to-runtime-ops-tpu",
         "each cluster is compiled by _TPUCompileMlir (its module serialized in an attribute) and "
         "run by TPUExecute on every replica's core",
         passes[extracted:] + split_pipeline(bp.LOWER_TO_RUNTIME_OPS_TPU),
         (r"_TPUCompileMlir", r"TPUCompileSucceededAssert", r"tf_device\.replicate", r"TPUExecute",
          r"_XlaRecvAtHostV2")),
    ]


def op_counts(module):
    from mlir import ir

    counts = collections.Counter()

    def visit(op):
        counts[op.name] += 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    counts.pop("builtin.module", None)
    return counts


def dialect_summary(counts):
    dialects = collections.Counter()
    for name, n in counts.items():
        dialects[name.split(".", 1)[0]] += n
    parts = ", ".join(f"{d} {n}" for d, n in sorted(dialects.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{sum(counts.values())} ops ({parts})"


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
MAX_STRING = 48
MAX_LINE = 150


def shorten(line):
    """`line` with long string literals elided and cut to MAX_LINE characters."""
    line = _STRING.sub(lambda m: m.group(0) if len(m.group(0)) <= MAX_STRING
                       else f'"...({len(m.group(0)) - 2} chars)"', line.rstrip())
    return line if len(line) <= MAX_LINE else line[:MAX_LINE - 4] + " ..."


def excerpt(text, patterns, before=1, after=1, limit=28):
    """A few lines of `text` around the lines matching `patterns` (regexes), long strings
    elided, gaps shown as '...'."""
    lines = text.splitlines()
    regexes = [re.compile(p) for p in patterns]
    keep = set()
    for i, line in enumerate(lines):
        if any(r.search(line) for r in regexes):
            keep.update(range(max(0, i - before), min(len(lines), i + after + 1)))
    if not keep:
        return []
    chosen = sorted(keep)
    indent = min(len(lines[i]) - len(lines[i].lstrip()) for i in chosen)
    out, previous = [], None
    for i in chosen:
        if len(out) >= limit:
            out.append("...")
            break
        if previous is not None and i != previous + 1:
            out.append("...")
        out.append(shorten(lines[i][indent:]))
        previous = i
    return out


# --- the demo ------------------------------------------------------------------------------------

class Demo:
    def __init__(self, args, out):
        self.args, self.out = args, out
        self.timings = collections.OrderedDict()

    def say(self, text=""):
        print(text, file=self.out, flush=True)

    def section(self, title):
        self.say()
        self.say(f"== {title} ==")

    # 1. the program
    def describe(self, program):
        graph = program.graph
        self.section(f"1. the program: {program.origin}")
        for line in program.about:
            self.say(f"  {line}")
        ops = collections.Counter(node.op for node in graph.node)
        in_tpu = sum(1 for node in graph.node if node.attr.get("_tpu_replicate") is not None)
        outside = sum(1 for node in graph.node if node.attr.get("_xla_outside_compilation") is not None)
        functions = [f.signature.name for f in graph.library.function]
        self.say(f"  GraphDef: {len(graph.node)} nodes, {len(ops)} op types; {in_tpu} nodes in TPU "
                 f"computations (_tpu_replicate), {outside} outside compilation "
                 f"(_xla_outside_compilation); {len(functions)} library functions"
                 + (f" ({', '.join(functions[:4])}{', ...' if len(functions) > 4 else ''})" if functions else ""))
        items = [f"{op} {n}" for op, n in sorted(ops.items(), key=lambda kv: (-kv[1], kv[0]))]
        self._wrapped("ops by type: ", items)
        feeds = ", ".join(f"{k} {v.dtype.name if v.dtype != object else 'string'}{list(v.shape)}"
                          for k, v in program.feeds.items()) or "none"
        self.say(f"  run: targets {', '.join(program.targets) or 'none'} once, then fetch "
                 f"{', '.join(program.fetches)} with feeds {feeds}")

    def _wrapped(self, head, items, width=100):
        line = "  " + head
        for k, item in enumerate(items):
            piece = item + (", " if k + 1 < len(items) else "")
            if len(line) + len(piece) > width:
                self.say(line.rstrip())
                line = "  " + " " * len(head)
            line += piece
        self.say(line.rstrip())

    # 2. import
    def import_signature(self, program, replicas, feeds, fetches, targets):
        from mlir import ir

        from . import driver
        from .tfcore.errors import TFImportError

        context = ir.Context()
        t0 = time.perf_counter()
        try:
            module = driver.import_graph_def(program.graph, driver.feed_specs(feeds), fetches, targets,
                                             context=context)
        except TFImportError as e:
            raise DemoError(f"tfmlir could not import the GraphDef: {e}") from None
        driver.assign_devices(module, replicas)
        return module, context, time.perf_counter() - t0

    # 3. the bridge
    def bridge(self, module, show):
        from mlir import ir

        from . import print_ir
        from .passes import PassFailure, run as run_pipeline
        from .passes.pipeline import PipelineError

        counts = [("import", op_counts(module))]
        seconds = []
        for k, (title, span, meaning, passes, patterns) in enumerate(bridge_stages()):
            t0 = time.perf_counter()
            try:
                run_pipeline(module, ",".join(passes))
            except (PassFailure, PipelineError, ir.MLIRError, RuntimeError) as e:
                raise DemoError(f"the TPU bridge failed in stage 3{'abc'[k]} ({title}): {e}") from None
            seconds.append(time.perf_counter() - t0)
            counts.append((title, op_counts(module)))
            if not show:
                continue
            self.say()
            self.say(f" 3{'abc'[k]}. {title}: {len(passes)} passes ({span}) in {seconds[-1]:.2f} s")
            self.say(f"     {meaning}")
            self.say(f"     {dialect_summary(counts[-1][1])}")
            text = print_ir(module, large_elements_limit=16)
            if self.args.full_ir:
                self.say(text)
                continue
            lines = excerpt(text, patterns)
            if not lines:
                self.say("     (none of the ops this stage makes: the graph has no TPU computation here)")
            for line in lines:
                self.say("       " + line)
        return counts, seconds

    def key_op_table(self, counts):
        names = [op for op in KEY_OPS if any(c.get(op) for _, c in counts)]
        if not names:
            return
        self.say()
        width = max(len(n) for n in names)
        heads = [title for title, _ in counts]
        self.say("     " + " " * width + "".join(f"{h:>21}" for h in heads))
        for name in names:
            self.say(f"     {name:<{width}}" + "".join(f"{c.get(name, 0):>21}" for _, c in counts))

    # the whole path
    def run(self, program):
        from . import runtime
        from .runtime.graph_session import num_replicas
        from .runtime.errors import ProgramError, RunError

        args = self.args
        self.describe(program)
        try:
            replicas = num_replicas(program.graph)
        except ProgramError as e:
            raise DemoError(str(e)) from None

        self.section("2. import with tfmlir (GraphDef -> tf_executor module)")
        step_module, step_context, seconds = self.import_signature(
            program, replicas, program.feeds, program.fetches, [])
        self.timings["import"] = seconds
        self.say(f"  the step's signature (feeds {', '.join(program.feeds) or 'none'}; fetches "
                 f"{', '.join(program.fetches)}) in {seconds:.3f} s (TF1 control flow, if any, "
                 "functionalized; every node kept, the bridge prunes)")
        imported = op_counts(step_module)
        self.say(f"  {dialect_summary(imported)}; {imported.get('func.func', 0)} functions")
        init = None
        if program.targets:
            init_module, init_context, seconds = self.import_signature(program, replicas, {}, [],
                                                                       program.targets)
            self.timings["import"] += seconds
            self.say(f"  the targets' signature ({', '.join(program.targets)}) in {seconds:.3f} s")
            init = (init_module, init_context)

        self.section("3. TF's TPU bridge with tfmlir's passes (tf-replicated-clustering-bridge-v2 in "
                     "three chunks)")
        counts, seconds = self.bridge(step_module, show=True)
        self.key_op_table(counts)
        for (title, *_), s in zip(bridge_stages(), seconds):
            self.timings[f"bridge: {title}"] = s
        if init is not None:
            t0 = time.perf_counter()
            self.bridge(init[0], show=False)
            seconds = time.perf_counter() - t0
            self.timings["bridge: the targets' signature"] = seconds
            self.say()
            self.say(f"  (the targets' signature is bridged the same way, in {seconds:.2f} s)")

        platform = "XLA " + args.device.upper()
        self.section(f"4. execution on {platform} through tfmlir.runtime ({replicas} "
                     f"replica{'s' if replicas != 1 else ''}; host ops on TensorFlow's kernels)")
        container = f"tfmlir_demo_{os.getpid()}"
        sessions = []
        results, step_seconds = [], []
        try:
            self.say("  the modules after 3c run as they are: device programs legalized to StableHLO "
                     "and compiled by XLA when the session is built")
            t0 = time.perf_counter()
            if init is not None:
                session = runtime.Session(init[0], device=args.device, progress=False, container=container)
                sessions.append(session)
            session = runtime.Session(step_module, device=args.device, progress=False, container=container)
            sessions.append(session)
            self.timings["runtime sessions built"] = time.perf_counter() - t0
            for key, what in (("legalize", "legalize (TF's passes to StableHLO)"), ("compile", "compile (XLA)")):
                self.timings[f"  of which {what}"] = sum(s.timings[key] for s in sessions)
            if init is not None:
                t0 = time.perf_counter()
                sessions[0].run(None, {})
                self.timings["run: targets"] = time.perf_counter() - t0
                self.say(f"  targets {', '.join(program.targets)}: ran once "
                         f"({self.timings['run: targets'] * 1e3:.1f} ms)")
            for step in range(args.steps):
                t0 = time.perf_counter()
                values = session.run(None, dict(program.feeds))
                step_seconds.append(time.perf_counter() - t0)
                results.append(values)
                self.say(f"  step {step + 1} ({step_seconds[-1] * 1e3:.1f} ms):")
                for name, value in zip(program.fetches, values):
                    prefix = f"    {name} = "
                    self.say(prefix + _format(value).replace("\n", "\n" + " " * len(prefix)))
            totals = collections.Counter()
            for s in sessions:
                for key, value in s.timings.items():
                    totals[key] += value
        except (ProgramError, RunError) as e:
            raise DemoError(f"tfmlir.runtime failed: {e}") from None
        finally:
            for s in sessions:
                s.close()
        if args.steps > 1 and all(np.asarray(v).dtype != object for v in results[0]):
            changed = [name for k, name in enumerate(program.fetches)
                       if not np.array_equal(results[0][k], results[-1][k])]
            self.say(f"  changed from step 1 to step {args.steps} (the variables carry over): "
                     f"{', '.join(changed) or 'nothing'}")

        self.section("5. comparison with plain TensorFlow")
        passed = True
        if program.plain is None:
            self.say("  not possible for --input: it needs the same computation without the TPU "
                     "wrappers (tpu.rewrite/replicate, outside_compilation) run by TensorFlow, which "
                     "the demo does not have for a given GraphDef; the values above are tfmlir's alone")
        else:
            passed = self.compare(program, results)

        self.section("6. timings")
        for step, s in enumerate(step_seconds):
            self.timings[f"step {step + 1}"] = s
        width = max(len(k) for k in self.timings)
        for key, value in self.timings.items():
            self.say(f"  {key:<{width}}  {value * 1e3:9.1f} ms")
        self.say(f"  {'XLA executions':<{width}}  {int(totals['executions']):9d}   "
                 f"({totals['execute'] * 1e3:.2f} ms)")
        self.say(f"  {'host callbacks':<{width}}  {int(totals['callbacks']):9d}   "
                 f"({totals['callback'] * 1e3:.2f} ms)")
        self.say()
        if not passed:
            raise DemoError(f"tfmlir's values differ from plain TensorFlow's by more than {RTOL:g} "
                            "relative (see step 5)")
        self.say("done: " + ("PASS, tfmlir's values equal plain TensorFlow's" if program.plain
                             else "the GraphDef ran through tfmlir's import, bridge and runtime"))
        return 0

    def compare(self, program, results):
        try:
            expected = program.plain(len(results))
        except Exception as e:  # TF raises a variety of types here
            raise DemoError(f"plain TensorFlow failed to run the program: {e}") from e
        self.say(f"  the same computation without TPU wrappers in a tf.compat.v1.Session: "
                 f"{len(expected)} steps after 'init'")
        self.say(f"  {'fetch':<10} {'max abs diff':>14} {'max rel diff':>14}   (relative to the fetch's "
                 "largest magnitude; over all steps)")
        ok = True
        for k, name in enumerate(program.fetches):
            worst_abs = worst_rel = 0.0
            for step, values in enumerate(results):
                got, want = np.asarray(values[k]), np.asarray(expected[step][k])
                if got.shape != want.shape:
                    self.say(f"  {name}: step {step + 1}: shape {got.shape}, TensorFlow's {want.shape}")
                    ok = False
                    continue
                if want.dtype == object or got.dtype == object:
                    if got.tolist() != want.tolist():
                        worst_abs = worst_rel = float("inf")
                    continue
                diff = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))) \
                    if want.size else 0.0
                scale = float(np.max(np.abs(want))) if want.size else 0.0
                worst_abs = max(worst_abs, diff)
                worst_rel = max(worst_rel, diff / scale if scale else diff)
            ok = ok and worst_rel <= RTOL
            self.say(f"  {name:<10} {worst_abs:>14.3e} {worst_rel:>14.3e}")
        self.say(f"  {'PASS' if ok else 'FAIL'} (tolerance {RTOL:g} relative)")
        return ok


def _format(value):
    value = np.asarray(value)
    text = np.array2string(value, precision=6, threshold=12, max_line_width=96, separator=" ")
    return text + (f"  {value.dtype.name}{list(value.shape)}" if value.ndim else "")


def main(argv=None, out=None):
    out = out or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m tfmlir.demo",
        description="A TF1 TPU program from TensorFlow to XLA through tfmlir: import, the TPU bridge in "
                    "stages, execution, comparison with plain TensorFlow.")
    parser.add_argument("--input", metavar="MODEL.pb",
                        help="a TF1 GraphDef (.pb or .pbtxt) instead of the built-in program")
    parser.add_argument("--feed", action="append", default=[], metavar="NAME=VALUE",
                        help="with --input: NAME=file.npy or NAME=<Python literal> (repeatable)")
    parser.add_argument("--fetch", action="append", default=[], metavar="NAME",
                        help="with --input: a tensor to fetch (repeatable; required)")
    parser.add_argument("--target", action="append", default=[], metavar="NAME",
                        help="with --input: a node run once before the steps, e.g. the initializer")
    parser.add_argument("--steps", type=int, default=None, metavar="N",
                        help=f"steps to run (default {DEFAULT_STEPS}; 1 with --input)")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                        help="XLA platform of the device programs (default cpu)")
    parser.add_argument("--full-ir", action="store_true",
                        help="print the whole module after each bridge stage, not excerpts")
    args = parser.parse_args(argv)
    if args.steps is None:
        args.steps = 1 if args.input else DEFAULT_STEPS
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        if args.steps < 1:
            raise DemoError(f"--steps {args.steps}: expected at least 1")
        if not args.input and (args.feed or args.fetch or args.target):
            raise DemoError("--feed, --fetch and --target go with --input")
        program = load_user_program(args) if args.input else build_default_program()
        return Demo(args, out).run(program)
    except DemoError as e:
        print(f"tfmlir.demo: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        raise
    except Exception as e:  # never a traceback: what failed, in one message
        print(f"tfmlir.demo: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
