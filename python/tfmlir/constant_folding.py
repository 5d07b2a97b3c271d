"""The evaluator behind the tf dialect's constant-folding hook.

TensorFlow's dialect folds any op whose operands are all constants by running
the op's CPU kernel (``TFConstantFoldInterface`` and the hook of TF's
``constant_fold.cc``). The C++ side of tfmlir (``cpp/lib/TfInterfaces.cpp``)
applies TF's policy -- ``CanBeFolded``, the size thresholds, empty numerical
results -- and asks :func:`evaluate`, registered by the package at import,
for the values. :func:`evaluate` computes them with the numpy evaluators of
TF's op semantics that shape inference uses (:mod:`tfmlir.shapes.values`),
only where numpy gives exactly what TF's kernel gives: the ops of
:data:`FOLDABLE_OPS`, on bool, integer, float32 and float64 tensors (and
complex64/complex128 for :data:`COMPLEX_EXACT_OPS`), and
only on inputs for which the result is the kernel's bit for bit. Everything
else (other ops and types, inputs on which TF's kernel fails, inputs whose
result numpy computes differently -- float sums, NaN in ``Maximum``,
out-of-range float-to-integer casts, integer division by zero ...) is left
unfolded, as is anything that raises.
"""
import numpy as np
from mlir import ir

from . import _tfmlir as _native
from .shapes import values as _values

# MLIR element type -> numpy dtype, for the types folding computes in.
_FLOAT_DTYPES = ((ir.F32Type, np.float32), (ir.F64Type, np.float64))
_COMPLEX_DTYPES = ((ir.F32Type, np.complex64), (ir.F64Type, np.complex128))
_INT_DTYPES = {(8, False): np.int8, (16, False): np.int16, (32, False): np.int32,
               (64, False): np.int64, (8, True): np.uint8, (16, True): np.uint16,
               (32, True): np.uint32, (64, True): np.uint64}
_TF_DTYPE_OF = {np.dtype(v): k for k, v in _values.NUMPY_DTYPES.items()}


def _numpy_dtype(element_type):
    for cls, dtype in _FLOAT_DTYPES:
        if isinstance(element_type, cls):
            return np.dtype(dtype)
    if isinstance(element_type, ir.ComplexType):
        part = ir.ComplexType(element_type).element_type
        for cls, dtype in _COMPLEX_DTYPES:
            if isinstance(part, cls):
                return np.dtype(dtype)
        return None
    if isinstance(element_type, ir.IntegerType):
        t = ir.IntegerType(element_type)
        if t.width == 1:
            return np.dtype(np.bool_)
        if t.is_signed:
            return None  # TF's integer types are signless or unsigned
        dtype = _INT_DTYPES.get((t.width, t.is_unsigned))
        return None if dtype is None else np.dtype(dtype)
    return None


def _array(attr):
    """The numpy value of a dense elements attribute of a static shape, or None."""
    if not isinstance(attr, ir.DenseElementsAttr):
        if not _native.is_dense_elements(attr):
            return None
    shaped = ir.ShapedType(attr.type)
    if not shaped.has_static_shape:
        return None
    dtype = _numpy_dtype(shaped.element_type)
    if dtype is None:
        return None
    shape = list(shaped.shape)
    if dtype.kind == "c":
        return _complex_array(attr, dtype, shape)
    if attr.is_splat:
        value = attr.get_splat_value()
        if isinstance(value, ir.BoolAttr):
            scalar = bool(value.value)
        elif isinstance(value, ir.IntegerAttr):
            scalar = int(value.value)
            if dtype == np.bool_:
                scalar = scalar != 0
        elif isinstance(value, ir.FloatAttr):
            scalar = float(value.value)
        else:
            return None
        return np.full(shape, np.array(scalar).astype(dtype), dtype=dtype)
    if dtype == np.bool_:
        return np.array([bool(x) for x in ir.DenseIntElementsAttr(attr)], dtype=dtype).reshape(shape)
    return np.array(attr, copy=True).astype(dtype).reshape(shape)


