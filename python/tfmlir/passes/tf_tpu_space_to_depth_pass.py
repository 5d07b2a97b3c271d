"""Space-to-depth for the first strided convolution of a TPU computation fed by a host input.

As TF 2.21's -tf-tpu-space-to-depth-pass (a module pass), which rewrites at most
one convolution: a ``[N, H, W, C]`` input with few channels becomes
``[N, H/b, W/b, C*b*b]`` (a ``tf.SpaceToDepth`` on the host), the convolution's
stride ``b`` becomes 1 and its filter is padded, reshaped and transposed to
``[ceil(KH/b), ceil(KW/b), C*b*b, O]`` on the device.

Which convolution (nothing happens unless every step finds one):

1. The first ``tf_device.cluster_func`` of the module (post-order walk) and its
   callee, a ``func.func`` looked up from its closest module (a missing callee
   or one of another kind: nothing happens).
2. The first ``tf.Conv2D`` in the callee (post-order walk, nested regions
   included) whose ``data_format`` is ``NHWC`` (the default) and whose input is
   a block argument, directly or through a chain of ``tf.Pad`` and ``tf.Cast``
   ops (their first operand), that has a ranked type with batch size and
   channels (dimensions 0 and 3, read as 32-bit integers, so a dynamic size
   counts as 0) of at most 8. Only this one convolution is looked at further.
3. That block argument must have exactly one use, and the block size ``b``, the
   convolution's ``strides[1]``, must be at least 2 with ``strides[0] == 1`` and
   ``strides[1] == strides[2]`` (``strides[3]`` is not looked at, as in TF).

The rewrite, in TF's order, with the block argument's number ``k``:

* Host: each operand of the cluster_func is looked at. An operand that is a
  block argument numbered ``k`` (in its own block, whatever the operand's
  position) of a ``tf_device.replicate`` directly around the cluster_func that
  has ``devices``: when every replicate operand bound to it is a result of a
  ``tf.IteratorGetNext`` whose ``device`` parses (TF's ``ParseFullName``) with
  type ``CPU``, each such operand of ranked type becomes the result of a new
  ``tf.SpaceToDepth`` (``block_size = b``, ``data_format = "NHWC"``, location of
  the cluster_func) inserted right after the IteratorGetNext, and the block
  argument takes its type (an unranked one stops the loop there). The operand
  at position ``k``, when it is an op result (of an op outside the replicate,
  if any) of such a host ``tf.IteratorGetNext`` and ranked, gets a
  ``tf.SpaceToDepth`` the same way. Otherwise the host is left as it is -- but
  the device side is still rewritten (as TF: the cluster_func's operand types
  then differ from its callee's).
* Device, when the convolution's input and filter are ranked:

  - an input that is directly a block argument: the function type is rebuilt
    from the entry block's argument types and the entry block terminator's
    operand types before the argument's type changes below (as TF: the
    function then fails verification);
  - an input produced by a ``tf.Pad`` of ranked input: the padding becomes a new
    ``tf.Const`` (before the pad, at its location) of
    ``[[0, 0], [a, e], [a, e], [0, 0]]`` with ``t = KH - 1``,
    ``a = (t / 2 + 1) / b``, ``e = (t / 2) / b``; the pad's input, and the
    inputs of the chain of ``tf.Cast`` ops producing it, get the space-to-depth
    of the pad input's shape; a block argument reached that way rebuilds its
    function's type (which is now right);
  - the convolution's input (the pad's result, or the value itself) gets the
    space-to-depth of its own shape, the convolution's ``strides`` become
    ``[1, 1, 1, 1]``, and its filter becomes (new ops before the convolution,
    at the filter's location): a ``tf.Pad`` by ``[[ph, 0], [pw, 0], [0, 0],
    [0, 0]]`` when ``KH`` or ``KW`` is not a multiple of ``b``, with
    ``ph = b - KH % b`` and ``pw = b - KW % b`` (so a dimension that is a
    multiple gets a whole block of padding), a ``tf.Reshape`` to
    ``[KH'/b, b, KW'/b, b, C, O]``, a ``tf.Transpose`` by ``[0, 2, 1, 3, 4, 5]``
    and a ``tf.Reshape`` to ``[KH'/b, KW'/b, C*b*b, O]``;
  - for each use of a result of the op producing the convolution's input (the
    pad or a cast; none when the input is a block argument) by a
    ``tf.Conv2DBackpropFilter``: a new ``tf.Conv2DBackpropFilter`` of the old
    one's input, a ``filter_sizes`` constant of the new filter shape and its
    ``out_backprop``, with ``strides`` ``[1, 1, 1, 1]`` and the old
    ``use_cudnn_on_gpu``, ``padding``, ``explicit_paddings``, ``data_format``,
    ``dilations`` (defaults written out; other attributes dropped), whose result
    is reshaped to ``[KH'/b, KW'/b, b, b, C, O]``, transposed by
    ``[0, 2, 1, 3, 4, 5]``, reshaped to ``[KH', KW', C, O]`` and sliced from 0 to
    the old filter shape; the old op's uses move to the slice (all new ops before
    the old op, at its location). The old op, the old paddings and filter
    sizes stay, unused.

Shapes are computed with TF's integer arithmetic (64-bit, truncating division;
block size, kernel size and the shapes kept for the backprop in 32 bits), so a
dynamic batch size stays dynamic and a dynamic channel count becomes ``0`` for
``b = 2`` as in TF. Ops are not erased; the module's ops keep their other
types, so the rewrite can give IR that does not verify (a ``tf.Cast`` between
the argument and the convolution without a pad, a convolution whose result
type no longer matches, a function type rebuilt too early): the verifier's
diagnostics are then reported, as TF's verifier reports them after its pass,
and the pass fails (at the cluster_func) with the module left as it was.

Failures where TF has no answer (the module is left as it was):

* a rewrite that would rebuild the type of something other than a
  ``func.func`` (a convolution input reached from a block argument of a nested
  region, such as a ``tf.WhileRegion`` body, with a single use): TF's process
  crashes;
* a type TF would build with a negative dimension size (from a dynamic height
  or width of the input or filter): TF builds an invalid type, which tfmlir
  cannot create;
* a shape of fewer than four dimensions where TF reads four (an
  IteratorGetNext result or a pad input): TF reads past its end. A block
  argument of rank below 4 at the end of the chain (through unranked casts or
  pads) does not qualify the convolution.
"""
import numpy as np
from mlir import ir

