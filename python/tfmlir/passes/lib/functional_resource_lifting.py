"""Resource lifting through functional control flow and calls, for one function.

TF 2.21's ``TF::ResourceLiftingForFunctionalControlFlow`` (what
-tf-promote-resources-to-args runs on each of its functions before promoting
resources to arguments):

1. Cleanup (TF's ``CleanupAndCanonicalizeForResourceOpLifting`` of a function):
   a post-order walk of the function, following calls into their callees and
   ``tf.If`` / ``tf.Case`` / ``tf.While`` into their functions. In every region:
   ``tf.Identity`` / ``tf.IdentityN`` and casts of resources are removed, local
   variables only assigned or destroyed are removed; region ops are
   canonicalized as -tf-resource-op-lifting does. A resource result of a
   ``tf.If`` / ``tf.Case`` must return the same argument in every branch, a
   resource result of a ``tf.While`` its own argument in the body; its uses
   take the matching operand. For an If/Case with such a result, its branches
   are cloned when used elsewhere too (``<name>_lifted``, private; the op's
   first attribute naming the branch is updated -- never a ``tf.Case``'s
   ``branches``; an op naming one function twice is one use, so that function
   is not cloned and is cut twice, as TF does), unused results are dropped
   from the op and the branches' returns, and arguments unused in every
   (original) branch from the branches and the op. For a While with such a result, the condition and
   body are cloned when used elsewhere (the op is updated), and nothing is
   dropped (TF's check of the result reads the condition's argument twice).

2. Hoisting (TF's ``HoistForControlFlow``, variables not taken as
   initialized), op by op in the function's block:

   * ``tf.While``: the body and condition are hoisted first (their failures
     do not fail the pass, as in TF: tfmlir warns). Resource arguments used only by
     ``tf.ReadVariableOp`` / ``tf.AssignVariableOp`` (or returned) in body and
     condition are lifted: unused ones are dropped from the functions and the
     op, used ones become value arguments, the body returning the value last
     written; the new op reads each lifted resource before it and writes back
     the ones the body changes after it.
   * ``tf.If`` / ``tf.Case``: likewise with the branches; the values written
     in any branch are new results (each branch returns what it wrote, or the
     value it got).
   * ``tf.PartitionedCall`` / ``tf.StatefulPartitionedCall``: the callee
     (hoisted first, once per callee) is cloned as
     ``<name>_resource_lifted`` (private) with its resource arguments lifted
     the same way (resource results must return an argument; they are dropped,
     their uses take the call's operand), and the call calls the clone.
   * ``tf.IfRegion`` / ``tf.CaseRegion`` / ``tf.WhileRegion``: their regions
     are hoisted, then the op itself as -tf-resource-op-lifting does.

   Then reads after a write of the same resource in the block take the
   written value and writes followed by another are dropped.

3. The cleanup again.

Maps TF iterates to order the reads and writes it adds (and the results of
If/Case) are ``llvm::SmallDenseMap`` keyed by argument number: their iteration
order is reproduced by :class:`DenseIntMap`.

Failures (TF's messages): "'tf.While' op found resource write in loop
condition.", "'tf.If' op result #i not tied to function argument for branch
@f", "result #i is not tied to the same argument across all branches",
"'tf.While' op Result #i is tied to argument #j", "'tf.PartitionedCall' op
resource lifting does not support call with nested references.", "'func.func'
op unsupported function call: resource return value does not alias an
input."; where TF crashes or fails without a message (a callee or branch that
is not a function with a body, a region without exactly one block): a
diagnostic saying so.
"""
from mlir import ir

from ... import _tfmlir as _native
from ... import irsafe
from ...dialects.tf_type import ResourceType
from ..analysis.symbol_uses import referenced_roots
from ..analysis.symbols import module_body, symbol_name, symbol_ops
from ..framework import PassFailure, erase_op
from ..names import (ASSIGN_VARIABLE, CASE, CASE_REGION, FUNC, IF, IF_REGION, MODULE,
                     PARTITIONED_CALL, READ_VARIABLE, RETURN, STATEFUL_PARTITIONED_CALL, WHILE,
                     WHILE_REGION)
from .resource_lifting import Cleanup, forward_store_to_load, hoist_region_op
from ..walk import ADVANCE

