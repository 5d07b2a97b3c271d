"""TF's resource op lifting machinery (``resource_op_lifting_cleanup.cc`` and the hoisting of
``resource_op_lifting.cc``), shared by -tf-resource-op-lifting and the functional control
flow lifting of -tf-promote-resources-to-args (:mod:`.functional_resource_lifting`).

* :class:`Cleanup` -- TF's ``CleanupAndCanonicalizeForResourceOpLifting`` of an op and the
  functions it calls: identities and resource casts removed, unused local variables
  removed, region ops' resource results tied to what their regions pass through;
* :func:`hoist_block` / :func:`hoist_region_op` -- reads hoisted before, writes sunk after
  an op with regions (region ops innermost first, then the op itself);
* :func:`forward_store_to_load` -- reads after a write of the same resource in one block
  take the written value; writes followed by another write dropped;
* :func:`single_block` -- the one block of a region.

The passes' docstrings say what TF's passes do with them; failures raise
:class:`~tfmlir.passes.framework.PassFailure` with TF's messages.
"""
from mlir import ir

from ... import _tfmlir as _native
from ..analysis.executor import op_key, rebuild_op
from ..names import (ASSIGN_VARIABLE, CALL_INDIRECT, CALLEE_ATTRS, CASE, CASE_REGION,
                     CAST, CLUSTER, CONST, FUNC, IF, IF_REGION, PARTITIONED_CALL,
                     READ_VARIABLE, STATEFUL_PARTITIONED_CALL, WHILE, WHILE_REGION)
from ..analysis.side_effects import is_resource_type
from ..analysis.symbols import symbol_ops
from ..framework import PassFailure, erase_op
from .ir_helpers import captured_values
from ..walk import ADVANCE, POST_ORDER

IDENTITY = "tf.Identity"
IDENTITY_N = "tf.IdentityN"
VAR_HANDLE = "tf.VarHandleOp"
LOCAL_VAR = "tf.MlirLocalVarOp"
DESTROY_RESOURCE = "tf.DestroyResourceOp"
VAR_IS_INITIALIZED = "tf.VarIsInitializedOp"
DEVICE_ATTR = "device"
# TensorFlow's ResourceHandle::ANONYMOUS_NAME: the shared name of a local variable.
ANONYMOUS_NAME = "cd2c89b7-88b7-44c8-ad83-06c2a9158347"

_FUNCTIONAL = frozenset((IF, CASE, WHILE, PARTITIONED_CALL, STATEFUL_PARTITIONED_CALL))
# Ops Cleanup._visit acts on even without regions.
_VISITED_WITHOUT_REGIONS = frozenset((IF, CASE, WHILE, CALL_INDIRECT, *CALLEE_ATTRS))


def _is_resource(value):
    return is_resource_type(value.type)


def _post_order(op):
    ops = []
    op.operation.walk(lambda nested: ops.append(nested.operation) or ADVANCE, POST_ORDER)
    return ops


def single_block(region):
    return region.blocks[0]


def _terminator(block):
    ops = block.operations
    return ops[len(ops) - 1].operation


def _set_terminator_operands(block, operands):
    old = _terminator(block)
    new = ir.Operation.create(old.name, operands=list(operands), attributes=dict(old.attributes.items()),
                              loc=old.location, ip=ir.InsertionPoint(old))
    erase_op(old)
    return new


def _attributes(op):
    return dict(op.attributes.items())


def _replace_op(op, result_types, operands, keep=None):
    """A new op like `op` with `result_types` and `operands`, `op`'s regions moved into it;
    `keep` lists, per new result, the old result it replaces (default: the first ones).
    `op` is erased."""
    return rebuild_op(op, operands, result_types, keep)


def _resource_subtype(value_type):
    element = value_type.element_type if isinstance(value_type, ir.ShapedType) else value_type
    from ...dialects import tf_type
    subtypes = list(tf_type.ResourceType(element).subtypes)
    return subtypes[0] if len(subtypes) == 1 else None


def _cast_compatible(a, b):
    """TF's GetCastCompatibleType for two tensor types of one element type."""
    if a is None:
        return b
    if a == b or b is None:
        return a
    if not isinstance(a, ir.ShapedType) or not isinstance(b, ir.ShapedType) or \
            a.element_type != b.element_type:
        return a
    if not a.has_rank:
        return b
    if not b.has_rank:
        return a
    if a.rank != b.rank:
        return a
    dyn = ir.ShapedType.get_dynamic_size()
    shape = [x if x != dyn else y for x, y in zip(a.shape, b.shape)]
    return ir.RankedTensorType.get(shape, a.element_type)


def _bool_tensor_true():
    i1 = ir.IntegerType.get_signless(1)
    return ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], i1), ir.BoolAttr.get(True))


