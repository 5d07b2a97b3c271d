"""Annotate the inputs returned by TPUCopyWithDynamicShapeOp with dynamic shape.

Host code marks values of dynamic size (bounded by their static shape) with
the placeholder ``tf.TPUAnnotateTensorsWithDynamicShape`` inside a
``tf_device.launch``. As TF 2.21's -tf-tpu-annotate-dynamic-shape-inputs (a
module pass):

1. For every ``tf_device.cluster_func`` with a string ``_replication_info``
   (post-order): the indices of its operands that are results of a
   ``tf_device.launch`` returning a result of
   ``tf.TPUAnnotateTensorsWithDynamicShape`` become its ``_dynamic_arg_index``
   (an array of i32, set also when empty). In the callee (looked up in the
   closest module), each such argument of ranked type of rank 1 gets dimension
   0 dynamic, bounded by the old size: ``tensor<8xi32>`` becomes
   ``tensor<?xi32, #mhlo.type_extensions<bounds = [8]>>`` (an already dynamic
   size gives ``bounds = [?]``); other types stay. The callee's type is then
   rebuilt from its entry block's argument types and its first block's
   terminator operand types (the ops of the body keep their types, so a
   returned argument changes the result type too).
2. Every ``tf.TPUAnnotateTensorsWithDynamicShape`` is erased, its results
   replaced by its operands; each ``tf_device.launch`` that held one (the
   closest) and is left with only its terminator is erased too, its results
   replaced by the values it returned.

``#mhlo.type_extensions`` is MLIR-HLO's attribute; tfmlir does not load that
dialect and builds it as an opaque attribute of the ``mhlo`` namespace, which
prints the same (the pipeline runs with unregistered dialects allowed; reading
the output back needs them allowed too, ``--allow-unregistered-dialect``).

Failures (the module is left as it was), all on inputs TF's process crashes
on: a marked operand whose launch returns a value that is not an op result
(a block argument), a callee that is missing, not a ``func.func``, a
declaration, or has fewer arguments than a marked index, and a
``tf.TPUAnnotateTensorsWithDynamicShape`` that is not inside a
``tf_device.launch``. When launches holding annotations are nested in each
other, TF erases them in an unspecified order; here inner ones go first, so an
outer launch emptied by that is not erased unless it held an annotation
itself and comes later.
"""
from mlir import ir

from .analysis.calls import nearest_module
from .analysis.executor import op_key
from .names import CLUSTER_FUNC, FUNC, LAUNCH, MODULE
from .analysis.symbols import symbol_ops
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import enclosing_op, ops_named

ANNOTATE = "tf.TPUAnnotateTensorsWithDynamicShape"
REPLICATION_INFO_ATTR = "_replication_info"
DYNAMIC_ARG_INDEX_ATTR = "_dynamic_arg_index"


@register_pass
class TPUAnnotateDynamicShapeInputsPass(Pass):
    argument = "tf-tpu-annotate-dynamic-shape-inputs"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")
    opaque_dialects = ("mhlo",)

    def run_on_operation(self, module):
        modules, tables = {}, {}
        for cluster_func in ops_named(module, CLUSTER_FUNC):
            attributes = cluster_func.attributes
            if not (REPLICATION_INFO_ATTR in attributes
                    and isinstance(attributes[REPLICATION_INFO_ATTR], ir.StringAttr)):
                continue
            _annotate(cluster_func, modules, tables)
        _remove_annotations(module)


def _owner_op(value):
    """The op defining `value`; for a block argument, the op owning its block."""
    if isinstance(value, ir.OpResult):
        return value.owner.operation
    parent = value.owner.owner
    return parent.operation if parent is not None else None


def _dynamic_operands(cluster_func):
    indices = []
    for index, value in enumerate(cluster_func.operands):
        launch = _owner_op(value)
        if launch is None or launch.name != LAUNCH:
            continue
        terminator = launch.regions[0].blocks[0].operations[-1]
        for result, returned in zip(launch.results, terminator.operands):
            if result != value:
                continue
            if not isinstance(returned, ir.OpResult):
                raise PassFailure(f"'{LAUNCH}' op returns a block argument as the value of "
                                  f"operand #{index} of a TPU cluster_func (TF's process crashes "
                                  f"here)", launch)
            if returned.owner.name == ANNOTATE:
                indices.append(index)
    return indices


