"""Lowers ops on quantized tensors to ops on non-quantized ones (tf.Dequantize to scale and shift).

As TF 2.21's -tf-lower-quantized (``LowerQuantizedPass``: the patterns of
``PopulateLoweringQuantizedPatterns``), applied with MLIR's greedy driver on each
function (default configuration: the function's ops are also folded, constants
deduplicated and hoisted, dead ops erased). The one lowering TF has is
``tf.Dequantize`` in its default form -- ``mode = "MIN_COMBINED"``,
``narrow_range = false``, ``axis = -1`` (a missing attribute has its default) --
of a ``qint8`` / ``quint8`` tensor with ``f32`` ranges to ``f32`` or ``bf16``:

    Cast(((Cast(input to f32) + half_range) * ((max_range - min_range) / 255)) + min_range)

where ``half_range`` is 128 for ``qint8`` and 0 for ``quint8``; both casts have
``Truncate = false``, the inner one keeps the input's shape, the outer one gives
the Dequantize's result type; the arithmetic ops take the broadcast types TF's
builders give them. Other Dequantize forms (other modes, narrow range, per-axis)
and other quantized ops are left alone. The pass fails only where TF's builders
cannot type an op (ranges whose shapes do not broadcast).
"""
from mlir import ir
from mlir import rewrite

from . import attributes
from .framework import Pass, PassFailure, register_pass
from .lib.tf_builders import BuildError, OpBuilder, element_type, scalar_attr

DEQUANTIZE = "tf.Dequantize"
# Quantized element type -> TF's half range (DequantizeHalfRange: 0 for unsigned types).
_HALF_RANGE = {"!tf_type.qint8": 128.0, "!tf_type.quint8": 0.0}


_TENSOR = (ir.RankedTensorType, ir.UnrankedTensorType)


def _element_text(value):
    value_type = value.type
    return str(element_type(value_type)) if isinstance(value_type, ir.ShapedType) else None


def _is_f32_tensor(value):
    return isinstance(value.type, _TENSOR) and isinstance(element_type(value.type), ir.F32Type)


def _lower_dequantize(op, rewriter, failures):
    """TF's LowerDequantizeOp (returns True where it does not match, as the bindings expect)."""
    op = op.operation
    if attributes.string(op, "mode", "MIN_COMBINED") != "MIN_COMBINED":
        return True
    if attributes.boolean(op, "narrow_range", False) is not False:
        return True
    if attributes.integer(op, "axis", -1) != -1:
        return True
    value, min_range, max_range = op.operands
    half_range = _HALF_RANGE.get(_element_text(value)) if isinstance(value.type, _TENSOR) else None
    if half_range is None:
        return True
    if not (_is_f32_tensor(min_range) and _is_f32_tensor(max_range)):
        return True
    result_type = op.results[0].type
    if not (isinstance(result_type, _TENSOR)
            and (isinstance(element_type(result_type), ir.F32Type)
                 or isinstance(element_type(result_type), ir.BF16Type))):
        return True
    b = OpBuilder(op)
    f32 = ir.F32Type.get()
    try:
        if isinstance(value.type, ir.RankedTensorType):
            as_float = ir.RankedTensorType.get(list(value.type.shape), f32)
        else:
            as_float = ir.UnrankedTensorType.get(f32)
        shifted = b.add(b.cast(value, as_float), b.const(scalar_attr(f32, half_range)))
        scale = b.div(b.sub(max_range, min_range), b.const(scalar_attr(f32, 255.0)))
        lowered = b.cast(b.add(b.mul(shifted, scale), min_range), result_type)
    except BuildError as exc:
        failures.append((op, f"'{DEQUANTIZE}' cannot be lowered: {exc}"))
        raise
    rewriter.replace_op(op, [lowered])
    return None


@register_pass
class LowerQuantizedPass(Pass):
    argument = "tf-lower-quantized"
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        failures = []
        patterns = rewrite.RewritePatternSet()
        patterns.add(DEQUANTIZE, lambda op, rewriter: _lower_dequantize(op, rewriter, failures))
        try:
            rewrite.apply_patterns_and_fold_greedily(func.operation, patterns.freeze())
        except BuildError:
            raise PassFailure(failures[-1][1], failures[-1][0]) from None
        except RuntimeError as exc:
            if failures:
                raise PassFailure(failures[-1][1], failures[-1][0]) from None
            if "failed to converge" not in str(exc):
                raise