# -- store-load forwarding, VarIsInitialized ------------------------------------------------

def forward_store_to_load(block):
    """TF's ForwardStoreToLoad on the ops directly in `block`."""
    last_store = {}
    for op in list(block.operations):
        op = op.operation
        name = op.name
        if name == READ_VARIABLE:
            store = last_store.get(op.operands[0])
            if store is None:
                continue
            stored = store.operands[1]
            result = op.results[0]
            if result.type != stored.type:
                cast = ir.Operation.create(CAST, results=[result.type], operands=[stored],
                                           attributes={"Truncate": ir.BoolAttr.get(False)},
                                           loc=store.location, ip=ir.InsertionPoint.after(store))
                result.replace_all_uses_with(cast.results[0])
            else:
                result.replace_all_uses_with(stored)
            erase_op(op)
        elif name == ASSIGN_VARIABLE:
            resource = op.operands[0]
            store = last_store.get(resource)
            if store is not None:
                erase_op(store)
            last_store[resource] = op


def _var_is_initialized_to_true(block):
    const = None
    for op in list(block.operations):
        op = op.operation
        if op.name != VAR_IS_INITIALIZED:
            continue
        if const is None:
            const = ir.Operation.create(CONST, results=[ir.RankedTensorType.get([], ir.IntegerType.get_signless(1))],
                                        attributes={"value": _bool_tensor_true()}, loc=op.location,
                                        ip=ir.InsertionPoint(op))
        op.results[0].replace_all_uses_with(const.results[0])
        erase_op(op)


# -- hoisting out of regions (TF's RegionResourceHoister) -------------------------------------

class _Info:
    __slots__ = ("is_read", "is_written", "hoisted_read", "data_type", "result_index",
                 "read_attrs", "write_attrs")

    def __init__(self, data_type):
        self.is_read = False
        self.is_written = False
        self.hoisted_read = None
        self.data_type = data_type
        self.result_index = -1
        self.read_attrs = None
        self.write_attrs = None


class _Hoister:
    def __init__(self, op):
        self.op = op.operation
        self.resources = {}   # value -> _Info, in insertion order
        self.written = []     # values
        self.extra_operands = []

    def analyze(self):
        op = self.op
        for region in op.regions:
            forward_store_to_load(single_block(region))
        found = []
        seen = set()
        for region in op.regions:
            for value in captured_values(region)[0]:
                if value not in seen and _is_resource(value):
                    seen.add(value)
                    found.append(value)
        self.num_new_results = len(op.results)
        num_regions = len(op.regions)
        for resource in found:
            info = _Info(_resource_subtype(resource.type))
            written_regions = set()
            unsupported = False
            for use in resource.uses:
                user = use.owner.operation
                parent = user.parent
                if parent is None or parent.operation != op:
                    continue
                name = user.name
                if name == READ_VARIABLE:
                    if not info.is_read:
                        info.is_read = True
                        info.data_type = _cast_compatible(info.data_type, user.results[0].type)
                        info.read_attrs = _attributes(user)
                elif name == ASSIGN_VARIABLE:
                    info.is_written = True
                    info.data_type = _cast_compatible(info.data_type, user.operands[1].type)
                    info.write_attrs = _attributes(user)
                    written_regions.add(_region_number(user, op))
                else:
                    unsupported = True
                    break
            if unsupported:
                continue
            if info.is_written and len(written_regions) != num_regions:
                info.is_read = True
            if info.is_written:
                self.written.append(resource)
                info.result_index = self.num_new_results
                self.num_new_results += 1
            self.resources[resource] = info

    def generate_hoisted_reads(self):
        op = self.op
        for resource, info in self.resources.items():
            if not info.is_read:
                continue
            attrs = dict(info.read_attrs or {})
            attrs.pop(DEVICE_ATTR, None)
            read = ir.Operation.create(READ_VARIABLE, results=[info.data_type], operands=[resource],
                                       attributes=attrs, loc=op.location, ip=ir.InsertionPoint(op))
            info.hoisted_read = read.results[0]

    def replace_loads(self, region, read_only):
        for op in list(single_block(region).operations):
            op = op.operation
            if op.name != READ_VARIABLE:
                continue
            info = self.resources.get(op.operands[0])
            if info is None or (read_only and info.is_written):
                continue
            op.results[0].replace_all_uses_with(info.hoisted_read)
            erase_op(op)

    def append_store_values(self, regions):
        for region in regions:
            block = single_block(region)
            operands = list(_terminator(block).operands)
            operands += [None] * (self.num_new_results - len(operands))
            for resource in self.written:
                info = self.resources[resource]
                operands[info.result_index] = info.hoisted_read
            for op in list(block.operations):
                op = op.operation
                if op.name != ASSIGN_VARIABLE or op.operands[0] not in self.written:
                    continue
                operands[self.resources[op.operands[0]].result_index] = op.operands[1]
                erase_op(op)
            _set_terminator_operands(block, operands)

    def replace_op(self):
        op = self.op
        result_region = 1 if op.name == WHILE_REGION else 0
        terminator = _terminator(single_block(op.regions[result_region]))
        count = len(op.results)
        types = [r.type for r in op.results] + [v.type for v in list(terminator.operands)[count:]]
        operands = list(op.operands) + self.extra_operands
        new = _replace_op(op, types, operands)
        # The writes go right after the new op, in the order the resources were found.
        anchor = new
        for resource in self.written:
            info = self.resources[resource]
            attrs = {"validate_shape": ir.BoolAttr.get(False)}  # TF's builder's default
            attrs.update(info.write_attrs or {})
            attrs.pop(DEVICE_ATTR, None)
            anchor = ir.Operation.create(ASSIGN_VARIABLE,
                                         operands=[resource, new.results[info.result_index]],
                                         attributes=attrs, loc=new.location,
                                         ip=ir.InsertionPoint.after(anchor))
        self.op = None
        return new


