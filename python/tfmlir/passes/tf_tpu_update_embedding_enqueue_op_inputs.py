"""Sets the mode operand of TPU embedding enqueue ops to "train" or "inference".

The TPU embedding API tags the ops of one embedding layer with a string
``_tpu_embedding_layer``. As TF 2.21's
-tf-tpu-update-embedding-enqueue-op-inputs (a function pass):

1. The function is walked in post-order (nested regions included). From every
   ``tf.RecvTPUEmbeddingActivations``, ``tf.SendTPUEmbeddingGradients`` and
   enqueue op (``tf.EnqueueTPUEmbeddingSparseTensorBatch``,
   ``tf.EnqueueTPUEmbeddingRaggedTensorBatch``,
   ``tf.EnqueueTPUEmbeddingArbitraryTensorBatch``) whose
   ``_tpu_embedding_layer`` is a string attribute, the attribute is removed
   and the op is recorded under its value, one table per kind (other ops, and
   attributes that are not strings, are left alone).
2. For every recorded enqueue op, a ``tf.Const`` of ``tensor<!tf_type.string>``
   is created right before it, at its location: ``"train"`` when a send op of
   the same layer exists, else ``"inference"``; it carries the enqueue op's
   ``_xla_outside_compilation`` when that is a string. The const becomes the
   enqueue op's last operand (its ``mode_override``); the old mode value stays
   where it was.

Failures (TF's messages; the function is left unchanged):

* a second op of one kind for the same layer: ``'<op>' op found duplicate TPU
  embedding ops potentially from multiple TPUEmbedding layers``, at the later
  op in walk order;
* as many enqueue layers as receive layers is required: ``expects the number
  of embedding enqueue ops to match the number of
  'tf.RecvTPUEmbeddingActivations' ops``, at the function;
* an enqueue op whose layer has no receive op: ``'<op>' op must have a
  corresponding 'tf.RecvTPUEmbeddingActivations' op``. TF visits the layers in
  the order of an ``llvm::StringMap`` (by hash); with several such enqueue ops
  the one reported is the first in that order, reproduced here
  (:mod:`tfmlir.passes.analysis.string_map`).
"""
from mlir import ir

from .names import CONST, FUNC
from .analysis.string_map import string_map_order
from .framework import Pass, PassFailure, register_pass
from .walk import ADVANCE, POST_ORDER

EMBEDDING_LAYER_ATTR = "_tpu_embedding_layer"
OUTSIDE_COMPILATION_ATTR = "_xla_outside_compilation"
RECV = "tf.RecvTPUEmbeddingActivations"
SEND = "tf.SendTPUEmbeddingGradients"
ENQUEUE_OPS = frozenset({"tf.EnqueueTPUEmbeddingSparseTensorBatch",
                         "tf.EnqueueTPUEmbeddingRaggedTensorBatch",
                         "tf.EnqueueTPUEmbeddingArbitraryTensorBatch"})
_TRACKED = ENQUEUE_OPS | {RECV, SEND}


@register_pass
class TPUUpdateEmbeddingEnqueueOpInputsPass(Pass):
    argument = "tf-tpu-update-embedding-enqueue-op-inputs"
    anchor = FUNC
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        func = func.operation
        enqueues, recvs, sends = {}, {}, {}
        tables = {RECV: recvs, SEND: sends}
        tagged = []

        def visit(op):
            op = op.operation
            if op.name in _TRACKED and EMBEDDING_LAYER_ATTR in op.attributes:
                tagged.append(op)
            return ADVANCE

        func.walk(visit, POST_ORDER)
        for op in tagged:
            attr = op.attributes[EMBEDDING_LAYER_ATTR]
            if not isinstance(attr, ir.StringAttr):
                continue
            layer = ir.StringAttr(attr).value_bytes
            table = tables.get(op.name, enqueues)
            if layer in table:
                raise PassFailure(f"'{op.name}' op found duplicate TPU embedding ops potentially "
                                  f"from multiple TPUEmbedding layers", op)
            table[layer] = op
            del op.attributes[EMBEDDING_LAYER_ATTR]

        if len(enqueues) != len(recvs):
            raise PassFailure(f"expects the number of embedding enqueue ops to match the number "
                              f"of '{RECV}' ops", func)
        for layer in string_map_order(list(enqueues)):
            if layer not in recvs:
                op = enqueues[layer]
                raise PassFailure(f"'{op.name}' op must have a corresponding '{RECV}' op", op)
        for layer, op in enqueues.items():
            _set_mode(op, "train" if layer in sends else "inference")


def _set_mode(op, mode):
    context = op.context
    value = ir.Attribute.parse(f'dense<"{mode}"> : tensor<!tf_type.string>', context)
    attributes = {"value": value}
    outside = op.attributes[OUTSIDE_COMPILATION_ATTR] if OUTSIDE_COMPILATION_ATTR in op.attributes \
        else None
    if isinstance(outside, ir.StringAttr):
        attributes[OUTSIDE_COMPILATION_ATTR] = outside
    const = ir.Operation.create(CONST, results=[value.type], attributes=attributes,
                                loc=op.location, ip=ir.InsertionPoint(op))
    op.operands[len(op.operands) - 1] = const.result
