"""Checks that every value of the module has a static shape; fails naming the first that has not.

A module pass that never changes the IR. Every value is checked: the results of
every op and the arguments of every block, in every function and region (nested
modules included), and the signature of every op with a ``function_type`` holding
a function type (``func.func``, declarations too: inputs, then results).

A type is static unless it is a shaped type (tensor, memref, vector) that is
unranked or has a dynamic dimension. Other types are static: ``!tf_executor.control``,
``!tf_executor.token``, bare ``!tf_type.*`` types, integers ... The element type is
not looked into: ``tensor<!tf_type.resource<tensor<?xf32>>>`` is static (the value is a
rank-0 handle; its subtype describes the resource's contents, whose shape the value
itself does not have), as is a ``tensor<!tf_type.variant<...>>`` with dynamic subtypes.

Values are visited in the order the module is printed, from the first op of the
module's body: an op's signature (for functions), then its results, then the
arguments and ops of each block of each of its regions, in order. The first value
whose type is not static fails the pass with an error at the op (for a block
argument: the op owning the block's region) naming the value, its type and its
location, for example::

    result #1 of 'tf.Unique' does not have a static shape: tensor<?xi32> at loc("u")
    argument #0 of block #0 of region #1 of 'tf.WhileRegion' does not have a static shape: ...
    input #2 of the signature of @main does not have a static shape: tensor<*xf32> at ...

The pass comes from the seed's list (``-tf-ensure-static-shapes``); TF 2.21 has no
such pass.
"""
from mlir import ir

from .. import irsafe
from .names import MODULE
from .analysis.symbols import symbol_name
from .framework import Pass, PassFailure, register_pass


@register_pass
class EnsureStaticShapesPass(Pass):
    argument = "tf-ensure-static-shapes"
    anchor = MODULE

    def run_on_operation(self, module):
        self.mark_all_analyses_preserved()  # read-only: the IR is never changed
        found = first_dynamic_value(module.operation)
        if found is not None:
            message, op = found
            raise PassFailure(message, op)


def is_static(type_):
    """Whether `type_` is static: not a shaped type, or a ranked one without dynamic dimensions."""
    if not isinstance(type_, ir.ShapedType):
        return True
    shaped = ir.ShapedType(type_)
    return shaped.has_rank and shaped.has_static_shape


def _signature(op):
    attributes = op.attributes
    if "function_type" not in attributes:
        return None
    attr = attributes["function_type"]
    if not isinstance(attr, ir.TypeAttr) or not isinstance(attr.value, ir.FunctionType):
        return None
    return ir.FunctionType(attr.value)


def _describe(op):
    name = symbol_name(op)
    return f"@{name}" if name is not None else f"'{irsafe.op_name(op)}'"


def _problem(what, type_, loc):
    return f"{what} does not have a static shape: {type_} at {loc}"


def first_dynamic_value(root):
    """``(message, op to report at)`` for the first value under `root` (an op, itself not
    included) whose type is not static, in printing order; None when all are static."""
    # Work items: (op, None) checks an op's signature and results, then visits its blocks;
    # (op, (region #, block #, block)) checks a block's arguments, then visits its ops.
    stack = _blocks_of(root)
    while stack:
        op, where = stack.pop()
        if where is None:
            found = _op_problem(op)
            if found is not None:
                return found, op
            stack.extend(_blocks_of(op))
            continue
        region_index, block_index, block = where
        for index, argument in enumerate(block.arguments):
            if not is_static(argument.type):
                return _problem(f"argument #{index} of block #{block_index} of region "
                                f"#{region_index} of '{irsafe.op_name(op)}'", argument.type,
                                argument.location), op
        stack.extend((child.operation, None) for child in reversed(list(block.operations)))
    return None


def _blocks_of(op):
    """The work items of `op`'s blocks, last first (the stack pops the first first)."""
    items = []
    for region_index, region in enumerate(op.regions):
        for block_index, block in enumerate(region.blocks):
            items.append((op, (region_index, block_index, block)))
    items.reverse()
    return items


def _op_problem(op):
    signature = _signature(op)
    if signature is not None:
        for kind, types in (("input", signature.inputs), ("result", signature.results)):
            for index, type_ in enumerate(types):
                if not is_static(type_):
                    return _problem(f"{kind} #{index} of the signature of {_describe(op)}", type_,
                                    op.location)
    for index, result in enumerate(op.results):
        if not is_static(result.type):
            return _problem(f"result #{index} of '{irsafe.op_name(op)}'", result.type, op.location)
    return None
