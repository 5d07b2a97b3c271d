"""Lifting resource operations out of device computation

As TF 2.21's -tf-resource-op-lifting, a module pass over every
``tf_device.cluster`` nested in the module's functions (in post-order): resource
reads are hoisted before the cluster, writes sunk after it, and the cluster
computes on values instead of resources.

1. Cleanup (TF's ``CleanupAndCanonicalizeForResourceOpLifting``), for every
   cluster, visiting the ops under it in post-order, and the functions it
   calls (``func.call``, ``tf.PartitionedCall``, ``tf.StatefulPartitionedCall``,
   ``tf.LegacyCall``, ``tf.TPUPartitionedCall``, ``tf.RemoteCall``,
   ``tf_device.cluster_func``) in turn:

   * in every region: ``tf.Identity`` / ``tf.IdentityN`` (all of them, not only
     those of resources) and casts of resources are removed, their results
     replaced by their operands; local variables (``tf.VarHandleOp`` with
     TF's anonymous shared name, ``tf.MlirLocalVarOp``) only assigned or
     destroyed are removed with their users;
   * a ``tf.IfRegion`` / ``tf.CaseRegion`` / ``tf_device.cluster`` resource
     result must be the same value in every region: its uses take that value,
     and unused results are dropped (from the terminators too);
   * a ``tf.WhileRegion`` resource result must be passed through by the body
     (body argument or the loop operand): the loop operand replaces the
     result and the region arguments, which are dropped with the operand and
     the result. The condition must not write a resource.

2. Hoisting, in the cluster's body, op by op (regions of ``tf.IfRegion`` /
   ``tf.CaseRegion`` / ``tf.WhileRegion`` first, innermost first):
   ``tf.VarIsInitializedOp`` becomes a constant true; then, for the op (and
   finally the cluster): the resources it captures from above that are only
   read or written by ``tf.ReadVariableOp`` / ``tf.AssignVariableOp`` directly
   in its regions are read once before it (the read's attributes are those
   of the first read, without ``device``), the reads inside use that value,
   and the value last written in each region (or the value read) becomes a
   new result of the op, written back after it (the attributes of the last
   write, without ``device``); a resource written in some regions only is
   read too. For a ``tf.WhileRegion`` the written resources become new loop
   variables (operands, region arguments, body results). Resources used by
   any other op stay as they are. Before and after, reads after a write of
   the same resource in one block take the written value (a ``tf.Cast`` where
   the types differ) and writes followed by another write are dropped.

3. The cleanup again.

Failures (TF's messages; the module is left unchanged): "found resource write
in loop condition.", "Result #i is not tied to arg #i of the body" (a
``tf.WhileRegion``), "Result #i not tied to the same capture across all
regions"; where TF fails without a message (an op under a cluster with a
region of several blocks, a call whose callee is not a function with a body):
a diagnostic saying so.

Not done by tfmlir (a diagnostic at the op instead of TF's lifting): the
functional control flow and calls TF lifts through, ``tf.If``, ``tf.Case``,
``tf.While``, ``tf.PartitionedCall`` and ``tf.StatefulPartitionedCall`` under a
cluster or in a function called from one (TF's bridge turns them into regions
and inlines the calls before this pass).
"""
from .framework import MODULE, Pass, register_pass
from .lib.ir_helpers import ops_named
from .lib.resource_lifting import Cleanup, hoist_block, hoist_region_op, single_block
from .names import CLUSTER


@register_pass
class ResourceOpLiftingPass(Pass):
    argument = "tf-resource-op-lifting"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        module = module.operation
        cleanup = Cleanup(module)
        for cluster in _clusters(module):
            cleanup.run(cluster)
        for cluster in _clusters(module):
            hoist_block(single_block(cluster.regions[0]))
            hoist_region_op(cluster)
        cleanup = Cleanup(module)
        for cluster in _clusters(module):
            cleanup.run(cluster)


def _clusters(module):
    """The clusters in the module, in post-order (TF's walk)."""
    return ops_named(module, CLUSTER)
