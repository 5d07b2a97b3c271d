"""Decompose composite resource ops into primitive ones (every op of each function).

Rewrites, in each function, the composite resource ops TF 2.21 decomposes into
``tf.ReadVariableOp`` / ``tf.AssignVariableOp`` and arithmetic (TF's
``decompose_resource_ops.td`` patterns and its ``tf.RngReadAndSkip``
decomposition; the ops and the cases TF leaves alone are listed in
:data:`tfmlir.passes.lib.decompose_resource_ops.DECOMPOSITIONS`):
``tf.AssignAddVariableOp``, ``tf.AssignSubVariableOp``, the
``tf.ResourceApply*`` optimizers (GradientDescent, Momentum, KerasMomentum,
Adagrad, AdagradV2, Adam, RMSProp, CenteredRMSProp, Ftrl, FtrlV2,
ProximalAdagrad), ``tf.ResourceGather``, ``tf.ResourceScatterAdd``,
``tf.ResourceScatterUpdate``, ``tf.VariableShape``, ``tf.RngReadAndSkip``, and
``tf.CollectiveReduceV2`` loses a single ordering token. The formulas ignore
``use_locking``: they are only right where every variable access is locked
(XLA).

The patterns run with MLIR's greedy driver on the whole function, as TF's pass
does: everything in the function is folded (the tf dialect's folders),
trivially dead ops are erased, constants are deduplicated and hoisted to the
entry block (into their island inside ``tf_executor`` graphs) and the regions
simplified, to a fixpoint (at most 10 sweeps). Fails with TF's "Resource ops
decomposition did not converge" at the function otherwise; an op TF's C++
cannot build (a scalar constant of an element type that is neither integer,
float nor complex, non-broadcastable operands) fails with a diagnostic at it.
-tf-device-decompose-resource-ops-in-cluster does this inside device
clusters only.
"""
from .names import FUNC
from .lib.decompose_resource_ops import Patterns, decompose_function
from .framework import Pass, register_pass


@register_pass
class DecomposeResourceOps(Pass):
    argument = "tf-device-decompose-resource-ops"
    anchor = FUNC
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        decompose_function(func, Patterns())
