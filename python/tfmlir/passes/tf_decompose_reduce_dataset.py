"""Decomposes ReduceDataset ops marked for compilation into a dataset iteration loop.

As TF 2.21's -tf-decompose-reduce-dataset (a function pass). The function must
have exactly one block (a declaration has none and fails too). Every
``tf.ReduceDataset`` nested in it (post-order walk) whose
``_xla_compile_device_type`` is a string is replaced, at its location, by:

* ``tf.AnonymousIteratorV3`` (``tensor<!tf_type.resource>``) whose
  ``output_types`` / ``output_shapes`` are the element types and shapes
  (``#tf_type.shape``) of the dataset arguments of the reduce function ``f``,
  followed by ``tf.MakeIterator(dataset, iterator)``. ``f`` (looked up in the
  closest module) takes the state (``Tstate``), then the dataset elements,
  then the other arguments (``Targuments``): the dataset elements are its
  arguments ``[#Tstate, #args - #Targuments)``;
* a ``tf.Const`` ``dense<true> : tensor<i1>`` and a ``tf.WhileRegion``
  (``is_stateless = false``, ``parallel_iterations = 10``,
  ``_lower_using_switch_merge = true``) over that condition and the operands
  of the ReduceDataset after the dataset. Its condition region yields its
  first argument. Its body calls ``tf.IteratorGetNextAsOptional`` (the
  iterator's types and shapes, ``tensor<!tf_type.variant>``) and
  ``tf.OptionalHasValue`` (``tensor<i1>``), then a ``tf.IfRegion`` on that
  (``is_stateless = false``, ``_lower_using_switch_merge = true``, results of
  the state operands' types) whose then branch takes the value out with
  ``tf.OptionalGetValue`` and yields the results of a ``func.call`` of ``f``
  on (state, elements, other arguments) carrying the ReduceDataset's string
  ``device`` (when it has one) and ``_xla_compile_device_type``, and whose else
  branch yields the state unchanged. The body yields the has-value flag, the
  IfRegion's results and the other arguments unchanged. All blocks' arguments
  are the loop's operand types, located at the ReduceDataset.
* The ReduceDataset's results (the state) are replaced by the loop's results
  after the condition, and the op is erased.

ReduceDataset ops without a string ``_xla_compile_device_type`` are left alone.
The output is verified like TF's: results whose types differ from the state
operands' types become values of the operand types, which their users must
accept; a call that does not match ``f``'s signature does not verify. A reduce
function without dataset arguments gives an iterator without output types,
which TF's definition of ``tf.AnonymousIteratorV3`` rejects: the pass fails
with TF's verifier message (``'tf.AnonymousIteratorV3' op attribute
'output_types' failed to satisfy constraint: type array attribute with at
least 1 elements``) after decomposing the function's other ReduceDatasets.

Failures (the function is left unchanged): a function without exactly one
block (``'func.func' op Expecting a single block function``, TF's message);
and, where TF's process crashes instead (or, for a missing result, reads past
the op's results), a reduce function that is missing or not a ``func.func``,
a dataset argument of a type that is not shaped, fewer operands than
``Tstate`` requires, fewer results than ``Tstate``, or a result beyond the
state that is still used. A ``f`` that is a nested reference
(``@module::@fn``) is followed into the nested module; the call then names
the function by its own name, as TF's does.
"""
from mlir import ir

from ..dialects import tf_type
from .analysis.calls import nearest_module
from .analysis.executor import op_key
from .names import CALL, CONST, FUNC, IF_REGION, MODULE, TF_YIELD, WHILE_REGION
from .analysis.symbols import symbol_ops
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import ops_named

REDUCE_DATASET = "tf.ReduceDataset"
ANONYMOUS_ITERATOR = "tf.AnonymousIteratorV3"
MAKE_ITERATOR = "tf.MakeIterator"
GET_NEXT_AS_OPTIONAL = "tf.IteratorGetNextAsOptional"
OPTIONAL_HAS_VALUE = "tf.OptionalHasValue"
OPTIONAL_GET_VALUE = "tf.OptionalGetValue"
COMPILE_DEVICE_TYPE_ATTR = "_xla_compile_device_type"
DEVICE_ATTR = "device"
LOWER_USING_SWITCH_MERGE_ATTR = "_lower_using_switch_merge"