def _region_number(user, op):
    block = user.block
    for number, candidate in enumerate(op.regions):
        if single_block(candidate) == block:
            return number
    return 0


def hoist_region_op(op):
    """TF's RegionResourceHoister::ReplaceOpWithNewOp for a cluster / IfRegion / CaseRegion /
    WhileRegion."""
    hoister = _Hoister(op)
    hoister.analyze()
    if not hoister.resources:
        return
    hoister.generate_hoisted_reads()
    op = hoister.op
    if op.name != WHILE_REGION:
        for region in op.regions:
            hoister.replace_loads(region, False)
        hoister.append_store_values(list(op.regions))
        hoister.replace_op()
        return
    for region in op.regions:
        hoister.replace_loads(region, True)
    num_old = len(op.results)
    extra = hoister.num_new_results - num_old
    types = [None] * extra
    operands = [None] * extra
    for info in hoister.resources.values():
        if not info.is_written:
            continue
        types[info.result_index - num_old] = info.data_type
        operands[info.result_index - num_old] = info.hoisted_read
    hoister.extra_operands = operands
    for region in op.regions:
        block = single_block(region)
        for value_type in types:
            block.add_argument(value_type, op.location)
        for info in hoister.resources.values():
            if info.is_written:
                info.hoisted_read = block.arguments[info.result_index]
        hoister.replace_loads(region, False)
    hoister.append_store_values(list(op.regions)[1:])
    hoister.replace_op()


def hoist_block(block):
    """TF's HoistForControlFlow for the ops of `block` (variables initialized)."""
    _var_is_initialized_to_true(block)
    for op in list(block.operations):
        op = op.operation
        name = op.name
        if name in _FUNCTIONAL:
            raise PassFailure(f"'{name}' op: tfmlir does not lift resources through functional "
                              f"control flow or calls (TF's bridge turns them into regions first)", op)
        if name in (IF_REGION, CASE_REGION, WHILE_REGION):
            for region in op.regions:
                hoist_block(single_block(region))
            hoist_region_op(op)
    forward_store_to_load(block)


# -- cleanup (TF's CleanupAndCanonicalizeForResourceOpLifting) --------------------------------

def _remove_passthrough(block):
    for op in list(block.operations):
        op = op.operation
        name = op.name
        if name in (IDENTITY, IDENTITY_N) or (name == CAST and _is_resource(op.operands[0])):
            for result, operand in zip(op.results, op.operands):
                result.replace_all_uses_with(operand)
            erase_op(op)


def _local_variable(op):
    name = op.name
    if name == LOCAL_VAR:
        return True
    if name == VAR_HANDLE and "shared_name" in op.attributes:
        attr = op.attributes["shared_name"]
        return isinstance(attr, ir.StringAttr) and ir.StringAttr(attr).value == ANONYMOUS_NAME
    return False


def _remove_dead_local_variables(block):
    local = [op.operation for op in block.operations if _local_variable(op.operation)]
    for var in local:
        users = {}
        for use in var.results[0].uses:
            users.setdefault(op_key(use.owner), use.owner.operation)
        if all(u.name in (ASSIGN_VARIABLE, DESTROY_RESOURCE) for u in users.values()):
            for user in users.values():
                erase_op(user)
            erase_op(var)


