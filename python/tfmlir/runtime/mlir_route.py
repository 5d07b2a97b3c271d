"""Device programs (tf dialect) to StableHLO: tfmlir's passes, then TensorFlow's legalization.

:data:`PIPELINE` follows the order of TensorFlow's own bridge
(``CreateConvertMlirToXlaHloPipeline``): control flow to regions, inlining,
canonicalization, SCCP and shape inference, tensor list / stack / tensor array
decomposition, resource ops decomposed and promoted to arguments,
``xla-legalize-tf`` for XLA_CPU_JIT with the tf2xla fallback, host
communication to ``mhlo.send``/``mhlo.recv``, then MHLO to StableHLO (409 of
the 489 XLA_CPU_JIT ops this way, against 241 with the minimal pipeline first
used; docs/runtime-coverage.md). Its first part, :data:`PREPARE`, is tfmlir's
own passes (each equal to TensorFlow's C++ pass: the differential rows of
tests/python/pass_diff_rows_*.py) and runs in this process; the rest,
:data:`LEGALIZE`, is what only TensorFlow has and runs in TensorFlow's child
process (:data:`tfmlir.tf_child.CHILD`, a ``"pipeline"`` job), text in and out
with locations: ``xla-legalize-tf`` on. (A prepared program holding ops
TensorFlow's child cannot parse -- the tensor dialect's, which TF's
TensorArray decomposition creates and its later passes fold -- goes to the child
unprepared, with the whole :data:`PIPELINE`.)

``xla-legalize-tf`` never fails on an op it cannot lower: :func:`to_stablehlo`
returns what it leaves (:func:`leftover_ops`), for :mod:`.legalize` to send the
program on to the graph route or report them.
"""
from . import _jaxlib
from ..tf_child import CHILD, TensorFlowChildError
from .errors import LegalizationError

PREPARE = (
    "tf-functional-control-flow-to-regions,inline,func.func(tf-drop-while-shape-invariant),"
    "func.func(tf-replicate-tensor-list-init-ops),func.func(canonicalize),sccp,"
    "tf-guarantee-all-funcs-one-use,tf-shape-inference,sccp,tf-tensor-list-ops-decomposition,"
    "tf-stack-ops-decomposition,tf-tensor-array-ops-decomposition,"
    "func.func(tf-device-decompose-resource-ops),tf-promote-resources-to-args,symbol-dce,"
    "tf-shape-inference")
LEGALIZE = (
    "xla-legalize-tf{device-type=XLA_CPU_JIT legalize-chlo=true use-tf2xla-fallback=true},"
    "func.func(canonicalize),tf-shape-inference,xla-legalize-tf-communication,"
    "hlo-legalize-to-stablehlo,canonicalize")
PIPELINE = PREPARE + "," + LEGALIZE

# Why the MLIR route leaves an op: xla-legalize-tf reports nothing, it just
# keeps the ops it has no lowering for (for those operand types).
REASON = ("TensorFlow's MLIR legalization (xla-legalize-tf, XLA_CPU_JIT) has no lowering "
          "that matches them")

# Dialects a legalized program may hold.
_LEGAL_DIALECTS = frozenset({"builtin", "func", "stablehlo", "chlo", "sdy"})
# mhlo ops that stay until host transfers are rewritten (runtime/host_transfer);
# mhlo.erf: StableHLO has no erf, jaxlib's own HLO-to-StableHLO conversion writes
# mhlo.erf, and its XLA compiles it; constant shapes of dynamic broadcasts with
# static results (BiasAdd, ArgMax ...), which XLA folds; the element count tf.Mean
# divides by (an arith.constant), which XLA compiles.
_LEGAL_OPS = frozenset({"mhlo.send", "mhlo.recv", "mhlo.create_token", "mhlo.after_all", "mhlo.erf",
                        "shape.const_shape", "arith.constant"})


def leftover_ops(stablehlo_text: str):
    """(op name, location) of every op in `stablehlo_text` that XLA cannot take."""
    found = []

    def visit(op, jax_ir):
        name = op.name
        if name.split(".", 1)[0] not in _LEGAL_DIALECTS and name not in _LEGAL_OPS:
            found.append((name, str(op.location)))

    _jaxlib.walk_stablehlo(stablehlo_text, visit)
    return found


