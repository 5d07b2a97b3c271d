"""Decomposes tensor array operations into local variable operations.

As TF 2.21's -tf-tensor-array-ops-decomposition, a module pass over the function ``@main``
(nothing happens without one): a tensor array becomes a local variable
(``tf.MlirLocalVarOp``) holding a buffer with every element (a new first dimension for the
index), read and written with ``tf.ReadVariableOp`` / ``tf.AssignVariableOp``; a later
resource lifting pass can remove the variables. The size must be a constant, the element
shape static: the ``element_shape`` attribute, else the first static shape found at the
array's uses (``tf.TensorArrayWriteV3`` value, ``tf.TensorArraySplitV3`` with constant equal
lengths, ``tf.TensorArrayScatterV3`` value less its first dimension,
``tf.TensorArrayGatherV3`` result less its first dimension or its ``element_shape``),
following ``tf.While`` / ``tf.If`` / calls into their functions and identities.

* ``tf.TensorArrayV3``: the variable, assigned a zero buffer (``tf.BroadcastTo``); its flow
  output becomes a constant 0.0 (flows only order the ops, which MLIR's order does);
* read / write: ``tf.Slice`` and ``tf.Reshape`` / ``tf.XlaDynamicUpdateSlice`` of the buffer
  (a write to a gradient adds to what is there); gather: a ``tf.Slice`` (contiguous constant
  indices) or ``tf.GatherV2``; scatter: adds each slice (the whole buffer at once for indices
  0..n-1); concat: a ``tf.Reshape`` merging the first two dimensions, lengths a constant;
  split: the value reshaped and added to the buffer; size: a constant; close: removed. A
  read, gather or concat result of another type than the new value keeps that type for the
  function's return through a ``tensor.cast``; flow outputs become the flow inputs;
* ``tf.TensorArrayGradV3``: one new variable per array and ``source`` (writes accumulate);
* ``tf.Identity`` / ``tf.IdentityN`` (of any value) are removed.

Arrays cross ``tf.While``, ``tf.If`` and ``tf.PartitionedCall`` /
``tf.StatefulPartitionedCall``: the functions' array arguments take the variable type and
one argument is appended per gradient source the functions take of them (made before the
op when the caller has none yet); array results must forward an argument, and their uses
take the op's operand. Called functions are decomposed once; a public one whose signature
changes is decomposed in a private copy ``<name>_tensorarray_decomposed`` (added at the end
of the module), one whose signature does not is replaced by its decomposed private copy
(moved to the end of the module). ``tf.WhileRegion`` / ``tf.IfRegion`` /
``tf.CaseRegion`` regions are decomposed in place; the ops must not take or give resources.

As in TF: an array argument of a function without gradient uses is not known in the
function (its ops fail with "unknown tensor array"); after a ``tf.While`` that was rebuilt,
every result's uses take the loop's operand (TF marks every operand as an array there).

Failures (TF's messages; the module is left unchanged): "unknown element shape", "dynamic
tensor array size is unsupported", "unknown max element count", "unknown tensor array",
"cannot concat on scalar-element tensor array", split lengths ("non-constant split
lengths", "non-positive split count", "unknown or invalid split tensor shape", "different
split lengths are not supported"), "output tensor array does not alias input in a while
loop", "branches do not forward the same input resource", "found unexpected type ... of
operand #i / result #i, resource type ... are expected to have been canonicalized away for
region based control flow ops", "TensorArray decomposition does not support call with nested
references." (a ``tf.PartitionedCall`` whose callee is not found, as in a public callee,
which TF decomposes before adding it to the module). Where TF crashes (a function that
cannot be found), a diagnostic says so; a ``tf.TensorArrayV3`` without ``element_shape``
(TF crashes) has an unknown one.
"""
from mlir import ir

