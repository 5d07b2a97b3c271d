"""Constant values and partial shapes of tensors, as shape functions ask for them.

TensorFlow's shape functions read some inputs' values (Reshape's shape, an
axis) and, when a shape tensor is only partly known (``Pack`` of a constant and
an unknown size, ``ConcatV2`` of ``Shape`` slices), the partial shape it
denotes (ShapeRefiner's ConstantPartialShape). :class:`ValueEvaluator` holds
that logic once; adapters (importer: NodeDef outputs, pass: ``mlir`` values)
supply the primitives that describe a value's producer. Values are opaque,
hashable keys to this module.
"""
import numpy as np

from .algebra import NOT_EVALUATED, ShapeError, fully_defined, num_elements, shape_from_tensor, with_rank
from .strided_slice import strided_slice_value

# Constants larger than this are not evaluated (TensorFlow bounds constant folding similarly).
MAX_CONST_ELEMENTS = 1 << 20

# TensorFlow DataType number -> numpy dtype, for the types constant evaluation computes in.
NUMPY_DTYPES = {1: np.float32, 2: np.float64, 3: np.int32, 9: np.int64, 10: np.bool_, 4: np.uint8,
                5: np.int16, 6: np.int8, 17: np.uint16, 22: np.uint32, 23: np.uint64}

_COMPARISONS = ("Less", "Greater", "LessEqual", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd",
                "LogicalOr")
_FOLDABLE_BINARY = {
    "Add": np.add, "AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "Maximum": np.maximum,
    "Minimum": np.minimum, "FloorDiv": np.floor_divide, "FloorMod": np.mod, "Less": np.less,
    "Greater": np.greater, "LessEqual": np.less_equal, "GreaterEqual": np.greater_equal,
    "Equal": np.equal, "NotEqual": np.not_equal, "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or,
}


def _binary(op, a, b):
    r = _FOLDABLE_BINARY[op](a, b)
    if op == "FloorDiv" and np.asarray(a).dtype.kind == "f":
        r = np.floor(np.divide(a, b))
    return np.asarray(r).astype(np.bool_ if op in _COMPARISONS else np.result_type(a, b))


def _scalar(v):
    return int(np.asarray(v).reshape(-1)[0])


def _eval_identity(attr, vals):
    return vals[0]


def _eval_cast(attr, vals):
    dt = NUMPY_DTYPES.get(attr("DstT"))
    return None if dt is None else np.asarray(vals[0]).astype(dt)


def _eval_pack(attr, vals):
    return np.stack([np.asarray(v) for v in vals], axis=attr("axis", 0))


def _eval_concat_v2(attr, vals):
    return np.concatenate([np.asarray(v) for v in vals[:-1]], axis=_scalar(vals[-1]))


def _eval_concat(attr, vals):
    return np.concatenate([np.asarray(v) for v in vals[1:]], axis=_scalar(vals[0]))


def _eval_strided_slice(attr, vals):
    masks = [attr(k, 0) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                   "shrink_axis_mask")]
    return strided_slice_value(np.asarray(vals[0]), vals[1], vals[2], vals[3], *masks)


def _eval_slice(attr, vals):
    x, begin, size = (np.asarray(v) for v in vals)
    idx = tuple(slice(int(b), None if int(s) == -1 else int(b) + int(s)) for b, s in zip(begin, size))
    return x[idx]


def _eval_reshape(attr, vals):
    return np.asarray(vals[0]).reshape([int(d) for d in np.asarray(vals[1]).reshape(-1)])


def _eval_expand_dims(attr, vals):
    return np.expand_dims(np.asarray(vals[0]), _scalar(vals[1]))


def _eval_squeeze(attr, vals):
    dims = attr("squeeze_dims", None) or []
    x = np.asarray(vals[0])
    return np.squeeze(x, axis=tuple(dims)) if dims else np.squeeze(x)


def _eval_gather_v2(attr, vals):
    return np.take(np.asarray(vals[0]), np.asarray(vals[1]), axis=_scalar(vals[2]))


def _eval_fill(attr, vals):
    return np.full([int(d) for d in np.asarray(vals[0]).reshape(-1)], vals[1])


def _eval_range(attr, vals):
    s, l_, d = (np.asarray(v).reshape(-1)[0] for v in vals)
    return np.arange(s, l_, d).astype(np.asarray(vals[0]).dtype)


