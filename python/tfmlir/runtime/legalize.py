"""Device programs (tf dialect) to StableHLO with TensorFlow's own legalization passes.

TensorFlow's ``xla-legalize-tf`` and friends run in a child process (through
``tf.mlir.experimental.run_pass_pipeline``, text in and out), so a crash in
TensorFlow cannot take the caller down, and one child serves every program of
a process (TensorFlow is imported once). :data:`PIPELINE` follows the order
of TensorFlow's own bridge (``CreateConvertMlirToXlaHloPipeline``): control
flow to regions, inlining, canonicalization, SCCP and shape inference, tensor
list / stack / tensor array decomposition, resource ops decomposed and
promoted to arguments, ``xla-legalize-tf`` for XLA_CPU_JIT with the tf2xla
fallback, host communication to ``mhlo.send``/``mhlo.recv``, then MHLO to
StableHLO (409 of the 489 XLA_CPU_JIT ops this way, against 241 with the
minimal pipeline first used; docs/runtime-coverage.md).

``xla-legalize-tf`` never fails on an op it cannot lower; :func:`legalize`
therefore scans the result. Ops left over go to TensorFlow's graph route
(:mod:`.graph_route`, ``tf.function(jit_compile=True)``) when the program
allows it; what neither route lowers is a :class:`LegalizationError` naming
every op left over, with its location (TF node name where the program
carries one), before anything runs. ``docs/runtime-coverage.md`` says which
of TF's ops take which route.
"""
import functools
import json
import os
import subprocess
import sys
import threading

from . import _jaxlib, cache

PIPELINE = (
    "tf-functional-control-flow-to-regions,inline,func.func(tf-drop-while-shape-invariant),"
    "func.func(tf-replicate-tensor-list-init-ops),func.func(canonicalize),sccp,"
    "tf-guarantee-all-funcs-one-use,tf-shape-inference,sccp,tf-tensor-list-ops-decomposition,"
    "tf-stack-ops-decomposition,tf-tensor-array-ops-decomposition,"
    "func.func(tf-device-decompose-resource-ops),tf-promote-resources-to-args,symbol-dce,"
    "tf-shape-inference,xla-legalize-tf{device-type=XLA_CPU_JIT legalize-chlo=true use-tf2xla-fallback=true},"
    "func.func(canonicalize),tf-shape-inference,xla-legalize-tf-communication,"
    "hlo-legalize-to-stablehlo,canonicalize")

# Dialects a legalized program may hold.
_LEGAL_DIALECTS = frozenset({"builtin", "func", "stablehlo", "chlo", "sdy"})
# mhlo ops that stay until host transfers are rewritten (runtime/host_transfer);
# mhlo.erf: StableHLO has no erf, jaxlib's own HLO-to-StableHLO conversion writes
# mhlo.erf, and its XLA compiles it; constant shapes of dynamic broadcasts with
# static results (BiasAdd, ArgMax ...), which XLA folds; the element count tf.Mean
# divides by (an arith.constant), which XLA compiles.
_LEGAL_OPS = frozenset({"mhlo.send", "mhlo.recv", "mhlo.create_token", "mhlo.after_all", "mhlo.erf",
                        "shape.const_shape", "arith.constant"})