from ..dialects import tf_type
from .analysis.symbols import symbol_name
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.collection_ops import (IDENTITY, IDENTITY_N, check_region_op_resources, is_resource_type, Functions, OpBuilder, accumulate_buffers,
                                 const_ints, element_type_from_access, gather_elements,
                                 get_element, init_buffer, is_private, op_error, r1_const,
                                 read_local_variable, recreate_op, replace_results,
                                 reshape_scalar_to_size_type, resource_subtype, run_steps,
                                 scalar_const,
                                 scatter_accumulate_elements, set_element, set_private,
                                 set_symbol_name, update_func_type, write_local_variable)
from .lib.ir_helpers import enclosing_op, ops_named
from .lib.tf_builders import element_type
from .names import (CALLEE_ATTRS, CASE_REGION, CONST, FUNC, IF, IF_REGION, MODULE,
                    PARTITIONED_CALL, RETURN, STATEFUL_PARTITIONED_CALL, WHILE, WHILE_REGION)

TENSOR_ARRAY = "tf.TensorArrayV3"
READ = "tf.TensorArrayReadV3"
WRITE = "tf.TensorArrayWriteV3"
CONCAT = "tf.TensorArrayConcatV3"
SPLIT = "tf.TensorArraySplitV3"
SIZE = "tf.TensorArraySizeV3"
GRAD = "tf.TensorArrayGradV3"
GATHER = "tf.TensorArrayGatherV3"
SCATTER = "tf.TensorArrayScatterV3"
CLOSE = "tf.TensorArrayCloseV3"
LOCAL_VAR = "tf.MlirLocalVarOp"


class _Stats:
    """TF's ``TensorArrayStats``: whether writes accumulate (a gradient) and the gradient
    variables by source."""
    __slots__ = ("accumulate_on_write", "grads")

    def __init__(self, accumulate_on_write=False):
        self.accumulate_on_write = accumulate_on_write
        self.grads = {}


def _entry(func):
    return func.regions[0].blocks[0]


def _terminator(block):
    operations = block.operations
    return operations[len(operations) - 1].operation




# -- element shapes -----------------------------------------------------------------------------

def _split_element_type_and_count(split):
    """TF's ``GetSplitElementTypeAndCount``: ``(element type, count)`` of a split, or
    PassFailure."""
    lengths = const_ints(split.operands[2])
    if lengths is None:
        raise op_error(split, "non-constant split lengths")
    count = len(lengths)
    if count <= 0:
        raise op_error(split, "non-positive split count")
    value_type = split.operands[1].type
    if (not isinstance(value_type, ir.RankedTensorType)
            or not ir.RankedTensorType(value_type).has_static_shape
            or ir.RankedTensorType(value_type).rank < 1):
        raise op_error(split, "unknown or invalid split tensor shape")
    value_type = ir.RankedTensorType(value_type)
    shape = list(value_type.shape)
    length = shape[0] // count  # both are non-negative: C++'s division
    for value in lengths:
        if value != length:
            raise op_error(split, "different split lengths are not supported")
    return ir.RankedTensorType.get([length] + shape[1:], value_type.element_type), count


def _shape_attr(op, name):
    attributes = op.attributes
    if name not in attributes:
        return None
    return tf_type.ShapeAttr(attributes[name])


def _static_dims(shape):
    """The dimensions of a ``#tf_type.shape`` with a static shape, else None."""
    if shape is None or shape.rank is None:
        return None
    dims = list(shape.dims)
    if any(d is None or d < 0 for d in dims):
        return None
    return dims


def _drop_front(value_type):
    if not isinstance(value_type, ir.RankedTensorType) or not ir.RankedTensorType(value_type).rank:
        return None
    value_type = ir.RankedTensorType(value_type)
    return ir.RankedTensorType.get(list(value_type.shape)[1:], value_type.element_type)


# -- the decomposition ----------------------------------------------------------------------------

class _CalleeInfo:
    """TF's ``PartitionedCallTensorArrayOpsInfo``."""

    def __init__(self):
        self.signature_change = False
        self.decomposed_callee = None
        self.arg_grads = []
        self.ret_forward_input = []