from . import attributes
from .analysis.calls import nearest_module
from .analysis.devices import parse_full_name
from .names import CAST, CLUSTER_FUNC, CONST, FUNC, REPLICATE
from .analysis.symbols import symbol_ops
from .analysis.types import element_type_or_self
from .framework import MODULE, Pass, PassFailure, register_pass
from .lib.ir_helpers import is_proper_ancestor, users
from .walk import ADVANCE, INTERRUPT, POST_ORDER

CONV2D = "tf.Conv2D"
CONV2D_BACKPROP_FILTER = "tf.Conv2DBackpropFilter"
PAD = "tf.Pad"
RESHAPE = "tf.Reshape"
TRANSPOSE = "tf.Transpose"
SLICE = "tf.Slice"
SPACE_TO_DEPTH = "tf.SpaceToDepth"
ITERATOR_GET_NEXT = "tf.IteratorGetNext"

# The filter and gradient layouts swap their two block dimensions with this permutation.
_PERMUTATION = (0, 2, 1, 3, 4, 5)
# Batch sizes and channel counts above this leave the convolution alone.
_MAX_BATCH_OR_CHANNELS = 8

_DYNAMIC = -(1 << 63)  # ShapedType's dynamic size (INT64_MIN), as TF's arithmetic sees it


@register_pass
class TPUSpaceToDepthPass(Pass):
    argument = "tf-tpu-space-to-depth-pass"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        cluster_func = _first(module, CLUSTER_FUNC)
        if cluster_func is None:
            return
        device_func = _callee(cluster_func)
        if device_func is None:
            return
        found = _first_candidate(device_func)
        if found is None:
            return
        conv, arg_number, uses = found
        block_size = _block_size(conv)
        if uses != 1 or block_size < 2:
            return
        _rewrite_host(cluster_func, block_size, arg_number)
        _Rewriter(block_size).first_convolution(conv)
        _verify(module, cluster_func)


# -- finding the convolution ---------------------------------------------------------------------

def _first(root, name):
    """The first op named `name` under `root` in post-order, or None."""
    found = []

    def visit(op):
        if op.name == name:
            found.append(op.operation)
            return INTERRUPT
        return ADVANCE

    root.operation.walk(visit, POST_ORDER)
    return found[0] if found else None


