"""Decomposes TensorList operations into generic operations on tensors.

As TF 2.21's -tf-tensor-list-ops-decomposition, a module pass over the function ``@main``
(nothing happens without one): a tensor list becomes a buffer tensor holding every element
(a new first dimension for the list index) and a size (``tensor<1xi32>``); list updates build
new buffers, so the result can be legalized to XLA. The buffer's shape must be static:

* ``tf.EmptyTensorList`` / ``tf.TensorListReserve``: a zero buffer (``tf.BroadcastTo``) of
  ``max_num_elements`` / ``num_elements`` elements (a ``tf.Const``) whose shape comes from the
  static shape in the result's variant type, else from a constant ``element_shape`` without
  ``-1``; size 0 / ``num_elements`` (the reserved list's size is fixed);
* ``tf.TensorListFromTensor``: a ``tf.Identity`` of the (statically shaped) tensor, a fixed
  size of its first dimension;
* ``tf.TensorListPushBack`` / ``tf.TensorListSetItem``: ``tf.XlaDynamicUpdateSlice`` at the
  size (which grows by one) / the index; ``tf.TensorListPopBack`` / ``tf.TensorListGetItem``:
  a ``tf.Slice`` and ``tf.Reshape`` of the element (a pop copies the buffer with
  ``tf.Identity`` and shrinks the size); pushing and popping a fixed-size list is an error;
* ``tf.TensorListLength``: the size (a constant for a fixed size);
  ``tf.TensorListElementShape``: a constant; ``tf.TensorListStack``: the buffer;
  ``tf.TensorListGather``: a ``tf.Slice`` (contiguous constant indices) or ``tf.GatherV2``;
  ``tf.TensorListScatterIntoExistingList``: ``tf.TensorScatterUpdate``;
* ``tf.AddN`` / ``tf.ZerosLike`` of a list: retyped to the buffer's type; ``tf.Identity``,
  ``tf.IdentityN`` and ``tf.StopGradient`` (of any value) are removed.

Lists cross control flow and calls: ``tf.While``, ``tf.If``, ``tf.Case`` (their functions
are rewritten in place: list arguments take the buffer type and a size argument is appended
for each, returned buffers get their size returned too, and the op is rebuilt with the
sizes as extra operands and results), ``tf.WhileRegion``, ``tf.IfRegion``,
``tf.CaseRegion`` (likewise with region arguments and ``tf.Yield``), and
``tf.PartitionedCall`` / ``tf.StatefulPartitionedCall``: the callee is decomposed once; a
public callee whose signature changes is decomposed in a private copy
``<name>_tensorlist_decomposed`` (added at the end of the module), one whose signature does
not is replaced by its decomposed private copy (moved to the end of the module). As in TF,
a list a ``tf.WhileRegion`` of the callee carries as its region argument ``#i`` makes the
callers pass a list as operand ``#i`` too ("unknown tensor list." otherwise).

Failures (TF's messages; the module is left unchanged): "unknown max element count",
"unknown tensor list element shape", "TensorListFromTensorOp input has unknown shape.",
"cannot push on a fixed-size tensor list", "cannot pop on a fixed-size tensor list",
"found tf.<op> on unknown TensorList." / "unknown tensor list" (an op on a value that is not
a decomposed list), "unknown tensor list." (a call's list operand), "TensorList decomposition
does not support call with nested references." (a ``tf.PartitionedCall`` whose callee is not
found, as in a public callee, which TF decomposes before adding it to the module). Where TF
crashes (a function that cannot be found), a diagnostic says so.
"""
from mlir import ir

from .framework import Pass, PassFailure, erase_op, register_pass
from .names import (CASE, CASE_REGION, IF, IF_REGION, MODULE, PARTITIONED_CALL,
                    STATEFUL_PARTITIONED_CALL, WHILE, WHILE_REGION)
