"""Device programs (tf dialect) to StableHLO with TensorFlow's own MLIR legalization passes.

:data:`PIPELINE` follows the order of TensorFlow's own bridge
(``CreateConvertMlirToXlaHloPipeline``): control flow to regions, inlining,
canonicalization, SCCP and shape inference, tensor list / stack / tensor array
decomposition, resource ops decomposed and promoted to arguments,
``xla-legalize-tf`` for XLA_CPU_JIT with the tf2xla fallback, host
communication to ``mhlo.send``/``mhlo.recv``, then MHLO to StableHLO (409 of
the 489 XLA_CPU_JIT ops this way, against 241 with the minimal pipeline first
used; docs/runtime-coverage.md). It runs in TensorFlow's child process
(:data:`tfmlir.tf_child.CHILD`, a ``"pipeline"`` job), text in and out.

``xla-legalize-tf`` never fails on an op it cannot lower: :func:`to_stablehlo`
returns what it leaves (:func:`leftover_ops`), for :mod:`.legalize` to send the
program on to the graph route or report them.
"""
from . import _jaxlib
from ..tf_child import CHILD, TensorFlowChildError
from .errors import LegalizationError

PIPELINE = (
    "tf-functional-control-flow-to-regions,inline,func.func(tf-drop-while-shape-invariant),"
    "func.func(tf-replicate-tensor-list-init-ops),func.func(canonicalize),sccp,"
    "tf-guarantee-all-funcs-one-use,tf-shape-inference,sccp,tf-tensor-list-ops-decomposition,"
    "tf-stack-ops-decomposition,tf-tensor-array-ops-decomposition,"
    "func.func(tf-device-decompose-resource-ops),tf-promote-resources-to-args,symbol-dce,"
    "tf-shape-inference,xla-legalize-tf{device-type=XLA_CPU_JIT legalize-chlo=true use-tf2xla-fallback=true},"
    "func.func(canonicalize),tf-shape-inference,xla-legalize-tf-communication,"
    "hlo-legalize-to-stablehlo,canonicalize")

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


def to_stablehlo(device_program: str):
    """(text after :data:`PIPELINE`, leftover (op name, location) pairs). Raises
    :class:`LegalizationError` when TensorFlow's passes fail, or its child cannot start or
    dies."""
    try:
        reply = CHILD.request({"kind": "pipeline", "text": device_program, "pipeline": PIPELINE,
                               "debug_info": True})
    except TensorFlowChildError as err:
        raise LegalizationError(f"TensorFlow's legalization: {err}") from None
    if not reply["ok"]:
        raise LegalizationError(f"TensorFlow's legalization failed: {reply['error_type']}: "
                                f"{reply['error']}")
    text = reply["text"]
    return text, leftover_ops(text)
