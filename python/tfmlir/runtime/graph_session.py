"""TensorFlow programs in, XLA's numbers out: GraphDefs and traced functions bridged by tfmlir.

:class:`GraphSession` (what :class:`tfmlir.runtime.Session` gives for a GraphDef) runs a
TF1 graph with ``tf.compat.v1.Session`` semantics. Like TensorFlow's session, which
builds one executor per (feeds, fetches, targets) signature, it bridges the graph once
per signature -- and per shape and dtype of the fed values, as XLA compiles per shape --
through the stages of :mod:`tfmlir.driver`:

1. import with the fed tensors as ``main``'s arguments, the fetches as its results and
   the targets as its control outputs; TF1 control flow is functionalized
   (``tf-executor-functionalize-control-flow``);
2. the module gets a device list (a host CPU, ``TPU_SYSTEM:0`` and one TPU core per
   replica of the graph's ``TPUReplicateMetadata``);
3. the graph pruned to the signature, then ``tf-tpu-bridge{v1-compat=true}`` (TF's TPU
   bridge for TF1 sessions: v1 outlining, clustering, outside compilation, TPU rewrite,
   inlining) -- a graph without TPU computations passes through unchanged and runs on
   the host;
4. a :class:`.session.ProgramSession` on the bridged module runs it: everything
   ``main`` holds after the bridge's pruning, which is exactly what the fetches and
   targets need.

Variables live in one resource container shared by every signature, so an
initializer run as a target is seen by later fetches.
"""
import io
import os
import threading
import time

import numpy as np

from . import cache
from . import session as _session
from .errors import ProgramError, RunError

from .. import driver

TPU_REPLICATE_METADATA = "TPUReplicateMetadata"


def is_graph_def(program):
    """Whether `program` is a GraphDef: a TensorFlow ``GraphDef`` proto, tfmlir's decoded
    message, or the path of a ``.pb`` / ``.pbtxt`` file (bytes are taken as a serialized
    GraphDef unless they look like MLIR text)."""
    from ..tfcore import protobuf as pb
    if isinstance(program, pb.Message):
        return True
    if hasattr(program, "SerializeToString") and hasattr(program, "DESCRIPTOR"):
        return program.DESCRIPTOR.name == "GraphDef"
    if isinstance(program, os.PathLike) or (isinstance(program, str) and "\n" not in program
                                            and program.endswith((".pb", ".pbtxt"))):
        return True
    if isinstance(program, (bytes, bytearray, memoryview)):
        head = bytes(program[:64]).lstrip()
        return not (head.startswith(b"module") or head.startswith(b"#") or head.startswith(b"//")
                    or head.startswith(b"func.func") or head.startswith(b"\"builtin.module\""))
    return False


def load_graph_def(program):
    """tfmlir's decoded GraphDef message of `program` (see :func:`is_graph_def`); a clear
    ProgramError when it cannot be read or decoded."""
    return _read_graph_def(program)[0]


def _read_graph_def(program):
    """(:func:`load_graph_def`, the SHA-256 of the serialized GraphDef (None for a text
    GraphDef or a message given decoded))."""
    import hashlib

    from ..tfcore import protobuf as pb
    if isinstance(program, pb.Message):
        return program, None
    if hasattr(program, "SerializeToString"):
        program = program.SerializeToString()
    if isinstance(program, (str, os.PathLike)):
        path = os.fspath(program)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise ProgramError(f"cannot read the GraphDef '{path}': {exc.strerror}") from None
        if path.endswith(".pbtxt"):
            try:
                return pb.parse_text("GraphDef", data), None
            except Exception as exc:
                raise ProgramError(f"'{path}' is not a GraphDef in text format: {exc}") from None
        program = data
    try:
        program = bytes(program)
        return pb.decode("GraphDef", program), hashlib.sha256(program).hexdigest()
    except pb.DecodeError as exc:
        raise ProgramError(f"the program is not a serialized GraphDef: {exc}") from None


