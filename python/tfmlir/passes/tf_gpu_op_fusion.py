"""Fuses inference batch norms with a following Relu (and residual AddV2) for GPU targets.

As TF 2.21's -tf-gpu-op-fusion (``GpuOpFusionPass``): one rewrite pattern rooted at
``tf.Relu``, applied with MLIR's greedy driver on each function (default
configuration: so the function's ops are also folded, constants deduplicated and
hoisted, and dead ops erased, as with TF's ``applyPatternsGreedily``):

* ``Relu(FusedBatchNormV3(...)#0)`` becomes ``_FusedBatchNormEx`` with
  ``activation_mode = "Relu"``;
* ``Relu(AddV2(FusedBatchNormV3(...)#0, side))`` (the batch norm on either side
  of the add) becomes ``_FusedBatchNormEx`` with ``side`` as its side input and
  ``activation_mode = "Relu"`` -- or, when the AddV2 has other uses, without the
  activation: only the add is fused and the Relu is kept on the fused result.

The batch norm must not be training (``is_training`` false; missing means true)
and its ``y`` must have one use. The fused op takes the batch norm's operands
(then the side input), result types and attributes, its location, and is created
where the greedy driver's rewriter stands: just before the Relu. The pass cannot
fail (the greedy driver not converging is not an error, as in TF).
"""
from mlir import ir
from mlir import rewrite

from . import attributes
from .. import irsafe
from .framework import Pass, register_pass

RELU = "tf.Relu"
ADD_V2 = "tf.AddV2"
BATCH_NORM = "tf.FusedBatchNormV3"
FUSED = "tf._FusedBatchNormEx"


def _defining(value, name):
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    owner = owner.operation
    return owner if owner.name == name else None


def _relu_to_fused_batch_norm(relu, rewriter):
    """The pattern (returns True where it does not match, as the bindings expect)."""
    relu = relu.operation
    feature = relu.operands[0]
    batch_norm = _defining(feature, BATCH_NORM)
    add = side_input = None
    if batch_norm is None:
        add = _defining(feature, ADD_V2)
        if add is None:
            return True
        x, y = add.operands[0], add.operands[1]
        batch_norm = _defining(x, BATCH_NORM)
        if batch_norm is not None:
            side_input = y
        else:
            batch_norm = _defining(y, BATCH_NORM)
            if batch_norm is None:
                return True
            side_input = x
    if attributes.boolean(batch_norm, "is_training", True):
        return True
    if len(list(batch_norm.results[0].uses)) != 1:
        return True
    operands = list(batch_norm.operands)
    if side_input is not None:
        operands.append(side_input)
    attrs = irsafe.attribute_dict(batch_norm)
    fused = ir.Operation.create(FUSED, results=[r.type for r in batch_norm.results], operands=operands,
                                attributes=attrs, loc=batch_norm.location, ip=rewriter.ip)
    rewriter.replace_op(batch_norm, list(fused.results))
    if add is None or len(list(add.results[0].uses)) == 1:
        fused.attributes["activation_mode"] = ir.StringAttr.get("Relu")
        rewriter.replace_op(relu, [fused.results[0]])
    if add is not None:
        rewriter.replace_op(add, [fused.results[0]])
    return None


@register_pass
class GpuOpFusionPass(Pass):
    argument = "tf-gpu-op-fusion"
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        patterns = rewrite.RewritePatternSet()
        patterns.add(RELU, _relu_to_fused_batch_norm)
        try:
            rewrite.apply_patterns_and_fold_greedily(func.operation, patterns.freeze())
        except RuntimeError as exc:
            if "failed to converge" not in str(exc):
                raise