class Cleanup:
    def __init__(self, module):
        self.module = module
        self.symbols = symbol_ops(module)
        self.active = set()

    def run(self, parent):
        key = op_key(parent)
        if key in self.active:
            raise PassFailure("resource lifting follows a recursive call graph (TensorFlow does "
                              "not return here)", parent)
        self.active.add(key)
        try:
            # Only ops with regions, functional control flow and calls have anything to clean
            # up: picked from one native table (post-order, as TF's walk) before any changes.
            table = _native.OpTable(parent.operation, "post")
            names = table.names()
            wanted = [i for i, (name, regions) in enumerate(zip(names, table.num_regions()))
                      if regions or name in _VISITED_WITHOUT_REGIONS]
            for op in table.ops(wanted):
                self._visit(op)
        finally:
            self.active.discard(key)

    def _visit(self, op):
        for region in op.regions:
            if len(region.blocks) != 1:
                raise PassFailure(f"'{op.name}' op has a region without exactly one block "
                                  f"(TensorFlow's resource lifting fails here without a message)", op)
            block = single_block(region)
            _remove_passthrough(block)
            _remove_dead_local_variables(block)
        name = op.name
        if name in (IF, CASE, WHILE):
            raise PassFailure(f"'{name}' op: tfmlir does not lift resources through functional "
                              f"control flow (TF's bridge turns it into regions first)", op)
        if name in (IF_REGION, CASE_REGION, CLUSTER):
            _canonicalize_region_if_case_cluster(op)
        elif name == WHILE_REGION:
            if _writes(op.regions[0]):
                raise PassFailure(f"'{name}' op found resource write in loop condition.", op)
            _canonicalize_while_region(op)
        elif name in CALLEE_ATTRS or name == CALL_INDIRECT:
            callee = self._callee(op)
            if callee is None:
                raise PassFailure(f"'{name}' op: its callee is not a function with a body "
                                  f"(TensorFlow's resource lifting fails here without a message)", op)
            self.run(callee)

    def _callee(self, op):
        attr_name = CALLEE_ATTRS.get(op.name)
        if attr_name is None or attr_name not in op.attributes:
            return None
        attr = op.attributes[attr_name]
        if not isinstance(attr, ir.FlatSymbolRefAttr):
            return None
        callee = self.symbols.get(ir.FlatSymbolRefAttr(attr).value)
        if callee is None or callee.name != FUNC or not len(callee.regions[0].blocks):
            return None
        return callee


def _writes(region):
    found = []

    def visit(op):
        if op.name == ASSIGN_VARIABLE:
            found.append(op)
        return ADVANCE

    for block in region.blocks:
        for op in block.operations:
            op.operation.walk(visit, POST_ORDER)
    return bool(found)


def _eliminate_unused_results(op, allowed=None):
    """TF's EliminateUnusedResults: `op` rebuilt without its unused results (those in
    `allowed` only, when given)."""
    keep = [r.result_number for r in op.results
            if not (_unused(r) and (allowed is None or r.result_number in allowed))]
    return _replace_op(op, [op.results[i].type for i in keep], list(op.operands), keep)


def _unused(value):
    for _ in value.uses:
        return False
    return True


def _canonicalize_region_if_case_cluster(op):
    has_resource = False
    regions = list(op.regions)
    for result in op.results:
        if not _is_resource(result):
            continue
        has_resource = True
        index = result.result_number
        first = _terminator(single_block(regions[0])).operands[index]
        for region in regions[1:]:
            if _terminator(single_block(region)).operands[index] != first:
                raise PassFailure(f"Result #{index} not tied to the same capture across all regions", op)
        result.replace_all_uses_with(first)
    if not has_resource:
        return
    unused = {r.result_number for r in op.results if _unused(r)}
    for region in regions:
        block = single_block(region)
        operands = [v for i, v in enumerate(_terminator(block).operands) if i not in unused]
        _set_terminator_operands(block, operands)
    _eliminate_unused_results(op)


def _canonicalize_while_region(op):
    cond, body = (single_block(r) for r in op.regions)
    eliminated = []
    for result in reversed(list(op.results)):
        if not _is_resource(result):
            continue
        index = result.result_number
        yielded = _terminator(body).operands[index]
        operand = op.operands[index]
        body_arg = body.arguments[index]
        cond_arg = cond.arguments[index]
        if yielded != body_arg and yielded != operand:
            raise PassFailure(f"'{WHILE_REGION}' op Result #{index} is not tied to arg #{index} of "
                              f"the body", op)
        body_arg.replace_all_uses_with(operand)
        cond_arg.replace_all_uses_with(operand)
        result.replace_all_uses_with(operand)
        _set_terminator_operands(body, [v for i, v in enumerate(_terminator(body).operands) if i != index])
        body.erase_argument(index)
        cond.erase_argument(index)
        eliminated.append(index)
    operands = [v for i, v in enumerate(op.operands) if i not in eliminated]
    keep = [r.result_number for r in op.results if r.result_number not in eliminated]
    _replace_op(op, [op.results[i].type for i in keep], operands, keep)