def tpu_cores(graph_def):
    """How many TPU cores (XLA devices) the graph's TPU computations need: one per replica, or as
    many as the topology of their device assignment has (model parallelism:
    ``num_cores_per_replica`` > 1 needs one). ProgramError when the metadata disagree."""
    replicas = num_replicas(graph_def)
    topologies = []
    for node in graph_def.node:
        if node.op == TPU_REPLICATE_METADATA:
            attr = node.attr.get("topology")
            if attr is not None and attr.which("value") == "s":
                topologies.append(bytes(attr.s) if not isinstance(attr.s, str) else attr.s.encode())
    try:
        return driver.tpu_core_count(replicas, topologies)
    except ValueError as exc:
        raise ProgramError(f"TPUReplicateMetadata: {exc}") from None


def num_replicas(graph_def):
    """The replica count of the graph's TPU computations (1 without any); ProgramError when
    its ``TPUReplicateMetadata`` nodes disagree."""
    counts = {}
    for node in graph_def.node:
        if node.op == TPU_REPLICATE_METADATA:
            attr = node.attr.get("num_replicas")
            counts[node.name] = int(attr.i) if attr is not None else 1
    values = sorted(set(counts.values()))
    if len(values) > 1:
        listing = ", ".join(f"'{name}': {n}" for name, n in sorted(counts.items()))
        raise ProgramError(f"the graph's TPU computations have different replica counts ({listing}); "
                           f"one device assignment serves them all")
    if values and values[0] < 1:
        raise ProgramError(f"TPUReplicateMetadata asks for {values[0]} replicas")
    return values[0] if values else 1


# Attributes naming TPU clusters and outside-compilation groups: the bridge reads them as text.
_TEXT_ATTRS = ("_tpu_replicate", "_xla_outside_compilation", "_replication_info")


def _check_names(graph_def):
    """ProgramError naming the node if an attribute the bridge reads as text (cluster names) is not
    UTF-8."""
    for node in graph_def.node:
        for key in _TEXT_ATTRS:
            attr = node.attr.get(key)
            if attr is None or attr.which("value") != "s":
                continue
            value = attr.s
            if isinstance(value, str):
                continue
            try:
                bytes(value).decode("utf-8")
            except UnicodeDecodeError:
                raise ProgramError(f"node '{node.name}' ({node.op}): attribute '{key}' is not UTF-8 text "
                                   f"({bytes(value)[:40]!r}); TPU cluster names are text") from None


def _node_name(tensor):
    from ..tfcore.tensor_names import parse_tensor_name
    return parse_tensor_name(tensor)[0]


