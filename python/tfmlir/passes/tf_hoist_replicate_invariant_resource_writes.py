"""Hoists writes to replicate invariant resource variables.

A ``tf.AssignVariableOp`` at the tail of a ``tf_device.replicate`` body that
writes a resource defined outside the replicate (not a replicated block
argument) runs once per replica, each writing the same variable; only one
value is needed. Such writes move after the replicate and write replica 0's
value, which the replicate now returns. Behaviour, as TensorFlow's C++ pass:

* Replicates are handled in post-order. Each body's top-level ops are scanned
  from the end: an ``AssignVariableOp`` is a tail write when its resource is
  defined outside the replicate and no later op of the body (top level, by
  operand) uses that same resource value; every op with resource operands
  marks them used.
* The written values are appended to the ``tf_device.return`` (one per tail
  write, last write first, even if already returned), so the replicate is
  rebuilt with ``n`` more results each (same operands and attributes, the
  body moved over); the writes follow the replicate in their original order
  and write result ``old results + n * k`` (replica 0 of the k-th new value).

No failure of its own: malformed replicates are rejected by the verifier.
"""
from mlir import ir

from .. import irsafe
from .names import ASSIGN_VARIABLE, FUNC, REPLICATE
from .analysis.side_effects import is_resource_type
from .framework import Pass, erase_op, register_pass
from .walk import ADVANCE, POST_ORDER


@register_pass
class HoistReplicateInvariantResourceWritesPass(Pass):
    argument = "tf-hoist-replicate-invariant-resource-writes"
    anchor = FUNC
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        replicates = []
        func.operation.walk(lambda op: (replicates.append(op.operation)
                                        if op.operation.name == REPLICATE else None) or ADVANCE,
                            POST_ORDER)
        for replicate in replicates:
            writes = _tail_writes(replicate)
            if writes:
                _move_after(replicate, writes)


def _tail_writes(replicate):
    """The tail writes to resources defined outside `replicate`, last first."""
    block = replicate.regions[0].blocks[0]
    ops = [op.operation for op in block.operations]
    visited = set()
    writes = []
    for op in reversed(ops):
        resources = [v for v in op.operands if is_resource_type(v.type)]
        if not resources:
            continue
        if op.name == ASSIGN_VARIABLE:
            resource = op.operands[0]
            if resource not in visited and _defined_outside(resource, replicate):
                writes.append(op)
        visited.update(resources)
    return writes


def _defined_outside(value, replicate):
    """The value's region is a proper ancestor of the replicate's region."""
    if isinstance(value, ir.BlockArgument):
        owner = value.owner.owner
    else:
        owner = value.owner.operation.parent
    # The value is defined in the region of `owner` (None: at top level of a detached op).
    op = replicate.parent
    while op is not None:
        op = op.operation
        if owner is not None and op == owner.operation:
            return True
        op = op.parent
    return False


def _move_after(replicate, writes):
    n = ir.IntegerAttr(replicate.attributes["n"]).value
    block = replicate.regions[0].blocks[0]
    terminator = list(block.operations)[-1].operation
    old_count = len(replicate.results)
    returned = list(terminator.operands) + [write.operands[1] for write in writes]
    ir.Operation.create(terminator.name, operands=returned, attributes=_attributes(terminator),
                        loc=terminator.location, ip=ir.InsertionPoint(terminator))
    erase_op(terminator)
    result_types = [r.type for r in replicate.results]
    for write in writes:
        result_types += [write.operands[1].type] * n
    new = ir.Operation.create(REPLICATE, results=result_types, operands=list(replicate.operands),
                              attributes=_attributes(replicate), regions=1,
                              loc=replicate.location, ip=ir.InsertionPoint(replicate))
    block.append_to(new.regions[0])
    for index in range(old_count):
        replicate.results[index].replace_all_uses_with(new.results[index])
    for index, write in enumerate(writes):
        write.move_after(new)
        write.operands[1] = new.results[old_count + n * index]
    erase_op(replicate)


def _attributes(op):
    return irsafe.attribute_dict(op)
