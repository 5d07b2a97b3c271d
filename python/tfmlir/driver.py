"""The chain from a TensorFlow GraphDef to a bridged module, as stages every front end shares.

The runtime's :class:`~tfmlir.runtime.graph_session.GraphSession`, the demo and
the ``tfmlir import`` command take a TF program through the same stages:

1. :func:`import_graph_def` -- tfmlir's importer (the raw import, tf_executor
   form) for one signature: ``feeds`` (:func:`feed_specs`) as ``main``'s
   arguments, ``fetches`` as its results, ``targets`` as its control outputs;
2. :func:`functionalize` -- TF1 control flow (Switch/Merge/Enter/Exit/
   NextIteration) to ``tf.While`` / ``tf.If`` with functions
   (``tf-executor-functionalize-control-flow``), when the graph has any;
3. :func:`assign_devices` -- the module's ``tf.devices`` (:func:`device_list`:
   the host, ``TPU_SYSTEM:0`` and the TPU cores the program's device assignment
   needs: one per replica, or the topology's cores);
4. :func:`bridge` -- the graph pruned to the signature (TF's session gives its
   graph passes the pruned graph), then ``tf-tpu-bridge{v1-compat=...}``
   (:func:`bridge_pipeline`).

:func:`import_and_bridge` runs them all with one :class:`BridgeOptions`, calling a hook
after each stage (``after(stage, module)``, stage one of :data:`STAGES`: to print, time or
check the module between stages).
Failures are :class:`~tfmlir.tfcore.errors.TFImportError` (import,
functionalization) and :class:`BridgeError` (the bridge), each with the
diagnostics of what failed; the caller says it in its own words.
"""
from dataclasses import dataclass

HOST = "/job:localhost/replica:0/task:0/device:CPU:0"
TPU_SYSTEM = "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"

FUNCTIONALIZE = "builtin.module(tf-executor-functionalize-control-flow)"

# The stages of import_and_bridge, in order (the names its hook is given).
STAGES = ("import", "functionalize", "devices", "bridge")


class BridgeError(RuntimeError):
    """The TPU bridge failed on a module; the message carries the passes' diagnostics."""


@dataclass(frozen=True)
class BridgeOptions:
    """How a GraphDef is taken to a bridged module.

    ``v1_compat``: ``tf-tpu-bridge{v1-compat=true}`` (TF's flavour for TF1 sessions).
    ``replicas``: TPU cores in the device list (one per replica, or as many as the
    program's topology has: :func:`tpu_core_count`). ``prune``: prune the
    graph to the signature before the bridge. ``functionalize``: TF1 control flow to
    functional form after the import.
    """
    v1_compat: bool = True
    replicas: int = 1
    prune: bool = True
    functionalize: bool = True


def device_list(cores):
    """The ``tf.devices`` the bridge assigns from: the host, the TPU system and `cores` TPU cores
    (TPU core i is XLA device i)."""
    return [HOST, TPU_SYSTEM] + [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(cores)]


def tpu_core_count(replicas, topologies):
    """How many TPU cores the device list needs for TPU computations of `replicas` replicas whose
    ``TPUReplicateMetadata`` give `topologies` (serialized ``tensorflow.tpu.TopologyProto``; empty
    when a computation has none): a topology's cores (its ``num_tasks`` x
    ``num_tpu_devices_per_task``: TF's bridge requires exactly those), else one per replica.
    ValueError when the topologies disagree, cannot be read or span several tasks."""
    from .passes.analysis import tpu_protos

    counts = set()
    for data in topologies:
        if not data:
            continue
        try:
            topology = tpu_protos.parse_message(tpu_protos.TOPOLOGY, bytes(data))
        except ValueError as exc:
            raise ValueError(f"the topology is not a tensorflow.tpu.TopologyProto: {exc}") from None
        if topology.num_tasks > 1:
            raise ValueError(f"the topology spans {topology.num_tasks} tasks; one process runs one task")
        if topology.num_tpu_devices_per_task < 1:
            raise ValueError(f"the topology has {topology.num_tpu_devices_per_task} TPU devices per task")
        counts.add(topology.num_tpu_devices_per_task)
    if len(counts) > 1:
        raise ValueError(f"the TPU computations' topologies have different core counts "
                         f"({', '.join(map(str, sorted(counts)))}); one device list serves them all")
    return counts.pop() if counts else replicas


