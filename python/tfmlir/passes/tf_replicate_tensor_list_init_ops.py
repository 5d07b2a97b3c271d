"""Gives every use of a TensorList creation op a creation op of its own.

As TF 2.21's -tf-replicate-tensor-list-init-ops (``ReplicateTensorListInitOps``, run
by TF's legalization to XLA before shape inference and TensorList decomposition):
for each ``tf.TensorListReserve`` and ``tf.EmptyTensorList`` of a function (post-
order, nested regions included), one clone per use of its list -- inserted just
before it, in the order of the list's uses (MLIR's use-list order, latest use
first) -- takes that use over. The original op, now unused, stays (other passes
erase it). A list passed to a loop twice, or set to different shapes at two
places, then gets independent lists whose shapes shape inference can tell apart.
The pass cannot fail.
"""
from mlir import ir

from .framework import Pass, register_pass
from .lib.ir_helpers import ops_named

_CREATORS = ("tf.TensorListReserve", "tf.EmptyTensorList")


@register_pass
class ReplicateTensorListInitOpsPass(Pass):
    argument = "tf-replicate-tensor-list-init-ops"

    def run_on_operation(self, func):
        changed = False
        for op in ops_named(func.operation, _CREATORS):
            uses = [(use.owner, use.operand_number) for use in op.results[0].uses]
            if not uses:
                continue
            ip = ir.InsertionPoint(op)
            for owner, number in uses:
                owner.operands[number] = op.clone(ip=ip).results[0]
            changed = True
        if not changed:
            self.mark_all_analyses_preserved()
