"""Moves ``tf.TPUCopyWithDynamicShape`` ops out of their host launch into a launch on the TPU.

As TF 2.21's -tf-extract-tpu-copy-with-dynamic-shape-op, run on each function:

1. Every ``tf.TPUCopyWithDynamicShape`` (post-order) is checked: it must be
   directly in a ``tf_device.launch`` whose device is ``TPU_REPLICATED_HOST_0``
   or the CPU:0 device of the host of the first TPU in the module's
   ``tf.devices`` (TF's ``GetNonReplicatedCPU0``: the first TPU of the first
   ``TPU_SYSTEM:0`` host). A copy is extracted when its results are used only
   by the launch's ``tf_device.return``; others stay.
2. For each extracted copy, in that order: the launch's results are replaced
   by the values its ``tf_device.return`` returns; the copy moves right after
   the launch; a new host launch (same device, the old launch's location, no
   other attributes) takes the old body, and its ``tf_device.return`` returns
   the old returned values followed by the copy's operands that are results
   of ops of the body, each value once, without the copy's results. Uses of
   those values outside the new launch (the copy's, the old launch's users)
   take the new launch's results; the old launch is erased.
3. The copy is wrapped in a launch of its own (location: the copy's) on
   ``TPU_REPLICATED_CORE_0`` when its host launch was on
   ``TPU_REPLICATED_HOST_0``, else on the first TPU of ``tf.devices``; the
   copy's users take that launch's results.

Failures (module unchanged), at the first copy in post-order that has one:

* the copy is not directly in a ``tf_device.launch`` ("TPUCopyWithDynamicShapeOp
  is not in a launch"; TF's process crashes after reporting it);
* the module's ``tf.devices`` is malformed (its error, then "No available
  devices.") or has no TPU (TF's "error in fetching TPU_SYSTEM devices: ..." /
  "error in fetching TPU devices: ..."; TF's process crashes where the first
  host has no TPU);
* the launch's device is neither host 0 ("TPUCopyWithDynamicShapeOp's device
  is not a recognized host 0: <device>").
"""
from mlir import ir

from ..dialects import tf_device
from .analysis.devices import (HostDeviceError, TPU_REPLICATED_CORE, cpu_device_name,
                               module_devices, non_replicated_tpu0, replicated_host_alias)
from .names import FUNC, LAUNCH, MODULE
from .framework import Pass, erase_op, register_pass
from .lib.ir_helpers import is_proper_ancestor, ops_named, wrap_op_in_launch

TPU_COPY_WITH_DYNAMIC_SHAPE = "tf.TPUCopyWithDynamicShape"
DEVICE_ATTR = "device"
HOST_0 = replicated_host_alias(0)
CORE_0 = f"{TPU_REPLICATED_CORE}_0"


@register_pass
class ExtractTPUCopyWithDynamicShapeOpPass(Pass):
    argument = "tf-extract-tpu-copy-with-dynamic-shape-op"
    anchor = FUNC
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        copies = ops_named(func, TPU_COPY_WITH_DYNAMIC_SHAPE)
        if not copies:
            return
        movable = []
        tpu0 = None
        for copy in copies:
            launch = copy.parent.operation
            if launch.name != LAUNCH:
                self.fail("TPUCopyWithDynamicShapeOp is not in a launch", copy)
            if tpu0 is None:
                tpu0 = self._tpu0(func)
            device = _device(launch)
            if device != HOST_0 and device != cpu_device_name(tpu0):
                self.fail(f"TPUCopyWithDynamicShapeOp's device is not a recognized host 0: {device}",
                          copy)
            if _only_returned(copy, launch):
                movable.append(copy)
        for copy in movable:
            launch = copy.parent.operation
            device = CORE_0 if _device(launch) == HOST_0 else tpu0
            _move_out_of_host_launch(copy, launch)
            wrap_op_in_launch(copy, device)

    def _tpu0(self, func):
        """TF's ``GetNonReplicatedTPU0`` for the module of `func`."""
        module = func.operation.parent.operation
        devices, error = module_devices(module)
        if error is not None:
            self.emit_error(f"'{MODULE}' op {error}", module)
            self.fail(f"'{MODULE}' op No available devices.", module)
        try:
            return non_replicated_tpu0([parsed for _name, parsed in devices])
        except HostDeviceError as error:
            self.fail(str(error), module)


def _device(launch):
    return ir.StringAttr(launch.attributes[DEVICE_ATTR]).value


def _terminator(launch):
    operations = launch.regions[0].blocks[0].operations
    return operations[len(operations) - 1].operation


def _only_returned(copy, launch):
    """TF's ``CanMove``: every user of the copy's results is the launch's terminator."""
    terminator = _terminator(launch)
    return all(use.owner.operation == terminator for result in copy.results for use in result.uses)


def _replace_uses_outside(launch):
    """Uses outside `launch` of the values its terminator returns take its results instead."""
    for result, value in zip(launch.results, list(_terminator(launch).operands)):
        uses = [(use.owner.operation, use.operand_number) for use in value.uses]
        for user, number in uses:
            if not is_proper_ancestor(launch, user):
                user.operands[number] = result


def _move_out_of_host_launch(copy, old):
    """Moves `copy` after its launch `old`, which a new launch returning what the copy uses from
    the body replaces."""
    terminator = _terminator(old)
    returned = list(terminator.operands)
    for result, value in zip(old.results, returned):
        result.replace_all_uses_with(value)
    values = []
    for value in returned + [operand for operand in copy.operands if _defined_in(operand, old)]:
        if value not in values:
            values.append(value)
    copy_results = list(copy.results)
    values = [value for value in values if value not in copy_results]
    copy.move_after(old)
    new = ir.Operation.create(LAUNCH, results=[value.type for value in values],
                              attributes={DEVICE_ATTR: old.attributes[DEVICE_ATTR]}, regions=1,
                              loc=old.location, ip=ir.InsertionPoint.after(old))
    old.regions[0].blocks[0].append_to(new.regions[0])
    tf_device.ReturnOp(values, loc=terminator.location,
                        ip=ir.InsertionPoint(terminator))
    terminator.erase()
    _replace_uses_outside(new)
    erase_op(old)


def _defined_in(value, launch):
    """True if `value` is the result of an op directly in `launch`'s body."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return False
    parent = owner.operation.parent
    return parent is not None and parent.operation == launch