@register_pass
class DecomposeReduceDatasetPass(Pass):
    argument = "tf-decompose-reduce-dataset"
    anchor = FUNC
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        func = func.operation
        if len(func.regions[0].blocks) != 1:
            raise PassFailure(f"'{FUNC}' op Expecting a single block function", func)
        # The symbol tables of the modules seen, shared by the functions this pass runs on (the
        # pass adds and removes no symbol).
        if not hasattr(self, "_tables"):
            self._tables, self._modules = {}, {}
        invalid = None  # (message, op) of the first iterator TF's verifier rejects after the pass
        for reduce in ops_named(func, REDUCE_DATASET):
            attributes = reduce.attributes
            if not (COMPILE_DEVICE_TYPE_ATTR in attributes
                    and isinstance(attributes[COMPILE_DEVICE_TYPE_ATTR], ir.StringAttr)):
                continue
            iterator = _decompose(reduce, self._reduce_function(func, reduce))
            if invalid is None and not len(ir.ArrayAttr(iterator.attributes["output_types"])):
                # TF's tf.AnonymousIteratorV3 requires at least one output type; tfmlir's
                # definition (from TF's op registry) does not, so the check is made here.
                invalid = (f"'{ANONYMOUS_ITERATOR}' op attribute 'output_types' failed to satisfy "
                           f"constraint: type array attribute with at least 1 elements", iterator)
        if invalid is not None:
            raise PassFailure(*invalid)

    def _reduce_function(self, func, reduce):
        attr = reduce.attributes["f"]
        if isinstance(attr, ir.FlatSymbolRefAttr):
            path = [ir.FlatSymbolRefAttr(attr).value]
        else:
            path = list(ir.SymbolRefAttr(attr).value)
        found = nearest_module(func, self._modules)
        for part in path:
            if found is None or found.name != MODULE:
                found = None
                break
            key = op_key(found)
            if key not in self._tables:
                self._tables[key] = symbol_ops(found)
            found = self._tables[key].get(part)
        if found is None or found.name != FUNC:
            problem = "no such symbol" if found is None else f"'{found.name}' is not a func.func"
            raise PassFailure(f"'{REDUCE_DATASET}' op reduce function {attr}: {problem} (TF's "
                              f"process crashes here)", reduce)
        return found


def _type_array_size(op, name):
    return len(ir.ArrayAttr(op.attributes[name]))


def _shape_attr(shaped, context):
    if not shaped.has_rank:
        return tf_type.ShapeAttr.get(None, context=context)
    return tf_type.ShapeAttr.get([-1 if ir.ShapedType.is_dynamic_size(d) else d
                                  for d in shaped.shape], context=context)