def feed_specs(feeds):
    """``[(name, dtype, shape)]`` of `feeds` ({tensor name: numpy array}) as the importer takes
    them: numpy's dtype name, ``"string"`` for text and object arrays."""
    specs = []
    for name, value in feeds.items():
        dtype = "string" if value.dtype == object or value.dtype.kind in "SU" else value.dtype.name
        specs.append((name, dtype, tuple(value.shape)))
    return specs


def import_graph_def(graph_def, feeds=(), fetches=(), targets=(), *, context=None, functional=True):
    """Stages 1-2: `graph_def` imported for one signature (`feeds` as ``[(name, dtype, shape)]``),
    TF1 control flow functionalized unless `functional` is false. Raises TFImportError."""
    from .importers.api import import_graph_def as import_raw

    module = import_raw(graph_def, input_names=[name for name, _, _ in feeds],
                        input_data_types=[dtype for _, dtype, _ in feeds],
                        input_data_shapes=[list(shape) for _, _, shape in feeds],
                        output_names=list(fetches), control_output_names=list(targets),
                        context=context)
    if functional:
        functionalize(module)
    return module


def functionalize(module):
    """Stage 2: ``tf-executor-functionalize-control-flow`` on an imported `module` when it holds
    TF1 control flow; a failure raises TFImportError carrying the pass's diagnostics (the
    module is left as it was)."""
    from mlir import ir

    from .tfcore.errors import TFImportError
    from .passes import framework
    from .passes.tf_executor_functionalize_control_flow import has_v1_control_flow

    if not has_v1_control_flow(module):
        return
    try:
        framework.run(module, FUNCTIONALIZE)
    except ir.MLIRError as exc:
        raise TFImportError(f"functionalizing TF1 control flow failed: {_diagnostics_text(exc)}") from None


def assign_devices(module, replicas):
    """Stage 3: the module's ``tf.devices`` attribute (:func:`device_list`)."""
    from mlir import ir

    with module.context:
        module.operation.attributes["tf.devices"] = ir.ArrayAttr.get(
            [ir.StringAttr.get(d) for d in device_list(replicas)])


def bridge_pipeline(options=BridgeOptions()):
    """The pass pipeline of stage 4 for `options`."""
    bridge = f"tf-tpu-bridge{{v1-compat={'true' if options.v1_compat else 'false'}}}"
    return "func.func(tf-executor-graph-pruning)," + bridge if options.prune else bridge


def bridge(module, options=BridgeOptions()):
    """Stage 4: :func:`bridge_pipeline` on `module`; BridgeError with the diagnostics when a pass
    fails (the module is then as it was before)."""
    from mlir import ir

    from .passes import PassFailure, run as run_pipeline
    from .passes.pipeline import PipelineError

    try:
        run_pipeline(module, bridge_pipeline(options))
    except (PassFailure, PipelineError) as exc:
        raise BridgeError(str(exc)) from None
    except (ir.MLIRError, RuntimeError) as exc:
        raise BridgeError(str(exc)) from None


def import_and_bridge(graph_def, feeds=(), fetches=(), targets=(), options=BridgeOptions(), *,
                      context=None, after=None):
    """Stages 1-4 on one signature of `graph_def`: the bridged ``mlir.ir.Module``. `after`: a
    callable given ``(stage, module)`` after each stage that ran (:data:`STAGES`;
    "functionalize" only with ``options.functionalize``)."""
    def done(stage):
        if after is not None:
            after(stage, module)

    module = import_graph_def(graph_def, feeds, fetches, targets, context=context, functional=False)
    done("import")
    if options.functionalize:
        functionalize(module)
        done("functionalize")
    assign_devices(module, options.replicas)
    done("devices")
    bridge(module, options)
    done("bridge")
    return module


def _diagnostics_text(exc):
    parts = [f"{diag.location}: {diag.message}" for diag in getattr(exc, "error_diagnostics", []) or []]
    return "; ".join(parts) or str(exc)