__all__ = ["DenseIntMap", "is_resource_type", "lift_resources_for_functional_control_flow",
           "function_type", "set_function_type", "set_arg_attrs", "set_result_attrs",
           "erase_arguments"]


class DenseIntMap:
    """A map with the iteration order of LLVM's ``SmallDenseMap<int64_t, T>`` (4 inline buckets):
    keys hashed as ``(unsigned)(key * 37)``, quadratic probing, growth to 64 buckets when a third
    key comes (then doubling at three quarters full), entries moved in bucket order. Keys are
    never erased (TF's maps here never are)."""

    __slots__ = ("_keys", "_values")

    def __init__(self):
        self._keys = [None] * 4
        self._values = {}

    @staticmethod
    def _slot(keys, key):
        mask = len(keys) - 1
        index = (key * 37) & 0xFFFFFFFF & mask
        probe = 1
        while True:
            found = keys[index]
            if found is None or found == key:
                return index
            index = (index + probe) & mask
            probe += 1

    def __len__(self):
        return len(self._values)

    def __contains__(self, key):
        return key in self._values

    def get(self, key, default=None):
        return self._values.get(key, default)

    def __getitem__(self, key):
        return self._values[key]

    def __setitem__(self, key, value):
        values = self._values
        if key not in values:
            keys = self._keys
            if (len(values) + 1) * 4 >= len(keys) * 3:
                old = keys
                keys = [None] * max(64, 2 * len(old))
                for moved in old:
                    if moved is not None:
                        keys[self._slot(keys, moved)] = moved
                self._keys = keys
            keys[self._slot(keys, key)] = key
        values[key] = value

    def subscript(self, key, default):
        """C++'s ``map[key]``: the value, inserting `default` first when `key` is absent."""
        if key not in self._values:
            self[key] = default
        return self._values[key]

    def keys(self):
        return [k for k in self._keys if k is not None]

    def items(self):
        values = self._values
        return [(k, values[k]) for k in self._keys if k is not None]


# -- functions: types and argument / result attributes as MLIR's FunctionOpInterface sets them --

def _block(op):
    return op.regions[0].blocks[0]


def _terminator(block):
    ops = block.operations
    return ops[len(ops) - 1].operation


def function_type(func):
    return ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)


def _dicts(func, key):
    attributes = func.attributes
    return list(ir.ArrayAttr(attributes[key])) if key in attributes else None


def _set_dicts(func, key, dicts):
    """MLIR's ``setAllArgResAttrDicts``: the attribute goes away when every dictionary is empty."""
    if all(len(ir.DictAttr(d)) == 0 for d in dicts):
        if key in func.attributes:
            del func.attributes[key]
    else:
        func.attributes[key] = ir.ArrayAttr.get(list(dicts))


def set_function_type(func, inputs, results):
    """MLIR's ``FunctionOpInterface::setType``: argument / result attributes are cut to the new
    count or padded with empty dictionaries (dropped when all are empty or the count is 0)."""
    func = func.operation
    old = function_type(func)
    old_counts = (len(old.inputs), len(old.results))
    inputs, results = list(inputs), list(results)
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))
    empty = ir.DictAttr.get({})
    for key, old_count, new_count in (("arg_attrs", old_counts[0], len(inputs)),
                                      ("res_attrs", old_counts[1], len(results))):
        if old_count == new_count:
            continue
        if new_count == 0:
            if key in func.attributes:
                del func.attributes[key]
            continue
        dicts = _dicts(func, key)
        if dicts is None:
            continue
        if new_count < old_count:
            dicts = dicts[:new_count]
        else:
            dicts = dicts + [empty] * (new_count - len(dicts))
        _set_dicts(func, key, dicts)


def _set_attrs(func, key, total, updates):
    """MLIR's ``setArgAttr`` / ``setResultAttr`` for each ``(index, name, value)`` of `updates` in
    turn (`total`: the count in the function type), the array attribute written once."""
    func = func.operation
    dicts = _dicts(func, key)
    changed = False
    entries = {}
    for index, name, value in updates:
        entry = entries.get(index)
        if entry is None:
            entry = irsafe.attribute_dict(ir.DictAttr(dicts[index])) if dicts is not None else {}
            entries[index] = entry
        if name in entry and entry[name] == value:
            continue
        entry[name] = value
        if dicts is None:
            dicts = [ir.DictAttr.get({})] * total
        changed = True
    if not changed:
        return
    for index, entry in entries.items():
        dicts[index] = ir.DictAttr.get(entry)
    func.attributes[key] = ir.ArrayAttr.get(dicts)