def _complex_array(attr, dtype, shape):
    """A complex DenseElementsAttr's value, read from its raw data (the
    upstream bindings cannot even downcast such an attribute)."""
    raw = _native.dense_elements_raw_data(attr)
    if raw is None:
        return None
    data, splat = raw
    value = np.frombuffer(data, dtype=dtype)
    if splat:
        return np.full(shape, value[0], dtype=dtype)
    return value.copy().reshape(shape)


def _attribute(attr):
    if isinstance(attr, ir.BoolAttr):
        return bool(attr.value)
    if isinstance(attr, ir.IntegerAttr):
        return int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return float(attr.value)
    if isinstance(attr, ir.ArrayAttr):
        return [_attribute(a) for a in attr]
    return attr


# --- exactness conditions: numpy's result is TF's kernel's ----------------------------------

def _floats(*vals):
    return all(np.asarray(v).dtype.kind == "f" for v in vals)


def _ints(*vals):
    return all(np.asarray(v).dtype.kind in "iu" for v in vals)


def _same_dtypes(vals):
    return len({np.asarray(v).dtype for v in vals}) <= 1


def _has_nan(*vals):
    return any(np.asarray(v).dtype.kind == "f" and np.isnan(v).any() for v in vals)


def _cast_ok(attr, vals, out):
    x = vals[0]
    if x.dtype.kind == "f" and out.kind == "f":
        return not attr("Truncate", False) or x.dtype == out
    if x.dtype.kind == "f" and out.kind in "iu":
        if not np.isfinite(x).all():
            return False
        info = np.iinfo(out)
        t = np.trunc(x.astype(np.float64))
        return bool(((t >= info.min) & (t <= info.max)).all())
    return True


def _division_ok(attr, vals, out):
    a, b = vals
    if _floats(a, b):
        return True
    if not _ints(a, b) or (b == 0).any():
        return False
    if a.dtype.kind == "i":
        return not ((a == np.iinfo(a.dtype).min) & (b == -1)).any()
    return True


def _slice_ok(attr, vals, out):
    x, begin, size = vals
    begin, size = begin.reshape(-1), size.reshape(-1)
    if len(begin) != x.ndim or len(size) != x.ndim:
        return False
    for dim, b, s in zip(x.shape, begin, size):
        if b < 0 or b > dim or (s != -1 and (s < 0 or b + s > dim)):
            return False
    return True


def _gather_ok(attr, vals, out):
    return attr("batch_dims", 0) == 0 and not (vals[1] < 0).any()


def _range_ok(attr, vals, out):
    if not _ints(*vals):
        return False
    start, limit, delta = (int(np.asarray(v).reshape(-1)[0]) for v in vals)
    return delta != 0 and (start <= limit if delta > 0 else start >= limit)


def _transpose_ok(attr, vals, out):
    return not (vals[1] < 0).any()


def _reduce_ok(attr, vals, out):
    # Float reductions: Eigen's order of summation (and choice among signed
    # zeros) is not numpy's.
    return vals[0].dtype.kind in "iu"


def _min_max_ok(attr, vals, out):
    # Signed zeros and NaN: numpy's choice need not be Eigen's.
    if not _floats(*vals):
        return _same_dtypes(vals)
    return _same_dtypes(vals) and not _has_nan(*vals) and not any((np.asarray(v) == 0).any() for v in vals)


def _floor_mod_ok(attr, vals, out):
    return _ints(*vals) and _division_ok(attr, vals, out)


def _always(attr, vals, out):
    return True


def _same(attr, vals, out):
    return _same_dtypes(vals)


def _floats_only(attr, vals, out):
    return _floats(*vals) and _same_dtypes(vals)