def _callee(cluster_func, modules, tables):
    name = ir.FlatSymbolRefAttr(cluster_func.attributes["func"]).value
    module = nearest_module(cluster_func, modules)
    found = None
    if module is not None:
        key = op_key(module)
        if key not in tables:
            tables[key] = symbol_ops(module)
        found = tables[key].get(name)
    if found is None:
        problem = "no such symbol"
    elif found.name != FUNC:
        problem = f"'{found.name}' is not a func.func"
    elif not len(found.regions[0].blocks):
        problem = "a function declaration without a body"
    else:
        return found
    raise PassFailure(f"'{CLUSTER_FUNC}' op calls @{name}: {problem} (TF's process crashes here)",
                      cluster_func)


def _bounded_dynamic(arg_type):
    """``tensor<?xT, #mhlo.type_extensions<bounds = [n]>>`` for a rank-1 `arg_type`, else None."""
    if not isinstance(arg_type, ir.RankedTensorType) or arg_type.rank != 1:
        return None
    size = arg_type.shape[0]
    bound = "?" if ir.ShapedType.is_dynamic_size(size) else str(size)
    context = arg_type.context
    # An attribute of a dialect that is not loaded: MLIR's assertions abort creating one unless
    # the context allows unregistered dialects (the framework does, see opaque_dialects).
    if not context.allow_unregistered_dialects:
        raise PassFailure("cannot create '#mhlo.type_extensions': the context does not allow "
                          "unregistered dialects (run the pass through tfmlir.passes)")
    extensions = ir.OpaqueAttr.get("mhlo", f"type_extensions<bounds = [{bound}]>".encode(),
                                   ir.NoneType.get(context), context=context)
    return ir.RankedTensorType.get([ir.ShapedType.get_dynamic_size()], arg_type.element_type,
                                   extensions)


def _annotate(cluster_func, modules, tables):
    indices = _dynamic_operands(cluster_func)
    context = cluster_func.context
    i32 = ir.IntegerType.get_signless(32, context)
    cluster_func.attributes[DYNAMIC_ARG_INDEX_ATTR] = ir.ArrayAttr.get(
        [ir.IntegerAttr.get(i32, index) for index in indices], context)
    func = _callee(cluster_func, modules, tables)
    entry = func.regions[0].blocks[0]
    arguments = entry.arguments
    for index in indices:
        if index >= len(arguments):
            raise PassFailure(f"'{CLUSTER_FUNC}' op marks operand #{index} as dynamic but its "
                              f"callee has {len(arguments)} arguments (TF's process crashes "
                              f"here)", cluster_func)
        new_type = _bounded_dynamic(arguments[index].type)
        if new_type is not None:
            arguments[index].set_type(new_type)
    terminator = entry.operations[-1]
    func_type = ir.FunctionType.get([arg.type for arg in arguments],
                                    [value.type for value in terminator.operands], context)
    func.attributes["function_type"] = ir.TypeAttr.get(func_type, context)


def _remove_annotations(module):
    launches = {}
    for op in ops_named(module, ANNOTATE):
        launch = enclosing_op(op, LAUNCH)
        if launch is None:
            raise PassFailure(f"'{ANNOTATE}' op is not inside a '{LAUNCH}' (TF's process crashes "
                              f"here)", op)
        for operand, result in zip(op.operands, op.results):
            result.replace_all_uses_with(operand)
        launches.setdefault(op_key(launch), launch)
        erase_op(op)
    for launch in launches.values():
        block = launch.regions[0].blocks[0]
        operations = block.operations
        if len(operations) != 1:
            continue
        terminator = operations[0]
        for inner, outer in zip(terminator.operands, launch.results):
            outer.replace_all_uses_with(inner)
        erase_op(launch)