def set_arg_attrs(func, updates):
    """``setArgAttr(index, name, value)`` for each of `updates`."""
    _set_attrs(func, "arg_attrs", len(function_type(func.operation).inputs), updates)


def set_result_attrs(func, updates):
    """``setResultAttr(index, name, value)`` for each of `updates`."""
    _set_attrs(func, "res_attrs", len(function_type(func.operation).results), updates)


def erase_arguments(func, indices):
    """MLIR's ``FunctionOpInterface::eraseArguments`` (the arguments must be unused)."""
    func = func.operation
    erased = set(indices)
    if not erased:
        return
    block = _block(func)
    for index in erased:
        for use in block.arguments[index].uses:
            raise PassFailure(f"internal error: erasing argument #{index} of a function while "
                              f"'{use.owner.operation.name}' uses it", func)
    dicts = _dicts(func, "arg_attrs")
    if dicts is not None:
        _set_dicts(func, "arg_attrs", [d for i, d in enumerate(dicts) if i not in erased])
    old = function_type(func)
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        [t for i, t in enumerate(old.inputs) if i not in erased], list(old.results)))
    for index in sorted(erased, reverse=True):
        block.erase_argument(index)


def _replace_terminator(block, operands):
    old = _terminator(block)
    new = ir.Operation.create(old.name, operands=list(operands),
                              attributes=dict(old.attributes.items()), loc=old.location,
                              ip=ir.InsertionPoint(old))
    erase_op(old)
    return new


def is_resource_type(value_type):
    """TF's ``isa<ResourceType>(getElementTypeOrSelf(type))``."""
    element = value_type.element_type if isinstance(value_type, ir.ShapedType) else value_type
    return ResourceType.isinstance(element)


def _is_resource(value):
    return is_resource_type(value.type)


def _is_block_argument(value):
    return isinstance(value, ir.BlockArgument)


def _create_like(op, result_types, operands, attributes=None):
    """A new op like `op` (name, attributes, location; no regions) before it."""
    attrs = dict(op.attributes.items())
    if attributes:
        attrs.update(attributes)
    return ir.Operation.create(op.name, results=list(result_types), operands=list(operands),
                               attributes=attrs, loc=op.location, ip=ir.InsertionPoint(op))


# -- per-argument resource use (TF's ResourceArgUseInfo) -------------------------------------

class _UseInfo:
    __slots__ = ("data_type", "updated", "used")

    def __init__(self, data_type=None, updated=False, used=False):
        self.data_type = data_type
        self.updated = updated
        self.used = used

    def copy(self):
        return _UseInfo(self.data_type, self.updated, self.used)


def _find_use_info(func):
    """TF's FindResourceArgUseInfo: per resource argument used only by reads and writes (its
    return by the function aside), whether it is used, written and the type last seen."""
    block = _block(func)
    ret = _terminator(block)
    result = DenseIntMap()
    for arg in block.arguments:
        if not _is_resource(arg):
            continue
        info = _UseInfo()
        supported = True
        for use in arg.uses:
            user = use.owner.operation
            if user == ret:
                continue
            info.used = True
            name = user.name
            if name == READ_VARIABLE:
                info.data_type = user.results[0].type
            elif name == ASSIGN_VARIABLE:
                info.updated = True
                info.data_type = user.operands[1].type
            else:
                supported = False
                break
        if supported:
            result[arg.arg_number] = info
    return result


def _merge_use_info(infos0, infos1):
    """TF's MergeArgResourceUseInfo."""
    result = DenseIntMap()
    for key, info in infos0.items():
        other = infos1.get(key)
        if other is None:
            continue
        merged = info.copy()
        result[key] = merged
        if merged.updated:
            continue
        if other.used:
            merged.used = True
            merged.updated = other.updated
            merged.data_type = other.data_type
    return result