class _Decomposition:
    def __init__(self, functions, report):
        self.functions = functions
        self.report = report
        self.callees = {}
        self.handlers = {
            IDENTITY: self._identity, IDENTITY_N: self._identity,
            TENSOR_ARRAY: self._tensor_array, READ: self._read, WRITE: self._write,
            CONCAT: self._concat, SPLIT: self._split, SIZE: self._size, GRAD: self._grad,
            GATHER: self._gather, SCATTER: self._scatter, CLOSE: self._close,
            WHILE: self._while, IF: self._if,
            CASE_REGION: self._region_op, IF_REGION: self._region_op,
            WHILE_REGION: self._region_op,
            PARTITIONED_CALL: self._partitioned_call,
            STATEFUL_PARTITIONED_CALL: self._stateful_partitioned_call,
        }

    def block(self, block, stats):
        """TF's ``DecomposeTensorArrayOps`` on the ops of `block` (those there now), nested
        functions and regions included, without Python recursion: a handler that decomposes
        another block yields that block's step (:func:`run_steps`)."""
        run_steps(self._block(block, stats))

    def _block(self, block, stats):
        handlers = self.handlers
        for op in list(block.operations):
            op = op.operation
            handler = handlers.get(op.name)
            if handler is not None:
                step = handler(op, stats)
                if step is not None:
                    yield step

    # -- creation and element shapes ------------------------------------------------------------

    def _element_shape(self, ta):
        """TF's ``GetTensorArrayElementShape``."""
        dims = _static_dims(_shape_attr(ta, "element_shape"))
        if dims is not None:
            return dims
        failed = [False]

        def infer(user):
            if failed[0]:
                return None
            name = user.name
            if name == WRITE:
                return user.operands[2].type
            if name == SPLIT:
                lengths = user.operands[2]
                if not isinstance(lengths, ir.OpResult) or lengths.owner.operation.name != CONST:
                    return None
                try:
                    return _split_element_type_and_count(user)[0]
                except PassFailure as error:
                    # TF emits the error and goes on without this access.
                    self.report(str(error), user)
                    failed[0] = True
                    return None
            if name == SCATTER:
                return _drop_front(user.operands[2].type)
            if name == GATHER:
                found = _drop_front(user.results[0].type)
                if found is not None:
                    return found
                dims = _static_dims(_shape_attr(user, "element_shape"))
                if dims is not None:
                    return ir.RankedTensorType.get(dims, element_type(user.results[0].type))
            return None

        found = element_type_from_access(ta.results[0], self.functions, infer)
        return None if found is None else list(found.shape)

    def _tensor_array(self, ta, stats):
        shape = self._element_shape(ta)
        if shape is None:
            raise op_error(ta, "unknown element shape")
        attributes = ta.attributes
        if "dynamic_size" in attributes and ir.BoolAttr(attributes["dynamic_size"]).value:
            raise op_error(ta, "dynamic tensor array size is unsupported")
        b = OpBuilder(ta)
        dtype = ir.TypeAttr(attributes["dtype"]).value
        buffer = init_buffer(shape, ta.operands[0], ta, dtype, b)
        var_type = ir.RankedTensorType.get([], tf_type.ResourceType.get([buffer.type]))
        local_var = b.value(LOCAL_VAR, [], var_type)
        write_local_variable(local_var, buffer, b)
        ta.results[0].replace_all_uses_with(local_var)
        f32 = ir.F32Type.get()
        flow = b.const(ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], f32),
                                                      ir.FloatAttr.get(f32, 0.0)))
        ta.results[1].replace_all_uses_with(flow)
        erase_op(ta)
        stats[local_var] = _Stats(False)

    def _grad_variable(self, var_type, op):
        """TF's ``CreateAndInitializeGradVariable``: a zeroed variable like `var_type`'s."""
        b = OpBuilder(op)
        var = b.value(LOCAL_VAR, [], var_type)
        buffer_type = ir.RankedTensorType(resource_subtype(var_type))
        shape = list(buffer_type.shape)
        buffer = init_buffer(shape[1:], shape[0], op, buffer_type.element_type, b)
        write_local_variable(var, buffer, b)
        return var

    # -- element ops ------------------------------------------------------------------------

    def _identity(self, op, stats):
        replace_results(op, list(op.operands))

    def _known(self, op, stats):
        stat = stats.get(op.operands[0])
        if stat is None:
            raise op_error(op, "unknown tensor array")
        return stat

    def _read(self, op, stats):
        self._known(op, stats)
        b = OpBuilder(op)
        buffer = read_local_variable(op.operands[0], b)
        index = reshape_scalar_to_size_type(b, op.operands[1])
        element = get_element(index, buffer, b)
        _replace_keeping_return_type(op.results[0], element)
        erase_op(op)

    def _write(self, op, stats):
        stat = self._known(op, stats)
        local_var = op.operands[0]
        b = OpBuilder(op)
        buffer = read_local_variable(local_var, b)
        index = reshape_scalar_to_size_type(b, op.operands[1])
        element = op.operands[2]
        if stat.accumulate_on_write:
            original = get_element(index, buffer, b, keep_slice_shape=True)
            slice_type = original.type
            element = b.value("tf.Reshape",
                              [element, r1_const(ir.RankedTensorType(slice_type).shape, b)],
                              slice_type)
            element = accumulate_buffers(element, original, b)
        buffer = set_element(index, buffer, element, b)
        write_local_variable(local_var, buffer, b)
        replace_results(op, [op.operands[3]])

    def _concat(self, op, stats):
        self._known(op, stats)
        b = OpBuilder(op)
        buffer = read_local_variable(op.operands[0], b)
        buffer_type = ir.RankedTensorType(buffer.type)
        if buffer_type.rank <= 1:
            raise op_error(op, "cannot concat on scalar-element tensor array")
        dims = list(buffer_type.shape)
        shape = dims[1:]
        shape[0] *= dims[0]
        buffer = b.value("tf.Reshape", [buffer, r1_const(shape, b)],
                         ir.RankedTensorType.get(shape, buffer_type.element_type))
        _replace_keeping_return_type(op.results[0], buffer)
        lengths = ir.DenseElementsAttr.get_splat(
            ir.RankedTensorType.get([dims[0]], ir.IntegerType.get_signless(64)),
            ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dims[1]))
        op.results[1].replace_all_uses_with(b.const(lengths))
        erase_op(op)

    def _split(self, op, stats):
        self._known(op, stats)
        b = OpBuilder(op)
        element, count = _split_element_type_and_count(op)
        buffer_shape = [count] + list(element.shape)
        buffer = b.value("tf.Reshape", [op.operands[1], r1_const(buffer_shape, b)],
                         ir.RankedTensorType.get(buffer_shape, element.element_type))
        old = read_local_variable(op.operands[0], b)
        buffer = accumulate_buffers(old, buffer, b)
        write_local_variable(op.operands[0], buffer, b)
        replace_results(op, [op.operands[3]])

    def _size(self, op, stats):
        self._known(op, stats)
        buffer_type = ir.RankedTensorType(resource_subtype(op.operands[0].type))
        replace_results(op, [scalar_const(buffer_type.shape[0], OpBuilder(op))])

    def _grad(self, op, stats):
        local_var = op.operands[0]
        stat = self._known(op, stats)
        source = ir.StringAttr(op.attributes["source"]).value
        grad_var = stat.grads.get(source)
        if grad_var is None:
            grad_var = self._grad_variable(local_var.type, op)
            stat.grads[source] = grad_var
            stats[grad_var] = _Stats(True)
        replace_results(op, [grad_var, op.operands[1]])

    def _gather(self, op, stats):
        self._known(op, stats)
        b = OpBuilder(op)
        buffer = read_local_variable(op.operands[0], b)
        result = gather_elements(op.operands[1], buffer, b)
        _replace_keeping_return_type(op.results[0], result)
        erase_op(op)

    def _scatter(self, op, stats):
        self._known(op, stats)
        b = OpBuilder(op)
        local_var = op.operands[0]
        buffer = read_local_variable(local_var, b)
        buffer = scatter_accumulate_elements(op.operands[1], op.operands[2], buffer, b)
        write_local_variable(local_var, buffer, b)
        replace_results(op, [op.operands[3]])

    def _close(self, op, stats):
        erase_op(op)

    # -- gradients across functions ------------------------------------------------------------

    def _accessed_gradients(self, funcs):
        """TF's ``AccessedGradients``: {argument number: [gradient sources]} the functions (and
        those they call) take of their arguments. Identities there lose their uses (as TF's
        walk does, leaving them in place)."""
        result = {}
        seen = {}

        def insert(value, source, block):
            if not isinstance(value, ir.BlockArgument) or value.owner != block:
                return
            number = value.arg_number
            sources = seen.setdefault(number, set())
            if source in sources:
                return
            sources.add(source)
            result.setdefault(number, []).append(source)

        names = [IDENTITY, IDENTITY_N, GRAD, WHILE, IF, *CALLEE_ATTRS]
        for func in funcs:
            block = _entry(func)
            for op in ops_named(func, names):
                name = op.name
                if name in (IDENTITY, IDENTITY_N):
                    for result_value, operand in zip(op.results, op.operands):
                        result_value.replace_all_uses_with(operand)
                elif name == GRAD:
                    insert(op.operands[0], ir.StringAttr(op.attributes["source"]).value, block)
                elif name == WHILE:
                    inner = self._accessed_gradients([self.functions.branch(op, "body"),
                                                      self.functions.branch(op, "cond")])
                    for number, sources in inner.items():
                        for source in sources:
                            insert(op.operands[number], source, block)
                elif name == IF:
                    inner = self._accessed_gradients([self.functions.branch(op, "then_branch"),
                                                      self.functions.branch(op, "else_branch")])
                    for number, sources in inner.items():
                        for source in sources:
                            insert(op.operands[number + 1], source, block)
                else:
                    inner = self._accessed_gradients([self.functions.branch(op, CALLEE_ATTRS[name])])
                    for number, sources in inner.items():
                        for source in sources:
                            insert(op.operands[number], source, block)
        return result

    def _change_input_signature(self, func, grads, arg_buffer_type, arg_accumulate, stats):
        """TF's ``ChangeFunctionInputSignature``: array arguments take their variable type; one
        argument per gradient source is appended (recorded in `stats` only for arrays with
        gradients, as TF's)."""
        block = _entry(func)
        loc = func.location
        for number, arg in enumerate(list(block.arguments)):
            var_type = arg_buffer_type(number)
            if var_type is None:
                continue
            arg.set_type(var_type)
            sources = grads.get(number)
            if sources is None:
                continue
            grads_map = {}
            for source in sources:
                grad = block.add_argument(var_type, loc)
                stats[grad] = _Stats(True)
                grads_map[source] = grad
            stat = stats.setdefault(arg, _Stats())
            stat.accumulate_on_write = arg_accumulate(number)
            stat.grads = grads_map
        update_func_type(func)

    def _arg_lookups(self, operands, stats, offset=0, on_found=None):
        def arg_buffer_type(index):
            if index + offset >= len(operands):
                return None
            value = operands[index + offset]
            if value not in stats:
                return None
            if on_found is not None:
                on_found()
            return value.type

        def arg_accumulate(index):
            if index + offset >= len(operands):
                return False
            stat = stats.get(operands[index + offset])
            return stat.accumulate_on_write if stat is not None else False

        return arg_buffer_type, arg_accumulate

    def _grad_operands(self, op, operands, grads, stats, offset):
        """The gradient variables appended to a rebuilt tf.While / tf.If: the caller's, made
        before `op` where it has none. Every operand gets stats, as TF's ``operator[]``."""
        count = len(operands)
        for index in range(count - offset):
            operand = operands[index + offset]
            stat = stats.get(operand)
            if stat is None:
                stat = stats[operand] = _Stats()
            sources = grads.get(index)
            if sources is None:
                continue
            for source in sources:
                grad = stat.grads.get(source)
                if grad is None:
                    grad = self._grad_variable(operand.type, op)
                    stat.grads[source] = grad
                    stats[grad] = _Stats(True)
                operands.append(grad)
        return operands

    # -- functional control flow ----------------------------------------------------------------

    def _while(self, op, stats):
        body = self.functions.branch(op, "body")
        cond = self.functions.branch(op, "cond")
        grads = self._accessed_gradients([body, cond])
        original = list(op.operands)
        arg_buffer_type, arg_accumulate = self._arg_lookups(original, stats)
        body_stats = {}
        self._change_input_signature(body, grads, arg_buffer_type, arg_accumulate, body_stats)
        cond_stats = {}
        self._change_input_signature(cond, grads, arg_buffer_type, arg_accumulate, cond_stats)
        yield self._block(_entry(body), body_stats)
        yield self._block(_entry(cond), cond_stats)
        if not body_stats and not cond_stats:
            return
        old_return = _terminator(_entry(body))
        returned = list(old_return.operands)
        for index in range(len(op.results)):
            if arg_buffer_type(index) is None:
                continue
            value = old_return.operands[index]
            if not isinstance(value, ir.BlockArgument):
                raise op_error(op, "output tensor array does not alias input in a while loop")
            stat = body_stats.setdefault(value, _Stats())
            for source in grads.get(index, []):
                grad = stat.grads.get(source)
                if grad is None:
                    raise op_error(op, f"the body returns an array without its gradient "
                                       f"'{source}' (TensorFlow crashes here)")
                returned.append(grad)
        ir.Operation.create(RETURN, operands=returned, loc=old_return.location,
                            ip=ir.InsertionPoint(old_return))
        erase_op(old_return)
        update_func_type(body)
        operands = self._grad_operands(op, list(original), grads, stats, 0)
        new = recreate_op(op, [a.type for a in _entry(body).arguments], operands)
        for index in range(len(original)):
            # Every operand has stats now (as in TF): every result takes the loop's operand.
            if arg_buffer_type(index) is not None:
                op.results[index].replace_all_uses_with(original[index])
            else:
                op.results[index].replace_all_uses_with(new.results[index])
        erase_op(op)

    def _if(self, op, stats):
        then_branch = self.functions.branch(op, "then_branch")
        else_branch = self.functions.branch(op, "else_branch")
        grads = self._accessed_gradients([then_branch, else_branch])
        original = list(op.operands)
        arg_buffer_type, arg_accumulate = self._arg_lookups(original, stats, offset=1)
        then_stats = {}
        self._change_input_signature(then_branch, grads, arg_buffer_type, arg_accumulate,
                                     then_stats)
        else_stats = {}
        self._change_input_signature(else_branch, grads, arg_buffer_type, arg_accumulate,
                                     else_stats)
        yield self._block(_entry(then_branch), then_stats)
        yield self._block(_entry(else_branch), else_stats)
        if not then_stats and not else_stats:
            return
        operands = self._grad_operands(op, list(original), grads, stats, 1)
        result_types = [v.type for v in _terminator(_entry(then_branch)).operands]
        new = recreate_op(op, result_types, operands)
        for index, result in enumerate(list(op.results)):
            if not is_resource_type(result.type):
                result.replace_all_uses_with(new.results[index])
                continue
            then_forward = _forwarded_argument(then_branch, index)
            else_forward = _forwarded_argument(else_branch, index)
            if then_forward != else_forward or then_forward < 0:
                raise op_error(op, "branches do not forward the same input resource")
            result.replace_all_uses_with(original[then_forward + 1])
        erase_op(op)

    def _region_op(self, op, stats):
        """TF's ``HandleRegionControlFlowOps``."""
        check_region_op_resources(op)
        for region in op.regions:
            yield self._block(region.blocks[0], stats)

    # -- calls ----------------------------------------------------------------------------------

    def _partitioned_call(self, op, stats):
        callee = self.functions.lookup(op, "f")
        if callee is None:
            raise op_error(op, "TensorArray decomposition does not support call with nested "
                               "references.")
        return self._call(op, callee, stats)

    def _stateful_partitioned_call(self, op, stats):
        return self._call(op, self.functions.branch(op, "f"), stats)

    def _call(self, call, callee, stats):
        """TF's ``HandlePartitionedCallOp``."""
        name = symbol_name(callee)
        info = self.callees.get(name)
        if info is not None:
            if info.signature_change:
                self._recreate_caller(call, info, stats)
            return
        info = self.callees[name] = _CalleeInfo()

        def changed():
            info.signature_change = True

        operands = list(call.operands)
        arg_buffer_type, arg_accumulate = self._arg_lookups(operands, stats, on_found=changed)
        lowered = callee
        if not is_private(callee):
            # A copy in case the signature changes (decomposed before it joins the module).
            lowered = callee.clone()
            set_private(lowered)
        grads = self._accessed_gradients([lowered])
        for number in range(len(_entry(lowered).arguments)):
            if number in grads:
                info.arg_grads.append((number, grads[number]))
        callee_stats = {}
        self._change_input_signature(lowered, grads, arg_buffer_type, arg_accumulate,
                                     callee_stats)
        yield self._block(_entry(lowered), callee_stats)
        returned = _terminator(_entry(lowered)).operands
        for index in range(len(call.results)):
            value = returned[index]
            if not is_resource_type(value.type) or not isinstance(value, ir.BlockArgument):
                continue
            info.ret_forward_input.append((index, value.arg_number))
        info.decomposed_callee = lowered
        if lowered != callee:
            if not info.signature_change:
                set_symbol_name(lowered, name)
                self.functions.erase(callee)
            else:
                set_symbol_name(lowered, f"{name}_tensorarray_decomposed")
            self.functions.insert(lowered)
        if info.signature_change:
            self._recreate_caller(call, info, stats)

    def _recreate_caller(self, call, info, stats):
        operands = list(call.operands)
        new_operands = list(operands)
        for number, sources in info.arg_grads:
            operand = operands[number]
            stat = stats.get(operand)
            if stat is None:
                raise op_error(call, "unknown tensor array")
            for source in sources:
                grad = stat.grads.get(source)
                if grad is None:
                    # Not given stats of its own (as in TF).
                    grad = self._grad_variable(operand.type, call)
                    stat.grads[source] = grad
                new_operands.append(grad)
        callee = info.decomposed_callee
        result_types = list(ir.FunctionType(
            ir.TypeAttr(callee.attributes["function_type"]).value).results)
        new = recreate_op(call, result_types, new_operands)
        new.attributes["f"] = ir.FlatSymbolRefAttr.get(symbol_name(callee))
        for index, number in info.ret_forward_input:
            call.results[index].replace_all_uses_with(operands[number])
        replace_results(call, list(new.results))


