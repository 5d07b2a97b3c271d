"""Merges device variable reads and updates into TPU execute ops

For every ``tf_device.launch`` that wraps exactly one ``tf.TPUExecute`` (its
``tf_device.return`` returns the execute's results, in order) -- and, when the
launch is in a ``tf_device.parallel_execute``, is the only op of its region
(the region returns the launch's results) -- the ``tf.ReadVariableOp`` ops
feeding the execute and the ``tf.AssignVariableOp`` ops taking its results are
merged into a ``tf.TPUExecuteAndUpdateVariables``, as TF 2.21's
-tf-tpu-merge-variables-with-execute does. Functions are visited in
post-order, the launches of each function in post-order.

The *parent* of an execute is its ``tf_device.parallel_execute`` if it has
one, else its launch. The execute is *replicated* when the launch (or that
``tf_device.parallel_execute``) is directly in a ``tf_device.replicate``.

Reads. An operand of the execute (the program key included) defined by a
``tf.ReadVariableOp`` is a candidate when

* replicated: the read is in the same region as the parent (reads outside the
  replicate stay; the resource device is not checked -- per-replica and
  packed resources are on the replica's device);
* not replicated: the resource is on the launch's device: the ``device``
  attribute of the op defining the resource, or the ``tf.device`` argument
  attribute of the function argument it is (an argument of another block, a
  replicate's for example, never is), equals the launch's ``device`` or
  contains ``COMPOSITE`` (a packed variable, present on every device).

Two candidates of one resource value (two reads, or one read feeding two
operands) leave the execute alone. Then, walking back from the op before the
parent to the first candidate read, a candidate read is dropped when an op
after it (up to the parent) has a resource operand (see below for ops with
regions) that may alias its resource (TF's resource alias analysis, :class:`SideEffectAnalysis`), when an
op after it has a resource operand the analysis cannot identify, or when its
own resource cannot be identified.

Updates. An output of the execute (the launch's result, or the parallel
execute's result for the launch's region) with exactly one use, a
``tf.AssignVariableOp`` of a candidate's resource value, is a merge candidate;
a second such output for the same resource leaves the execute alone. Walking
forward from the op after the parent to the last candidate assign, a
candidate assign is dropped when an op between the parent and it accesses an
aliasing or unidentified resource (as for reads).

If some candidate read is left, the launch is replaced (same place, location
and ``device``; other attributes are not kept) by a launch of a
``tf.TPUExecuteAndUpdateVariables`` (the launch's location, no other
attribute) whose operands are the execute's with each merged read replaced by
its resource, with ``device_var_reads_indices`` (the merged operands, in
operand order) and ``device_var_updates_indices`` (per merged operand, the
execute output that updates it, or -1), and whose results are the execute's
outputs that are not merged updates. Uses of the other outputs move to the new
results; the merged assigns are erased, and the merged reads once they have no
other use. In a ``tf_device.parallel_execute`` the parallel execute is
rebuilt (its location, its regions moved, no attributes) with the region's
new results. Nothing moves across ops otherwise: the merged op reads the
variables where the execute ran.

Failure (module unchanged):

* after merging, an operand of the execute is a resource that is neither a
  merged read nor equal to an update index (TF's check, which compares operand
  numbers with both lists): the error is at the ``tf.TPUExecute``; as TF, the
  remaining executes of that function are not looked at, other functions
  are, and every such error is reported;
* an unread resource operand that passes that check (its number is an update
  index): the ``tf.TPUExecuteAndUpdateVariables`` would not verify (its read
  indices must name every resource operand but the key), which is where TF's
  pipeline fails; the error, with the verifier's message, is at the launch;
* where TF's process crashes or loops: a candidate read or assign that is not
  in the block of the parent (TF walks the parent's block from one to the
  other), a ``device`` attribute of the resource's op that is not a string and differs
  from the launch's.

Deliberate difference from TF: TF only looks at the resource operands of the
ops between the reads, the execute and the assigns; here the resource
operands of ops nested in their regions count too: a ``tf.IfRegion`` or a
``tf_device.launch`` writing the variable in between blocks the merge (merged,
the execute would read the variable after that write, or update it before a
read); so does an execute merged earlier that accesses it. Other regions of a parallel execute are
not looked at (as TF: they run alongside the execute). Functions in nested
modules are processed like others (TF's analysis does not cover them).
"""
from mlir import ir

from ..dialects import tf_device
from .. import _tfmlir