# The child runs two kinds of job: "pipeline" (a pass pipeline over tf-dialect
# text, the MLIR route) and "graph" (a GraphDef compiled the way
# tf.function(jit_compile=True) compiles it, the graph route of .graph_route).
_CHILD = r"""
import base64, json, sys
import tensorflow as tf
out = sys.stdout
sys.stdout = sys.stderr


def pipeline(job):
    return {"text": tf.mlir.experimental.run_pass_pipeline(job["text"], job["pipeline"],
                                                           show_debug_info=True)}


def graph(job):
    graph_def = tf.compat.v1.GraphDef.FromString(base64.b64decode(job["graph_def"]))
    wrapped = tf.compat.v1.wrap_function(
        lambda: tf.graph_util.import_graph_def(graph_def, name=""), [])
    g = wrapped.graph
    feeds = [g.get_tensor_by_name(name + ":0") for name in job["inputs"]]
    fetches = [g.get_tensor_by_name(name + ":0") for name in job["outputs"]]
    # Side effects with no data path to a result stay: run them as control outputs.
    effects = [op for op in g.get_operations() if op._is_stateful and op.type != "Placeholder"]
    pruned = wrapped.prune(feeds, (fetches, effects))

    def device_program(*args):
        return pruned(*args)[0]

    compiled = tf.function(device_program, jit_compile=True, autograph=False)
    specs = [tf.TensorSpec(t.shape, t.dtype) for t in feeds]
    ir = compiled.experimental_get_compiler_ir(*specs)(stage=job["stage"])
    if isinstance(ir, bytes):
        return {"data": base64.b64encode(ir).decode()}
    return {"text": ir}


KINDS = {"pipeline": pipeline, "graph": graph}
out.write("ready\n"); out.flush()
for line in sys.stdin:
    try:
        job = json.loads(line)
        reply = json.dumps(dict(KINDS[job["kind"]](job), ok=True))
    except Exception as exc:
        reply = json.dumps({"ok": False, "error": "%s: %s" % (type(exc).__name__, exc)})
    out.write(reply + "\n"); out.flush()
"""


class LegalizationError(RuntimeError):
    """A device program did not become StableHLO; `ops` lists (op name, location) left over."""

    def __init__(self, message, ops=()):
        super().__init__(message)
        self.ops = list(ops)


class _TensorFlowChild:
    """One long-lived TensorFlow process serving jobs (a dict with a "kind"), one at a time."""

    def __init__(self):
        self._proc = None
        self._lock = threading.Lock()

    def _start(self):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"))
        self._proc = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                      env=env)
        if self._proc.stdout.readline().strip() != "ready":
            self._proc = None
            raise LegalizationError("TensorFlow could not be started for legalization "
                                    "(is tensorflow==2.21.0 installed?)")

    def prestart(self):
        """Starts the child in the background (TensorFlow's import takes seconds) unless it
        runs already; a request waits for it. A start that fails is retried, and reported, by
        the first request."""
        if self._proc is not None and self._proc.poll() is None:
            return

        def start():
            with self._lock:
                if self._proc is None or self._proc.poll() is not None:
                    try:
                        self._start()
                    except (LegalizationError, OSError):
                        self._proc = None

        threading.Thread(target=start, name="tfmlir-legalization-start", daemon=True).start()

    def request(self, job: dict) -> dict:
        """The child's reply to `job`: {"ok": True, ...} or {"ok": False, "error": ...}."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            try:
                self._proc.stdin.write(json.dumps(job) + "\n")
                self._proc.stdin.flush()
                line = self._proc.stdout.readline()
            except (BrokenPipeError, OSError):
                line = ""
            if not line:
                code = self._proc.wait()
                self._proc = None
                raise LegalizationError(f"TensorFlow's legalization process died (exit status {code})")
        return json.loads(line)

    def run(self, text: str, pipeline: str) -> str:
        """`text` after TensorFlow's pass `pipeline` (text out)."""
        reply = self.request({"kind": "pipeline", "text": text, "pipeline": pipeline})
        if not reply["ok"]:
            raise LegalizationError(f"TensorFlow's legalization failed: {reply['error']}")
        return reply["text"]

    def close(self):
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                self._proc.stdin.close()
                try:
                    self._proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
            self._proc = None


_child = _TensorFlowChild()