def _callee(cluster_func):
    """TF's ``ClusterFuncOp::getFuncOp``: the ``func.func`` its ``func`` names, looked up from its
    closest module, or None."""
    attr = cluster_func.attributes["func"]
    if not isinstance(attr, ir.FlatSymbolRefAttr):
        return None
    module = nearest_module(cluster_func, {})
    if module is None:
        return None
    callee = symbol_ops(module).get(ir.FlatSymbolRefAttr(attr).value)
    return callee if callee is not None and callee.name == FUNC else None


def _i32(value):
    """`value` as a C++ int32_t conversion leaves it."""
    return ((value + (1 << 31)) % (1 << 32)) - (1 << 31)


def _i64(value):
    """`value` wrapped to 64 bits, as TF's int64_t arithmetic leaves it."""
    return ((value + (1 << 63)) % (1 << 64)) - (1 << 63)


def _div(a, b):
    """C++ integer division (truncating towards zero) of 64-bit values."""
    quotient = abs(a) // abs(b)
    return _i64(quotient if (a < 0) == (b < 0) else -quotient)


def _rem(a, b):
    return _i64(a - b * _div(a, b))


def _shape(value):
    """The dimension sizes of `value`'s ranked type (dynamic ones as INT64_MIN), or None."""
    value_type = value.type
    if not isinstance(value_type, ir.RankedTensorType):
        return None
    return list(ir.RankedTensorType(value_type).shape)


def _is_block_argument(value):
    return isinstance(value, ir.BlockArgument)


def _producer(value):
    """The op defining `value`, or None for a block argument."""
    if _is_block_argument(value):
        return None
    return value.owner.operation


def _qualifying_argument(value):
    """``(argument number, number of uses)`` when `value` is a block argument of ranked type
    whose batch size and channels are small enough, else None."""
    if not _is_block_argument(value):
        return None
    shape = _shape(value)
    if shape is None or len(shape) < 4:
        return None
    if _i32(shape[0]) > _MAX_BATCH_OR_CHANNELS or _i32(shape[3]) > _MAX_BATCH_OR_CHANNELS:
        return None
    return ir.BlockArgument(value).arg_number, len(list(value.uses))


def _input_argument(conv):
    """TF's ``GetConv2DInputArgNum``: the qualifying block argument behind `conv`'s input
    (through tf.Pad and tf.Cast ops), as ``(number, uses)``, or None."""
    if attributes.string(conv, "data_format", "NHWC") != "NHWC":
        return None
    if len(ir.ArrayAttr(conv.attributes["strides"])) != 4:
        return None
    value = conv.operands[0]
    found = _qualifying_argument(value)
    if found is not None:
        return found
    producer = _producer(value)
    while producer is not None and producer.name in (PAD, CAST):
        value = producer.operands[0]
        found = _qualifying_argument(value)
        if found is not None:
            return found
        producer = _producer(value)
    return None


def _first_candidate(device_func):
    """``(conv, argument number, uses)`` of the first tf.Conv2D of `device_func` fed by a
    qualifying block argument, or None."""
    found = []

    def visit(op):
        if op.name != CONV2D:
            return ADVANCE
        argument = _input_argument(op.operation)
        if argument is None:
            return ADVANCE
        found.append((op.operation, *argument))
        return INTERRUPT

    device_func.operation.walk(visit, POST_ORDER)
    return found[0] if found else None


def _block_size(conv):
    """TF's ``GetConv2DBlockSize``: the spatial stride, or 1 when the strides do not fit."""
    strides = [_i32(ir.IntegerAttr(s).value) for s in ir.ArrayAttr(conv.attributes["strides"])][:3]
    if strides[0] != 1 or strides[1] != strides[2]:
        return 1
    return strides[1]


# -- building ------------------------------------------------------------------------------------

def _tensor(dims, element, op):
    """A ranked tensor type of `dims` (TF's 64-bit values); PassFailure at `op` for a size TF
    would compute negative (from a dynamic one), which is no valid type."""
    dims = [_i64(d) for d in dims]
    for size in dims:
        if size < 0 and size != _DYNAMIC:
            raise PassFailure(
                f"'{op.name}' op cannot be rewritten: TF's space-to-depth computes a dimension size of "
                f"{size} from a dynamic one (an invalid type)", op)
    return ir.RankedTensorType.get(dims, element)