from .analysis.symbols import symbol_name
from .lib.collection_ops import (IDENTITY, IDENTITY_N, Functions, OpBuilder, const_ints,
                                 gather_elements, get_element, init_buffer, is_private,
                                 op_error, r1_const, recreate_op, replace_results,
                                 reshape_scalar_to_size_type, run_steps, scalar_const,
                                 set_element,
                                 set_private, set_symbol_name, size_type, tf_tensor_type,
                                 update_func_type, wrap_int)
from .lib.tf_builders import element_type
from ..dialects import tf_type

STOP_GRADIENT = "tf.StopGradient"
_TF_DYNAMIC = -1


def _entry(func):
    return func.regions[0].blocks[0]


def _terminator(block):
    operations = block.operations
    return operations[len(operations) - 1].operation


def _modify_signature(func, sizes, arg_type, arg_fixed):
    """TF's ``ModifyFunctionSignature``: list arguments take their buffer type and get a size
    argument appended (recorded in `sizes`)."""
    block = _entry(func)
    args = list(block.arguments)
    loc = func.location
    for index, arg in enumerate(args):
        buffer_type = arg_type(index)
        if buffer_type is None:
            continue
        arg.set_type(buffer_type)
        size_arg = block.add_argument(size_type(), loc)
        sizes[arg] = (size_arg, arg_fixed(index))
    update_func_type(func)


def _add_sizes_to_terminator(block, sizes):
    """TF's ``AddTensorListSizesToTerminator``: the terminator rebuilt with the size of each
    buffer it returns appended; ``[(buffer index, size index, fixed)]``."""
    old = _terminator(block)
    outputs = list(old.operands)
    added = []
    for index, value in enumerate(list(old.operands)):
        info = sizes.get(value)
        if info is None:
            continue
        added.append((index, len(outputs), info[1]))
        outputs.append(info[0])
    ir.Operation.create(old.name, operands=outputs, loc=old.location, ip=ir.InsertionPoint(old))
    erase_op(old)
    return added


def _modify_return(func, sizes):
    """TF's ``ModifyFunctionReturn``."""
    added = _add_sizes_to_terminator(_entry(func), sizes)
    update_func_type(func)
    return added


def _record_results(sizes, new, added):
    for buffer_index, size_index, fixed in added:
        sizes[new.results[buffer_index]] = (new.results[size_index], fixed)


def _replace_front(op, new):
    """Uses of `op`'s results go to the first results of `new`; `op` is erased."""
    replace_results(op, list(new.results)[:len(op.results)])


def _static_shape(type_):
    return (isinstance(type_, ir.RankedTensorType)
            and ir.RankedTensorType(type_).has_static_shape)


def _shape_from_result_type(type_):
    """TF's ``GetElementShapeFromResultType``: the static shape of the variant's only subtype."""
    element = element_type(type_)
    if not tf_type.VariantType.isinstance(element):
        return None
    subtypes = list(tf_type.VariantType(element).subtypes)
    if len(subtypes) != 1 or not _static_shape(subtypes[0]):
        return None
    return list(ir.RankedTensorType(subtypes[0]).shape)


def _const_shape(value):
    """TF's ``GetConstShapeValue``: a constant shape without unknown (-1) dimensions."""
    values = const_ints(value)
    if values is None or any(v == _TF_DYNAMIC for v in values):
        return None
    return values


def _list_element_dtype(op):
    variant = tf_type.VariantType(element_type(op.results[0].type))
    return element_type(list(variant.subtypes)[0])


class _CalleeInfo:
    """TF's ``PartitionedCallDecompositionInfo``."""

    def __init__(self):
        self.signature_change = False
        self.decomposed_callee = None
        self.buffer_arg_to_size_arg = {}
        self.buffer_ret_to_size_ret = []


