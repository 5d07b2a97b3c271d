"""Hoists reads of host (CPU) resource variables out of ``tf_device.replicate``.

A ``tf.ReadVariableOp`` in a ``tf_device.replicate`` that reads a resource living on
the host reads the same value in every replica; as TF 2.21's -tf-hoist-broadcast-read,
such a read is moved in front of the replicate so that there is one read for all
replicas (which -tf-xla-broadcast can then broadcast inside XLA).

For each ``tf_device.replicate`` of a function (in post-order):

1. The candidate reads are the ``tf.ReadVariableOp`` ops at the top level of the
   replicate's body whose resource is an argument of the function's entry block
   carrying a string ``tf.device`` argument attribute that names a ``CPU`` device.
   Reads of other values (op results, replicate block arguments, arguments without
   ``tf.device``) stay where they are.
2. In body order, a candidate moves right before the replicate unless some other use
   of its resource inside the replicate -- counted by the top-level op of the body
   holding it -- comes at or before the read and is not a ``tf.ReadVariableOp``
   (a write, or any other op, before the read would make the read replica-dependent
   in TF's view). Uses after the read, and uses by reads, do not block it.

Failure (before anything moves): a candidate's resource argument has a ``tf.device``
that TF's ``DeviceNameUtils::ParseFullName`` rejects: ``'tf.ReadVariableOp' op invalid
device '<device>'`` at the read.
"""
from mlir import ir

from .analysis.devices import parse_full_name
from .analysis.executor import op_key
from .names import READ_VARIABLE, REPLICATE
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import ancestor_in_block, ops_named

FUNC_DEVICE_ATTR = "tf.device"
CPU = "CPU"


@register_pass
class HoistBroadcastReadPass(Pass):
    argument = "tf-hoist-broadcast-read"
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        replicates = ops_named(func.operation, REPLICATE)
        if not replicates:
            return
        entry = func.regions[0].blocks[0]
        arg_attrs = _arg_attributes(func)
        # Every replicate's reads are checked before any moves: a bad device fails the
        # pass with the function as it was (TF stops at the first bad replicate; the
        # framework restores the function anyway).
        plans = [(replicate, _cpu_reads(entry, arg_attrs, replicate)) for replicate in replicates]
        for replicate, reads in plans:
            _move_reads(replicate, reads)


def _arg_attributes(func):
    """The ``arg_attrs`` of `func` as a list of DictAttr (None where absent)."""
    attributes = func.operation.attributes
    if "arg_attrs" not in attributes:
        return None
    return [ir.DictAttr(attr) for attr in ir.ArrayAttr(attributes["arg_attrs"])]


def _cpu_reads(entry, arg_attrs, replicate):
    """The top-level reads of `replicate`'s body whose resource is a CPU function argument."""
    body = replicate.regions[0].blocks[0]
    reads = []
    for op in body.operations:
        op = op.operation
        if op.name != READ_VARIABLE:
            continue
        resource = op.operands[0]
        if not isinstance(resource, ir.BlockArgument) or resource.owner != entry:
            continue
        if arg_attrs is None:
            continue
        attrs = arg_attrs[resource.arg_number]
        if FUNC_DEVICE_ATTR not in attrs or not isinstance(attrs[FUNC_DEVICE_ATTR], ir.StringAttr):
            continue
        device = ir.StringAttr(attrs[FUNC_DEVICE_ATTR]).value
        parsed = parse_full_name(device)
        if parsed is None:
            raise PassFailure(f"'{READ_VARIABLE}' op invalid device '{device}'", op)
        if parsed.type == CPU:
            reads.append(op)
    return reads


def _move_reads(replicate, reads):
    if not reads:
        return
    body = replicate.regions[0].blocks[0]
    # Positions in the body: moving ops out does not change the order of the rest.
    position = {op_key(op): index for index, op in enumerate(body.operations)}
    for read in reads:
        read_position = position[op_key(read)]
        blocked = False
        for use in read.operands[0].uses:
            user = use.owner.operation
            if user == read:
                continue
            peer = ancestor_in_block(user, body)
            if peer is None:
                continue  # outside the replicate (or already moved out)
            if read_position < position[op_key(peer)]:
                continue
            if peer.name == READ_VARIABLE:
                continue
            blocked = True
            break
        if not blocked:
            read.move_before(replicate)