def leftover_ops(stablehlo_text: str):
    """(op name, location) of every op in `stablehlo_text` that XLA cannot take."""
    s = _jaxlib._load()
    jax_ir = s["jax_ir"]
    found = []
    with s["jax_mlir"].make_ir_context() as context:
        context.allow_unregistered_dialects = True
        module = jax_ir.Module.parse(stablehlo_text)

        def visit(op):
            name = op.name
            if name.split(".", 1)[0] not in _LEGAL_DIALECTS and name not in _LEGAL_OPS:
                found.append((name, str(op.location)))
            return jax_ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return found


# Why the MLIR route leaves an op: xla-legalize-tf reports nothing, it just
# keeps the ops it has no lowering for (for those operand types).
MLIR_ROUTE_REASON = ("TensorFlow's MLIR legalization (xla-legalize-tf, XLA_CPU_JIT) has no lowering "
                     "that matches them")


def mlir_route(device_program: str):
    """(text after :data:`PIPELINE`, leftover (op name, location) pairs): the MLIR route alone."""
    text = _child.run(device_program, PIPELINE)
    return text, leftover_ops(text)


def _listing(left):
    listed = "; ".join(f"'{name}' at {loc}" for name, loc in left[:20])
    more = f" (and {len(left) - 20} more)" if len(left) > 20 else ""
    return f"{len(left)} op(s) cannot be lowered to XLA: {listed}{more}"


def prestart():
    """Starts TensorFlow's legalization child in the background, so that its start (seconds:
    TensorFlow's import) overlaps whatever the caller does before the first legalization.
    ``TFMLIR_LEGALIZE_PRESTART=0`` turns this off (the child then starts at the first
    legalization that the on-disk cache cannot serve)."""
    if os.environ.get("TFMLIR_LEGALIZE_PRESTART", "1").strip().lower() in ("0", "off", "false", "no"):
        return
    _child.prestart()


@functools.lru_cache(maxsize=None)
def _toolchain():
    """What decides a legalization's result besides the program: TensorFlow's version, the
    pipeline and tfmlir itself (:func:`.cache.package_identity`)."""
    from importlib import metadata

    try:
        tf_version = metadata.version("tensorflow")
    except metadata.PackageNotFoundError:
        tf_version = "none"
    return (cache.package_identity(), tf_version, PIPELINE)


def cache_key(device_program: str) -> str:
    """The key of `device_program`'s legalized StableHLO in the on-disk cache."""
    return cache.key("stablehlo", *_toolchain(), device_program)


def legalize(device_program: str) -> str:
    """StableHLO text of a device program (an MLIR module in the tf dialect, entry ``main``),
    from the on-disk cache (:mod:`.cache`) when a previous legalization of the same program
    by the same toolchain is there.

    TensorFlow's MLIR passes first; if they leave ops (or fail) and the
    program has no host computation and no resource arguments, TensorFlow's
    graph route (:mod:`.graph_route`). Raises :class:`LegalizationError` if
    neither gives StableHLO: the error names each op left and its location,
    why the MLIR route left them and why the graph route failed or was not
    taken.
    """
    store = cache.default()
    entry = cache_key(device_program) if store is not None else None
    if store is not None:
        found = store.get("stablehlo", entry)
        if found is not None:
            return found.decode("utf-8")
    text = _legalize(device_program)
    if store is not None:
        store.put("stablehlo", entry, text.encode("utf-8"))
    return text


def _legalize(device_program):
    try:
        text, left = mlir_route(device_program)
    except LegalizationError as err:  # TF's passes failed outright
        text, left, what = None, [], f"{err}"
    else:
        if not left:
            return text
        what = f"{_listing(left)}. MLIR route: {MLIR_ROUTE_REASON}"
    from . import graph_route

    try:
        return graph_route.to_stablehlo(device_program)
    except graph_route.GraphRouteRefused as err:
        raise LegalizationError(f"{what}. Graph route not taken: {err}", left) from None
    except graph_route.GraphRouteError as err:
        raise LegalizationError(f"{what}. Graph route: {err}", left) from None


def shutdown():
    """Stops the TensorFlow child (it is restarted on the next legalization)."""
    _child.close()
