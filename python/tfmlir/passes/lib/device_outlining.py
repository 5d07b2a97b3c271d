"""Outlining of ``tf_device.cluster`` / ``tf_device.launch`` regions into functions, as TF does.

The shared half of -tf-device-cluster-outlining and -tf-device-launch-outlining
(TF's ``BuildFunction`` in cluster_outlining.cc): every region op of one kind
under the module, in post-order (nested ones first), becomes a private
function at the end of the module and a call op in its place.

* The function is named by the op's string ``_cluster_outlined_function_name``
  attribute (removed from the op), else ``_func``; a taken name is made unique
  as one MLIR ``SymbolTable`` does for the whole run (``_func_0``, ``f_1`` ...,
  :class:`~tfmlir.passes.lib.ir_helpers.SymbolNamer`).
* Its arguments are the values the region uses but does not define, in
  ``getUsedValuesDefinedAbove`` order; its results are the op's result types;
  ``tf_device.return`` becomes ``func.return``. Function and call are at the
  op's location.
* The call gets the captured values as operands and every attribute of the op
  (``device``, ``_replication_info``, ``_xla_compile_device_type``, ``policy``,
  ... ) plus ``func = @<name>``.

Everything is checked before anything changes, so a failing run leaves the
module as it was. Errors (TF's message where TF's verifier rejects its own
output):

* the region returns other types than the op's results (``'func.return' op has
  N operands, but enclosing function (@f) returns M`` / ``type of return
  operand ...``, at the return);
* the op is inside a nested symbol table (a module in the module): the
  function would go into the outer module, out of the call's reach. For a
  cluster TF's verifier says ``'func' attribute refers to an undefined
  function: <name>``; for a launch TF leaves a ``tf_device.launch_func``
  calling nothing (tfmlir fails instead);
* an empty ``_cluster_outlined_function_name`` (TF creates a function without
  a name).
"""
from mlir import ir

from ... import irsafe
from ..names import FUNC, MODULE
from ..analysis.symbols import module_body, symbol_name
from ..framework import PassFailure, erase_op
from .ir_helpers import SymbolNamer, ops_named, outline_block

OUTLINED_FUNCTION_NAME = "_cluster_outlined_function_name"
DEFAULT_NAME = "_func"



def _nested_symbol_table(op, module):
    """The closest module around `op` below `module` (a nested symbol table), or None."""
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        if parent == module:
            return None
        if parent.name == MODULE:
            return parent
        parent = parent.parent
    return None


def _check_returns(op, name):
    """TF's verifier message for the function made of `op`'s region, or None if it is valid."""
    terminator = op.regions[0].blocks[0].operations[len(op.regions[0].blocks[0].operations) - 1]
    returned = [value.type for value in terminator.operands]
    expected = [result.type for result in op.results]
    if len(returned) != len(expected):
        return terminator, (f"'func.return' op has {len(returned)} operands, but enclosing function "
                            f"(@{name}) returns {len(expected)}")
    for index, (got, want) in enumerate(zip(returned, expected)):
        if got != want:
            return terminator, (f"type of return operand {index} ('{got}') doesn't match function "
                                f"result type ('{want}') in function @{name}")
    return None


def outline_all(module, op_name, call_name):
    """Outlines every `op_name` op under `module` into a function called by a `call_name` op."""
    ops = ops_named(module, op_name)
    if not ops:
        return
    namer = SymbolNamer(module)
    plans = []
    for op in ops:
        attributes = op.attributes
        base = DEFAULT_NAME
        named = False
        if OUTLINED_FUNCTION_NAME in attributes:
            attr = attributes[OUTLINED_FUNCTION_NAME]
            if isinstance(attr, ir.StringAttr):
                base = attr.value
                named = True
                if not base:
                    raise PassFailure(f"'{op_name}' op has an empty '{OUTLINED_FUNCTION_NAME}': the "
                                      f"outlined function needs a name", op)
        name = namer.insert(base)
        nested = _nested_symbol_table(op, module)
        if nested is not None:
            if op_name == "tf_device.cluster" and not _has_function(nested, name):
                raise PassFailure(f"'func' attribute refers to an undefined function: {name}", op)
            raise PassFailure(f"'{op_name}' op is inside the nested symbol table "
                              f"'{symbol_name(nested) or nested.name}': the outlined function goes "
                              f"into the module, where the call could not reach it", op)
        bad = _check_returns(op, name)
        if bad is not None:
            raise PassFailure(bad[1], bad[0])
        plans.append((op, name, named))

    context = module.context
    at_module_end = ir.InsertionPoint(module_body(module))
    for op, name, named in plans:
        if named:
            del op.attributes[OUTLINED_FUNCTION_NAME]
        loc = op.location
        _, captured, result_types = outline_block(op.regions[0].blocks[0], name, at_module_end, loc=loc)
        copied = irsafe.attribute_dict(op)
        copied["func"] = ir.FlatSymbolRefAttr.get(name, context)
        call = ir.Operation.create(call_name, results=result_types, operands=captured,
                                   attributes=copied, loc=loc, ip=ir.InsertionPoint(op))
        results = op.results
        call_results = call.results
        for index in range(len(results)):
            results[index].replace_all_uses_with(call_results[index])
        erase_op(op)


def _has_function(module, name):
    for op in module_body(module).operations:
        op = op.operation
        if op.name == FUNC and symbol_name(op) == name:
            return True
    return False
