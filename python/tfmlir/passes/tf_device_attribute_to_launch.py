"""Wraps each TF op that has a non-empty device attribute in a tf_device.launch.

As TF 2.21's -tf-device-attribute-to-launch: every ``tf`` dialect op of the
function (post-order, so ops nested in regions first) whose ``device`` is a
non-empty string is moved into a new ``tf_device.launch`` on that device,
created where the op was, with the op's result types and location; the op
loses its ``device`` and the launch's ``tf_device.return`` returns its results,
which the op's former users now take from the launch. Ops of other dialects,
an empty ``device`` and a ``device`` that is not a string are left alone. The
pass cannot fail.
"""
from mlir import ir

from .framework import Pass, register_pass
from .lib.ir_helpers import ops_with_attributes, wrap_op_in_launch

DEVICE = "device"


@register_pass
class DeviceAttributeToLaunchPass(Pass):
    argument = "tf-device-attribute-to-launch"
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        placed = []
        # Only ops carrying a `device` are looked at (one native walk, post-order).
        for op in ops_with_attributes(func, DEVICE):
            if op.name.startswith("tf."):
                device = op.attributes[DEVICE]
                if isinstance(device, ir.StringAttr) and device.value:
                    placed.append((op, device))
        if not placed:
            self.mark_all_analyses_preserved()
        for op, device in placed:
            del op.attributes[DEVICE]
            wrap_op_in_launch(op, ir.StringAttr(device).value)