from .analysis.executor import op_key
from .names import (ASSIGN_VARIABLE, FUNC, LAUNCH, MODULE,
                             PARALLEL_EXECUTE, READ_VARIABLE, REPLICATE)
from .analysis.side_effects import UNKNOWN_RESOURCE, SideEffectAnalysis, is_resource_type
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import arg_attr, ops_named, walk_ops

TPU_EXECUTE = "tf.TPUExecute"
TPU_EXECUTE_AND_UPDATE = "tf.TPUExecuteAndUpdateVariables"
READS_ATTR = "device_var_reads_indices"
UPDATES_ATTR = "device_var_updates_indices"
DEVICE = "device"
FUNC_DEVICE = "tf.device"
COMPOSITE = "COMPOSITE"


class _NotHoisted(PassFailure):
    """TF's error after a merge: a resource operand neither read nor updated (the function's
    remaining executes are skipped, other functions go on)."""


@register_pass
class TPUMergeVariablesWithExecutePass(Pass):
    argument = "tf-tpu-merge-variables-with-execute"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        errors = []
        for func in ops_named(module, FUNC):
            launches = [launch for launch in ops_named(func, LAUNCH) if _is_execute_launch(launch)]
            for launch in launches:
                try:
                    _merge(launch, func, module)
                except _NotHoisted as error:
                    errors.append(error)
                    break
        if errors:
            for error in errors[:-1]:
                self.emit_error(str(error), error.op)
            raise errors[-1]


# --- which launches ----------------------------------------------------------------------------

def _body(op, region=0):
    return op.regions[region].blocks[0]


def _wraps_single_op(block):
    """TF's BlockWrapsSingleOp: one op and a terminator returning its results in order."""
    ops = [op.operation for op in block.operations]
    if len(ops) != 2:
        return False
    wrapped, terminator = ops
    results, returned = list(wrapped.results), list(terminator.operands)
    return len(results) == len(returned) and all(a == b for a, b in zip(results, returned))


def _region_index(parent, op):
    block = op.operation.block
    for index, region in enumerate(parent.regions):
        if region.blocks[0] == block:
            return index
    raise PassFailure("internal error: op not found in the regions of its parent", op)


def _is_execute_launch(launch):
    body = _body(launch)
    if not _wraps_single_op(body) or body.operations[0].operation.name != TPU_EXECUTE:
        return False
    parent = launch.parent.operation
    if parent.name != PARALLEL_EXECUTE:
        return True
    return _wraps_single_op(_body(parent, _region_index(parent, launch)))


# --- finding the accesses to merge (TF's BuildVariableAccessInfo) ------------------------------

class _Access:
    __slots__ = ("input_index", "output_index", "read", "assign")

    def __init__(self, input_index, read):
        self.input_index = input_index
        self.output_index = -1
        self.read = read
        self.assign = None


def _device_attr(op):
    attributes = op.attributes
    return attributes[DEVICE] if DEVICE in attributes else None


def _mergeable(resource_attr, device, owner):
    """TF's IsResourceMergeable: on the launch's device or a COMPOSITE one."""
    if resource_attr is None:
        return False
    if resource_attr == device:
        return True
    if not isinstance(resource_attr, ir.StringAttr):
        raise PassFailure(f"'{owner.name}' op has a '{DEVICE}' attribute that is not a string "
                          f"({resource_attr}); TF's process crashes here", owner)
    return COMPOSITE in resource_attr.value


def _on_device(resource, device, func):
    owner = resource.owner
    if isinstance(owner, ir.Block):
        if owner != _body(func):
            return False
        attr = arg_attr(func, ir.BlockArgument(resource).arg_number, FUNC_DEVICE)
        return _mergeable(attr if isinstance(attr, ir.StringAttr) else None, device, None)
    owner = owner.operation
    return _mergeable(_device_attr(owner), device, owner)


class _Accesses:
    """Resource ids accessed by the ops walked so far (TF's resource_ids and
    previous_unknown_resource_access)."""

    def __init__(self, analysis):
        self.analysis = analysis
        self.ids = set()
        self.unknown = False

    def safe(self, resource):
        """TF's IsResourceSafeForMerge."""
        if self.unknown:
            return False
        ids = self.analysis.resource_ids(resource)
        return UNKNOWN_RESOURCE not in ids and self.ids.isdisjoint(ids)

    def add(self, op):
        """The resource operands of `op` and of the ops nested in it (TF: of `op` only)."""
        if self.unknown:
            return
        for nested in walk_ops(op):
            for value in nested.operands:
                if not is_resource_type(value.type):
                    continue
                ids = self.analysis.resource_ids(value)
                if UNKNOWN_RESOURCE in ids:
                    self.unknown = True
                    return
                self.ids.update(ids)