def _forwarded_argument(func, index):
    value = _terminator(_entry(func)).operands[index]
    return value.arg_number if isinstance(value, ir.BlockArgument) else -1


def _replace_keeping_return_type(old, new):
    """TF's ``ReplaceAllUsesExceptTerminator`` then ``ReplaceAllUsesWithCast``: uses of `old`
    take `new`; where the types differ, the return of the enclosing function keeps `old`'s
    type through a ``tensor.cast`` (made before `old`'s op)."""
    owner = old.owner.operation
    if old.type == new.type:
        old.replace_all_uses_with(new)
        return
    func = enclosing_op(owner, FUNC)
    terminator = _terminator(_entry(func))
    old.replace_all_uses_except(new, terminator)
    if not any(True for _ in old.uses):
        return
    cast = ir.Operation.create("tensor.cast", results=[old.type], operands=[new],
                               loc=owner.location, ip=ir.InsertionPoint(owner))
    old.replace_all_uses_with(cast.results[0])


@register_pass
class TensorArrayOpsDecompositionPass(Pass):
    argument = "tf-tensor-array-ops-decomposition"
    anchor = MODULE
    dependent_dialects = ("tf", "tensor")

    def run_on_operation(self, module):
        functions = Functions(module)
        main = functions.get("main")
        if main is None:
            self.mark_all_analyses_preserved()
            return
        if not len(main.regions[0].blocks):
            self.fail("'func.func' op @main has no body (TensorFlow crashes here)", main)

        _Decomposition(functions, self.emit_error).block(_entry(main), {})
