"""Places the variable reads and writes of packed (composite device) resources on the TPU core.

As TF 2.21's -tf-tpu-colocate-composite-resource-ops, run on each function:

1. The ``tf_device.launch`` ops wrapping exactly one op (besides their
   terminator) that is a ``tf.TPUExecute`` or ``tf.TPUExecuteAndUpdateVariables``
   are collected (post-order) before anything changes.
2. For each of them nested in a ``tf_device.replicate`` (the closest one)
   whose ``devices`` dictionary has a ``TPU_REPLICATED_CORE_0`` entry, the
   users of the replicate's packed block arguments (the arguments of its
   packed operands) are visited, one entry per use, through
   ``tf.Identity`` ops (the users of an Identity's result are visited in
   turn, as often as the Identity was reached); every visited
   ``tf.ReadVariableOp`` and ``tf.AssignVariableOp`` is wrapped in a new
   ``tf_device.launch`` on ``TPU_REPLICATED_CORE_0`` placed where it was
   (location: the op's), whose results replace the op's outside it.

As in TF, an op reached twice (used through two Identity chains, or a
replicate holding two execute launches) is wrapped twice, the second
launch inside the first. Replicates without a TPU core entry in
``devices`` and execute launches outside any replicate are left alone.

The pass has no failure of its own.
"""
from mlir import ir

from .analysis.devices import TPU_REPLICATED_CORE
from .names import (ASSIGN_VARIABLE, DEVICE_RETURN, FUNC, IDENTITY, LAUNCH, READ_VARIABLE,
                             REPLICATE)
from .framework import Pass, register_pass
from .lib.ir_helpers import enclosing_op, ops_named, wrap_op_in_launch

TPU_EXECUTE = "tf.TPUExecute"
TPU_EXECUTE_AND_UPDATE_VARIABLES = "tf.TPUExecuteAndUpdateVariables"
_EXECUTES = frozenset({TPU_EXECUTE, TPU_EXECUTE_AND_UPDATE_VARIABLES})
_RESOURCE_OPS = frozenset({READ_VARIABLE, ASSIGN_VARIABLE})
DEVICES_ATTR = "devices"
SEGMENTS_ATTR = "operandSegmentSizes"
CORE_0 = f"{TPU_REPLICATED_CORE}_0"


@register_pass
class TPUColocateCompositeResourceOpsPass(Pass):
    argument = "tf-tpu-colocate-composite-resource-ops"
    anchor = FUNC
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        executes = [launch for launch in ops_named(func, LAUNCH) if _wraps_execute(launch)]
        for launch in executes:
            replicate = enclosing_op(launch, REPLICATE)
            if replicate is None or not _has_core_0(replicate):
                continue
            for op in _composite_resource_users(replicate):
                wrap_op_in_launch(op, CORE_0)


def _wraps_execute(launch):
    """TF's ``WrapsSingleOp`` with that op a TPU execute."""
    operations = launch.regions[0].blocks[0].operations
    if len(operations) != 2 or operations[1].operation.name != DEVICE_RETURN:
        return False
    return operations[0].operation.name in _EXECUTES


def _has_core_0(replicate):
    attributes = replicate.attributes
    if DEVICES_ATTR not in attributes:
        return False
    devices = attributes[DEVICES_ATTR]
    return isinstance(devices, ir.DictAttr) and CORE_0 in ir.DictAttr(devices)


def _packed_arguments(replicate):
    packed = list(ir.DenseI32ArrayAttr(replicate.attributes[SEGMENTS_ATTR]))[1]
    arguments = list(replicate.regions[0].blocks[0].arguments)
    return arguments[len(arguments) - packed:] if packed else []


def _composite_resource_users(replicate):
    """The reads and writes using the packed arguments, directly or through tf.Identity ops, one
    entry per way they are reached (TF's ``GetResourceOpsUsingCompositeArgsInReplicate``)."""
    found = []
    to_visit = [use.owner.operation for argument in _packed_arguments(replicate)
                for use in argument.uses]
    while to_visit:
        next_visit = []
        for user in to_visit:
            if user.name in _RESOURCE_OPS:
                found.append(user)
            if user.name == IDENTITY:
                next_visit.extend(use.owner.operation for use in user.results[0].uses)
        to_visit = next_visit
    return found
