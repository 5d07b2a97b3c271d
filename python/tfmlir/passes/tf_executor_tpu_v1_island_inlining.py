"""Inline calls to the nested TPU module, this reverses the effect of the -tf-executor-tpu-v1-island-outlining pass

This pass inlines the islands calling into the nested module that was
outlined, thus reversing the effect of the -tf-executor-tpu-v1-island-outlining
pass.

As TF (nothing happens without a nested module ``@_tpu_v1_compat_outlined``):
* every ``tf.PartitionedCall`` whose callee's root reference starts with
  ``_tpu_v1_compat_outlined`` is replaced by the callee's body (moved, not
  cloned), in the order of MLIR's post-order walk over the module; calls
  inside nested-module functions that were already inlined elsewhere are not
  revisited; the callee is erased;
* inlined ops get call-site locations (``callsite(op loc at call loc)``,
  stacked onto existing call sites), as MLIR's inliner does;
* the nested module's remaining functions move to the end of the module
  unless the module has a symbol of that name; the nested module is erased.

Where a call operand's type differs from the callee argument's (or a returned
value's from the call result's), a ``tf.Cast`` (``Truncate = false``, at the
call's location) converts it, as TF's inliner interface does; casts of
arguments go before the inlined ops, casts of results after them.

Errors (nothing is changed): ``'tf.PartitionedCall' op Failed to inline``
when the callee can't be found (or was inlined already), is not a
single-block func.func ending in func.return, has a different number of
arguments or results than the call, or a type differs and is not a tensor.
"""
from mlir import ir

from .analysis.symbols import (FUNC_OP, MODULE_OP, NESTED_TPU_MODULE, append_to_module,
                               module_body, symbol_name, symbol_ops)
from .analysis.executor import op_key
from .framework import MODULE, Pass, PassFailure, erase_op, register_pass

from .names import PARTITIONED_CALL, RETURN
from .walk import ADVANCE, POST_ORDER


@register_pass
class TPUBridgeExecutorIslandInlining(Pass):
    argument = "tf-executor-tpu-v1-island-inlining"
    anchor = MODULE

    def run_on_operation(self, module):
        with module.context:
            self._run(module.operation)

    def _run(self, module):
        symbols = symbol_ops(module)
        nested = symbols.get(NESTED_TPU_MODULE)
        if nested is None:
            return
        if nested.name != MODULE_OP:
            raise PassFailure(f"expected @{NESTED_TPU_MODULE} to be a builtin.module, "
                              f"found '{nested.name}'", nested)
        plan = _plan(module, nested, symbols)
        for call, callee in plan:
            _inline(call, callee)
        parent_names = set(symbols)
        for op in list(module_body(nested).operations):
            op = op.operation
            if op.name != FUNC_OP:
                continue
            name = symbol_name(op)
            if name not in parent_names:
                parent_names.add(name)
                append_to_module(module, op)
        nested.erase()


def _calls_in(op, into, container):
    def visit(nested):
        if nested.name == PARTITIONED_CALL:
            into.append((nested, container))
        return ADVANCE

    op.walk(visit, POST_ORDER)


def _plan(module, nested, symbols):
    """The (call, callee) pairs to inline, in TF's order; raises PassFailure."""
    calls = []   # (call, nested-module function holding it or None)
    for op in module_body(module).operations:
        op = op.operation
        if op == nested:
            for inner in module_body(nested).operations:
                inner = inner.operation
                _calls_in(inner, calls, inner if inner.name == FUNC_OP else None)
        else:
            _calls_in(op, calls, None)
    tables = {}   # op_key(module) -> {name: op}, the symbol tables calls resolve in
    inlined = set()
    plan = []
    for call, container in calls:
        if container is not None and op_key(container) in inlined:
            continue  # TF's walk never reaches the calls of an erased function
        reference = call.attributes["f"]
        if isinstance(reference, ir.FlatSymbolRefAttr):
            path = [reference.value]
        elif isinstance(reference, ir.SymbolRefAttr):
            path = reference.value
        else:
            continue
        if not path[0].startswith(NESTED_TPU_MODULE):
            continue
        scope_op = _nearest_symbol_table(call)
        key = op_key(scope_op)
        scope = tables.get(key)
        if scope is None:
            scope = tables[key] = symbol_ops(scope_op)
        callee = _resolve(path, scope, tables)
        problem = _callee_problem(call, callee, inlined)
        if problem is not None:
            raise PassFailure(f"'{PARTITIONED_CALL}' op Failed to inline: {problem}", call)
        inlined.add(op_key(callee))
        plan.append((call, callee))
    return plan