def _eval_reduce(fn):
    def ev(attr, vals):
        x = np.asarray(vals[0])
        axes = tuple(int(a) for a in np.asarray(vals[1]).reshape(-1))
        return np.asarray(fn(x, axis=axes, keepdims=bool(attr("keep_dims", False)))).astype(x.dtype)
    return ev


def _eval_transpose(attr, vals):
    return np.transpose(np.asarray(vals[0]), [int(p) for p in np.asarray(vals[1]).reshape(-1)])


def _eval_neg(attr, vals):
    return -np.asarray(vals[0])


def _eval_reciprocal(attr, vals):
    x = np.asarray(vals[0])
    return np.divide(np.ones((), x.dtype), x) if x.dtype.kind == "f" else None


def _eval_real_div(attr, vals):
    a, b = (np.asarray(v) for v in vals)
    return np.divide(a, b) if a.dtype.kind == "f" and a.dtype == b.dtype else None


EVALUATORS = {
    "Identity": _eval_identity, "StopGradient": _eval_identity, "Snapshot": _eval_identity,
    "Cast": _eval_cast, "Pack": _eval_pack, "ConcatV2": _eval_concat_v2, "Concat": _eval_concat,
    "StridedSlice": _eval_strided_slice, "Slice": _eval_slice, "Reshape": _eval_reshape,
    "ExpandDims": _eval_expand_dims, "Squeeze": _eval_squeeze, "GatherV2": _eval_gather_v2,
    "Fill": _eval_fill, "Range": _eval_range, "Prod": _eval_reduce(np.prod), "Sum": _eval_reduce(np.sum),
    "Max": _eval_reduce(np.max), "Min": _eval_reduce(np.min), "Transpose": _eval_transpose,
    "Neg": _eval_neg, "Reciprocal": _eval_reciprocal, "RealDiv": _eval_real_div,
}


# The op types this module evaluates on constant inputs.
EVALUABLE_OPS = frozenset(EVALUATORS) | frozenset(_FOLDABLE_BINARY)


def evaluate(op, attr, vals):
    """The value of `op` (a foldable op type) on constant inputs `vals`; `attr(name, default)`
    reads its attributes. None when this module cannot evaluate it."""
    if op in _FOLDABLE_BINARY:
        return _binary(op, *vals)
    ev = EVALUATORS.get(op)
    return None if ev is None else ev(attr, vals)


def can_evaluate(op):
    return op in _FOLDABLE_BINARY or op in EVALUATORS