def _four_dims(shape, value, op):
    if len(shape) < 4:
        raise PassFailure(
            f"'{op.name}' op cannot be rewritten: TF's space-to-depth reads four dimensions of "
            f"{value.type}", op)
    return shape


def _space_to_depth_type(shape, element, block_size, op):
    return _tensor([shape[0], _div(shape[1], block_size), _div(shape[2], block_size),
                    shape[3] * block_size * block_size], element, op)


def _int_attr(values, element_type, shape):
    array = np.array(values, dtype=element_type).reshape(shape)
    return ir.DenseElementsAttr.get(array)


def _const(values, numpy_type, shape, loc, ip):
    attr = _int_attr(values, numpy_type, shape)
    return ir.Operation.create(CONST, results=[attr.type], attributes={"value": attr}, loc=loc,
                               ip=ip).results[0]


def _i64_array(values):
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.IntegerAttr.get(i64, v) for v in values])


def _location(value):
    return value.location


def _is_host_input(op):
    """TF's ``IsSupportedHostInputOp``: a tf.IteratorGetNext placed on a CPU."""
    if op.name != ITERATOR_GET_NEXT:
        return False
    device = attributes.string(op, "device")
    if device is None:
        return False
    parsed = parse_full_name(device)
    return parsed is not None and parsed.type == "CPU"


def _space_to_depth(cluster_func, value, block_size):
    """A tf.SpaceToDepth of host value `value` right after its producer (TF's
    ``BuildSpaceToDepth``)."""
    producer = value.owner.operation
    shape = _four_dims(_shape(value), value, producer)
    result_type = _space_to_depth_type(shape, element_type_or_self(value.type), block_size, producer)
    i64 = ir.IntegerType.get_signless(64)
    op = ir.Operation.create(SPACE_TO_DEPTH, results=[result_type], operands=[value],
                             attributes={"block_size": ir.IntegerAttr.get(i64, block_size),
                                         "data_format": ir.StringAttr.get("NHWC")},
                             loc=cluster_func.location, ip=ir.InsertionPoint(producer))
    op.move_after(producer)
    return op.results[0]


# -- the host ------------------------------------------------------------------------------------

def _rewrite_host(cluster_func, block_size, arg_number):
    """TF's ``HandleCluster``."""
    parent = cluster_func.parent
    replicate = parent.operation if parent is not None and parent.operation.name == REPLICATE else None
    operands = cluster_func.operands
    for index in range(len(operands)):
        value = operands[index]
        if _is_block_argument(value):
            argument = ir.BlockArgument(value)
            if argument.arg_number != arg_number:
                continue
            if replicate is not None and argument.owner.owner.operation == replicate:
                _rewrite_replicated_input(replicate, argument, cluster_func, block_size)
            continue
        if index != arg_number:
            continue
        producer = value.owner.operation
        if replicate is not None and is_proper_ancestor(replicate, producer):
            continue
        if not _is_host_input(producer) or _shape(value) is None:
            continue
        cluster_func.operands[index] = _space_to_depth(cluster_func, value, block_size)


def _replicate_operand_indices(replicate, argument):
    """TF's ``GetOperandsForBlockArgument``: the indices of the replicate operands bound to
    `argument` (one per replica, or the one packed operand)."""
    replicas = ir.IntegerAttr(replicate.attributes["n"]).value
    packed = list(ir.DenseI32ArrayAttr(replicate.attributes["operandSegmentSizes"]))[1]
    replicated_args = len(replicate.regions[0].blocks[0].arguments) - packed
    number = argument.arg_number
    if number < replicated_args:
        return list(range(number * replicas, (number + 1) * replicas))
    return [replicated_args * replicas + number - replicated_args]


def _rewrite_replicated_input(replicate, argument, cluster_func, block_size):
    """TF's ``HandleHostReplicatedInputs``."""
    if "devices" not in replicate.attributes:
        return
    indices = _replicate_operand_indices(replicate, argument)
    operands = replicate.operands
    for index in indices:
        producer = _producer(operands[index])
        if producer is None or not _is_host_input(producer):
            return
    for index in indices:
        value = operands[index]
        if _shape(value) is None:
            return
        space_to_depth = _space_to_depth(cluster_func, value, block_size)
        operands[index] = space_to_depth
        argument.set_type(space_to_depth.type)


# -- the device ----------------------------------------------------------------------------------