def _remove_unused(infos, func):
    """TF's RemoveUnusedResourceArgumentsAndForwardedRetvals: returns (old to new argument
    indices, {new index: data type} of the remaining resource arguments)."""
    block = _block(func)
    ret = _terminator(block)
    operands = list(ret.operands)
    kept = []
    for value in operands:
        if _is_block_argument(value):
            info = infos.get(value.arg_number)
            if info is not None and not info.used:
                continue
        kept.append(value)
    if len(kept) != len(operands):
        ret = _replace_terminator(block, kept)
    erased, new_types, old_to_new = [], [], []
    remaining = DenseIntMap()
    skipped = 0
    for arg in block.arguments:
        number = arg.arg_number
        info = infos.get(number)
        if info is not None and not info.used:
            erased.append(number)
            skipped += 1
            old_to_new.append(-1)
        else:
            new_types.append(arg.type)
            old_to_new.append(number - skipped)
            if info is not None:
                remaining[number - skipped] = info.data_type
    erase_arguments(func, erased)
    set_function_type(func, new_types, [v.type for v in ret.operands])
    return old_to_new, remaining


def _lift_function(func, data_types, updated):
    """TF's LiftArgRetResourcesForFunction: the resource arguments of `func` in `data_types`
    (used only by reads and writes directly in its body, or returned) take their data type;
    reads take the argument, each write left after store-load forwarding calls
    ``updated(argument number, value)`` and is erased."""
    func = func.operation
    block = _block(func)
    forward_store_to_load(block)
    lifted = set()
    for arg in block.arguments:
        if not _is_resource(arg):
            continue
        supported = True
        for use in arg.uses:
            user = use.owner.operation
            parent = user.parent
            if parent is None or parent.operation != func:
                continue
            name = user.name
            if name == RETURN:
                continue
            if name != READ_VARIABLE and name != ASSIGN_VARIABLE:
                supported = False
                break
        if not supported:
            continue
        data_type = data_types.get(arg.arg_number)
        if data_type is None:
            continue
        arg.set_type(data_type)
        lifted.add(arg.arg_number)

    def lifted_arg(value):
        return _is_block_argument(value) and value.owner == block and value.arg_number in lifted

    for op in list(block.operations):
        op = op.operation
        if op.name == READ_VARIABLE and lifted_arg(op.operands[0]):
            op.results[0].replace_all_uses_with(op.operands[0])
            erase_op(op)
    for op in list(block.operations):
        op = op.operation
        if op.name == ASSIGN_VARIABLE and lifted_arg(op.operands[0]):
            updated(op.operands[0].arg_number, op.operands[1])
            erase_op(op)
    set_function_type(func, [a.type for a in block.arguments],
                      [v.type for v in _terminator(block).operands])


def _filter(values, infos):
    """TF's FilterRange: `values` without those of unused resource arguments."""
    kept = []
    for index, value in enumerate(values):
        info = infos.get(index)
        if info is None or info.used:
            kept.append(value)
    return kept


def _add_loads_stores(caller, arg_types_and_updates):
    """TF's AddLoadsStoresOutsideControlFlowOp: per operand index (map order), a read of the
    resource before `caller` becomes the operand; a write of the updated result after it (each
    right after `caller`, so in reverse map order)."""
    for index, (data_type, update) in arg_types_and_updates.items():
        resource = caller.operands[index]
        read = ir.Operation.create(READ_VARIABLE, results=[data_type], operands=[resource],
                                   loc=caller.location, ip=ir.InsertionPoint(caller))
        caller.operands[index] = read.results[0]
        if update < 0:
            continue
        ir.Operation.create(ASSIGN_VARIABLE, operands=[resource, caller.results[update]],
                            loc=caller.location, ip=ir.InsertionPoint.after(caller))


class _CallLifting:
    """TF's PartitionedCallLiftingInfo."""
    __slots__ = ("lifted_callee", "aliasing", "old_to_new_outputs", "use_info", "arg_updates")

    def __init__(self):
        self.lifted_callee = None
        self.aliasing = {}
        self.old_to_new_outputs = []
        self.use_info = DenseIntMap()
        self.arg_updates = DenseIntMap()


