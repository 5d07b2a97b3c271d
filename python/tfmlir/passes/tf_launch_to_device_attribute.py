"""Hoists the bodies of tf_device.launch ops, putting the launch's device on their TF ops.

As TF 2.21's -tf-launch-to-device-attribute, for every ``tf_device.launch``
of the function (post-order: a launch nested in another is hoisted into it
first):

1. the launch's users take the values its ``tf_device.return`` returns;
2. every ``tf`` dialect op of the body, nested ones included, gets the
   launch's ``device`` where it has none or an empty one, and the launch's
   ``_parallel_execution_ids`` (when the launch has it, as a string); a
   different non-empty device is an error ("inner op has conflicting 'device'
   attribute, got 'X' but expected 'Y'"), as is a device that is not a
   string ("inner op has bad 'device' attribute, got ...") -- both reported at
   the launch, module unchanged;
3. the body's ops move in front of the launch, which is erased.

Option ``legacy-graph-export`` (default true, as TF): when false, every
``tf_executor.island`` of the function is then split as TF's
``SplitIsland`` does: an empty island gets a ``tf.NoOp``, ``tf.Identity`` or
``tf.IdentityN`` for what it yields; an island of several ops becomes one
island per op, in order, without control inputs (the users of the old
island's results take them from the new islands; its control result is
dropped from the graph's fetch). An island whose control result has other
users cannot be split that way (TF erases it with users left); that is
reported at the island.
"""
from mlir import ir

from .analysis.executor import create_island, rebuild_op
from .names import ISLAND, LAUNCH, YIELD
from .framework import Option, Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import ops_named

DEVICE = "device"
PARALLEL_EXECUTION_IDS = "_parallel_execution_ids"


@register_pass
class LaunchToDeviceAttributePass(Pass):
    argument = "tf-launch-to-device-attribute"
    dependent_dialects = ("tf", "tf_device", "tf_executor")
    options = (Option("legacy-graph-export", bool, True,
                      "Keeps the islands as they are (the legacy graph export's invariants); "
                      "false splits them into one island per op"),)

    def run_on_operation(self, func):
        for launch in ops_named(func, LAUNCH):
            _hoist(launch)
        if not self.legacy_graph_export:
            for island in ops_named(func, ISLAND):
                split_island(island)


def _hoist(launch):
    launch = launch.operation
    body = launch.regions[0].blocks[0]
    ops = list(body.operations)
    terminator = ops.pop()
    for result, value in zip(launch.results, terminator.operands):
        result.replace_all_uses_with(value)
    device = launch.attributes[DEVICE]
    group = launch.attributes[PARALLEL_EXECUTION_IDS] if PARALLEL_EXECUTION_IDS in launch.attributes else None
    if not isinstance(group, ir.StringAttr):
        group = None
    failure = []

    def assign(op):
        if not op.name.startswith("tf."):
            return ir.WalkResult.ADVANCE
        attributes = op.attributes
        if group is not None:
            attributes[PARALLEL_EXECUTION_IDS] = group
        current = attributes[DEVICE] if DEVICE in attributes else None
        if current is None or (isinstance(current, ir.StringAttr) and not current.value):
            attributes[DEVICE] = device
        elif not isinstance(current, ir.StringAttr):
            failure.append(f"'{LAUNCH}' op inner op has bad 'device' attribute, got {current}")
            return ir.WalkResult.INTERRUPT
        elif current.value != device.value:
            failure.append(f"'{LAUNCH}' op inner op has conflicting 'device' attribute, got "
                           f"'{current.value}' but expected '{device.value}'")
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    for op in ops:
        op.walk(assign, ir.WalkOrder.POST_ORDER)
        if failure:
            raise PassFailure(failure[0], launch)
    for op in ops:
        op.move_before(launch)
    erase_op(launch)


def split_island(island):
    """TF's ``SplitIsland``: `island` as one island per op (see the module docstring)."""
    island = island.operation
    body = island.regions[0].blocks[0]
    ops = list(body.operations)
    yield_op = ops.pop()
    if not ops:
        _populate_empty_island(island, yield_op)
        return
    if len(ops) == 1 and list(yield_op.operands) == list(ops[0].results):
        return  # already wraps a single op
    control = island.results[len(island.results) - 1]
    graph = island.parent
    fetch = graph.regions[0].blocks[0].operations[len(graph.regions[0].blocks[0].operations) - 1]
    control_users = [use.owner for use in control.uses]
    if len(control_users) > 1 or (control_users and control_users[0] != fetch):
        other = next((user for user in control_users if user != fetch), fetch)
        raise PassFailure(f"'{ISLAND}' op cannot be split into one island per op: its control "
                          f"result is used by '{other.name}'", island)
    for op in ops:
        new_island, empty_yield = create_island([r.type for r in op.results], [], op.location,
                                                ir.InsertionPoint(island))
        for old, new in zip(op.results, new_island.results):
            old.replace_all_uses_with(new)
        op.move_before(empty_yield)
        ir.Operation.create(YIELD, operands=list(op.results), loc=op.location,
                            ip=ir.InsertionPoint(empty_yield))
        erase_op(empty_yield)
    for output, fetched in zip(island.results, yield_op.operands):
        output.replace_all_uses_with(fetched)
    fetches = list(fetch.operands)
    for index, value in enumerate(fetches):
        if value == control:
            _set_operands(fetch, fetches[:index] + fetches[index + 1:])
            break
    erase_op(island)


def _set_operands(op, operands):
    if len(operands) == len(op.operands):
        for index, value in enumerate(operands):
            op.operands[index] = value
        return op
    return rebuild_op(op, operands)


def _populate_empty_island(island, yield_op):
    operands = list(yield_op.operands)
    ip = ir.InsertionPoint.at_block_begin(island.regions[0].blocks[0])
    if not operands:
        ir.Operation.create("tf.NoOp", loc=island.location, ip=ip)
        return
    name = "tf.Identity" if len(operands) == 1 else "tf.IdentityN"
    identity = ir.Operation.create(name, results=[v.type for v in operands], operands=operands,
                                   loc=island.location, ip=ip)
    for index, result in enumerate(identity.results):
        yield_op.operands[index] = result