def _update_function_type(argument):
    """TF's ``HandleFuncOp`` on the op owning block argument `argument`: the function type from
    the entry block's argument types and its terminator's operand types."""
    block = ir.BlockArgument(argument).owner
    func = block.owner.operation
    if func.name != FUNC:
        raise PassFailure(
            f"'{func.name}' op cannot be rewritten: the space-to-depth input is an argument of its "
            f"region, not of a function (TF's process crashes here)", func)
    entry = func.regions[0].blocks[0]
    operations = entry.operations
    terminator = operations[len(operations) - 1].operation
    function_type = ir.FunctionType.get([a.type for a in entry.arguments],
                                        [v.type for v in terminator.operands])
    func.attributes["function_type"] = ir.TypeAttr.get(function_type)


class _Rewriter:
    """TF's ``HandleFirstConvolution`` and its helpers, for one block size."""

    def __init__(self, block_size):
        self.block_size = block_size

    def first_convolution(self, conv):
        value, filter_value = conv.operands[0], conv.operands[1]
        if _shape(value) is None or _shape(filter_value) is None:
            return
        filter_shape = _shape(filter_value)
        old_filter_shape = [_i32(d) for d in filter_shape]
        if _is_block_argument(value):
            _update_function_type(value)
        producer = _producer(value)
        if producer is not None and producer.name == PAD:
            if not self.pad(producer, _i32(filter_shape[0])):
                return
            pad_input = producer.operands[0]
            if _is_block_argument(pad_input):
                _update_function_type(pad_input)
        self.convolution_input(conv)
        conv.attributes["strides"] = _i64_array([1, 1, 1, 1])
        self.filter(conv)
        new_filter_shape = [_i32(d) for d in _shape(conv.operands[1])]
        if producer is None:
            return
        for user in users(producer):
            if user.name == CONV2D_BACKPROP_FILTER:
                self.backprop_filter(user, old_filter_shape, new_filter_shape)

    def pad(self, pad, kernel_size):
        """TF's ``HandlePad``: False when the pad's input is unranked."""
        block_size = self.block_size
        value = pad.operands[0]
        shape = _shape(value)
        if shape is None:
            return False
        total = _i32(kernel_size - 1)
        begin = _div(_div(total, 2) + 1, block_size)
        end = _div(_div(total, 2), block_size)
        pad.operands[1] = _const([0, 0, begin, end, begin, end, 0, 0], np.int32, (4, 2), pad.location,
                                 ir.InsertionPoint(pad))
        shape = _four_dims(shape, value, pad)
        new_shape = [shape[0], _div(shape[1], block_size), _div(shape[2], block_size),
                     shape[3] * block_size * block_size]
        producer = _producer(value)
        if producer is not None and producer.name == CAST:
            self.casts(producer, new_shape, pad)
        value.set_type(_tensor(new_shape, element_type_or_self(value.type), pad))
        return True

    def casts(self, cast, new_shape, pad):
        """TF's ``HandleCast``: the inputs of the chain of casts ending at `cast` get `new_shape`;
        a block argument at its start rebuilds its function's type."""
        while True:
            value = cast.operands[0]
            value.set_type(_tensor(new_shape, element_type_or_self(value.type), pad))
            if _is_block_argument(value):
                _update_function_type(value)
                return
            cast = value.owner.operation
            if cast.name != CAST:
                return

    def convolution_input(self, conv):
        value = conv.operands[0]
        shape = _shape(value)
        value.set_type(_space_to_depth_type(shape, element_type_or_self(value.type), self.block_size,
                                            conv))

    def filter(self, conv):
        """TF's ``HandleConv2DFilter``: pad (if needed), reshape, transpose, reshape."""
        block_size = self.block_size
        value = conv.operands[1]
        shape = _shape(value)
        height, width, channels, out_channels = shape[0], shape[1], shape[2], shape[3]
        element = element_type_or_self(value.type)
        loc = _location(value)
        ip = ir.InsertionPoint(conv)
        if _rem(height, block_size) != 0 or _rem(width, block_size) != 0:
            pad_h = _i32(block_size - _rem(height, block_size))
            pad_w = _i32(block_size - _rem(width, block_size))
            paddings = _const([pad_h, 0, pad_w, 0, 0, 0, 0, 0], np.int32, (4, 2), loc, ip)
            padded_type = _tensor([shape[0] + pad_h, shape[1] + pad_w, channels, out_channels], element,
                                  conv)
            value = ir.Operation.create(PAD, results=[padded_type], operands=[value, paddings], loc=loc,
                                        ip=ip).results[0]
            height, width = _i64(height + pad_h), _i64(width + pad_w)
        blocks = [_div(height, block_size), block_size, _div(width, block_size), block_size, channels,
                  out_channels]
        value = _reshape(value, blocks, conv, ip)
        value = _transpose(value, conv, ip)
        value = _reshape(value, [_div(height, block_size), _div(width, block_size),
                                 channels * block_size * block_size, out_channels], conv, ip)
        conv.operands[1] = value

    def backprop_filter(self, backprop, old_filter_shape, new_filter_shape):
        """TF's ``HandleConv2DBackPropFilter``: a stride-1 gradient of the new filter, turned back
        into the old filter's layout."""
        block_size = self.block_size
        loc = backprop.location
        ip = ir.InsertionPoint(backprop)
        value = backprop.operands[0]
        element = element_type_or_self(value.type)
        sizes = _const(new_filter_shape, np.int32, (4,), loc, ip)
        attributes = backprop.attributes

        def kept(name, default):
            return attributes[name] if name in attributes else default

        new_attributes = {
            "strides": _i64_array([1, 1, 1, 1]),
            "use_cudnn_on_gpu": kept("use_cudnn_on_gpu", ir.BoolAttr.get(True)),
            "padding": attributes["padding"],
            "explicit_paddings": kept("explicit_paddings", ir.ArrayAttr.get([])),
            "data_format": kept("data_format", ir.StringAttr.get("NHWC")),
            "dilations": kept("dilations", _i64_array([1, 1, 1, 1])),
        }
        gradient = ir.Operation.create(
            CONV2D_BACKPROP_FILTER, results=[_tensor(new_filter_shape, element, backprop)],
            operands=[value, sizes, backprop.operands[2]], attributes=new_attributes, loc=loc,
            ip=ip).results[0]
        square = block_size * block_size
        channels = _div(new_filter_shape[2], square)
        result = _reshape(gradient, [new_filter_shape[0], new_filter_shape[1], block_size, block_size,
                                     channels, new_filter_shape[3]], backprop, ip)
        result = _transpose(result, backprop, ip)
        result = _reshape(result, [new_filter_shape[0] * block_size, new_filter_shape[1] * block_size,
                                   channels, new_filter_shape[3]], backprop, ip)
        size = _const(old_filter_shape, np.int32, (4,), loc, ip)
        begin = _const([0, 0, 0, 0], np.int64, (4,), loc, ip)
        sliced = ir.Operation.create(SLICE, results=[_tensor(old_filter_shape, element, backprop)],
                                     operands=[result, begin, size], loc=loc, ip=ip).results[0]
        backprop.results[0].replace_all_uses_with(sliced)


