"""Promote resources reads/writes to function inputs/outputs.

As TF 2.21's -tf-promote-resources-to-args, a module pass over the functions
named by option ``functions`` (comma-separated; default ``main``), looked up
among the module's functions as they are when the pass starts (names that are
not a function are skipped; a name given twice is processed twice). For each
function, in the order given:

1. It must have exactly one block ("expects function 'f' to have 1 block, got
   N").
2. Resource lifting through functional control flow and calls
   (:mod:`tfmlir.passes.lib.functional_resource_lifting`, TF's
   ``ResourceLiftingForFunctionalControlFlow``): resources read or written in
   the functions of ``tf.If`` / ``tf.Case`` / ``tf.While`` and callees of
   ``tf.PartitionedCall`` / ``tf.StatefulPartitionedCall``, and in the regions
   of region control flow, are read before and written after the op instead.
3. Every ``tf.VarHandleOp`` directly in the body must be used only by
   ``tf.ReadVariableOp`` / ``tf.AssignVariableOp`` ("'tf.VarHandleOp' op
   expects users to be 'tf.ReadVariableOp' or 'tf.AssignVariableOp', got
   [names]", the other users' op names sorted). Except those with
   ``_is_initialized = false``, they become new resource arguments appended
   to the function, one per ``shared_name`` (in order of first appearance).
4. Resource arguments (the original ones first) must have one subtype
   ("expects resource type of argument i to have one subtype, got 'T'") and
   only ``tf.ReadVariableOp`` / ``tf.AssignVariableOp`` users ("expects users
   of resource argument i to be 'tf.ReadVariableOp' or 'tf.AssignVariableOp',
   got [names]"); the function must end with ``func.return`` ("expects
   function 'f' to have a MLIR ReturnOp"). When the function has resource
   arguments, each takes the type of its subtype; walking the body in order,
   a read takes the value last written (the argument at first) and writes
   are erased ("'tf.ReadVariableOp' op expects resource to be a VarHandleOp
   or function argument" for the resource of another op). Each written
   resource gets a new result (its last value, in argument order):

   * an original argument, or a variable also read: the argument gets
     ``tf.aliasing_output`` (the result's index, i64);
   * a variable only written: the result gets ``tf.resource_name`` (its
     shared name), and its argument is removed;
   * a variable read gets ``tf.resource_name`` on its argument; a variable
     neither read nor written loses its argument.

Compound resource ops must be decomposed and dead functions removed first.
On failure the module is left unchanged.
"""
from mlir import ir

from ..dialects.tf_type import ResourceType
from .analysis.symbols import symbol_ops
from .framework import MODULE, Option, Pass, PassFailure, erase_op, register_pass
from .lib.functional_resource_lifting import (function_type, is_resource_type,
                                              lift_resources_for_functional_control_flow,
                                              set_arg_attrs, set_function_type, set_result_attrs)
from .names import ASSIGN_VARIABLE, FUNC, READ_VARIABLE, RETURN

VAR_HANDLE = "tf.VarHandleOp"
RESOURCE_NAME_ATTR = "tf.resource_name"
ALIASING_OUTPUT_ATTR = "tf.aliasing_output"
_READ_OR_ASSIGN = frozenset((READ_VARIABLE, ASSIGN_VARIABLE))


def _block(func):
    return func.regions[0].blocks[0]


def function_name(func):
    return ir.StringAttr(func.attributes["sym_name"]).value


def check_single_block(func):
    """TF's CheckSingleBlockFunction."""
    count = len(func.regions[0].blocks)
    if count != 1:
        raise PassFailure(f"expects function '{function_name(func)}' to have 1 block, got {count}",
                          func)


def _other_user_names(value):
    """The names of the users of `value` other than reads and writes, sorted, each once."""
    return sorted({use.owner.operation.name for use in value.uses} - _READ_OR_ASSIGN)


def _initialized(var_handle):
    attributes = var_handle.attributes
    if "_is_initialized" not in attributes:
        return True
    attr = attributes["_is_initialized"]
    return not isinstance(attr, ir.BoolAttr) or attr.value


def promote_var_handles_to_arguments(func, validate):
    """TF's PromoteVarHandlesToArguments: every initialized ``tf.VarHandleOp`` directly in `func`'s
    body is replaced by a new resource argument, one per shared name. Returns the shared names
    (``ir.StringAttr``) in the order of the new arguments."""
    func = func.operation
    block = _block(func)
    ftype = function_type(func)
    arg_types = list(ftype.inputs)
    names = []
    arg_of_name = {}
    for op in list(block.operations):
        op = op.operation
        if op.name != VAR_HANDLE:
            continue
        result = op.results[0]
        if validate:
            others = _other_user_names(result)
            if others:
                raise PassFailure(f"'{VAR_HANDLE}' op expects users to be 'tf.ReadVariableOp' or "
                                  f"'tf.AssignVariableOp', got [{', '.join(others)}]", op)
        if not _initialized(op):
            continue
        shared_name = ir.StringAttr(op.attributes["shared_name"])
        key = shared_name.value_bytes
        arg = arg_of_name.get(key)
        if arg is None:
            names.append(shared_name)
            arg_types.append(result.type)
            arg = block.add_argument(result.type, op.location)
            arg_of_name[key] = arg
        result.replace_all_uses_with(arg)
        erase_op(op)
    if names:
        set_function_type(func, arg_types, list(ftype.results))
    return names