class _Lifting:
    def __init__(self, module):
        self.module = module.operation
        self.symbols = symbol_ops(self.module)
        self.lifted_callees = {}
        self.uses = None  # symbol name -> use count, while a cleanup runs

    # -- symbols --

    def function(self, op, attr_name):
        """The function a flat symbol reference attribute of `op` names, or None."""
        attributes = op.attributes
        if attr_name not in attributes:
            return None
        return self._function_of(attributes[attr_name])

    def _function_of(self, attr):
        if not isinstance(attr, ir.FlatSymbolRefAttr):
            return None
        found = self.symbols.get(attr.value)
        if found is None or found.name != FUNC:
            return None
        return found

    def with_body(self, func, op, role):
        if func is None or not len(func.regions[0].blocks):
            raise PassFailure(f"'{op.name}' op: its {role} is not a function with a body "
                              f"(TensorFlow's resource lifting crashes here)", op)
        return func

    def branches(self, op):
        if op.name == IF:
            names = (("then_branch", "then branch"), ("else_branch", "else branch"))
            return [self.with_body(self.function(op, a), op, role) for a, role in names]
        if op.name == WHILE:
            return [self.with_body(self.function(op, "cond"), op, "condition"),
                    self.with_body(self.function(op, "body"), op, "body")]
        attributes = op.attributes
        found = []
        if "branches" in attributes:
            for attr in ir.ArrayAttr(attributes["branches"]):
                found.append(self.with_body(self._function_of(attr), op, "branch"))
        return found

    def use_count(self, name):
        """The number of uses of symbol `name` in the module as MLIR's getSymbolUses counts them:
        the references in each op's attributes, nested symbol tables' bodies aside, where one
        reference held twice by an op (``then_branch`` and ``else_branch`` naming one function,
        a ``tf.Case`` naming it twice) counts once (MLIR's attribute walk visits each distinct
        attribute once). The counts are taken once per cleanup and kept up to date by the
        changes the cleanup makes to references (:meth:`set_reference`, :meth:`insert_clone`)."""
        if self.uses is None:
            self.uses = {}
            self._count(_native.OpTable(self.module, "pre"), 1)
        return self.uses.get(name, 0)

    def _count(self, table, start):
        uses = self.uses
        flags = table.symbol_references()
        ends = table.subtree_ends()
        names = table.names()
        index, end = start, len(table)
        while index < end:
            if flags[index]:
                for root in referenced_roots(table.op(index)):
                    uses[root] = uses.get(root, 0) + 1
            index = ends[index] if names[index] == MODULE else index + 1

    def set_reference(self, op, attr_name, name):
        """Sets attribute `attr_name` of `op` to a reference to symbol `name`, keeping the use
        counts."""
        uses = self.uses
        if uses is not None:
            for root in referenced_roots(op):
                uses[root] -= 1
        op.attributes[attr_name] = ir.FlatSymbolRefAttr.get(name)
        if uses is not None:
            for root in referenced_roots(op):
                uses[root] = uses.get(root, 0) + 1

    def insert_clone(self, func, name):
        """A private clone of `func` named `name` (or ``name_0`` ... as a new MLIR SymbolTable
        renames) at the end of the module."""
        taken = self.symbols
        unique, counter = name, 0
        while unique in taken:
            unique = f"{name}_{counter}"
            counter += 1
        clone = func.operation.clone(ip=ir.InsertionPoint(module_body(self.module))).operation
        clone.attributes["sym_visibility"] = ir.StringAttr.get("private")
        clone.attributes["sym_name"] = ir.StringAttr.get(unique)
        taken[unique] = clone
        if self.uses is not None:
            self._count(_native.OpTable(clone, "pre"), 0)
        return clone

    def clone_if_needed(self, func):
        """TF's CloneFunctionIfNeeded: `func` when the module uses it exactly once, else a
        private clone ``<name>_lifted``."""
        name = symbol_name(func)
        if self.use_count(name) == 1:
            return func
        return self.insert_clone(func, name + "_lifted")

    # -- hoisting (TF's HoistForControlFlow) --

    def hoist_nested(self, block):
        """A nested hoisting whose failure TF ignores (its error diagnostic does not fail the
        pass): a warning with the message, the IR as the failure left it."""
        try:
            self.hoist(block)
        except PassFailure as failure:
            op = failure.op if failure.op is not None else block.owner
            _native.emit_diagnostic(op.operation.location, ir.DiagnosticSeverity.WARNING,
                                    f"{failure} (ignored: TensorFlow goes on here)")

    def hoist(self, block):
        for op in list(block.operations):
            op = op.operation
            name = op.name
            if name == WHILE:
                cond, body = self.branches(op)
                self.hoist_nested(_block(body))
                self.hoist_nested(_block(cond))
                self.handle_while(op, body, cond)
            elif name == IF or name == CASE:
                branches = self.branches(op)
                for func in branches:
                    self.hoist_nested(_block(func))
                self.handle_if_case(op, branches)
            elif name == PARTITIONED_CALL or name == STATEFUL_PARTITIONED_CALL:
                callee = self.function(op, "f")
                if callee is None:
                    if name == PARTITIONED_CALL:
                        raise PassFailure(f"'{name}' op resource lifting does not support call "
                                          f"with nested references.", op)
                    raise PassFailure(f"'{name}' op: its callee is not a function of the module "
                                      f"(TensorFlow's resource lifting crashes here)", op)
                self.handle_call(op, self.with_body(callee, op, "callee"))
            elif name in (IF_REGION, CASE_REGION, WHILE_REGION):
                for region in op.regions:
                    self.hoist_nested(region.blocks[0])
                hoist_region_op(op)
        forward_store_to_load(block)

    def handle_while(self, op, body, cond):
        uses = _merge_use_info(_find_use_info(body), _find_use_info(cond))
        if not len(uses):
            return
        old_to_new, remaining = _remove_unused(uses, body)
        _remove_unused(uses, cond)
        body_block = _block(body)

        def body_updated(index, value):
            _terminator(body_block).operands[index] = value

        _lift_function(body, remaining, body_updated)
        # TF asserts here (the condition was checked not to write): nothing in release builds.
        _lift_function(cond, remaining, lambda index, value: None)
        new = _create_like(op, function_type(body).results, _filter(list(op.operands), uses))
        updates = DenseIntMap()
        ret = _terminator(body_block)
        for index, data_type in remaining.items():
            same = ret.operands[index] == body_block.arguments[index]
            updates[index] = (data_type, -1 if same else index)
        _add_loads_stores(new, updates)
        for old_index, new_index in enumerate(old_to_new):
            if new_index >= 0:
                op.results[old_index].replace_all_uses_with(new.results[new_index])
        erase_op(op)

    def handle_if_case(self, op, branches):
        non_resource_results = len(op.results)
        uses = _find_use_info(branches[0])
        for func in branches[1:]:
            uses = _merge_use_info(uses, _find_use_info(func))
        if not len(uses):
            return
        _, remaining = _remove_unused(uses, branches[0])
        for func in branches[1:]:
            _remove_unused(uses, func)
        new_outputs = DenseIntMap()
        removed = 0
        for index, info in uses.items():
            if not info.used:
                removed += 1
                continue
            if not info.updated:
                continue
            new_outputs[index - removed] = non_resource_results + len(new_outputs)
        for func in branches:
            block = _block(func)
            values = list(_terminator(block).operands) + [None] * len(new_outputs)
            for arg_index, output_index in new_outputs.items():
                if output_index >= len(values) or arg_index >= len(block.arguments):
                    raise _crash(op, f"@{symbol_name(func)} returns fewer values than the op "
                                     f"has results")
                values[output_index] = block.arguments[arg_index]
            if any(value is None for value in values):
                raise _crash(op, f"@{symbol_name(func)} would return a null value")
            old = _terminator(block)
            ret = ir.Operation.create(RETURN, operands=values, loc=old.location,
                                      ip=ir.InsertionPoint(old))
            erase_op(old)

            def updated(index, value, ret=ret):
                ret.operands[new_outputs.subscript(index, 0)] = value

            _lift_function(func, remaining, updated)
        operands = list(op.operands)
        new = _create_like(op, function_type(branches[0]).results,
                           [operands[0]] + _filter(operands[1:], uses))
        updates = DenseIntMap()
        for index, data_type in remaining.items():
            updates[index + 1] = (data_type, new_outputs.get(index, -1))
        _add_loads_stores(new, updates)
        for result in op.results:
            result.replace_all_uses_with(new.results[result.result_number])
        erase_op(op)

    def handle_call(self, op, callee):
        name = symbol_name(callee)
        info = self.lifted_callees.get(name)
        if info is None:
            info = _CallLifting()
            self.lifted_callees[name] = info
            self.hoist(_block(callee))
            self.lift_callee(callee, info)
        self.update_call(op, info)

    def lift_callee(self, callee, info):
        """TF's HandlePartitionedCallOpCallee."""
        non_resource_results = 0
        for index, value in enumerate(_terminator(_block(callee)).operands):
            if not _is_resource(value):
                info.old_to_new_outputs.append(non_resource_results)
                non_resource_results += 1
                continue
            if not _is_block_argument(value):
                raise PassFailure("'func.func' op unsupported function call: resource return "
                                  "value does not alias an input.", callee)
            info.aliasing[index] = value.arg_number
            info.old_to_new_outputs.append(-1)
        info.use_info = _find_use_info(callee)
        if not len(info.use_info):
            return
        clone = self.insert_clone(callee, symbol_name(callee) + "_resource_lifted")
        info.lifted_callee = clone
        _, remaining = _remove_unused(info.use_info, clone)
        for index, data_type in remaining.items():
            info.arg_updates[index] = [data_type, -1]
        block = _block(clone)
        preserved = [i for i, v in enumerate(_terminator(block).operands) if not _is_resource(v)]
        count = [len(preserved)]
        new_values = []

        def updated(index, value):
            info.arg_updates.subscript(index, [None, 0])[1] = count[0]
            count[0] += 1
            new_values.append(value)

        _lift_function(clone, remaining, updated)
        old = _terminator(block)
        values = [old.operands[i] for i in preserved] + new_values
        ir.Operation.create(RETURN, operands=values, loc=old.location, ip=ir.InsertionPoint(old))
        erase_op(old)
        set_function_type(clone, function_type(clone).inputs, [v.type for v in values])

    def update_call(self, op, info):
        """TF's UpdatePartitionedCallOpWithNewCallee."""
        callee = info.lifted_callee
        if callee is None:
            return
        for output, argument in info.aliasing.items():
            op.results[output].replace_all_uses_with(op.operands[argument])
        new = _create_like(op, function_type(callee).results,
                           _filter(list(op.operands), info.use_info),
                           {"f": ir.FlatSymbolRefAttr.get(symbol_name(callee))})
        _add_loads_stores(new, info.arg_updates)
        for old_index, new_index in enumerate(info.old_to_new_outputs):
            if new_index >= 0:
                op.results[old_index].replace_all_uses_with(new.results[new_index])
        erase_op(op)