class _Decomposition:
    def __init__(self, functions):
        self.functions = functions
        self.callees = {}
        self.handlers = {
            IDENTITY: self._identity, IDENTITY_N: self._identity, STOP_GRADIENT: self._identity,
            "tf.EmptyTensorList": self._empty, "tf.TensorListReserve": self._reserve,
            "tf.TensorListFromTensor": self._from_tensor,
            "tf.TensorListPushBack": self._push_back, "tf.TensorListPopBack": self._pop_back,
            "tf.TensorListGetItem": self._get_item, "tf.TensorListSetItem": self._set_item,
            "tf.TensorListLength": self._length, "tf.TensorListStack": self._stack,
            "tf.TensorListElementShape": self._element_shape,
            "tf.TensorListGather": self._gather,
            "tf.TensorListScatterIntoExistingList": self._scatter,
            "tf.AddN": self._add_n, "tf.ZerosLike": self._zeros_like,
            WHILE: self._while, IF: self._if, CASE: self._case,
            PARTITIONED_CALL: self._partitioned_call,
            STATEFUL_PARTITIONED_CALL: self._stateful_partitioned_call,
            WHILE_REGION: self._while_region, IF_REGION: self._if_region,
            CASE_REGION: self._case_region,
        }

    def block(self, block, sizes):
        """TF's ``DecomposeTensorListOpsInternal`` on the ops of `block` (those there now),
        nested functions and regions included, without Python recursion: a handler that
        decomposes another block yields that block's step (:func:`run_steps`)."""
        run_steps(self._block(block, sizes))

    def _block(self, block, sizes):
        handlers = self.handlers
        for op in list(block.operations):
            op = op.operation
            handler = handlers.get(op.name)
            if handler is not None:
                step = handler(op, sizes)
                if step is not None:
                    yield step

    # -- simple ops ---------------------------------------------------------------------------

    def _identity(self, op, sizes):
        replace_results(op, list(op.operands))

    def _element_shape_of_new_list(self, op):
        shape = _shape_from_result_type(op.results[0].type)
        if shape is None:
            shape = _const_shape(op.operands[0])
            if shape is None:
                raise op_error(op, "unknown tensor list element shape")
        return shape

    def _empty(self, op, sizes):
        b = OpBuilder(op)
        shape = self._element_shape_of_new_list(op)
        buffer = init_buffer(shape, op.operands[1], op, _list_element_dtype(op), b)
        size = r1_const([0], b)
        op.results[0].replace_all_uses_with(buffer)
        sizes[buffer] = (size, False)
        erase_op(op)

    def _reserve(self, op, sizes):
        b = OpBuilder(op)
        shape = self._element_shape_of_new_list(op)
        buffer = init_buffer(shape, op.operands[1], op, _list_element_dtype(op), b)
        size = reshape_scalar_to_size_type(b, op.operands[1])
        sizes[buffer] = (size, True)
        op.results[0].replace_all_uses_with(buffer)
        erase_op(op)

    def _from_tensor(self, op, sizes):
        b = OpBuilder(op)
        tensor = op.operands[0]
        buffer = b.value(IDENTITY, [tensor], tensor.type)
        if not _static_shape(buffer.type):
            raise op_error(op, "TensorListFromTensorOp input has unknown shape.")
        size = r1_const([ir.RankedTensorType(buffer.type).shape[0]], b)
        sizes[buffer] = (size, True)
        op.results[0].replace_all_uses_with(buffer)
        erase_op(op)

    def _known(self, op, sizes, message):
        info = sizes.get(op.operands[0])
        if info is None:
            raise op_error(op, message)
        return info

    def _push_back(self, op, sizes):
        buffer = op.operands[0]
        size, fixed = self._known(op, sizes, "found tf.TensorListPushBack on unknown TensorList.")
        if fixed:
            raise _plain_error(op, "cannot push on a fixed-size tensor list")
        b = OpBuilder(op)
        new_buffer = set_element(size, buffer, op.operands[1], b)
        new_size = b.value("tf.AddV2", [size, r1_const([1], b)], size.type)
        op.results[0].replace_all_uses_with(new_buffer)
        sizes[new_buffer] = (new_size, False)
        erase_op(op)

    def _pop_back(self, op, sizes):
        buffer = op.operands[0]
        size, fixed = self._known(op, sizes, "found tf.TensorListPopBack on unknown TensorList.")
        if fixed:
            raise _plain_error(op, "cannot pop on a fixed-size tensor list")
        b = OpBuilder(op)
        new_buffer = b.value(IDENTITY, [buffer], buffer.type)
        new_size = b.value("tf.Sub", [size, r1_const([1], b)], size.type)
        element = get_element(new_size, new_buffer, b)
        op.results[0].replace_all_uses_with(new_buffer)
        op.results[1].replace_all_uses_with(element)
        erase_op(op)
        sizes[new_buffer] = (new_size, False)

    def _get_item(self, op, sizes):
        buffer = op.operands[0]
        self._known(op, sizes, "found tf.TensorListGetItemOp on unknown TensorList.")
        b = OpBuilder(op)
        index = reshape_scalar_to_size_type(b, op.operands[1])
        element = get_element(index, buffer, b)
        replace_results(op, [element])

    def _set_item(self, op, sizes):
        buffer = op.operands[0]
        info = self._known(op, sizes, "found tf.TensorListSetItemOp on unknown TensorList.")
        b = OpBuilder(op)
        index = reshape_scalar_to_size_type(b, op.operands[1])
        new_buffer = set_element(index, buffer, op.operands[2], b)
        op.results[0].replace_all_uses_with(new_buffer)
        sizes[new_buffer] = info
        erase_op(op)

    def _length(self, op, sizes):
        size, fixed = self._known(op, sizes, "found tf.TensorListLength on unknown TensorList.")
        b = OpBuilder(op)
        if fixed:
            length = scalar_const(ir.RankedTensorType(op.operands[0].type).shape[0], b)
        else:
            scalar = ir.RankedTensorType.get([], element_type(size.type))
            length = b.value("tf.Reshape", [size, r1_const([], b)], scalar)
        replace_results(op, [length])

    def _stack(self, op, sizes):
        replace_results(op, [op.operands[0]])

    def _element_shape(self, op, sizes):
        self._known(op, sizes, "unknown tensor list")
        buffer = op.operands[0]
        bits = ir.IntegerType(element_type(op.results[0].type)).width
        shape = list(ir.RankedTensorType(buffer.type).shape)[1:]
        replace_results(op, [r1_const(shape, OpBuilder(op), bits)])

    def _gather(self, op, sizes):
        self._known(op, sizes, "unknown tensor list")
        result = gather_elements(op.operands[1], op.operands[0], OpBuilder(op))
        replace_results(op, [result])

    def _scatter(self, op, sizes):
        info = self._known(op, sizes, "unknown tensor list")
        buffer, tensor, indices = op.operands
        b = OpBuilder(op)
        indices_type = ir.RankedTensorType(indices.type)
        count = indices_type.shape[0]
        # TF's ReshapeOp builder types the result from the constant shape [count, 1].
        shape = r1_const([count, 1], b)
        shaped = b.value("tf.Reshape", [indices, shape],
                         tf_tensor_type([wrap_int(count, 32), 1], indices_type.element_type))
        updated = b.value("tf.TensorScatterUpdate", [buffer, shaped, tensor], buffer.type,
                          {"bad_indices_policy": ir.StringAttr.get("")})
        op.results[0].replace_all_uses_with(updated)
        erase_op(op)
        sizes[updated] = info

    def _add_n(self, op, sizes):
        first = op.operands[0]
        info = sizes.get(first)
        if info is not None:
            op.results[0].set_type(first.type)
            sizes[op.results[0]] = info

    def _zeros_like(self, op, sizes):
        x = op.operands[0]
        info = sizes.get(x)
        if info is not None:
            op.results[0].set_type(x.type)
            sizes[op.results[0]] = info

    # -- functional control flow ----------------------------------------------------------------

    def _arg_lookups(self, operands, sizes, offset=0):
        def arg_type(index):
            # A function used twice gains size arguments twice (as in TF): more arguments
            # than operands, which the verifier reports after the pass.
            if index + offset >= len(operands):
                return None
            value = operands[index + offset]
            return value.type if value in sizes else None

        def arg_fixed(index):
            return sizes[operands[index + offset]][1]

        return arg_type, arg_fixed

    def _while(self, op, sizes):
        operands = list(op.operands)
        arg_type, arg_fixed = self._arg_lookups(operands, sizes)
        body = self.functions.branch(op, "body")
        body_sizes = {}
        _modify_signature(body, body_sizes, arg_type, arg_fixed)
        yield self._block(_entry(body), body_sizes)
        added = _modify_return(body, body_sizes)
        cond = self.functions.branch(op, "cond")
        cond_sizes = {}
        _modify_signature(cond, cond_sizes, arg_type, arg_fixed)
        yield self._block(_entry(cond), cond_sizes)
        if not added:
            return
        new_operands = operands + [sizes[operands[i]][0] for i in range(len(op.results))
                                   if operands[i] in sizes]
        new = recreate_op(op, [a.type for a in _entry(body).arguments], new_operands)
        _record_results(sizes, new, added)
        _replace_front(op, new)

    def _if(self, op, sizes):
        branches = [self.functions.branch(op, "then_branch"),
                    self.functions.branch(op, "else_branch")]
        return self._case_or_if(op, branches, sizes)

    def _case(self, op, sizes):
        branches = []
        for attr in ir.ArrayAttr(op.attributes["branches"]):
            name = ir.FlatSymbolRefAttr(attr).value
            func = self.functions.get(name) if self.functions.attached(op) else None
            if func is None or not len(func.regions[0].blocks):
                raise op_error(op, f"cannot find its branch @{name} with a body in the module "
                                   f"(TensorFlow crashes here)")
            branches.append(func)
        return self._case_or_if(op, branches, sizes)

    def _case_or_if(self, op, branches, sizes):
        operands = list(op.operands)
        arg_type, arg_fixed = self._arg_lookups(operands, sizes, offset=1)
        maps = []
        for branch in branches:
            branch_sizes = {}
            maps.append(branch_sizes)
            _modify_signature(branch, branch_sizes, arg_type, arg_fixed)
            yield self._block(_entry(branch), branch_sizes)
        arg_no_changed = not maps[0]
        added = _modify_return(branches[0], maps[0])
        for branch, branch_sizes in zip(branches[1:], maps[1:]):
            _modify_return(branch, branch_sizes)
        if not added and arg_no_changed:
            return
        new_operands = operands + [sizes[v][0] for v in operands[1:] if v in sizes]
        result_types = [v.type for v in _terminator(_entry(branches[0])).operands]
        new = recreate_op(op, result_types, new_operands)
        _record_results(sizes, new, added)
        _replace_front(op, new)

    # -- region control flow ----------------------------------------------------------------

    def _while_region(self, op, sizes):
        operands = list(op.operands)

        def modify_region_arguments(region):
            block = region.blocks[0]
            for index, arg in enumerate(list(block.arguments)):
                info = sizes.get(operands[index])
                if info is None:
                    continue
                arg.set_type(operands[index].type)
                size_arg = block.add_argument(size_type(), op.location)
                sizes[arg] = (size_arg, info[1])

        cond_region, body_region = op.regions[0], op.regions[1]
        modify_region_arguments(body_region)
        body = body_region.blocks[0]
        yield self._block(body, sizes)
        added = _add_sizes_to_terminator(body, sizes)
        modify_region_arguments(cond_region)
        yield self._block(cond_region.blocks[0], sizes)
        if not added:
            return
        new_operands = operands + [sizes[operands[i]][0] for i in range(len(op.results))
                                   if operands[i] in sizes]
        result_types = [v.type for v in _terminator(body).operands]
        new = recreate_op(op, result_types, new_operands)
        _record_results(sizes, new, added)
        _replace_front(op, new)

    def _if_region(self, op, sizes):
        return self._branch_regions(op, sizes)

    def _case_region(self, op, sizes):
        return self._branch_regions(op, sizes)

    def _branch_regions(self, op, sizes):
        """TF's ``HandleIfRegionOp`` / ``HandleCaseRegionOp``."""
        blocks = [region.blocks[0] for region in op.regions]
        for block in blocks:
            yield self._block(block, sizes)
        added = _add_sizes_to_terminator(blocks[0], sizes)
        for block in blocks[1:]:
            _add_sizes_to_terminator(block, sizes)
        if not added:
            return
        result_types = [v.type for v in _terminator(blocks[0]).operands]
        new = recreate_op(op, result_types, list(op.operands))
        _record_results(sizes, new, added)
        _replace_front(op, new)

    # -- calls ----------------------------------------------------------------------------------

    def _partitioned_call(self, op, sizes):
        callee = self.functions.lookup(op, "f")
        if callee is None:
            raise op_error(op, "TensorList decomposition does not support call with nested "
                               "references.")
        return self._call(op, callee, sizes)

    def _stateful_partitioned_call(self, op, sizes):
        return self._call(op, self.functions.branch(op, "f"), sizes)

    def _call(self, call, callee, sizes):
        """TF's ``HandlePartitionedCallOp``."""
        name = symbol_name(callee)
        info = self.callees.get(name)
        if info is not None:
            if info.signature_change:
                self._recreate_caller(call, info, sizes)
            return
        info = self.callees[name] = _CalleeInfo()
        lowered = callee
        if not is_private(callee):
            # A copy in case the signature changes (decomposed before it joins the module).
            lowered = callee.clone()
            set_private(lowered)
        operands = list(call.operands)
        arg_type, arg_fixed = self._arg_lookups(operands, sizes)
        callee_sizes = {}
        _modify_signature(lowered, callee_sizes, arg_type, arg_fixed)
        args_no_changed = not callee_sizes
        yield self._block(_entry(lowered), callee_sizes)
        info.buffer_ret_to_size_ret = _modify_return(lowered, callee_sizes)
        info.decomposed_callee = lowered
        if args_no_changed and not info.buffer_ret_to_size_ret:
            info.signature_change = False
            if lowered != callee:
                set_symbol_name(lowered, name)
                self.functions.erase(callee)
                self.functions.insert(lowered)
            return
        info.signature_change = True
        for key, (size, _fixed) in callee_sizes.items():
            # As TF: every block argument holding a list counts, those of tf.WhileRegion
            # regions in the callee too (the caller then needs a list at that index).
            if isinstance(key, ir.BlockArgument):
                info.buffer_arg_to_size_arg[key.arg_number] = ir.BlockArgument(size).arg_number
        if lowered != callee:
            set_symbol_name(lowered, f"{name}_tensorlist_decomposed")
            self.functions.insert(lowered)
        self._recreate_caller(call, info, sizes)

    def _recreate_caller(self, call, info, sizes):
        operands = list(call.operands)
        new_operands = list(operands)
        for index, value in enumerate(operands):
            if index not in info.buffer_arg_to_size_arg:
                continue
            entry = sizes.get(value)
            if entry is None:
                raise op_error(call, "unknown tensor list.")
            new_operands.append(entry[0])
        callee = info.decomposed_callee
        result_types = list(ir.FunctionType(
            ir.TypeAttr(callee.attributes["function_type"]).value).results)
        new = recreate_op(call, result_types, new_operands)
        new.attributes["f"] = ir.FlatSymbolRefAttr.get(symbol_name(callee))
        _record_results(sizes, new, info.buffer_ret_to_size_ret)
        _replace_front(call, new)


def _plain_error(op, message):
    """TF's ``op->emitError(message)`` (no op name in front)."""
    return PassFailure(message, op)


@register_pass
class TensorListOpsDecompositionPass(Pass):
    argument = "tf-tensor-list-ops-decomposition"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        functions = Functions(module)
        main = functions.get("main")
        if main is None:
            self.mark_all_analyses_preserved()
            return
        if not len(main.regions[0].blocks):
            self.fail("'func.func' op @main has no body (TensorFlow crashes here)", main)
        _Decomposition(functions).block(_entry(main), {})