# Op -> the condition under which the shared evaluator is TF's kernel.
FOLDABLE_OPS = {
    "StopGradient": _always, "Snapshot": _always, "Cast": _cast_ok, "Pack": _same,
    "ConcatV2": _always, "Concat": _always, "StridedSlice": _always, "Slice": _slice_ok,
    "Reshape": _always, "ExpandDims": _always, "Squeeze": _always, "GatherV2": _gather_ok,
    "Fill": _always, "Range": _range_ok, "Prod": _reduce_ok, "Sum": _reduce_ok,
    "Max": _reduce_ok, "Min": _reduce_ok, "Transpose": _transpose_ok, "Neg": _always,
    "Add": _same, "AddV2": _same, "Sub": _same, "Mul": _same, "Maximum": _min_max_ok,
    "Minimum": _min_max_ok, "FloorDiv": _division_ok, "FloorMod": _floor_mod_ok, "Less": _same,
    "Greater": _same, "LessEqual": _same, "GreaterEqual": _same, "Equal": _same, "NotEqual": _same,
    "LogicalAnd": _always, "LogicalOr": _always, "Reciprocal": _floats_only,
    "RealDiv": _floats_only,
}

# Ops whose numpy result on complex values is TF's kernel's bit for bit: data
# movement, componentwise addition and negation, equality. (Complex products
# and quotients are left to TF: the rounding of their formulas may differ.)
COMPLEX_EXACT_OPS = frozenset((
    "StopGradient", "Snapshot", "Pack", "ConcatV2", "Concat", "StridedSlice", "Slice", "Reshape",
    "ExpandDims", "Squeeze", "GatherV2", "Fill", "Transpose", "Neg", "Add", "AddV2", "Sub",
    "Equal", "NotEqual"))


def evaluate(op_name, attributes, operands, result_types):
    """The hook's callback: [ElementsAttr] for the op's results, or None to leave it.

    `op_name` is the op's name, `attributes` its DictAttr (inherent and
    discardable attributes), `operands` the constant operands' attributes and
    `result_types` the op's result types."""
    try:
        return _evaluate(op_name, attributes, operands, result_types)
    except Exception:  # noqa: BLE001 - anything unexpected: no fold
        return None


def _evaluate(op_name, attributes, operands, result_types):
    if not op_name.startswith("tf.") or len(result_types) != 1:
        return None
    name = op_name[3:]
    condition = FOLDABLE_OPS.get(name)
    if condition is None or not _values.can_evaluate(name):
        return None
    result_type = ir.ShapedType(result_types[0])
    out = _numpy_dtype(result_type.element_type)
    if out is None:
        return None
    vals = [_array(a) for a in operands]
    if any(v is None for v in vals):
        return None
    attrs = dict(_native.attribute_items(attributes))  # (NamedAttribute.attr may abort)

    def attr(key, default=None):
        if key == "DstT":
            return _TF_DTYPE_OF.get(out)
        return _attribute(attrs[key]) if key in attrs else default

    if (out.kind == "c" or any(v.dtype.kind == "c" for v in vals)) and name not in COMPLEX_EXACT_OPS:
        return None
    with np.errstate(all="ignore"):
        if not condition(attr, vals, out):
            return None
        value = _values.evaluate(name, attr, vals)
    if value is None:
        return None
    value = np.array(value, order="C")  # (ascontiguousarray would make scalars 1-D)
    if value.dtype != out:
        return None
    element = result_type.element_type
    if value.dtype.kind == "c":
        folded = _native.dense_elements_from_raw_data(
            ir.RankedTensorType.get(list(value.shape), element,
                                    loc=ir.Location.unknown(context=element.context)),
            value.tobytes())
        return None if folded is None else [folded]
    if value.dtype == np.bool_:
        return [ir.DenseElementsAttr.get(value, context=element.context)]
    return [ir.DenseElementsAttr.get(value, type=element, shape=list(value.shape),
                                     context=element.context)]