class ValueEvaluator:
    """Constant values and partial shapes of values, cached per evaluator.

    Subclasses describe a value `v` through: ``_v_op(v)`` (producer op type, None for arguments
    and producers outside TensorFlow's op set), ``_v_attr(v, name, default)``,
    ``_v_num_operands(v)``, ``_v_operand(v, i)`` (the value feeding operand i, or None),
    ``_v_input_shape(v, i)`` and ``_v_input_handle(v, i)`` (shape/handle data of the producer's
    operand i), ``_v_shape(v)``, ``_v_const(v)`` (a Const producer's value as a numpy array, None
    for strings and other unreadable values) and ``_v_foldable(v)`` (a stateless producer
    with inputs, outside v1 control flow).
    """

    def __init__(self):
        self.consts = {}

    def constant_value(self, v):
        """The value of `v` as a numpy array when it is a known constant, else None."""
        if v in self.consts:
            return self.consts[v]
        self.consts[v] = None  # breaks cycles
        try:
            value = self._evaluate(v)
        except (ShapeError, ValueError, TypeError, IndexError, OverflowError):
            value = None
        if value is not None and np.asarray(value).size > MAX_CONST_ELEMENTS:
            value = None
        self.consts[v] = value
        return value

    def _evaluate(self, v):
        op = self._v_op(v)
        if op is None:
            return None
        if op in ("Const", "HostConst"):
            return self._v_const(v)
        if op in ("Shape", "Size", "Rank"):
            s = self._v_input_shape(v, 0)
            if op == "Rank":
                return None if s is None else np.array(len(s), dtype=np.int32)
            if not fully_defined(s):
                return None
            dt = NUMPY_DTYPES.get(self._v_attr(v, "out_type", 3), np.int32)
            return np.array(s if op == "Shape" else num_elements(s), dtype=dt)
        if not can_evaluate(op) or not self._v_foldable(v):
            return None
        vals = []
        for i in range(self._v_num_operands(v)):
            src = self._v_operand(v, i)
            value = None if src is None else self.constant_value(src)
            if value is None:
                return None
            vals.append(value)
        return evaluate(op, lambda name, default=None: self._v_attr(v, name, default), vals)

    def constant_partial_shape(self, v):
        """ShapeRefiner::ConstantPartialShape of the shape tensor `v`; NOT_EVALUATED when the
        value cannot tell anything beyond its own shape."""
        src_shape = self._v_shape(v)
        if src_shape is not None and len(src_shape) == 0:
            value = self.constant_value(v)
            if value is not None and np.asarray(value).ndim == 0 and int(value) == -1:
                return None
            raise ShapeError("received a shape scalar with unknown static value; a static value of "
                             "'-1' is required to represent an unknown shape")
        src_shape = with_rank(src_shape, 1) if src_shape is not None else [-1]
        if src_shape[0] == 0:
            return []
        unknown = None if src_shape[0] < 0 else [-1] * src_shape[0]
        op = self._v_op(v)
        if op == "Cast":
            value = self.constant_value(v)
            if value is not None:
                try:
                    return shape_from_tensor(value, src_shape, False)
                except ShapeError:
                    pass
            src = self._v_operand(v, 0)
            pre = self.constant_partial_shape(src) if src is not None else NOT_EVALUATED
            if pre is NOT_EVALUATED:
                pre = unknown
            if pre is None:
                return None
            return pre if self._v_attr(v, "DstT") in (3, 9) else [-1] * len(pre)
        if op == "Shape":
            return self._v_input_shape(v, 0)
        if op == "ShapeN":
            return self._v_input_shape(v, self._v_index(v))
        if op == "Pack":
            dims = []
            for i in range(self._v_num_operands(v)):
                src = self._v_operand(v, i)
                value = self.constant_value(src) if src is not None else None
                if value is not None and np.asarray(value).size == 1:
                    size = _scalar(value)
                    dims.append(-1 if size < 0 else size)
                else:
                    dims.append(-1)
            return dims
        if op in ("Concat", "ConcatV2"):
            n = self._v_num_operands(v)
            axis = 0 if op == "Concat" else n - 1
            result = []
            for i in range(n):
                if i == axis:
                    continue
                src = self._v_operand(v, i)
                sub = self.constant_partial_shape(src) if src is not None else None
                if sub is NOT_EVALUATED:
                    s = self._v_shape(src)
                    sub = None if s is None or not s or s[0] < 0 else [-1] * s[0]
                if sub is None:
                    return None
                result.extend(sub)
            return result
        if op == "StridedSlice":
            return self._partial_strided_slice(v, unknown)
        if op == "VariableShape":
            h = self._v_input_handle(v, 0)
            return h[0][1] if h else None
        value = self.constant_value(v)
        if value is not None:
            return shape_from_tensor(value, src_shape, False)
        return unknown

    def _partial_strided_slice(self, v, unknown):
        # Only slices of a shape with constant scalar begin/end/strides and no masks but
        # begin/end masks (ShapeRefiner::PartialStridedSliceShape).
        for attr in ("ellipsis_mask", "new_axis_mask", "shrink_axis_mask"):
            if self._v_attr(v, attr, 0):
                return unknown
        vals = []
        for i in (1, 2, 3):
            src = self._v_operand(v, i)
            value = self.constant_value(src) if src is not None else None
            if value is None or np.asarray(value).size != 1:
                return unknown
            vals.append(_scalar(value))
        src = self._v_operand(v, 0)
        inner = self.constant_partial_shape(src) if src is not None else NOT_EVALUATED
        if inner is NOT_EVALUATED or inner is None:
            return unknown
        begin, end, stride = vals
        rank = len(inner)
        if self._v_attr(v, "begin_mask", 0) & 1:
            begin = 0 if stride > 0 else rank - 1
        if self._v_attr(v, "end_mask", 0) & 1:
            end = rank if stride > 0 else -rank - 1
        return list(inner)[slice(begin if begin >= -rank else None, end if end >= -rank else None, stride)]
