"""Rewrites tf_device::LaunchFuncOp to TF::PartitionedCallOp

Replaces every ``tf_device.launch_func`` (nested modules included) by a
``tf.PartitionedCall`` of the same function, so that the module can be
exported to a GraphDef, as TF 2.21's -tf-device-convert-launch-func-to-tf-call:
same operands and result types, ``f = @<func>``, empty ``config``,
``config_proto`` and ``executor_type``, and the launch_func's ``device`` as a
``device`` attribute; its other attributes are dropped. As TF, the call is at
the module's location.

Errors, found before anything changes (the call would not verify): the
function is not found from the launch_func (nearest symbol table) or is not a
function, or takes another number of arguments (TF's message: ``argument count
mismatch: 'args' has N arguments, but '@f' expects M``); an operand or result
is not a tensor (tf.PartitionedCall takes tensors only). TF's process crashes
on all but the argument count.
"""
from mlir import ir

from .analysis.executor import op_key
from .names import FUNC, LAUNCH_FUNC, MODULE, PARTITIONED_CALL
from .analysis.symbols import module_body, symbol_name
from .lib.ir_helpers import enclosing_op, ops_named
from .framework import Pass, PassFailure, erase_op, register_pass

_TENSOR_TYPES = (ir.RankedTensorType, ir.UnrankedTensorType)


@register_pass
class ConvertLaunchFuncToTFCallPass(Pass):
    argument = "tf-device-convert-launch-func-to-tf-call"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        module = module.operation
        launches = ops_named(module, LAUNCH_FUNC)
        if not launches:
            return
        with module.context:
            tables = {}
            plans = [(launch, _check(launch, tables)) for launch in launches]
            loc = module.location
            empty = ir.StringAttr.get("")
            for launch, callee in plans:
                call = ir.Operation.create(
                    PARTITIONED_CALL, results=[r.type for r in launch.results],
                    operands=list(launch.operands),
                    attributes={"f": ir.FlatSymbolRefAttr.get(callee), "config": empty,
                                "config_proto": empty, "executor_type": empty,
                                "device": launch.attributes["device"]},
                    loc=loc, ip=ir.InsertionPoint(launch))
                results = launch.results
                call_results = call.results
                for index in range(len(results)):
                    results[index].replace_all_uses_with(call_results[index])
                erase_op(launch)




def _symbols(table, tables):
    """``{name: op}`` of `table`'s symbols, computed once per symbol table."""
    key = op_key(table)
    symbols = tables.get(key)
    if symbols is None:
        symbols = {}
        for op in module_body(table).operations:
            op = op.operation
            name = symbol_name(op)
            if name is not None and name not in symbols:
                symbols[name] = op
        tables[key] = symbols
    return symbols


def _check(launch, tables):
    """The callee's name; PassFailure where the call would not verify."""
    name = ir.FlatSymbolRefAttr(launch.attributes["func"]).value
    table = enclosing_op(launch, MODULE)
    callee = _symbols(table, tables).get(name) if table is not None else None
    if callee is None:
        raise PassFailure(f"'func' attribute refers to an undefined function: @{name}", launch)
    if callee.name != FUNC:
        raise PassFailure(f"'@{name}' does not reference a function", launch)
    expected = len(ir.FunctionType(ir.TypeAttr(callee.attributes["function_type"]).value).inputs)
    operands = launch.operands
    if len(operands) != expected:
        raise PassFailure(f"argument count mismatch: 'args' has {len(operands)} arguments, but "
                          f"'@{name}' expects {expected}", launch)
    for kind, values in (("operand", operands), ("result", launch.results)):
        for index in range(len(values)):
            if not isinstance(values[index].type, _TENSOR_TYPES):
                raise PassFailure(f"{kind} #{index} has type '{values[index].type}': "
                                  f"tf.PartitionedCall takes and returns tensors only", launch)
    return name
