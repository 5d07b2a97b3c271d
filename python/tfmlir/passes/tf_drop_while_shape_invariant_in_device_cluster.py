"""Drop `shape_invariant` attribute from While/WhileRegion ops inside device cluster.

Drops the ``shape_invariant`` attribute from the ``tf.While`` and
``tf.WhileRegion`` ops nested in a ``tf_device.cluster`` of the function (at
any depth), as TF does; those outside clusters keep it. This lets shape
inference refine their shapes; it is only safe when compiling to XLA.
-tf-drop-while-shape-invariant drops it everywhere.
"""
from .names import CLUSTER, FUNC
from .framework import Pass, register_pass
from .tf_drop_while_shape_invariant import drop_shape_invariant
from .walk import ADVANCE, PRE_ORDER, SKIP


@register_pass
class DropWhileShapeInvariantInDeviceCluster(Pass):
    argument = "tf-drop-while-shape-invariant-in-device-cluster"
    anchor = FUNC

    def run_on_operation(self, func):
        clusters = []

        def visit(op):
            if op.name == CLUSTER:
                clusters.append(op.operation)
                return SKIP  # its nested clusters are covered by its walk
            return ADVANCE

        func.operation.walk(visit, PRE_ORDER)
        for cluster in clusters:
            drop_shape_invariant(cluster)
