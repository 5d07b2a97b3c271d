"""Rewrites TPU embedding send/recv ops to their XLA variants with deduplication data.

As TF 2.21's -tf-rewrite-tpu-embedding-ops (a function pass), for every region
of the function -- its body first, then the regions of every op nested in it,
inner ops before outer ones (a post-order walk; the body comes once more at
the end, with nothing left to do):

* the region may hold at most one ``tf.RecvTPUEmbeddingActivations`` and at
  most one ``tf.SendTPUEmbeddingGradients`` among the ops of its blocks (ops
  nested deeper belong to their own regions);
* if it holds either, a ``tf.XlaRecvTPUEmbeddingDeduplicationData`` returning
  ``tensor<!tf_type.variant>`` is created at the start of the region's first
  block, with the ``config`` of the recv op (else of the send op) and its
  location;
* the recv op is replaced in place by ``tf.XlaRecvTPUEmbeddingActivations``
  with the same result types and every attribute of the old op, the
  deduplication data appended as its operand;
* the send op likewise by ``tf.XlaSendTPUEmbeddingGradients``, its
  ``operandSegmentSizes`` becoming ``[#inputs, #learning_rates, 1]``.

The recv and send ops need not share a ``config``: the deduplication data
takes the recv op's.

Failure (the function is left unchanged): a region holding a second recv (or
send) op, reported at that op with TF's message ``should be unique within a
function`` (recv ops are checked before send ops in each region).
"""
from mlir import ir

from .. import irsafe
from ..dialects import tf_type
from .names import FUNC
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import ops_named, post_order

RECV = "tf.RecvTPUEmbeddingActivations"
SEND = "tf.SendTPUEmbeddingGradients"
XLA_RECV = "tf.XlaRecvTPUEmbeddingActivations"
XLA_SEND = "tf.XlaSendTPUEmbeddingGradients"
DEDUPLICATION_DATA = "tf.XlaRecvTPUEmbeddingDeduplicationData"
SEGMENTS_ATTR = "operandSegmentSizes"


@register_pass
class RewriteTPUEmbeddingOpsPass(Pass):
    argument = "tf-rewrite-tpu-embedding-ops"
    anchor = FUNC
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        func = func.operation
        if not ops_named(func, (RECV, SEND)):  # one native walk: most functions hold neither
            self.mark_all_analyses_preserved()
            return
        _rewrite_region(func.regions[0])
        # Rewriting a region only replaces ops without regions, so the ops holding regions can be
        # listed first. The function itself comes last (TF's walk visits it too).
        for op in post_order(func.regions[0]) + [func]:
            for region in op.regions:
                _rewrite_region(region)


def _unique_op(region, name):
    found = None
    for block in region.blocks:
        for op in block.operations:
            if op.name != name:
                continue
            if found is not None:
                raise PassFailure("should be unique within a function", op)
            found = op.operation
    return found


def _rewrite_region(region):
    recv = _unique_op(region, RECV)
    send = _unique_op(region, SEND)
    if recv is None and send is None:
        return
    first = recv if recv is not None else send
    context = first.context
    variant = ir.RankedTensorType.get([], tf_type.VariantType.get(context=context))
    dedup = ir.Operation.create(DEDUPLICATION_DATA, results=[variant],
                                attributes={"config": first.attributes["config"]},
                                loc=first.location,
                                ip=ir.InsertionPoint.at_block_begin(region.blocks[0]))
    data = dedup.result
    if recv is not None:
        _replace_with(recv, XLA_RECV, data, {})
    if send is not None:
        segments = ir.DenseI32ArrayAttr(send.attributes[SEGMENTS_ATTR])
        inputs, learning_rates = list(segments)[:2]
        _replace_with(send, XLA_SEND, data,
                      {SEGMENTS_ATTR: ir.DenseI32ArrayAttr.get([inputs, learning_rates, 1],
                                                               context=send.context)})


def _replace_with(op, name, extra_operand, overrides):
    """Rebuilds `op` as `name` before it (same result types and attributes, `overrides` set,
    `extra_operand` appended) and erases it."""
    attrs = irsafe.attribute_dict(op)
    attrs.update(overrides)
    new = ir.Operation.create(name, results=[result.type for result in op.results],
                              operands=list(op.operands) + [extra_operand], attributes=attrs,
                              loc=op.location, ip=ir.InsertionPoint(op))
    for old, replacement in zip(op.results, new.results):
        old.replace_all_uses_with(replacement)
    erase_op(op)
    return new