# Dialects TensorFlow's child parses (run_pass_pipeline's registry): a prepared program holding
# ops of another dialect (tf-tensor-array-ops-decomposition's tensor.cast) goes to the child as it
# came, with the whole PIPELINE.
_CHILD_DIALECTS = frozenset({"builtin", "func", "tf", "tf_executor", "tf_device", "tf_saved_model"})


def prepare(device_program: str):
    """`device_program` after :data:`PREPARE` (tfmlir's passes, in a context of its own),
    printed with locations; None when the result holds ops TensorFlow's child cannot parse.
    Raises :class:`LegalizationError` naming the pass that failed."""
    import tfmlir
    from mlir import ir

    from .. import passes

    context = ir.Context()
    try:
        # tfmlir's guarded parse: diagnostics whose text is not UTF-8 are read safely.
        module = tfmlir.parse_module(device_program, context)
    except (ir.MLIRError, ValueError) as err:
        raise LegalizationError(f"tfmlir cannot parse the device program: {err}") from None
    try:
        passes.run(module, f"builtin.module({PREPARE})")
    except ir.MLIRError as err:
        messages = "; ".join(d.message for d in err.error_diagnostics) or str(err)
        raise LegalizationError(f"tfmlir's preparation for TensorFlow's legalization failed: "
                                f"{messages}") from None
    with context, ir.Location.unknown():
        _all_reduce_to_cross_replica_sum(module)
    foreign = []

    def visit(op):
        if op.name.split(".", 1)[0] not in _CHILD_DIALECTS:
            foreign.append(op.name)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    if foreign:
        return None
    return tfmlir.print_ir(module, debug_info=True)


def _all_reduce_to_cross_replica_sum(module):
    """Every ``tf.XlaAllReduce`` over replicas (``mode = "CrossReplica"``) summing (``reduce_op =
    "Add"``) or averaging (``"Mean"``: the sum divided by the size of the replica groups) becomes a
    ``tf.CrossReplicaSum`` over the same groups, which TensorFlow's legalization lowers for
    XLA:CPU (its XlaAllReduce kernel exists for TPUs only). ``tf-xla-broadcast`` creates such sums
    for the values a replicated computation takes from the host. Other reductions are left for
    the legalization to report."""
    from mlir import ir

    from ..passes import attributes
    from ..passes.lib.tf_builders import BuildError, OpBuilder, scalar_attr

    found = []

    def visit(op):
        if op.name == "tf.XlaAllReduce":
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for op in found:
        reduce_op = attributes.string(op, "reduce_op")
        if attributes.string(op, "mode") != "CrossReplica" or reduce_op not in ("Add", "Mean"):
            continue
        value, groups = op.operands[0], op.operands[1]
        group_type = groups.type
        if reduce_op == "Mean" and not (isinstance(group_type, ir.RankedTensorType)
                                        and ir.RankedTensorType(group_type).has_static_shape
                                        and ir.RankedTensorType(group_type).rank == 2):
            continue  # the group size is not known here
        result_type = op.results[0].type
        count = None
        if reduce_op == "Mean":
            try:
                count = scalar_attr(ir.ShapedType(result_type).element_type,
                                    ir.RankedTensorType(group_type).shape[1])
            except BuildError:
                continue  # no constant of that type: left for the legalization to report
        b = OpBuilder(op)
        total = b.value("tf.CrossReplicaSum", [value, groups], result_type)
        if count is not None:
            total = b.value("tf.Div", [total, b.const(count)], result_type)
        op.results[0].replace_all_uses_with(total)
        op.erase()


def to_stablehlo(device_program: str):
    """(text after :data:`PIPELINE`, leftover (op name, location) pairs). Raises
    :class:`LegalizationError` when tfmlir's or TensorFlow's passes fail, or TensorFlow's
    child cannot start or dies."""
    prepared = prepare(device_program)
    if prepared is None:
        job = {"text": device_program, "pipeline": PIPELINE}
    else:
        job = {"text": prepared, "pipeline": LEGALIZE}
    try:
        reply = CHILD.request(dict(job, kind="pipeline", debug_info=True))
    except TensorFlowChildError as err:
        raise LegalizationError(f"TensorFlow's legalization: {err}") from None
    if not reply["ok"]:
        raise LegalizationError(f"TensorFlow's legalization failed: {reply['error_type']}: "
                                f"{reply['error']}")
    text = reply["text"]
    return text, leftover_ops(text)