def _reshape(value, dims, op, ip):
    """A tf.Reshape of `value` to `dims` (shape constant of i64), at `value`'s location."""
    loc = _location(value)
    result_type = _tensor(dims, element_type_or_self(value.type), op)
    shape = _const(list(result_type.shape), np.int64, (len(dims),), loc, ip)
    return ir.Operation.create(RESHAPE, results=[result_type], operands=[value, shape], loc=loc,
                               ip=ip).results[0]


def _transpose(value, op, ip):
    """A tf.Transpose of `value` by :data:`_PERMUTATION` (its builder's result type: the permuted
    shape), at `value`'s location."""
    loc = _location(value)
    permutation = _const(list(_PERMUTATION), np.int32, (len(_PERMUTATION),), loc, ip)
    shape = _shape(value)
    result_type = _tensor([shape[i] for i in _PERMUTATION], element_type_or_self(value.type), op)
    return ir.Operation.create(TRANSPOSE, results=[result_type], operands=[value, permutation], loc=loc,
                               ip=ip).results[0]


def _verify(module, cluster_func):
    """Fails at `cluster_func` (the module is then restored) after the verifier's diagnostics,
    emitted as TF's verifier emits them after its pass, when the rewrite left invalid IR."""
    try:
        module.operation.verify()
    except ir.MLIRError as err:
        for diagnostic in err.error_diagnostics:
            diagnostic.location.emit_error(diagnostic.message)
        raise PassFailure("the space-to-depth rewrite for this computation does not verify (neither "
                          "does TF's); the module is left as it was", cluster_func) from None
