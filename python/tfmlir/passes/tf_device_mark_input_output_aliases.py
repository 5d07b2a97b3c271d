"""Marks device cluster inputs-output pairs that read/write to the same variable as aliases

For each ``tf_device.cluster_func`` (in walk order), an input ``a`` and an
output ``b`` alias when input ``a`` is a ``tf.ReadVariableOp`` of a resource
(used only there) and output ``b`` is written back to the same resource value
by a ``tf.AssignVariableOp`` (its only use); argument ``a`` of the device
function then gets ``tf.aliasing_output = b : i64``, so XLA can reuse the
buffer. Behaviour, as TensorFlow's C++ pass:

* An output whose only use is a ``tf_device.return`` inside a
  ``tf_device.parallel_execute`` (outside compilation) is followed to the
  matching result of the ``parallel_execute``, which must have one use.
* A resource written from two outputs, or read into two inputs, of one
  cluster_func leaves that cluster_func's function unmarked.
* An argument that already has an integer ``tf.aliasing_output`` keeps it.

Failures (where TensorFlow aborts), before anything is changed: the
cluster_func has more inputs than its function has arguments, or an
argument's existing ``tf.aliasing_output`` names another output than the
pair found (TF asserts; its release build keeps the stale attribute).
"""
from mlir import ir

from .names import (ASSIGN_VARIABLE, CLUSTER_FUNC, DEVICE_RETURN, FUNC,
                             PARALLEL_EXECUTE, READ_VARIABLE)
from .analysis.symbols import symbol_ops
from .framework import MODULE, Pass, PassFailure, register_pass
from .lib.ir_helpers import arg_attr, set_arg_attr
from .walk import ADVANCE, POST_ORDER

ALIASING_ATTR = "tf.aliasing_output"


@register_pass
class MarkInputOutputAliasesPass(Pass):
    argument = "tf-device-mark-input-output-aliases"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        module = module.operation
        cluster_funcs = []
        module.walk(lambda op: (cluster_funcs.append(op.operation)
                                if op.operation.name == CLUSTER_FUNC else None) or ADVANCE,
                    POST_ORDER)
        if not cluster_funcs:
            return
        symbols = symbol_ops(module)
        marks = []  # (func, argument index, output index)
        planned = {}  # (symbol, argument index) -> output index
        for cluster_func in cluster_funcs:
            pairs = _alias_pairs(cluster_func)
            if not pairs:
                continue
            callee = ir.FlatSymbolRefAttr(cluster_func.attributes["func"]).value
            func = symbols.get(callee)
            if func is None or func.name != FUNC:
                raise PassFailure(f"'{callee}' is not a func.func of the module", cluster_func)
            arguments = func.regions[0].blocks[0].arguments if len(func.regions[0].blocks) else []
            for input_index, output_index in pairs:
                if input_index >= len(arguments):
                    raise PassFailure(
                        f"input #{input_index} has no matching argument in '@{callee}' "
                        f"({len(arguments)} arguments)", cluster_func)
                key = (callee, input_index)
                existing = planned.get(key)
                if existing is None:
                    existing = _existing_alias(func, input_index)
                if existing is not None:
                    if existing != output_index:
                        raise PassFailure(
                            f"argument #{input_index} of '@{callee}' already aliases output "
                            f"#{existing}, not #{output_index}", cluster_func)
                    continue
                planned[key] = output_index
                marks.append((func, input_index, output_index))
        for func, input_index, output_index in marks:
            set_arg_attr(func, input_index, ALIASING_ATTR,
                          ir.IntegerAttr.get(ir.IntegerType.get_signless(64), output_index))


def _alias_pairs(cluster_func):
    """``[(input index, output index)]`` of `cluster_func`, or [] when TF skips it."""
    outputs = {}  # resource value -> output index
    for result in cluster_func.results:
        uses = list(result.uses)
        if len(uses) != 1:
            continue
        assign = _assign_of(uses[0])
        if assign is None:
            continue
        resource = assign.operands[0]
        if resource in outputs:
            return []  # several writes to one resource
        outputs[resource] = result.result_number
    if not outputs:
        return []
    inputs = {}
    for index, operand in enumerate(cluster_func.operands):
        if isinstance(operand, ir.BlockArgument):
            continue
        read = operand.owner.operation
        if read.name != READ_VARIABLE or not _has_one_use(read):
            continue
        resource = read.operands[0]
        if resource not in outputs:
            continue
        if resource in inputs:
            return []  # several reads of one resource
        inputs[resource] = index
    return [(inputs[r], outputs[r]) for r in outputs if r in inputs]


def _assign_of(use):
    """The AssignVariableOp consuming an output (through a parallel_execute), or None."""
    user = use.owner.operation
    parent = user.parent
    if parent is not None and parent.operation.name == PARALLEL_EXECUTE:
        execute = parent.operation
        region_number = _region_number(execute, user)
        start = 0
        for k in range(region_number):
            start += len(_terminator(execute.regions[k]).operands)
        count = len(_terminator(execute.regions[region_number]).operands)
        if use.operand_number >= count:
            return None
        uses = list(execute.results[start + use.operand_number].uses)
        if len(uses) != 1:
            return None
        user = uses[0].owner.operation
    return user if user.name == ASSIGN_VARIABLE else None


def _region_number(op, nested):
    block = nested.block
    for k in range(len(op.regions)):
        for candidate in op.regions[k].blocks:
            if candidate == block:
                return k
    raise PassFailure("internal error: op not found in its parent's regions", nested)


def _terminator(region):
    ops = region.blocks[0].operations
    terminator = ops[len(ops) - 1].operation
    if terminator.name != DEVICE_RETURN:
        raise PassFailure("expected a tf_device.return", terminator)
    return terminator


def _has_one_use(op):
    count = 0
    for result in op.results:
        for _ in result.uses:
            count += 1
            if count > 1:
                return False
    return count == 1


def _existing_alias(func, index):
    value = arg_attr(func, index, ALIASING_ATTR)
    return ir.IntegerAttr(value).value if isinstance(value, ir.IntegerAttr) else None