class GraphSession(_session.SessionBase):
    """A TF1 GraphDef bridged by tfmlir and run on XLA with ``tf.compat.v1.Session`` semantics.

    ``device``: XLA platform of the device programs ("cpu" or "gpu"). ``v1_compat``: bridge
    with ``tf-tpu-bridge{v1-compat=true}`` (TF's TF1 flavour, the default) or ``false``.
    ``print_ir_after_bridge``: a callable given each bridged module's text (``print`` to
    show it). ``progress``: as :class:`.session.ProgramSession`.

    It holds one :class:`.session.ProgramSession` per signature (feeds, fetches, targets,
    fed shapes and dtypes), all on one resource container.
    """

    def __init__(self, graph_def, *, device="cpu", progress=None, v1_compat=True,
                 print_ir_after_bridge=None):
        if device not in ("cpu", "gpu"):
            raise ValueError(f"device must be 'cpu' or 'gpu', not {device!r}")
        self.platform = device
        self.progress = progress
        self.v1_compat = bool(v1_compat)
        self.print_ir_after_bridge = print_ir_after_bridge
        self._closed = False
        self._lock = threading.RLock()
        self._graph, self._graph_digest = _read_graph_def(graph_def)
        self._nodes = {node.name: node for node in self._graph.node}
        self._replicas = num_replicas(self._graph)
        self._cores = tpu_cores(self._graph)
        _check_names(self._graph)
        self._has_tpu = any(node.op == TPU_REPLICATE_METADATA for node in self._graph.node)
        # Before any device list is built: replicas run one per XLA device.
        from . import _jaxlib
        why = _jaxlib.platform_error(device)
        if why is not None:
            raise ProgramError(f"no {device} platform for the device programs: {why}")
        available = _jaxlib.device_count(device)
        if self._cores > available:
            extra = " (TFMLIR_CPU_DEVICES sets how many, before jax starts)" if device == "cpu" else ""
            asks = (f"{self._replicas} replicas" if self._cores == self._replicas
                    else f"a topology of {self._cores} TPU cores")
            raise ProgramError(f"TPUReplicateMetadata asks for {asks}, but TPU cores run "
                               f"one per XLA device and the {device} platform has {available}{extra}")
        self._container = f"tfmlir_graph_session_{next(_session._sessions)}"
        from .distributed import JobFeeds
        self._job_feeds = JobFeeds(self._container, device)
        self._signatures = {}
        self._bridge_seconds = 0.0
        self._bridges = 0
        self.output_names = []
        _session._live.add(self)

    # --- bridging ---------------------------------------------------------------------------------
    def _feed_value(self, name, value):
        """`value` as the fed tensor's dtype (as ``tf.compat.v1.Session`` converts feeds), checked
        against a placeholder's declared shape; RunError naming the feed otherwise."""
        from ..tfcore import tf_types
        from ..tfcore.tensor_names import parse_tensor_name
        from .device import element_dtype

        node_name, index = parse_tensor_name(name)
        node = self._nodes.get(node_name)
        if node is None:
            raise RunError(f"feed '{name}': the graph has no node '{node_name}'")
        where = f"feed '{name}' (node '{node_name}', op {node.op})"
        dtype_attr = node.attr.get("dtype") if node.op in ("Placeholder", "PlaceholderV2",
                                                         "PlaceholderWithDefault") else None
        if dtype_attr is None:
            return np.asarray(value)
        if index != 0:
            raise RunError(f"{where}: a placeholder has one output, not {index + 1}")
        dtype = int(dtype_attr.type)
        np_dtype = element_dtype(tf_types.element_type(dtype)) if dtype != tf_types.DT_STRING \
            else np.dtype(object)
        if np_dtype is None:
            raise RunError(f"{where}: values of {tf_types.dtype_name(dtype)} cannot be fed")
        cannot = f"{where}: cannot be made a {tf_types.dtype_name(dtype)} tensor"
        # The value as it is (no conversion yet): its shape is checked before converting it to the
        # placeholder's dtype allocates anything.
        try:
            given = np.asarray(value, dtype=object) if np_dtype == np.dtype(object) and not isinstance(
                value, np.ndarray) else np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise RunError(f"{cannot} ({exc})") from None
        shape_attr = node.attr.get("shape")
        shape = shape_attr.shape if shape_attr is not None else None
        if shape is not None and not shape.unknown_rank:
            dims = [int(d.size) for d in shape.dim]
            if len(dims) != given.ndim or any(d >= 0 and d != n for d, n in zip(dims, given.shape)):
                declared = "(" + ", ".join("?" if d < 0 else str(d) for d in dims) + \
                    ("," if len(dims) == 1 else "") + ")"
                raise RunError(f"{where}: cannot feed a value of shape {tuple(given.shape)}; the "
                               f"placeholder has shape {declared}")
        try:
            if np_dtype == np.dtype(object):
                array = given.astype(object, copy=False)
                if any(not isinstance(v, (bytes, str)) for v in array.ravel()):
                    raise TypeError("expected strings")
            else:
                if given.dtype.kind in "SUO" or (given.dtype.kind == "c" and np_dtype.kind != "c"):
                    raise TypeError(f"{given.dtype.name} values")
                array = given.astype(np_dtype, copy=False)
        except (TypeError, ValueError, MemoryError) as exc:
            raise RunError(f"{cannot} ({exc})") from None
        return array

    def bridged_module(self, feeds, fetches, targets):
        """The bridged ``mlir.ir.Module`` (and its context) of one signature: `feeds` as
        ``[(name, dtype, shape)]``, `fetches` and `targets` as names. The same graph, signature
        and bridge, bridged by the same tfmlir before, comes from the on-disk cache (MLIR
        bytecode)."""
        from mlir import ir

        from .. import irsafe, print_ir

        for name in list(fetches) + list(targets):
            if _node_name(name) not in self._nodes:
                what = "fetch" if name in fetches else "target"
                raise RunError(f"{what} '{name}': the graph has no node '{_node_name(name)}'")
        context = ir.Context()
        t0 = time.perf_counter()
        store, entry, module = cache.default(), None, None
        if store is not None and self._graph_digest is not None:
            entry = cache.key("bridged", cache.package_identity(), self._graph_digest,
                              repr((list(feeds), list(fetches), list(targets), self.v1_compat,
                                    driver.device_list(self._cores))))
            data = store.get("bridged", entry)
            if data is not None:
                try:
                    module = irsafe.parse(data, context)
                except ir.MLIRError:
                    module = None  # bridged again below (and stored again)
        if module is None:
            if self._has_tpu:
                # Device programs will need TensorFlow's legalization: its child process
                # starts now, while the graph is bridged. (A bridged module from the cache
                # comes with its legalized programs there too: then no child is started
                # unless one of them is missing.)
                from .. import tf_child
                tf_child.prestart()
            module = self._bridge(feeds, fetches, targets, context)
            if entry is not None:
                buffer = io.BytesIO()
                module.operation.write_bytecode(buffer)
                store.put("bridged", entry, buffer.getvalue())
        self._bridge_seconds += time.perf_counter() - t0
        self._bridges += 1
        if self.print_ir_after_bridge is not None:
            self.print_ir_after_bridge(print_ir(module))
        return module, context

    def _bridge(self, feeds, fetches, targets, context):
        """Imports the graph for one signature into `context` and runs the TPU bridge on it
        (:func:`tfmlir.driver.import_and_bridge`)."""
        from .. import driver
        from ..tfcore.errors import TFImportError

        options = driver.BridgeOptions(v1_compat=self.v1_compat, replicas=self._cores)
        try:
            return driver.import_and_bridge(self._graph, feeds, fetches, targets, options,
                                            context=context)
        except TFImportError as exc:
            raise ProgramError(f"the graph cannot be imported: {exc}") from None
        except driver.BridgeError as exc:
            raise ProgramError(f"the TPU bridge failed: {exc}") from None

    def _signature(self, feeds, fetches, targets):
        specs = tuple(driver.feed_specs(dict(sorted(feeds.items()))))
        key = (specs, tuple(fetches), tuple(targets))
        inner = self._signatures.get(key)
        if inner is None:
            module, context = self.bridged_module(specs, fetches, targets)
            inner = _session.ProgramSession(module, device=self.platform, progress=self.progress,
                                     container=self._container)
            inner._job_feeds = None  # this session's feeds are process 0's already
            inner._keep_context = context  # the module's context lives as long as the session
            self._signatures[key] = inner
        return inner

    # --- running ----------------------------------------------------------------------------------
    def run(self, fetches=None, feeds=None, targets=None):
        """``tf.compat.v1.Session.run``: runs what `fetches` (tensor names ``"y"`` / ``"y:0"``,
        one name or a list) and `targets` (node names) need, with `feeds` ({tensor name: value})
        replacing those tensors; returns the fetched values (a list for a list of fetches)."""
        if self._closed:
            raise RunError("the session is closed")
        single = isinstance(fetches, str)
        fetches = [fetches] if single else list(fetches or [])
        targets = [targets] if isinstance(targets, str) else list(targets or [])
        if not fetches and not targets:
            raise RunError("nothing to run: give fetches or targets")
        feeds = {name: self._feed_value(name, value) for name, value in (feeds or {}).items()}
        feeds = self._job_feeds.of_this_run(feeds)
        with self._lock:
            inner = self._signature(feeds, fetches, targets)
            values = inner.run(None, feeds)
        return values[0] if single else values

    @property
    def timings(self):
        """The runtime's timings summed over the signatures, plus ``bridge`` (seconds importing
        and bridging) and ``bridges`` (signatures bridged)."""
        total = dict(legalize=0.0, compile=0.0, execute=0.0, callback=0.0, executions=0, callbacks=0)
        for inner in self._signatures.values():
            for k, v in inner.timings.items():
                total[k] += v
        total["bridge"] = self._bridge_seconds
        total["bridges"] = self._bridges
        return total

    def close(self):
        if self._closed:
            return
        self._closed = True
        for inner in self._signatures.values():
            inner.close()
        self._signatures.clear()