def _not_in_block(op, what, parent):
    return PassFailure(f"'{op.name}' {what} is not in the block of the '{parent.name}' holding "
                       f"the execute; TF's process crashes here", op)


def _find_accesses(launch, func, analysis):
    """(execute, parent, new operands, {resource: _Access} in operand order, old-to-new output
    mapping), or None when nothing merges."""
    device = launch.attributes[DEVICE]
    execute = _body(launch).operations[0].operation
    parent = launch.parent.operation
    parallel_execute = parent if parent.name == PARALLEL_EXECUTE else None
    execute_parent = parallel_execute or launch
    replicated = parent.name == REPLICATE or (
        parallel_execute is not None and parallel_execute.parent.operation.name == REPLICATE)
    region = execute_parent.block.region

    operands = list(execute.operands)
    new_operands = list(operands)
    accesses = {}
    for index, value in enumerate(operands):
        read = value.owner
        if isinstance(read, ir.Block) or read.operation.name != READ_VARIABLE:
            continue
        read = read.operation
        if replicated and read.block.region != region:
            continue
        resource = read.operands[0]
        if not replicated and not _on_device(resource, device, func):
            continue
        if resource in accesses:  # several reads of one variable: nothing merges
            return None
        accesses[resource] = _Access(index, read)
        new_operands[index] = resource
    if not accesses:
        return None

    block = execute_parent.block
    ops = [op.operation for op in block.operations]
    position = {op_key(op): k for k, op in enumerate(ops)}
    for access in accesses.values():
        if access.read.block != block:
            raise _not_in_block(access.read, f"feeding operand #{access.input_index} of "
                                f"'{TPU_EXECUTE}'", execute_parent)
    parent_at = position[op_key(execute_parent)]
    first_read = min(position[op_key(a.read)] for a in accesses.values())

    seen = _Accesses(analysis)
    for op in reversed(ops[first_read:parent_at]):
        if op.name == READ_VARIABLE:
            resource = op.operands[0]
            access = accesses.get(resource)
            if access is not None and not seen.safe(resource):
                new_operands[access.input_index] = operands[access.input_index]
                del accesses[resource]
        seen.add(op)
    if not accesses:
        return None

    if parallel_execute is not None:
        outputs = _region_outputs(parallel_execute, _region_index(parallel_execute, launch))
    else:
        outputs = list(launch.results)
    merged = [False] * len(launch.results)
    assigns = {}
    for index, result in enumerate(outputs):
        uses = list(result.uses)
        if len(uses) != 1:
            continue
        assign = uses[0].owner.operation
        if assign.name != ASSIGN_VARIABLE:
            continue
        access = accesses.get(assign.operands[0])
        if access is None:
            continue
        if access.assign is not None:  # several updates of one variable: nothing merges
            return None
        access.output_index = index
        access.assign = assign
        assigns[op_key(assign)] = access
        merged[index] = True

    if assigns:
        for access in accesses.values():
            if access.assign is not None and access.assign.block != block:
                raise _not_in_block(access.assign, f"of output #{access.output_index} of "
                                    f"'{TPU_EXECUTE}'", execute_parent)
        last_assign = max(position[key] for key in assigns)
        seen = _Accesses(analysis)
        for op in ops[parent_at + 1:last_assign + 1]:
            if op.name == ASSIGN_VARIABLE:
                access = assigns.get(op_key(op))
                if access is not None and not seen.safe(op.operands[0]):
                    merged[access.output_index] = False
                    access.output_index = -1
                    access.assign = None
            seen.add(op)

    mapping, next_index = [], 0
    for is_merged in merged:
        if is_merged:
            mapping.append(-1)
        else:
            mapping.append(next_index)
            next_index += 1
    return execute, parallel_execute, new_operands, accesses, mapping


def _terminator(block):
    return block.operations[len(block.operations) - 1].operation


def _region_outputs(parallel_execute, index):
    """TF's GetRegionOutputs: the parallel execute's results for region `index`."""
    offset = sum(len(_terminator(_body(parallel_execute, k)).operands) for k in range(index))
    count = len(_terminator(_body(parallel_execute, index)).operands)
    return list(parallel_execute.results)[offset:offset + count]


# --- rewriting (TF's MergeForOneTPUExecute) ----------------------------------------------------

def _is_resource_tensor(value_type):
    return isinstance(value_type, (ir.RankedTensorType, ir.UnrankedTensorType)) and \
        is_resource_type(value_type)


