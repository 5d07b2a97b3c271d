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

from .analysis.names import DEVICE_RETURN, LAUNCH
from .framework import Pass, register_pass

DEVICE = "device"


@register_pass
class DeviceAttributeToLaunchPass(Pass):
    argument = "tf-device-attribute-to-launch"
    dependent_dialects = ("tf", "tf_device")
    rollback_on_failure = False  # nothing fails

    def run_on_operation(self, func):
        placed = []

        def visit(op):
            if op.name.startswith("tf.") and DEVICE in op.attributes:
                device = op.attributes[DEVICE]
                if isinstance(device, ir.StringAttr) and device.value:
                    placed.append((op, device))
            return ir.WalkResult.ADVANCE

        func.operation.walk(visit, ir.WalkOrder.POST_ORDER)
        for op, device in placed:
            wrap_in_launch(op, device)


def wrap_in_launch(op, device):
    """Moves `op` into a new ``tf_device.launch`` on `device` (a StringAttr) created in its place;
    the op's users take its results from the launch. Returns the launch."""
    op = op.operation
    launch = ir.Operation.create(LAUNCH, results=[r.type for r in op.results],
                                 attributes={DEVICE: device}, regions=1, loc=op.location,
                                 ip=ir.InsertionPoint(op))
    for old, new in zip(op.results, launch.results):
        old.replace_all_uses_with(new)
    body = launch.regions[0].blocks.append()
    del op.attributes[DEVICE]
    op.move_before(ir.Operation.create(DEVICE_RETURN, operands=list(op.results), loc=op.location,
                                       ip=ir.InsertionPoint(body)))
    return launch