def run_graph_def(graph_def, feeds, fetches, *, targets=None, device="cpu"):
    """One shot: a :class:`GraphSession` on `graph_def` runs `targets` first (the variables'
    initializers, as a TF1 program does before its first step), then fetches `fetches` with
    `feeds`; returns the fetched values."""
    with GraphSession(graph_def, device=device) as session:
        if targets:
            session.run(targets=targets)
        return session.run(fetches, feeds)


def run_function(concrete_function, *args, device="cpu"):
    """Runs a TF2 function traced in graph mode whose body holds TPU computations
    (``tf.compat.v1.tpu.rewrite`` / ``replicate``) the way :func:`run_graph_def` runs a graph:
    the function's graph is imported, bridged by tfmlir and executed on XLA; returns its
    outputs (numpy arrays, in ``concrete_function.outputs`` order).

    Captured variables take part as TF's do: their current values go in, and the values the
    program leaves in them are assigned back to the Python ``tf.Variable`` objects after the
    call, so successive calls see each other's updates. `args` are the function's inputs
    (tensors or arrays).
    """
    import tensorflow as tf

    graph = concrete_function.graph
    graph_def = graph.as_graph_def()
    inputs = list(concrete_function.inputs)
    captures = list(concrete_function.captured_inputs)
    n_args = len(inputs) - len(captures)
    if len(args) != n_args:
        raise RunError(f"the function takes {n_args} argument(s), got {len(args)}")
    by_handle = {id(v.handle): v for v in concrete_function.variables}
    variables = {}
    nodes = {node.name: node for node in graph_def.node}
    for i, (placeholder, captured) in enumerate(zip(inputs[n_args:], captures)):
        if captured.dtype != tf.resource:
            continue
        variable = by_handle.get(id(captured))
        if variable is None:
            raise ProgramError(f"captured resource '{placeholder.name}' is not a tf.Variable of "
                               f"the function; only variables can be captured")
        node = nodes[placeholder.op.name]
        shared_name = f"captured_{i}_{placeholder.op.name}"
        node.op = "VarHandleOp"
        for key in list(node.attr):
            del node.attr[key]
        node.attr["dtype"].type = variable.dtype.as_datatype_enum
        node.attr["shape"].shape.CopyFrom(variable.shape.as_proto())
        node.attr["shared_name"].s = shared_name.encode()
        node.attr["container"].s = b""
        variables[shared_name] = variable
    feeds = {inputs[i].name: np.asarray(a) for i, a in enumerate(args)}
    fetches = [t.name for t in concrete_function.outputs]
    with GraphSession(graph_def, device=device) as session:
        from .host import _TF, variable_handle
        _TF.load()

        def handle(shared_name, variable):
            return variable_handle(session._container, shared_name, variable.dtype.as_datatype_enum,
                                   variable.shape.as_list())

        for shared_name, variable in variables.items():
            _TF.execute("AssignVariableOp", 0, [handle(shared_name, variable), variable.read_value()],
                        ("dtype", variable.dtype.as_datatype_enum, "validate_shape", False), _TF.ctx)
        try:
            values = session.run(fetches, feeds) if fetches else []
            session.sync_variables()  # updates kept on the device go to TensorFlow first
            for shared_name, variable in variables.items():
                value = _TF.execute("ReadVariableOp", 1, [handle(shared_name, variable)],
                                    ("dtype", variable.dtype.as_datatype_enum), _TF.ctx)[0]
                variable.assign(value)
        finally:
            for shared_name, variable in variables.items():
                _TF.execute("DestroyResourceOp", 0, [handle(shared_name, variable)],
                            ("ignore_lookup_error", True), _TF.ctx)
    return values
