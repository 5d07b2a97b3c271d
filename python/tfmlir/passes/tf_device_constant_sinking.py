"""Sinks constants implicitly captured in a tf_device.cluster region.

For each ``tf_device.cluster`` of a function (in post-order: nested clusters
first), every use inside the cluster of a ``tf.Const`` defined outside it is
replaced by a constant inside the cluster, as TF 2.21's
-tf-device-constant-sinking, so that outlining the cluster later takes fewer
arguments. The uses are visited in MLIR's getUsedValuesDefinedAbove order
(post-order walk of the body); for each constant:

* its first use there: a constant with no other use is moved to the start of
  the cluster's body; otherwise a clone is inserted at the start of the body
  and the use takes it;
* later uses there take the same clone; the original constant is erased once
  nothing uses it any more.

Sunk constants therefore appear at the start of the body in the reverse order
of their first uses. Other defining ops (``tf._HostConst``, island results)
are left alone. The pass cannot fail.
"""
from mlir import ir

from .names import CLUSTER, CONST
from .framework import Pass, erase_op, register_pass
from .lib.ir_helpers import captured_values, ops_named


@register_pass
class ClusterConstantSinkingPass(Pass):
    argument = "tf-device-constant-sinking"
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        clusters = ops_named(func.operation, CLUSTER)
        remaining = {}  # constant value -> uses left (counted once, then kept up to date)
        for cluster in clusters:
            body = cluster.regions[0].blocks[0]
            sunk = {}  # constant value -> its clone in this cluster
            _, uses = captured_values(cluster.regions[0])
            for op, index, value in uses:
                if not isinstance(value, ir.OpResult):
                    continue
                const = value.owner
                if const.name != CONST:
                    continue
                clone = sunk.get(value)
                if clone is not None:
                    op.operands[index] = clone
                    left = remaining[value] - 1
                    remaining[value] = left
                    if left == 0:
                        erase_op(const)
                    continue
                count = remaining.get(value)
                if count is None:
                    count = sum(1 for _ in value.uses)
                if count == 1:
                    const.move_before(body.operations[0])
                    remaining[value] = 1
                    continue
                clone = const.clone(ip=ir.InsertionPoint.at_block_begin(body)).results[0]
                op.operands[index] = clone
                remaining[value] = count - 1
                sunk[value] = clone
