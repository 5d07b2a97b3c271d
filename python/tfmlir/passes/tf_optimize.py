"""Optimize TensorFlow module: TF's algebraic rewrites of convolutions, FFTs and broadcasts.

As TF 2.21's -tf-optimize (``TensorFlowOptimizePass``): its rewrite patterns applied
with MLIR's greedy driver on each function (default configuration: the function's
ops are also folded -- TF's folders and constant folding --, constants deduplicated
and hoisted, dead ops erased; not converging fails the pass, as in TF). The
patterns, with TF's conditions:

* ``Mul(Conv2D(x, arith.constant F), arith.constant M)`` -> ``Conv2D(x, Mul(F, M))``
  when both constants are ``f32`` elements, the Conv2D is NHWC and has one use, the
  constants' types broadcast and every dimension of ``M`` but the last is 1. The new
  Conv2D takes the Mul's result type and the old one's attributes -- every one of
  them explicit, defaults included (no ``T``, ``device``: DRR does not carry them);
* ``Mul(BiasAdd(x, arith.constant B), arith.constant V)`` (NHWC) and
  ``Mul(AddV2(x, arith.constant B), arith.constant V)`` -> ``AddV2(Mul(x, V), Mul(B, V))``
  when ``x`` comes from a Conv2D and the BiasAdd / AddV2 has one use (so that the
  first pattern applies next; ``Mul(B, V)`` folds);
* ``FFT(Cast(x))`` (``Truncate`` false) of a real ``x`` whose last dimension is static
  -> ``RFFT(x, arith.constant dense<[last dim]> : tensor<1xi32>)``;
* ``Reshape(BroadcastTo(x, s), t)`` (the broadcast used once, shapes ranked, the
  reshape's static) -> ``BroadcastTo(Reshape(x, t'), t)``: the reshape moves before
  the broadcast and shrinks its rank when the reshape only drops unit dimensions of
  the broadcast shape (TF's ``SimplifyBroadcastReshape``).

Patterns on the same root are tried in TF's order (DRR's, benefit = number of ops
matched). Ops built by a pattern have TF's builders' types (broadcast types for the
arithmetic ops), the locations TF gives them, and are created just before the op
the pattern is rooted at.
"""
import numpy as np
from mlir import ir
from mlir import rewrite

from . import attributes
from .framework import Pass, register_pass
from .lib.tf_builders import OpBuilder, broadcast_type, element_type

MUL = "tf.Mul"
CONV_2D = "tf.Conv2D"
BIAS_ADD = "tf.BiasAdd"
ADD_V2 = "tf.AddV2"
FFT = "tf.FFT"
CAST = "tf.Cast"
BROADCAST_TO = "tf.BroadcastTo"
RESHAPE = "tf.Reshape"
ARITH_CONSTANT = "arith.constant"
NOT_CONVERGED = "tf-optimize did not converge"

_DYNAMIC = ir.ShapedType.get_dynamic_size()
_ELEMENTS = tuple(kind for kind in (getattr(ir, "DenseElementsAttr", None),
                                    getattr(ir, "DenseResourceElementsAttr", None)) if kind)


# -- matching helpers -----------------------------------------------------------------------

def _defining(value, name):
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    owner = owner.operation
    return owner if owner.name == name else None


def _one_use(value):
    uses = iter(value.uses)
    return next(uses, None) is not None and next(uses, None) is None


def _f32_constant(value):
    """The ``value`` attribute of the ``arith.constant`` defining `value` when it holds f32
    elements (DRR's ``(Arith_ConstantOp F32ElementsAttr:$x)``), else None."""
    constant = _defining(value, ARITH_CONSTANT)
    if constant is None:
        return None
    attr = attributes.get(constant, "value")
    if not isinstance(attr, _ELEMENTS) or not isinstance(attr.type, ir.ShapedType):
        return None
    return attr if isinstance(element_type(attr.type), ir.F32Type) else None


def _data_format_nhwc(op):
    return attributes.string(op, "data_format", "NHWC") == "NHWC"


def _degenerate_except_last(attr):
    """TF's ``IsDimensionsDegenerateExceptLastOne`` (ranked types only)."""
    if not isinstance(attr.type, ir.RankedTensorType):
        return False
    return all(dim == 1 for dim in list(attr.type.shape)[:-1])