def _i64_array(values):
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.IntegerAttr.get(i64, v) for v in values])


def _merge(launch, func, module):
    # A fresh analysis per execute: the values it caches are never ones an earlier merge erased.
    found = _find_accesses(launch, func, SideEffectAnalysis(module))
    if found is None:
        return
    execute, parallel_execute, new_operands, accesses, mapping = found

    reads = [a.input_index for a in accesses.values()]  # operand order: the dict's order
    updates = [a.output_index for a in accesses.values()]
    for index, value in enumerate(new_operands):
        if _is_resource_tensor(value.type) and index not in reads and index not in updates:
            raise _NotHoisted(f"'{TPU_EXECUTE}' op operand #{index} is a resource that was "
                              f"neither read nor written to; this resource potentially failed "
                              f"to be hoisted", execute)
    # TF's check can pass an unread resource operand whose number is an update index; the op
    # would then fail verification (TF's pipeline fails there): fail with the verifier's words.
    handles = sum(1 for value in new_operands[:-1] if _is_resource_tensor(value.type))
    if handles != len(reads):
        raise PassFailure(f"'{TPU_EXECUTE_AND_UPDATE}' op requires '{READS_ATTR}' to be the same "
                          f"size as number of resource handles in 'args' ({handles}), but got "
                          f"{len(reads)} (the merged op would be invalid; TF's check of unread "
                          f"resources compares operand numbers with update indices too)", launch)

    location = launch.location
    result_types = [r.type for r, m in zip(launch.results, mapping) if m >= 0]
    new_launch = ir.Operation.create(LAUNCH, results=result_types,
                                     attributes={DEVICE: launch.attributes[DEVICE]}, regions=1,
                                     loc=location, ip=ir.InsertionPoint(launch))
    body = new_launch.regions[0].blocks.append()
    merged = ir.Operation.create(TPU_EXECUTE_AND_UPDATE, results=result_types,
                                 operands=new_operands,
                                 attributes={READS_ATTR: _i64_array(reads),
                                             UPDATES_ATTR: _i64_array(updates)},
                                 loc=location, ip=ir.InsertionPoint(body))
    tf_device.ReturnOp(list(merged.results), loc=location,
                        ip=ir.InsertionPoint(body))

    if parallel_execute is not None:
        old = _replace_parallel_execute(parallel_execute, launch, new_launch, mapping)
    else:
        for result, new_index in zip(launch.results, mapping):
            if new_index >= 0:
                result.replace_all_uses_with(new_launch.results[new_index])
        old = launch
    for access in accesses.values():
        if access.assign is not None:
            erase_op(access.assign)
    erase_op(old)
    for access in accesses.values():
        if not len(list(access.read.results[0].uses)):
            erase_op(access.read)


def _replace_parallel_execute(parallel_execute, launch, new_launch, mapping):
    """Rebuilds the parallel execute with `new_launch` in place of `launch` (TF's
    ReplaceParallelExecute); returns the old parallel execute, to erase once the merged
    assigns are gone."""
    regions = list(parallel_execute.regions)
    index = _region_index(parallel_execute, launch)
    types_of = [[v.type for v in _terminator(region.blocks[0]).operands] for region in regions]
    before = sum(len(t) for t in types_of[:index])
    after = sum(len(t) for t in types_of[index + 1:])
    result_types = ([t for ts in types_of[:index] for t in ts] + [r.type for r in new_launch.results]
                    + [t for ts in types_of[index + 1:] for t in ts])
    new = ir.Operation.create(PARALLEL_EXECUTE, results=result_types, regions=len(regions),
                              loc=parallel_execute.location, ip=ir.InsertionPoint(parallel_execute))
    old_results, new_results = list(parallel_execute.results), list(new.results)
    for k in range(before):
        old_results[k].replace_all_uses_with(new_results[k])
    for k in range(1, after + 1):
        old_results[-k].replace_all_uses_with(new_results[-k])
    for result, new_index in zip(_region_outputs(parallel_execute, index), mapping):
        if new_index >= 0:
            result.replace_all_uses_with(new_results[before + new_index])

    block = _body(parallel_execute, index)
    terminator = _terminator(block)
    tf_device.ReturnOp(list(new_launch.results), loc=terminator.location,
                        ip=ir.InsertionPoint(terminator))
    terminator.erase()
    erase_op(launch)
    for region, new_region in zip(regions, new.regions):
        new_block = new_region.blocks.append()
        _tfmlir.move_block_ops(region.blocks[0], new_block)
    return parallel_execute