class _Resource:
    __slots__ = ("live_value", "read", "write")

    def __init__(self):
        self.live_value = None
        self.read = False
        self.write = False


def _promote_resources_to_arguments(func, var_names):
    """TF's PromoteResourcesToArguments."""
    func = func.operation
    block = _block(func)
    ops = block.operations
    return_op = ops[len(ops) - 1].operation if len(ops) else None
    if return_op is None or return_op.name != RETURN:
        raise PassFailure(f"expects function '{function_name(func)}' to have a MLIR ReturnOp", func)
    args = list(block.arguments)
    resources = [_Resource() for _ in args]
    argument_types = list(function_type(func).inputs)
    has_resources = False
    num_original = len(args) - len(var_names)

    def subtypes_of(value_type):
        element = value_type.element_type if isinstance(value_type, ir.ShapedType) else value_type
        return element, list(ResourceType(element).subtypes)

    for index, arg in enumerate(args):
        if index < num_original and not is_resource_type(arg.type):
            continue
        element, subtypes = subtypes_of(arg.type)
        if index < num_original:
            if len(subtypes) != 1:
                raise PassFailure(f"expects resource type of argument {index} to have one "
                                  f"subtype, got '{element}'", func)
            others = _other_user_names(arg)
            if others:
                raise PassFailure(f"expects users of resource argument {index} to be "
                                  f"'tf.ReadVariableOp' or 'tf.AssignVariableOp', got "
                                  f"[{', '.join(others)}]", func)
        arg.set_type(subtypes[0])
        resources[index].live_value = arg
        argument_types[index] = subtypes[0]
        has_resources = True
    if not has_resources:
        return

    for op in list(block.operations):
        op = op.operation
        name = op.name
        if name != READ_VARIABLE and name != ASSIGN_VARIABLE:
            continue
        resource = op.operands[0]
        if not isinstance(resource, ir.BlockArgument):
            raise PassFailure(f"'{name}' op expects resource to be a VarHandleOp or function "
                              f"argument", op)
        if resource.owner != block:
            raise PassFailure(f"'{name}' op expects function level resource argument", op)
        info = resources[resource.arg_number]
        if name == READ_VARIABLE:
            info.read = True
            op.results[0].replace_all_uses_with(info.live_value)
        else:
            info.write = True
            info.live_value = op.operands[1]
        erase_op(op)

    return_operands = list(return_op.operands)
    num_results_before = len(function_type(func).results)
    result_types = [v.type for v in return_operands]
    output_only = []   # (result index, shared name)
    aliases = []       # (argument index, result index)
    new_index = 0
    removed = []
    names = []        # (argument index, shared name) of the variables read
    for index, info in enumerate(resources):
        if info.live_value is None:
            new_index += 1
            continue
        is_var = index >= num_original
        if info.write:
            if not is_var or info.read:
                aliases.append((new_index, len(return_operands)))
            else:
                output_only.append((len(return_operands), var_names[index - num_original]))
            return_operands.append(info.live_value)
            result_types.append(info.live_value.type)
        if is_var and not info.read:
            removed.append(index)
        else:
            if is_var:
                names.append((new_index, RESOURCE_NAME_ATTR, var_names[index - num_original]))
            new_index += 1
    set_arg_attrs(func, names)
    for index in reversed(removed):
        for use in args[index].uses:
            user = use.owner.operation
            raise PassFailure(f"'{user.name}' op uses variable "
                              f"'{var_names[index - num_original].value}' in a nested region, "
                              f"whose argument is removed as the variable is not read in the "
                              f"function's body (TensorFlow crashes here)", user)
        block.erase_argument(index)
        del argument_types[index]
    if len(return_operands) > num_results_before:
        ir.Operation.create(RETURN, operands=return_operands, loc=return_op.location,
                            ip=ir.InsertionPoint(return_op))
        erase_op(return_op)
    set_function_type(func, argument_types, result_types)
    set_result_attrs(func, [(result_index, RESOURCE_NAME_ATTR, var_name)
                            for result_index, var_name in output_only])
    i64 = ir.IntegerType.get_signless(64)
    set_arg_attrs(func, [(arg_index, ALIASING_OUTPUT_ATTR, ir.IntegerAttr.get(i64, result_index))
                         for arg_index, result_index in aliases])


@register_pass
class PromoteResourcesToArgsPass(Pass):
    argument = "tf-promote-resources-to-args"
    anchor = MODULE
    options = (
        Option("functions", str, list=True,
               help="Comma separated list of functions whose resources read/writes should be "
                    "promoted to function inputs/outputs."),
    )
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        module = module.operation
        functions = list(self.functions) or ["main"]
        table = symbol_ops(module)
        for name in functions:
            func = table.get(name)
            if func is None or func.name != FUNC:
                continue
            check_single_block(func)
            lift_resources_for_functional_control_flow(func, module)
            var_names = promote_var_handles_to_arguments(func, validate=True)
            _promote_resources_to_arguments(func, var_names)
