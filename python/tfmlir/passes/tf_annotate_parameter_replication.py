"""Annotates the arguments of replicated TPU computations that hold the same data on every replica.

As TF 2.21's -tf-annotate-parameter-replication: for every
``tf_device.cluster_func`` inside a ``tf_device.replicate`` (any enclosing
one), each operand -- looked through chains of ``tf.Identity`` and
``tf.ReadVariableOp`` (their first operand) -- is the same on every replica
when it is

* a block argument of the replicate's body that the replicate lists in its
  ``_mirrored_variable_indices`` (a mirrored variable), or
* a value defined outside the replicate (its region encloses the replicate's).

The corresponding argument of the called function gets
``mhlo.is_same_data_across_replicas = true``. Replicated (non-mirrored)
block arguments and values computed inside the replicate are left alone, as
are cluster_funcs outside any replicate.

Failures (the module is left unchanged): a callee that is not a function of
the module (TF's process crashes), a ``_mirrored_variable_indices`` that is not
an array of integers (TF reads it as integers: undefined behaviour).
"""
from mlir import ir

from .analysis.calls import function_callee
from .names import CLUSTER_FUNC, IDENTITY, MODULE, READ_VARIABLE, REPLICATE
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import enclosing_op, is_proper_ancestor, ops_named, set_arg_attr

REPLICATION_ATTR = "mhlo.is_same_data_across_replicas"
MIRRORED_VARIABLE_INDICES = "_mirrored_variable_indices"
_LOOKED_THROUGH = frozenset({IDENTITY, READ_VARIABLE})


@register_pass
class AnnotateParameterReplicationPass(Pass):
    argument = "tf-annotate-parameter-replication"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        cluster_funcs = ops_named(module, CLUSTER_FUNC)
        if not cluster_funcs:
            return
        table = ir.SymbolTable(module.operation)
        true = ir.BoolAttr.get(True, module.context)
        for cluster_func in cluster_funcs:
            replicate = enclosing_op(cluster_func, REPLICATE)
            if replicate is None:
                continue
            mirrored = _mirrored_indices(replicate)
            callee = function_callee(cluster_func, table)
            body = replicate.regions[0].blocks[0]
            for index, operand in enumerate(cluster_func.operands):
                value = _skip_identity_and_read(operand)
                if isinstance(value, ir.BlockArgument) and value.owner == body:
                    if value.arg_number not in mirrored:
                        continue
                elif not _defined_outside(value, replicate):
                    continue
                set_arg_attr(callee, index, REPLICATION_ATTR, true)


def _skip_identity_and_read(value):
    while not isinstance(value.owner, ir.Block) and value.owner.name in _LOOKED_THROUGH:
        value = value.owner.operands[0]
    return value


def _defined_outside(value, replicate):
    """True if `value` is defined outside `replicate` (TF: its region is a proper ancestor of the
    replicate's body; the value dominates the cluster_func, so that is its not being inside)."""
    owner = value.owner
    op = owner.owner if isinstance(owner, ir.Block) else owner  # block argument: the block's op
    op = op.operation
    return op != replicate.operation and not is_proper_ancestor(replicate, op)


def _mirrored_indices(replicate):
    attributes = replicate.operation.attributes
    if MIRRORED_VARIABLE_INDICES not in attributes:
        return frozenset()
    attr = attributes[MIRRORED_VARIABLE_INDICES]
    if not isinstance(attr, ir.ArrayAttr) or not all(isinstance(e, ir.IntegerAttr) for e in attr):
        raise PassFailure(f"'{REPLICATE}' op '{MIRRORED_VARIABLE_INDICES}' must be an array of "
                          f"integers, got {attr}", replicate)
    return frozenset(ir.IntegerAttr(e).value for e in ir.ArrayAttr(attr))