def _decompose(reduce, reduce_func):
    context = reduce.context
    loc = reduce.location
    state_size = _type_array_size(reduce, "Tstate")
    argument_size = _type_array_size(reduce, "Targuments")
    func_type = ir.FunctionType(ir.TypeAttr(reduce_func.attributes["function_type"]).value)
    func_inputs = list(func_type.inputs)
    dataset_size = max(0, len(func_inputs) - state_size - argument_size)
    dataset_types = func_inputs[state_size:state_size + dataset_size]
    operands = list(reduce.operands)
    results = list(reduce.results)
    problem = None
    if any(not isinstance(t, ir.ShapedType) for t in dataset_types):
        problem = "a dataset argument of the reduce function is not of a shaped type"
    elif len(operands) < state_size + 1:
        problem = f"it has fewer operands than its dataset and {state_size} state values"
    elif len(results) < state_size:
        problem = f"it has fewer results than its {state_size} state values"
    elif any(len(list(r.uses)) for r in results[state_size:]):
        problem = "a result beyond the state values is used"
    if problem is not None:
        raise PassFailure(f"'{REDUCE_DATASET}' op cannot be decomposed: {problem} (TF's process "
                          f"crashes here)", reduce)

    # The iterator.
    at_reduce = ir.InsertionPoint(reduce)
    resource = ir.RankedTensorType.get([], tf_type.ResourceType.get(context=context))
    variant = ir.RankedTensorType.get([], tf_type.VariantType.get(context=context))
    i1 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(1, context))
    shaped_types = [ir.ShapedType(t) for t in dataset_types]
    iterator_attrs = {
        "output_types": ir.ArrayAttr.get([ir.TypeAttr.get(t.element_type) for t in shaped_types],
                                         context),
        "output_shapes": ir.ArrayAttr.get([_shape_attr(t, context) for t in shaped_types],
                                          context),
    }
    iterator = ir.Operation.create(ANONYMOUS_ITERATOR, results=[resource],
                                   attributes=dict(iterator_attrs), loc=loc, ip=at_reduce)
    ir.Operation.create(MAKE_ITERATOR, operands=[operands[0], iterator.result], loc=loc,
                        ip=at_reduce)

    # The loop.
    true = ir.Operation.create(CONST, results=[i1],
                               attributes={"value": ir.DenseElementsAttr.get_splat(
                                   i1, ir.BoolAttr.get(True, context))},
                               loc=loc, ip=at_reduce)
    loop_operands = [true.result] + operands[1:]
    loop_types = [value.type for value in loop_operands]
    lower = ir.BoolAttr.get(True, context)
    not_stateless = ir.BoolAttr.get(False, context)
    loop = ir.Operation.create(WHILE_REGION, results=loop_types, operands=loop_operands,
                               attributes={
                                   "parallel_iterations": ir.IntegerAttr.get(
                                       ir.IntegerType.get_signless(64, context), 10),
                                   "is_stateless": not_stateless,
                                   LOWER_USING_SWITCH_MERGE_ATTR: lower,
                               }, regions=2, loc=loc, ip=at_reduce)
    locs = [loc] * len(loop_types)
    cond = loop.regions[0].blocks.append(*loop_types, arg_locs=locs)
    ir.Operation.create(TF_YIELD, operands=[cond.arguments[0]], loc=loc,
                        ip=ir.InsertionPoint(cond))

    body = loop.regions[1].blocks.append(*loop_types, arg_locs=locs)
    body_args = list(body.arguments)
    at_body = ir.InsertionPoint(body)
    get_next = ir.Operation.create(GET_NEXT_AS_OPTIONAL, results=[variant],
                                   operands=[iterator.result], attributes=dict(iterator_attrs),
                                   loc=loc, ip=at_body)
    has_value = ir.Operation.create(OPTIONAL_HAS_VALUE, results=[i1],
                                    operands=[get_next.result], loc=loc, ip=at_body)
    state_types = [value.type for value in operands[1:state_size + 1]]
    branch = ir.Operation.create(IF_REGION, results=state_types, operands=[has_value.result],
                                 attributes={"is_stateless": not_stateless,
                                             LOWER_USING_SWITCH_MERGE_ATTR: lower},
                                 regions=2, loc=loc, ip=at_body)
    state_args = body_args[1:state_size + 1]
    passthrough_args = body_args[state_size + 1:]
    otherwise = branch.regions[1].blocks.append()
    ir.Operation.create(TF_YIELD, operands=state_args, loc=loc, ip=ir.InsertionPoint(otherwise))
    then = branch.regions[0].blocks.append()
    at_then = ir.InsertionPoint(then)
    value = ir.Operation.create(OPTIONAL_GET_VALUE, results=dataset_types,
                                operands=[get_next.result], loc=loc, ip=at_then)
    call_attrs = {"callee": ir.FlatSymbolRefAttr.get(
        ir.StringAttr(reduce_func.attributes["sym_name"]).value, context)}
    for name in (DEVICE_ATTR, COMPILE_DEVICE_TYPE_ATTR):
        if name in reduce.attributes and isinstance(reduce.attributes[name], ir.StringAttr):
            call_attrs[name] = reduce.attributes[name]
    call = ir.Operation.create(CALL, results=list(func_type.results),
                               operands=state_args + list(value.results) + passthrough_args,
                               attributes=call_attrs, loc=loc, ip=at_then)
    ir.Operation.create(TF_YIELD, operands=list(call.results), loc=loc, ip=at_then)
    ir.Operation.create(TF_YIELD,
                        operands=[has_value.result] + list(branch.results) + passthrough_args,
                        loc=loc, ip=at_body)

    for index in range(state_size):
        results[index].replace_all_uses_with(loop.results[index + 1])
    erase_op(reduce)
    return iterator
