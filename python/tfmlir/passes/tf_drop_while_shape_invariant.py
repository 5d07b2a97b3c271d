"""Drop `shape_invariant` attribute from While/WhileRegion ops.

Drops the ``shape_invariant`` attribute from every ``tf.While`` and
``tf.WhileRegion`` of the function (nested ones too), as TF does. This lets
shape inference refine the operand and result shapes of these ops; it is
only safe when compiling to XLA. -tf-drop-while-shape-invariant-in-device-cluster
does the same inside ``tf_device.cluster`` ops only.
"""

from .names import FUNC, WHILE, WHILE_REGION
from .framework import Pass, register_pass
from .lib.ir_helpers import ops_named

SHAPE_INVARIANT = "shape_invariant"
_WHILE_OPS = frozenset({WHILE, WHILE_REGION})


def drop_shape_invariant(root):
    """Removes ``shape_invariant`` from the While/WhileRegion ops under `root` (itself too)."""
    for op in ops_named(root, _WHILE_OPS):
        if SHAPE_INVARIANT in op.attributes:
            del op.attributes[SHAPE_INVARIANT]


@register_pass
class DropWhileShapeInvariant(Pass):
    argument = "tf-drop-while-shape-invariant"
    anchor = FUNC

    def run_on_operation(self, func):
        drop_shape_invariant(func)