def _fused_location(ops):
    return ir.Location.fused([op.location for op in ops])


def _constant(b, attr, loc):
    return ir.Operation.create(ARITH_CONSTANT, results=[attr.type], attributes={"value": attr},
                               loc=loc, ip=b.ip).result


# Conv2D's attributes as DRR binds them: the op's, or the ODS default made explicit.
def _conv_attributes(conv):
    defaults = {
        "data_format": lambda: ir.StringAttr.get("NHWC"),
        "dilations": lambda: ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)] * 4),
        "explicit_paddings": lambda: ir.ArrayAttr.get([]),
        "use_cudnn_on_gpu": lambda: ir.BoolAttr.get(True),
    }
    found = {}
    for name in ("strides", "use_cudnn_on_gpu", "padding", "explicit_paddings", "data_format",
                 "dilations"):
        attr = attributes.get(conv, name)
        if attr is None:
            if name not in defaults:
                return None
            attr = defaults[name]()
        found[name] = attr
    return found


# -- the patterns ---------------------------------------------------------------------------

def _fuse_mul_and_conv2d(mul, rewriter):
    conv = _defining(mul.operands[0], CONV_2D)
    if conv is None or not _data_format_nhwc(conv):
        return False
    filter_value = _f32_constant(conv.operands[1])
    mul_value = _f32_constant(mul.operands[1])
    if filter_value is None or mul_value is None:
        return False
    conv_attributes = _conv_attributes(conv)
    if conv_attributes is None:
        return False
    if broadcast_type(filter_value.type, mul_value.type) is None or not _degenerate_except_last(mul_value):
        return False
    if not _one_use(conv.results[0]):
        return False
    b = OpBuilder(mul)
    b.ip = rewriter.ip
    filter_constant = conv.operands[1].owner.operation
    multiplier = mul.operands[1].owner.operation
    product = ir.Operation.create(
        MUL, results=[broadcast_type(filter_value.type, mul_value.type)],
        operands=[_constant(b, filter_value, filter_constant.location),
                  _constant(b, mul_value, multiplier.location)],
        loc=mul.location, ip=b.ip).result
    fused = ir.Operation.create(CONV_2D, results=[mul.results[0].type],
                                operands=[conv.operands[0], product], attributes=conv_attributes,
                                loc=conv.location, ip=b.ip)
    rewriter.replace_op(mul, list(fused.results))
    return True


def _passthrough_mul(mul, rewriter, name):
    """``PassthroughMulAndBiasAdd`` (`name` tf.BiasAdd) / ``PassthroughMulAndAddV2``."""
    output = _defining(mul.operands[0], name)
    if output is None:
        return False
    bias = _f32_constant(output.operands[1])
    value = _f32_constant(mul.operands[1])
    if bias is None or value is None:
        return False
    if name == BIAS_ADD and not _data_format_nhwc(output):
        return False
    source = output.operands[0]
    if _defining(source, CONV_2D) is None or not _one_use(output.results[0]):
        return False
    b = OpBuilder(mul)
    b.ip = rewriter.ip
    b.loc = _fused_location([mul, output, output.operands[1].owner.operation,
                             mul.operands[1].owner.operation])
    scaled = b.mul(source, _constant(b, value, b.loc))
    scaled_bias = b.mul(_constant(b, bias, b.loc), _constant(b, value, b.loc))
    added = b.value(ADD_V2, [scaled, scaled_bias], mul.results[0].type)
    rewriter.replace_op(mul, [added])
    return True


def _mul_patterns(mul, rewriter):
    mul = mul.operation
    for pattern in (_fuse_mul_and_conv2d,
                    lambda op, r: _passthrough_mul(op, r, BIAS_ADD),
                    lambda op, r: _passthrough_mul(op, r, ADD_V2)):
        if pattern(mul, rewriter):
            return None
    return True