def _nearest_symbol_table(op):
    """The closest enclosing builtin.module (where a call's callee is looked up)."""
    parent = op.parent
    while parent is not None and parent.name != MODULE_OP:
        parent = parent.parent
    return parent.operation


def _resolve(path, scope, tables):
    op = scope.get(path[0])
    for name in path[1:]:
        if op is None or op.name != MODULE_OP:
            return None
        key = op_key(op)
        table = tables.get(key)
        if table is None:
            table = tables[key] = symbol_ops(op)
        op = table.get(name)
    return op


def _callee_problem(call, callee, inlined):
    if callee is None or callee.name != FUNC_OP:
        return "no such function"
    if op_key(callee) in inlined:
        return "the function was inlined already"
    blocks = callee.regions[0].blocks
    if len(blocks) != 1:
        return "the function must have one block"
    block = blocks[0]
    ops = block.operations
    terminator = ops[len(ops) - 1].operation
    if terminator.name != RETURN:
        return "the function must end with func.return"
    arguments = [a.type for a in block.arguments]
    operands = [v.type for v in call.operands]
    returned = [v.type for v in terminator.operands]
    results = list(call.results.types)
    if len(arguments) != len(operands) or len(returned) != len(results):
        return "the call's operands and results do not match the function"
    # As TF's inliner interface, mismatched types get a tf.Cast between tensors only.
    for a, b in list(zip(operands, arguments)) + list(zip(returned, results)):
        if a != b and not (isinstance(a, ir.ShapedType) and isinstance(b, ir.ShapedType)
                           and _is_tensor(a) and _is_tensor(b)):
            return f"no conversion from {a} to {b}"
    return None


def _is_tensor(type_):
    return isinstance(type_, (ir.RankedTensorType, ir.UnrankedTensorType))


def _cast(value, result_type, loc, ip):
    """``tf.Cast`` (Truncate = false) of `value` to `result_type` at `ip`, as TF's
    materializeCallConversion. Built by cloning a parsed op, so ``Truncate`` is
    an inherent attribute (property) as in TF, registered op or not."""
    source = value.type
    text = (f'func.func @cast(%arg0: {source}) -> {result_type} {{\n'
            f'  %0 = "tf.Cast"(%arg0) <{{Truncate = false}}> : ({source}) -> {result_type}\n'
            f'  func.return %0 : {result_type}\n}}')
    template = ir.Module.parse(text, value.context)
    prototype = template.body.operations[0].regions[0].blocks[0].operations[0]
    cast = prototype.operation.clone(ip=ip)
    cast.operands[0] = value
    cast.location = loc
    return cast


def _inline(call, callee):
    """Moves `callee`'s body in place of `call` (MLIR's inlineCall without cloning):
    [argument casts, callee ops, result casts] replace the call."""
    block = callee.regions[0].blocks[0]
    call_loc = call.location
    before_call = ir.InsertionPoint(call)
    operands = call.operands
    arguments = block.arguments
    for index in range(len(arguments)):
        operand = operands[index]
        argument = arguments[index]
        if operand.type != argument.type:
            operand = _cast(operand, argument.type, call_loc, before_call).result
        argument.replace_all_uses_with(operand)
    ops = [op.operation for op in block.operations]
    terminator = ops.pop()
    remap = _LocationRemapper(call_loc)
    for op in ops:
        op.move_before(call)
        remap.op(op)
    results = call.results
    returned = terminator.operands
    for index in range(len(results)):
        result = results[index]
        value = returned[index]
        if value.type != result.type:
            value = _cast(value, result.type, call_loc, before_call).result
        result.replace_all_uses_with(value)
    erase_op(call)
    callee.erase()


class _LocationRemapper:
    """MLIR's remapInlinedLocations: ``loc`` becomes ``callsite(loc at call)``, stacked."""

    def __init__(self, caller):
        self.caller = caller
        self.mapped = {}

    def loc(self, loc):
        mapped = self.mapped.get(loc)
        if mapped is None:
            callees = []
            last = loc
            while last.is_a_callsite():
                callees.append(last.callee)
                last = last.caller
            mapped = ir.Location.callsite(last, [self.caller])
            for callee in reversed(callees):
                mapped = ir.Location.callsite(callee, [mapped])
            self.mapped[loc] = mapped
        return mapped

    def op(self, op):
        def visit(nested):
            nested.location = self.loc(nested.location)
            for region in nested.regions:
                for block in region.blocks:
                    for argument in block.arguments:
                        argument.set_location(self.loc(argument.location))
            return ADVANCE

        op.walk(visit, POST_ORDER)