class _FunctionalCleanup(Cleanup):
    """TF's CleanupAndCanonicalize with functional If / Case / While (tfmlir's cleanup of
    -tf-resource-op-lifting handles the rest)."""

    def __init__(self, lifting):
        super().__init__(lifting.module)
        self.symbols = lifting.symbols
        self.lifting = lifting
        lifting.uses = None

    def _visit(self, op):
        name = op.name
        if name == IF or name == CASE:
            self._if_case(op)
        elif name == WHILE:
            self._while(op)
        else:
            super()._visit(op)

    def _if_case(self, op):
        branches = self.lifting.branches(op)
        for func in branches:
            self.run(func)
        if self._forward_common_arg(op, branches, list(op.operands)[1:], False):
            self._eliminate_unused_if_case(op, branches)

    def _while(self, op):
        cond, body = self.lifting.branches(op)
        if _writes_anywhere(cond):
            raise PassFailure(f"'{op.name}' op found resource write in loop condition.", op)
        self.run(cond)
        self.run(body)
        if self._forward_common_arg(op, [body], list(op.operands), True) and len(op.results):
            # TF's EliminateUnusedResultsForWhile drops nothing (it reads the condition's
            # argument twice), but clones the functions used elsewhere and points the op there.
            lifting = self.lifting
            new_cond = lifting.clone_if_needed(cond)
            new_body = lifting.clone_if_needed(body)
            lifting.set_reference(op, "cond", symbol_name(new_cond))
            lifting.set_reference(op, "body", symbol_name(new_body))

    @staticmethod
    def _forward_common_arg(op, branches, branch_args, io_match):
        """TF's ForwardCommonArgToOutput; returns whether `op` has a resource result."""
        has_resource = False
        for result in op.results:
            if not _is_resource(result):
                continue
            has_resource = True
            index = result.result_number
            common = None
            for func in branches:
                value = _terminator(_block(func)).operands[index]
                if not _is_block_argument(value):
                    raise PassFailure(f"'{op.name}' op result #{index} not tied to function "
                                      f"argument for branch @{symbol_name(func)}", op)
                if common is None:
                    common = value.arg_number
                elif common != value.arg_number:
                    raise PassFailure(f"result #{index} is not tied to the same argument across "
                                      f"all branches", op)
            if io_match and index != common:
                raise PassFailure(f"'{op.name}' op Result #{index} is tied to argument #{common}",
                                  op)
            result.replace_all_uses_with(branch_args[common])
        return has_resource

    def _eliminate_unused_if_case(self, op, branches):
        """TF's EliminateUnusedResultsForIfCase."""
        lifting = self.lifting
        cloned = []
        for func in branches:
            clone = lifting.clone_if_needed(func)
            cloned.append(clone)
            if clone == func:
                continue
            old_name = symbol_name(func)
            for attr_name, attr in sorted(irsafe.attribute_items(op), key=lambda item: item[0]):
                if isinstance(attr, ir.FlatSymbolRefAttr) and attr.value == old_name:
                    lifting.set_reference(op, attr_name, symbol_name(clone))
                    break
        # TF erases from each function of the list, so from one listed twice twice (a branch
        # named twice by the op and used nowhere else is not cloned: MLIR counts one use).
        distinct = []
        for func in cloned:
            if all(func != seen for seen in distinct):
                distinct.append(func)
        slots = [next(i for i, seen in enumerate(distinct) if seen == func) for func in cloned]
        returned = [list(_terminator(_block(func)).operands) for func in distinct]
        unused = [r.result_number for r in reversed(list(op.results)) if _unused(r)]
        for index in unused:
            for slot in slots:
                if index >= len(returned[slot]):
                    raise _crash(op, f"a branch listed twice loses its return value #{index} "
                                     f"twice")
                del returned[slot][index]
        if unused:
            for func, values in zip(distinct, returned):
                _replace_terminator(_block(func), values)
        num_args = len(_block(cloned[0]).arguments)
        used_args = set()
        for func in branches:
            for arg in _block(func).arguments:
                if not _unused(arg):
                    used_args.add(arg.arg_number)
        left = [list(range(len(_block(func).arguments))) for func in distinct]
        removed = [[] for _ in distinct]
        erased = []
        for index in range(num_args - 1, -1, -1):
            if index in used_args:
                continue
            for slot in slots:
                if index >= len(left[slot]):
                    # Past the arguments left: erasing it does nothing (in TF's release build).
                    continue
                removed[slot].append(left[slot].pop(index))
            erased.append(index)
        for func, indices in zip(distinct, removed):
            args = _block(func).arguments
            for index in indices:
                if not _unused(args[index]):
                    raise _crash(op, f"argument #{index} of @{symbol_name(func)} is erased while "
                                     f"still used")
            erase_arguments(func, indices)
        for func in distinct:
            block = _block(func)
            set_function_type(func, [a.type for a in block.arguments],
                              [v.type for v in _terminator(block).operands])
        erased_operands = {i + 1 for i in erased}
        operands = [v for i, v in enumerate(op.operands) if i not in erased_operands]
        keep = [r.result_number for r in op.results if not _unused(r)]
        new = _create_like(op, [op.results[i].type for i in keep], operands)
        for new_index, old_index in enumerate(keep):
            op.results[old_index].replace_all_uses_with(new.results[new_index])
        erase_op(op)


def _crash(op, what):
    return PassFailure(f"'{op.name}' op: {what} (TensorFlow crashes here)", op)


def _unused(value):
    for _ in value.uses:
        return False
    return True


def _writes_anywhere(func):
    found = []

    def visit(op):
        if op.name == ASSIGN_VARIABLE:
            found.append(op)
        return ADVANCE

    func.operation.walk(visit)
    return bool(found)


def lift_resources_for_functional_control_flow(func, module):
    """TF's ``ResourceLiftingForFunctionalControlFlow`` on `func` (a function of `module` with
    one block): cleanup, hoisting out of functional control flow, calls and region control flow,
    cleanup."""
    lifting = _Lifting(module)
    _FunctionalCleanup(lifting).run(func.operation)
    lifting.uses = None
    lifting.hoist(_block(func.operation))
    _FunctionalCleanup(lifting).run(func.operation)