def _cast_fft_to_rfft(fft, rewriter):
    fft = fft.operation
    cast = _defining(fft.operands[0], CAST)
    if cast is None or attributes.boolean(cast, "Truncate", False) is not False:
        return True
    source = cast.operands[0]
    source_type = source.type
    if not isinstance(source_type, ir.RankedTensorType) or source_type.rank == 0:
        return True
    last = list(source_type.shape)[-1]
    if last == _DYNAMIC or isinstance(element_type(source_type), ir.ComplexType):
        return True
    b = OpBuilder(fft)
    b.ip = rewriter.ip
    b.loc = _fused_location([fft, cast])
    i32 = ir.IntegerType.get_signless(32)
    length = ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([1], i32), ir.IntegerAttr.get(i32, last))
    rfft = b.value("tf.RFFT", [source, _constant(b, length, b.loc)], fft.results[0].type)
    rewriter.replace_op(fft, [rfft])
    return None


def _valid_reshape_shape(shape):
    """TF's ``VerifyShapeOfReshapeOp``: no negative size, at most one unknown."""
    unknown = 0
    for dim in shape:
        if dim == _DYNAMIC:
            unknown += 1
            if unknown > 1:
                return False
        elif dim < 0:
            return False
    return True


def _i64_constant(b, values):
    """``tf.Const`` of a 1-D i64 tensor (TF's ``GetI64ConstantTensor``)."""
    return b.const(ir.DenseElementsAttr.get(np.asarray(values, dtype=np.int64)))


def _simplify_broadcast_reshape(broadcast, rewriter):
    broadcast = broadcast.operation
    output = broadcast.results[0]
    if not _one_use(output):
        return True
    reshape = next(iter(output.uses)).owner.operation
    if reshape.name != RESHAPE:
        return True
    reshape_type = reshape.results[0].type
    if not isinstance(reshape_type, ir.RankedTensorType) or not reshape_type.has_static_shape:
        return True
    reshape_shape = list(reshape_type.shape)
    input_type = broadcast.operands[0].type
    output_type = output.type
    if not isinstance(input_type, ir.RankedTensorType) or not isinstance(output_type, ir.RankedTensorType):
        return True
    input_shape = list(input_type.shape)
    if len(reshape_shape) > len(input_shape):
        return True
    broadcast_shape = list(output_type.shape)
    if len(input_shape) > len(broadcast_shape):
        return True  # not a valid broadcast (TF's C++ would read out of bounds)
    extended = [1] * (len(broadcast_shape) - len(input_shape)) + input_shape
    carried, non_unit = [], []
    for dim, input_dim in zip(broadcast_shape, extended):
        if dim != 1:
            non_unit.append(dim)
            carried.append(input_dim)
    if len(reshape_shape) < len(non_unit):
        return True
    old_non_unit, new_dims = [], []
    k = 0
    for dim in reshape_shape:
        new_dim = 1
        if dim != 1:
            old_non_unit.append(dim)
            if k < len(carried):
                new_dim = carried[k]
                k += 1
        new_dims.append(new_dim)
    if non_unit != old_non_unit or not _valid_reshape_shape(new_dims):
        return True
    b = OpBuilder(broadcast)
    b.ip = rewriter.ip
    new_shape = _i64_constant(b, new_dims)
    new_reshape = b.value(RESHAPE, [broadcast.operands[0], new_shape],
                          ir.RankedTensorType.get(new_dims, element_type(output_type)))
    target = _i64_constant(b, reshape_shape)
    b.loc = reshape.location
    new_broadcast = b.value(BROADCAST_TO, [new_reshape, target], reshape_type)
    rewriter.replace_op(reshape, [new_broadcast])
    return None


def patterns():
    """TF's -tf-optimize patterns as a frozen pattern set."""
    found = rewrite.RewritePatternSet()
    found.add(MUL, _mul_patterns, benefit=4)
    found.add(FFT, _cast_fft_to_rfft, benefit=2)
    found.add(BROADCAST_TO, _simplify_broadcast_reshape, benefit=1)
    return found.freeze()


@register_pass
class TensorFlowOptimizePass(Pass):
    argument = "tf-optimize"
    dependent_dialects = ("tf", "arith")

    def run_on_operation(self, func):
        try:
            rewrite.apply_patterns_and_fold_greedily(func.operation, patterns())
        except RuntimeError as exc:
            if "failed to converge" not in str(exc):
                raise
            self.fail(NOT_CONVERGED)
