"""TensorFlow's shape functions, in Python, independent of where the op comes from.

One implementation per op: the GraphDef importer runs them on NodeDefs
(``tfmlir.importers.shape_inference``) and ``tf-shape-inference`` on ``tf``
dialect ops (``tfmlir.passes.tf_shape_inference``). Each adapts its op to a
:class:`Context` (input shapes and handle data, attributes as plain Python
values, constant inputs, shapes computed from shape tensors) and calls
``SHAPE_FNS[op type](context)``, which sets the output shapes and handles or
raises :class:`~tfmlir.shapes.algebra.ShapeError` for operands no op could
accept. The semantics are TensorFlow's registered shape functions
(``tensorflow/core/ops``): unknown dimensions merge, constant inputs are read
where TensorFlow reads them, and ops without a function here are unknown.
"""
import math

import numpy as np

from .algebra import (NOT_EVALUATED, ShapeError, broadcast_shapes, concatenate,
                      merge_dim, merge_shape, num_elements, replace_dim, shape_from_tensor,
                      subshape, with_rank, with_rank_at_least, with_rank_at_most, with_value)
from .strided_slice import strided_slice_shape


class Context:
    """What a shape function sees: the op type, the producer version, input shapes and handles,
    attributes, constant inputs; it sets ``outputs`` and ``output_handles``.

    Adapters implement :meth:`attr`, :meth:`input_tensor`, :meth:`input_partial_shape` and
    :meth:`const_shape`.
    """
    __slots__ = ("op", "producer", "inputs", "input_handles", "outputs", "output_handles", "num_outputs")

    def __init__(self, op, producer, inputs, input_handles, num_outputs):
        self.op = op
        self.producer = producer
        self.inputs = inputs
        self.input_handles = input_handles
        self.num_outputs = num_outputs
        self.outputs = [None] * num_outputs
        self.output_handles = [None] * num_outputs

    @property
    def num_inputs(self):
        return len(self.inputs)

    def attr(self, name, default=None):
        """The attribute `name` as a Python value (int, float, bool, str, dtype number, shape,
        or a list of those), `default` when absent."""
        raise NotImplementedError

    def attr_bytes(self, name):
        """A string attribute's bytes (serialized protos), b"" when absent, None when the adapter
        cannot give them (a binary string its :meth:`attr` cannot read as text). Adapters whose
        :meth:`attr` cannot give binary strings exactly override this."""
        try:
            v = self.attr(name)
        except (RuntimeError, UnicodeDecodeError):
            return None
        if v is None:
            return b""
        if isinstance(v, (bytes, bytearray)):
            return bytes(v)
        return str(v).encode("utf-8", "surrogateescape")

    def input_tensor(self, i):
        """The value (numpy array) of input `i` if it is a known constant, else None."""
        raise NotImplementedError

    def input_partial_shape(self, i):
        """The shape input `i` denotes when its value is only partly known (TensorFlow's
        ConstantPartialShape), or NOT_EVALUATED when nothing beyond its own shape is known."""
        raise NotImplementedError

    def const_shape(self):
        """The shape of a Const op's value."""
        raise NotImplementedError

    def set_output(self, i, shape):
        self.outputs[i] = shape

    def shape_from_shape_tensor(self, i, treat_scalar_as_unknown=False):
        """InferenceContext::MakeShapeFromShapeTensor(i)."""
        t = self.input_tensor(i)
        input_shape = self.inputs[i]
        if t is not None:
            return shape_from_tensor(t, input_shape, treat_scalar_as_unknown)
        if treat_scalar_as_unknown and input_shape is not None and len(input_shape) == 0:
            return None
        partial = self.input_partial_shape(i)
        if partial is not NOT_EVALUATED:
            return partial
        # Unknown value: rank from the shape of the shape vector.
        s = with_rank(input_shape, 1) if not (treat_scalar_as_unknown and input_shape == []) else input_shape
        if s is None or s[0] < 0:
            return None
        return [-1] * s[0]

    def scalar_input_dim(self, i, rank=None):
        """MakeDimForScalarInput(WithNegativeIndexing)."""
        t = self.input_tensor(i)
        if t is None:
            return -1
        v = int(np.asarray(t).reshape(-1)[0])
        if rank is not None and v < 0:
            v += rank
        if v < 0:
            raise ShapeError(f"dimension must be non-negative, got {v}")
        return v

SHAPE_FNS = {}


def shape_fn(*names):
    def deco(fn):
        for n in names:
            SHAPE_FNS[n] = fn
        return fn
    return deco


def unknown_shape(c):
    for i in range(c.num_outputs):
        c.set_output(i, None)


@shape_fn("NoOp", "ControlTrigger", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
          "PrintV2", "Assert", "_Retval", "SaveV2", "MergeV2Checkpoints", "DestroyResourceOp",
          "InitializeTableV2", "InitializeTableFromTextFileV2", "TPUReplicateMetadata",
          "LookupTableImportV2", "LookupTableInsertV2", "LookupTableRemoveV2", "AssertV2_unused")
def _no_outputs(c):
    pass


def unchanged(c):
    c.set_output(0, c.inputs[0])
    if c.input_handles and c.input_handles[0] is not None and c.num_outputs:
        c.output_handles[0] = c.input_handles[0]


_UNARY = (
    "Identity", "Snapshot", "StopGradient", "PreventGradient", "CheckNumerics", "CheckNumericsV2",
    "Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "Sigmoid", "Tanh", "Rsqrt", "Sqrt", "Square",
    "Neg", "Abs", "Exp", "Expm1", "Log", "Log1p", "Floor", "Ceil", "Round", "Rint", "Sign", "Reciprocal",
    "Inv", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Erf",
    "Erfc", "Erfinv", "Lgamma", "Digamma", "IsNan", "IsInf", "IsFinite", "LogicalNot", "Cast",
    "ZerosLike", "OnesLike", "Invert", "Real", "Imag", "Conj", "ComplexAbs", "Angle", "LeakyRelu",
    "Gelu", "Bitcast_unused", "ClipByValue_unused", "NextIteration", "RefNextIteration", "Exit",
    "RefExit", "DebugIdentity", "DebugIdentityV2", "EnsureShape_unused", "Print", "_Recv_unused",
    "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars", "QuantizeAndDequantizeV2",
    "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4", "IdentityN_unused", "OptionalFromValue_unused",
    "ReluGrad_unused", "Sinh_unused", "Mish_unused", "PlaceholderWithDefault_unused",
    "StatelessRandomGetKeyCounter_unused", "RefIdentity", "LoopCond_unused",
)
for _op in _UNARY:
    if not _op.endswith("_unused"):
        SHAPE_FNS[_op] = unchanged


@shape_fn("Softmax", "LogSoftmax")
def _softmax(c):
    c.set_output(0, with_rank_at_least(c.inputs[0], 1))


@shape_fn("ClipByValue")
def _clip(c):
    unchanged(c)


@shape_fn("IdentityN")
def _identity_n(c):
    for i in range(c.num_outputs):
        c.set_output(i, c.inputs[i])
        if c.input_handles[i] is not None:
            c.output_handles[i] = c.input_handles[i]


@shape_fn("EnsureShape")
def _ensure_shape(c):
    c.set_output(0, merge_shape(c.inputs[0], c.attr("shape")))


@shape_fn("PlaceholderWithDefault")
def _placeholder_with_default(c):
    shape = c.attr("shape")
    inp = c.inputs[0]
    if shape is None:
        c.set_output(0, None)
        return
    # The output shape is the attr shape; the input must be compatible.
    merge_shape(inp, shape)
    c.set_output(0, shape)




_BINARY = ("Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "MulNoNan", "FloorDiv", "FloorMod",
           "TruncateDiv", "TruncateMod", "Mod", "Maximum", "Minimum", "Pow", "SquaredDifference",
           "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr", "Atan2",
           "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "Xdivy", "Xlogy",
           "Xlog1py", "Igamma", "Igammac", "Zeta", "Polygamma", "Complex", "NextAfter", "Betainc_unused")


def _binary(c):
    c.set_output(0, broadcast_shapes(c.inputs[0], c.inputs[1]))


for _op in _BINARY:
    SHAPE_FNS[_op] = _binary


@shape_fn("Equal", "NotEqual")
def _equal(c):
    c.set_output(0, broadcast_shapes(c.inputs[0], c.inputs[1], bool(c.attr("incompatible_shape_error", True))))


@shape_fn("AddN")
def _add_n(c):
    cur = c.inputs[0]
    for s in c.inputs[1:]:
        cur = merge_shape(cur, s) if cur is not None and s is not None else (cur if s is None else s)
    c.set_output(0, cur if all(s is not None for s in c.inputs) or cur is not None else None)


@shape_fn("Select")
def _select(c):
    # Simplified: the output has the shape of t/e merged.
    c.set_output(0, merge_shape(c.inputs[1], c.inputs[2]))


@shape_fn("SelectV2")
def _select_v2(c):
    c.set_output(0, broadcast_shapes(c.inputs[0], broadcast_shapes(c.inputs[1], c.inputs[2])))


@shape_fn("BiasAdd", "BiasAddV1")
def _bias_add(c):
    fmt = c.attr("data_format", "NHWC") if c.op == "BiasAdd" else "NHWC"
    x = with_rank_at_least(c.inputs[0], 3 if fmt == "NCHW" else 2)
    bias = with_rank(c.inputs[1], 1)
    if x is None:
        c.set_output(0, None)
        return
    x = list(x)
    if fmt == "NCHW":
        x[1] = merge_dim(x[1], bias[0])
    else:
        x[-1] = merge_dim(x[-1], bias[0])
    c.set_output(0, x)


@shape_fn("MatMul")
def _matmul(c):
    a = with_rank(c.inputs[0], 2)
    b = with_rank(c.inputs[1], 2)
    ta = c.attr("transpose_a", False)
    tb = c.attr("transpose_b", False)
    rows = a[1] if ta else a[0]
    cols = b[0] if tb else b[1]
    merge_dim(a[0] if ta else a[1], b[1] if tb else b[0])
    c.set_output(0, [rows, cols])


@shape_fn("BatchMatMulV2", "BatchMatMulV3")
def _batch_matmul_v2(c):
    a = with_rank_at_least(c.inputs[0], 2)
    b = with_rank_at_least(c.inputs[1], 2)
    if a is None or b is None:
        c.set_output(0, None)
        return
    adj_x = c.attr("adj_x", False)
    adj_y = c.attr("adj_y", False)
    rows = a[-1] if adj_x else a[-2]
    cols = b[-2] if adj_y else b[-1]
    merge_dim(a[-2] if adj_x else a[-1], b[-1] if adj_y else b[-2])
    batch = broadcast_shapes(a[:-2], b[:-2])
    c.set_output(0, batch + [rows, cols])


@shape_fn("BatchMatMul")
def _batch_matmul(c):
    a = with_rank_at_least(c.inputs[0], 2)
    b = with_rank_at_least(c.inputs[1], 2)
    if a is None or b is None:
        c.set_output(0, None)
        return
    if len(a) != len(b):
        raise ShapeError("BatchMatMul inputs must have the same rank")
    adj_x = c.attr("adj_x", False)
    adj_y = c.attr("adj_y", False)
    rows = a[-1] if adj_x else a[-2]
    cols = b[-2] if adj_y else b[-1]
    batch = merge_shape(a[:-2], b[:-2])
    merge_dim(a[-2] if adj_x else a[-1], b[-1] if adj_y else b[-2])
    c.set_output(0, batch + [rows, cols])


def _reduction_shape(c, input_shape, keep_dims):
    t = c.input_tensor(1)
    if t is None or input_shape is None:
        if keep_dims and input_shape is not None:
            return [-1] * len(input_shape)
        return None
    rank = len(input_shape)
    true_indices = set()
    for v in np.asarray(t).reshape(-1).tolist():
        v = int(v)
        if v < -rank or v >= rank:
            raise ShapeError(f"invalid reduction dimension {v} for input with {rank} dimensions")
        true_indices.add(v + rank if v < 0 else v)
    dims = []
    for i in range(rank):
        if i in true_indices:
            if keep_dims:
                dims.append(1)
        else:
            dims.append(input_shape[i])
    return dims


@shape_fn("Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "EuclideanNorm", "ReduceJoin")
def _reduction(c):
    if c.producer >= 21:
        with_rank_at_most(c.inputs[1], 1)
    c.set_output(0, _reduction_shape(c, c.inputs[0], bool(c.attr("keep_dims", False))))


@shape_fn("ArgMax", "ArgMin")
def _argmax(c):
    inp = c.inputs[0]
    t = c.input_tensor(1)
    if inp is None or t is None:
        c.set_output(0, None if inp is None else ([-1] * (len(inp) - 1) if len(inp) else None))
        return
    d = int(np.asarray(t).reshape(-1)[0])
    r = len(inp)
    if d < 0:
        d += r
    c.set_output(0, inp[:d] + inp[d + 1:])


def _windowed_output(in_size, k, d, s, padding, pad_before=0, pad_after=0):
    if in_size < 0:
        return -1
    if padding == "SAME":
        return (in_size + s - 1) // s
    if k < 0:
        return -1
    eff = (k - 1) * d + 1
    if padding == "VALID":
        return (in_size - eff + s) // s
    if padding == "SAME":
        return (in_size + s - 1) // s
    if padding == "EXPLICIT":
        return (in_size + pad_before + pad_after - eff + s) // s
    raise ShapeError(f"unknown padding {padding}")


def _conv_dims(fmt, rank):
    """(batch, spatial dims..., channel) indices for a data format."""
    spatial = rank - 2
    if fmt.startswith("NC"):
        return 0, list(range(2, 2 + spatial)), 1
    return 0, list(range(1, 1 + spatial)), rank - 1


@shape_fn("Conv2D", "Conv3D", "DepthwiseConv2dNative", "_FusedConv2D")
def _conv(c):
    op = c.op
    rank = 5 if op == "Conv3D" else 4
    x = with_rank(c.inputs[0], rank)
    f = with_rank(c.inputs[1], rank)
    fmt = c.attr("data_format", "NHWC" if rank == 4 else "NDHWC")
    strides = c.attr("strides") or [1] * rank
    dilations = c.attr("dilations") or [1] * rank
    padding = c.attr("padding", "VALID")
    explicit = c.attr("explicit_paddings") or []
    b, sp, ch = _conv_dims(fmt, rank)
    out = [0] * rank
    out[b] = x[b]
    if op == "DepthwiseConv2dNative":
        in_depth = merge_dim(x[ch], f[2])
        out[ch] = in_depth * f[3] if in_depth >= 0 and f[3] >= 0 else -1
    else:
        out[ch] = f[rank - 1]
    for k, dim in enumerate(sp):
        pb_, pa_ = 0, 0
        if padding == "EXPLICIT" and explicit:
            pb_, pa_ = explicit[2 * dim], explicit[2 * dim + 1]
        out[dim] = _windowed_output(x[dim], f[k], dilations[dim], strides[dim], padding, pb_, pa_)
    c.set_output(0, out)


@shape_fn("MaxPool", "AvgPool", "MaxPool3D", "AvgPool3D")
def _pool(c):
    rank = 5 if c.op.endswith("3D") else 4
    x = with_rank(c.inputs[0], rank)
    fmt = c.attr("data_format", "NHWC" if rank == 4 else "NDHWC")
    ksize = c.attr("ksize")
    strides = c.attr("strides")
    padding = c.attr("padding")
    b, sp, ch = _conv_dims(fmt, rank)
    out = list(x)
    for dim in sp:
        out[dim] = _windowed_output(x[dim], ksize[dim], 1, strides[dim], padding)
    out[ch] = x[ch]
    c.set_output(0, out)


@shape_fn("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3")
def _fused_bn(c):
    x = with_rank(c.inputs[0], 4)
    fmt = c.attr("data_format", "NHWC")
    ch = 1 if fmt.startswith("NC") else 3
    depth = x[ch]
    for i in (1, 2):
        depth = merge_dim(depth, with_rank(c.inputs[i], 1)[0])
    if not c.attr("is_training", True):
        for i in (3, 4):
            depth = merge_dim(depth, with_rank(c.inputs[i], 1)[0])
    y = list(x)
    y[ch] = depth
    c.set_output(0, y)
    for i in range(1, 5):
        c.set_output(i, [depth])
    if c.num_outputs > 5:
        c.set_output(5, None)


@shape_fn("Pad", "PadV2", "MirrorPad")
def _pad(c):
    paddings = with_rank(c.inputs[1], 2)
    if paddings[1] >= 0 and paddings[1] != 2:
        raise ShapeError("paddings must have 2 columns")
    inp = c.inputs[0]
    n = paddings[0]
    if n >= 0:
        inp = with_rank(inp, n)
    elif inp is not None:
        n = len(inp)
    t = c.input_tensor(1)
    if t is None:
        c.set_output(0, [-1] * n if n >= 0 else None)
        return
    t = np.asarray(t)
    num = t.shape[0]
    inp = with_rank(inp, num)
    out = []
    for i in range(num):
        p = int(t[i][0]) + int(t[i][1])
        out.append(inp[i] + p if inp[i] >= 0 else -1)
    c.set_output(0, out)


@shape_fn("Reshape")
def _reshape(c):
    inp = c.inputs[0]
    out = c.shape_from_shape_tensor(1)
    if out is None:
        c.set_output(0, None)
        return
    out = list(out)
    if inp is not None:
        too_many = False
        out_unknown = -1
        known_out = num_elements(out)
        if known_out < 0:
            known_out = 1
            for i, d in enumerate(out):
                if d < 0:
                    if out_unknown >= 0:
                        too_many = True
                        break
                    out_unknown = i
                else:
                    known_out *= d
        in_unknown = -1
        known_in = num_elements(inp)
        if known_in < 0:
            known_in = 1
            for i, d in enumerate(inp):
                if d < 0:
                    if in_unknown >= 0:
                        too_many = True
                        break
                    in_unknown = i
                else:
                    known_in *= d
        if not too_many:
            if in_unknown < 0 and out_unknown < 0:
                if known_in != known_out:
                    raise ShapeError(f"cannot reshape a tensor with {known_in} elements to shape {out} "
                                     f"({known_out} elements)")
            elif in_unknown < 0 and out_unknown >= 0 and known_out > 0:
                if known_in % known_out:
                    raise ShapeError(f"cannot reshape a tensor with {known_in} elements to shape {out}")
                out[out_unknown] = known_in // known_out
            elif in_unknown >= 0 and out_unknown < 0 and known_in != 0:
                if known_out % known_in:
                    raise ShapeError(f"cannot reshape to shape {out}")
            elif in_unknown >= 0 and out_unknown >= 0:
                if known_in == known_out:
                    out[out_unknown] = inp[in_unknown]
    c.set_output(0, out)


@shape_fn("Squeeze")
def _squeeze(c):
    inp = c.inputs[0]
    if inp is None:
        c.set_output(0, None)
        return
    rank = len(inp)
    dims = c.attr("squeeze_dims") or []
    wanted = set()
    for d in dims:
        if d < -rank or d >= rank:
            raise ShapeError(f"squeeze dimension {d} out of range")
        wanted.add(d + rank if d < 0 else d)
    out = []
    for i, d in enumerate(inp):
        if d < 0:
            if i in wanted:
                continue  # assumed 1
            if not wanted:
                c.set_output(0, None)
                return
            out.append(d)
            continue
        if wanted:
            if i in wanted:
                if d != 1:
                    raise ShapeError(f"can not squeeze dim[{i}], expected a dimension of 1, got {d}")
                continue
            out.append(d)
        elif d != 1:
            out.append(d)
    c.set_output(0, out)


@shape_fn("ExpandDims")
def _expand_dims(c):
    inp = c.inputs[0]
    t = c.input_tensor(1)
    if t is None or inp is None:
        c.set_output(0, None)
        return
    d = int(np.asarray(t).reshape(-1)[0])
    r = len(inp)
    if d < -1 - r or d > r:
        raise ShapeError(f"ExpandDims dim {d} out of range")
    if d < 0:
        d += r + 1
    c.set_output(0, inp[:d] + [1] + inp[d:])


@shape_fn("Transpose", "ConjugateTranspose")
def _transpose(c):
    inp = c.inputs[0]
    perm_shape = c.inputs[1]
    perm = c.input_tensor(1)
    perm_elems = num_elements(perm_shape)
    if inp is None and perm_elems < 0 and perm is None:
        c.set_output(0, None)
        return
    if inp is not None:
        rank = len(inp)
    elif perm_elems >= 0:
        rank = perm_elems
    else:
        rank = int(np.asarray(perm).size)
    if inp is None and rank < 2:
        c.set_output(0, inp)
        return
    inp = with_rank(inp, rank)
    if perm is not None:
        out = []
        for v in np.asarray(perm).reshape(-1).tolist()[:rank]:
            v = int(v)
            if v >= rank or v < -rank:
                raise ShapeError(f"perm dim {v} is out of range of input rank {rank}")
            out.append(inp[v])
        c.set_output(0, out)
    else:
        c.set_output(0, [-1] * rank)


@shape_fn("Shape", "Size", "Rank")
def _shape_op(c):
    op = c.op
    inp = c.inputs[0]
    if op == "Shape":
        c.set_output(0, [len(inp) if inp is not None else -1])
    else:
        c.set_output(0, [])


@shape_fn("ShapeN")
def _shape_n(c):
    for i in range(c.num_outputs):
        s = c.inputs[i]
        c.set_output(i, [len(s) if s is not None else -1])


@shape_fn("Const", "HostConst")
def _const(c):
    c.set_output(0, c.const_shape())


@shape_fn("Placeholder", "PlaceholderV2")
def _placeholder(c):
    shape = c.attr("shape")
    if c.producer <= 21 and shape is not None and len(shape) == 0:
        shape = None
    c.set_output(0, shape)


@shape_fn("VarHandleOp")
def _var_handle(c):
    c.set_output(0, [])
    c.output_handles[0] = [(c.attr("dtype"), c.attr("shape"))]


@shape_fn("ReadVariableOp", "ResourceGather_unused")
def _read_variable(c):
    handle = c.input_handles[0]
    dtype = c.attr("dtype")
    if handle is None or not handle:
        c.set_output(0, None)
        return
    if len(handle) != 1:
        raise ShapeError("ReadVariableOp expects a single handle shape")
    if handle[0][0] != dtype:
        raise ShapeError("trying to read a variable with the wrong dtype")
    c.set_output(0, handle[0][1])


@shape_fn("VarIsInitializedOp", "IsVariableInitialized")
def _scalar(c):
    for i in range(c.num_outputs):
        c.set_output(i, [])


@shape_fn("VariableShape")
def _variable_shape(c):
    h = c.input_handles[0]
    if h:
        s = h[0][1]
        c.set_output(0, [len(s) if s is not None else -1])
    else:
        c.set_output(0, [-1])


@shape_fn("Fill")
def _fill(c):
    with_rank(c.inputs[0], 1)
    with_rank(c.inputs[1], 0)
    c.set_output(0, c.shape_from_shape_tensor(0))


@shape_fn("Zeros_unused", "BroadcastTo")
def _broadcast_to(c):
    inp = c.inputs[0]
    out = c.shape_from_shape_tensor(1)
    if out is None:
        c.set_output(0, None)
        return
    if inp is None:
        c.set_output(0, out)
        return
    if len(inp) > len(out):
        raise ShapeError("BroadcastTo: output rank is less than input rank")
    res = list(out)
    off = len(out) - len(inp)
    for i, d in enumerate(inp):
        o = out[off + i]
        if o < 0 and d > 1:
            res[off + i] = d
    c.set_output(0, res)


@shape_fn("Range")
def _range(c):
    for i in range(3):
        with_rank(c.inputs[i], 0)
    start, limit, delta = (c.input_tensor(i) for i in range(3))
    if start is None or limit is None or delta is None:
        c.set_output(0, [-1])
        return
    s, l_, d = (np.asarray(x).reshape(-1)[0] for x in (start, limit, delta))
    if d == 0:
        raise ShapeError("Range requires delta != 0")
    if np.asarray(start).dtype.kind in "iu":
        s, l_, d = int(s), int(l_), int(d)
        if (d > 0 and s > l_) or (d < 0 and s < l_):
            raise ShapeError("Range: requires start <= limit when delta > 0")
        size = (abs(l_ - s) + abs(d) - 1) // abs(d)
    else:
        size = int(math.ceil(abs((float(l_) - float(s)) / float(d))))
    c.set_output(0, [size])


@shape_fn("Pack")
def _pack(c):
    n = len(c.inputs)
    cur = None
    known = False
    for s in c.inputs:
        if s is None:
            continue
        cur = s if not known else merge_shape(cur, s)
        known = True
    if not known:
        c.set_output(0, None)
        return
    axis = c.attr("axis", 0)
    r = len(cur)
    if axis < 0:
        axis += r + 1
    c.set_output(0, cur[:axis] + [n] + cur[axis:])


@shape_fn("Unpack")
def _unpack(c):
    s = c.inputs[0]
    num = c.attr("num")
    if s is None:
        for i in range(c.num_outputs):
            c.set_output(i, None)
        return
    axis = c.attr("axis", 0)
    if axis < 0:
        axis += len(s)
    merge_dim(s[axis], num)
    out = s[:axis] + s[axis + 1:]
    for i in range(c.num_outputs):
        c.set_output(i, out)


@shape_fn("ConcatV2", "Concat")
def _concat(c):
    v2 = c.op == "ConcatV2"
    axis_idx = c.num_inputs - 1 if v2 else 0
    values = [s for i, s in enumerate(c.inputs) if i != axis_idx]
    t = c.input_tensor(axis_idx)
    if t is None:
        rank = None
        for s in values:
            if s is not None:
                rank = len(s)
                break
        c.set_output(0, None if rank is None else [-1] * rank)
        return
    axis = int(np.asarray(t).reshape(-1)[0])
    rank = None
    for s in values:
        if s is not None:
            rank = len(s)
            break
    if rank is None:
        c.set_output(0, None)
        return
    if axis < 0:
        axis += rank
    out = None
    total = 0
    for s in values:
        s = with_rank(s, rank)
        total = total + s[axis] if total >= 0 and s[axis] >= 0 else -1
        rest = s[:axis] + s[axis + 1:]
        out = rest if out is None else merge_shape(out, rest)
    c.set_output(0, out[:axis] + [total] + out[axis:])


@shape_fn("Split")
def _split(c):
    inp = c.inputs[1]
    num_split = c.num_outputs
    t = c.input_tensor(0)
    if t is None:
        out = None if inp is None else [-1] * len(inp)
    else:
        d = int(np.asarray(t).reshape(-1)[0])
        if inp is None:
            out = None
        else:
            if d < 0:
                d += len(inp)
            with_rank_at_least(inp, d + 1)
            out = list(inp)
            if inp[d] >= 0:
                if inp[d] % num_split:
                    raise ShapeError("number of ways to split should evenly divide the split dimension")
                out[d] = inp[d] // num_split
    for i in range(num_split):
        c.set_output(i, out)


@shape_fn("Tile")
def _tile(c):
    inp = c.inputs[0]
    mult = with_rank(c.inputs[1], 1)
    if inp is None:
        if mult[0] >= 0:
            inp = [-1] * mult[0]
        else:
            c.set_output(0, None)
            return
    t = c.input_tensor(1)
    if t is None:
        c.set_output(0, [-1] * len(inp))
        return
    m = np.asarray(t).reshape(-1).tolist()
    c.set_output(0, [d * int(k) if d >= 0 else -1 for d, k in zip(inp, m)])


@shape_fn("Slice")
def _slice(c):
    inp = c.inputs[0]
    begin_t = c.input_tensor(1)
    size_t = c.input_tensor(2)
    if inp is None and begin_t is None:
        bs = with_rank(c.inputs[1], 1)
        c.set_output(0, None if bs[0] < 0 else [-1] * bs[0])
        return
    if size_t is None:
        r = len(inp) if inp is not None else (np.asarray(begin_t).size if begin_t is not None else None)
        c.set_output(0, None if r is None else [-1] * r)
        return
    size = np.asarray(size_t).reshape(-1).tolist()
    inp = with_rank(inp, len(size))
    out = []
    for i, s in enumerate(size):
        s = int(s)
        if s == -1:
            if begin_t is not None and inp[i] >= 0:
                out.append(inp[i] - int(np.asarray(begin_t).reshape(-1)[i]))
            else:
                out.append(-1)
        else:
            out.append(s)
    c.set_output(0, out)


@shape_fn("GatherV2")
def _gather_v2(c):
    params = with_rank_at_least(c.inputs[0], 1)
    indices = c.inputs[1]
    with_rank(c.inputs[2], 0)
    t = c.input_tensor(2)
    batch = c.attr("batch_dims", 0)
    if t is None:
        # Unknown axis: only the rank is known.
        if params is not None and indices is not None:
            c.set_output(0, [-1] * (len(params) + len(indices) - 1 - batch))
        else:
            c.set_output(0, None)
        return
    axis = int(np.asarray(t).reshape(-1)[0])
    with_rank_at_least(params, -axis if axis < 0 else axis + 1)
    with_rank_at_least(indices, abs(batch))
    if batch < 0:
        # An unknown rank counts as -1 here, as in TensorFlow.
        batch += len(indices) if indices is not None else -1
    with_rank_at_least(params, batch + 1)
    out = concatenate(subshape(params, 0, axis), subshape(indices, batch))
    if axis != -1:
        out = concatenate(out, subshape(params, axis + 1))
    c.set_output(0, out)


@shape_fn("GatherNd", "ResourceGatherNd")
def _gather_nd(c):
    h = c.input_handles[0] if c.input_handles else None
    if h is not None:
        # A resource variable's value (ValidateVariableResourceHandle).
        if not h:
            params = None
        else:
            if h[0][0] != c.attr("dtype"):
                raise ShapeError("trying to read variable with wrong dtype")
            params = h[0][1]
    else:
        params = c.inputs[0]
    indices = with_rank_at_least(c.inputs[1], 1)
    r = indices[-1] if indices is not None else -1
    if params is None or r < 0:
        c.set_output(0, None)
        return
    if r > len(params):
        raise ShapeError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: {indices} "
                         f"and params shape: {params}")
    c.set_output(0, concatenate(subshape(indices, 0, -1), subshape(params, r)))


@shape_fn("Gather", "ResourceGather")
def _gather(c):
    params = with_rank_at_least(c.inputs[0], 1) if c.op == "Gather" else None
    if c.op == "ResourceGather":
        h = c.input_handles[0]
        params = h[0][1] if h else None
    indices = c.inputs[1]
    if params is None or indices is None:
        c.set_output(0, None)
        return
    c.set_output(0, indices + params[1:])


def _einsum_ellipsis(subscript):
    """True when `subscript` has an ellipsis (at most one, written '...')."""
    periods = subscript.count(".")
    if periods not in (0, 3):
        raise ShapeError(f"expected at most one ellipsis (...), but found {periods} periods (.) in the "
                         f"subscript: {subscript}")
    if periods == 3 and "..." not in subscript:
        raise ShapeError(f"periods found outside of ellipsis in subscript: {subscript}")
    return periods > 0


def einsum_shape(c):
    """TensorFlow's EinsumShape (one or two inputs, at most one ellipsis per subscript)."""
    eq = c.attr("equation")
    parts = eq.split("->")
    if len(parts) != 2:
        raise ShapeError(f"expecting exactly one '->' in einsum equation: {eq}")
    input_labels = parts[0].split(",")
    output_labels = parts[1]
    if len(input_labels) not in (1, 2):
        raise ShapeError(f"expecting 1 or 2 input subscripts in equation '{eq}' but got: {len(input_labels)}")
    if c.num_inputs not in (1, 2):
        raise ShapeError(f"expected either 1 or 2 inputs but got: {c.num_inputs}")
    if c.num_inputs != len(input_labels):
        raise ShapeError(f"expected {len(input_labels)} inputs for equation {eq} but got: {c.num_inputs}")
    label_dim = {}
    bcast = []
    for labels, shape in zip(input_labels, c.inputs):
        ellipsis = _einsum_ellipsis(labels)
        if shape is not None:
            shape = with_rank_at_least(shape, len(labels) - 3) if ellipsis else with_rank(shape, len(labels))
        bshape = []
        seen_ellipsis = False
        i = 0
        while i < len(labels):
            label = labels[i]
            after = i + len(shape) - len(labels) if shape is not None else -1
            if label == ".":
                bshape = None if shape is None else subshape(shape, i, after + 3)
                i += 3
                seen_ellipsis = True
                continue
            axis = after if seen_ellipsis else i
            d = shape[axis] if shape is not None else -1
            label_dim[label] = merge_dim(label_dim[label], d) if label in label_dim else d
            i += 1
        bcast.append(bshape)
    out_bcast = bcast[0] if len(bcast) == 1 else broadcast_shapes(bcast[0], bcast[1])
    if _einsum_ellipsis(output_labels):
        if out_bcast is None:
            c.set_output(0, None)
            return
    else:
        with_rank_at_most(out_bcast, 0)
        out_bcast = []
    out = []
    i = 0
    while i < len(output_labels):
        label = output_labels[i]
        if label == ".":
            out += out_bcast
            i += 3
            continue
        if label not in label_dim:
            raise ShapeError(f"einsum output subscripts for equation '{eq}' has label '{label}' which is not "
                             "present in the input subscripts")
        out.append(label_dim[label])
        i += 1
    c.set_output(0, out)


@shape_fn("Einsum")
def _einsum(c):
    einsum_shape(c)


@shape_fn("OneHot")
def _one_hot(c):
    ind = c.inputs[0]
    depth_t = c.input_tensor(1)
    if ind is None:
        c.set_output(0, None)
        return
    depth = int(np.asarray(depth_t).reshape(-1)[0]) if depth_t is not None else -1
    axis = c.attr("axis", -1)
    r = len(ind)
    if axis == -1:
        axis = r
    c.set_output(0, ind[:axis] + [depth] + ind[axis:])


@shape_fn("Cumsum", "Cumprod")
def _cum(c):
    unchanged(c)


@shape_fn("Where")
def _where(c):
    s = c.inputs[0]
    c.set_output(0, [-1, len(s) if s is not None else -1])


@shape_fn("StridedSlice")
def _strided_slice(c):
    inp = c.inputs[0]
    b = with_rank(c.inputs[1], 1)
    e = with_rank(c.inputs[2], 1)
    s = with_rank(c.inputs[3], 1)
    n = merge_dim(merge_dim(b[0], e[0]), s[0])
    strides = c.input_tensor(3)
    if inp is None or n < 0 or strides is None:
        c.set_output(0, None)
        return
    begin = c.input_tensor(1)
    end = c.input_tensor(2)
    out = strided_slice_shape(inp, begin, end, strides, c.attr("begin_mask", 0), c.attr("end_mask", 0),
                              c.attr("ellipsis_mask", 0), c.attr("new_axis_mask", 0),
                              c.attr("shrink_axis_mask", 0))
    c.set_output(0, out)
    if c.input_handles[0] is not None:
        c.output_handles[0] = c.input_handles[0]


# v1 control flow.

@shape_fn("Switch", "RefSwitch")
def _switch(c):
    with_rank(c.inputs[1], 0)
    for i in (0, 1):
        c.set_output(i, c.inputs[0])
        if c.input_handles[0] is not None:
            c.output_handles[i] = c.input_handles[0]


@shape_fn("Merge", "RefMerge")
def _merge(c):
    out = c.inputs[0]
    if out is not None:
        out = list(out)
        rank = len(out)
        for s in c.inputs[1:]:
            if s is None or len(s) != rank:
                out = None
                break
            for d in range(rank):
                if s[d] != out[d]:
                    out[d] = -1
    c.set_output(0, out)
    c.set_output(1, [])


@shape_fn("Enter", "RefEnter")
def _enter(c):
    c.set_output(0, None)
    if c.input_handles[0] is not None:
        c.output_handles[0] = c.input_handles[0]
    if c.attr("is_constant", False):
        c.set_output(0, c.inputs[0])


@shape_fn("LoopCond")
def _loop_cond(c):
    c.set_output(0, with_rank(c.inputs[0], 0))


# Functional control flow.

def _shapes_attr_or(c, attr, fallback):
    shapes = c.attr(attr) or []
    if shapes:
        if len(shapes) != c.num_outputs:
            raise ShapeError(f"'{attr}' has {len(shapes)} shapes, the op has {c.num_outputs} outputs")
        for i, s in enumerate(shapes):
            c.set_output(i, s)
        return True
    fallback(c)
    return False


@shape_fn("If", "StatelessIf", "Case", "StatelessCase")
def _if(c):
    _shapes_attr_or(c, "output_shapes", unknown_shape)


@shape_fn("While", "StatelessWhile")
def _while(c):
    def passthrough(c):
        for i in range(c.num_outputs):
            c.set_output(i, c.inputs[i])
    _shapes_attr_or(c, "output_shapes", passthrough)


# Tensor lists (variant handle data: element shape and dtype).

def _list_element(c, shape, dtype, i=0):
    c.output_handles[i] = [(dtype, shape)]


def _list_handle(c, i):
    """The (dtype, element shape) of list input `i` when its handle data is valid (one entry)."""
    h = c.input_handles[i]
    if h and len(h) == 1:
        return h[0]
    return None


def _check_list_handle(c, i):
    """The list's (dtype, element shape), or None; more than one entry is an error."""
    h = c.input_handles[i]
    if h is not None and len(h) > 1:
        raise ShapeError("invalid variant data for a tensor list")
    return _list_handle(c, i)


def _check_list_dtype(h, dtype):
    if h[0] != dtype:
        raise ShapeError(f"expected list with element dtype {dtype} but got list with element dtype {h[0]}")


@shape_fn("EmptyTensorList", "TensorListReserve")
def _empty_tensor_list(c):
    c.set_output(0, [])
    _list_element(c, c.shape_from_shape_tensor(0, treat_scalar_as_unknown=True), c.attr("element_dtype"))


@shape_fn("TensorListFromTensor")
def _tensor_list_from_tensor(c):
    c.set_output(0, [])
    element = c.shape_from_shape_tensor(1, treat_scalar_as_unknown=True)
    # The tensor's rows must agree with the declared element shape, which is what the list records.
    merge_shape(subshape(c.inputs[0], 1), element)
    _list_element(c, element, c.attr("element_dtype"))


@shape_fn("TensorListSplit")
def _tensor_list_split(c):
    c.set_output(0, [])
    tensor = with_rank_at_least(c.inputs[0], 1)
    with_rank(c.inputs[2], 1)
    element = c.shape_from_shape_tensor(1, treat_scalar_as_unknown=True)
    merge_shape(concatenate([-1], subshape(tensor, 1)), element)
    _list_element(c, element, c.attr("element_dtype"))


@shape_fn("TensorListScatter", "TensorListScatterV2")
def _tensor_list_scatter(c):
    _list_element(c, c.shape_from_shape_tensor(2, treat_scalar_as_unknown=True), c.attr("element_dtype"))
    c.set_output(0, [])


@shape_fn("TensorListSetItem")
def _tensor_list_set_item(c):
    dtype = c.attr("element_dtype")
    c.set_output(0, [])
    h = _list_handle(c, 0)
    if h is not None:
        merge_shape(c.inputs[2], h[1])
        c.output_handles[0] = c.input_handles[0]
    else:
        _list_element(c, None, dtype)


@shape_fn("TensorListPushBack")
def _tensor_list_push_back(c):
    c.set_output(0, [])
    dtype = c.attr("element_dtype")
    h = _check_list_handle(c, 0)
    element = None
    if h is not None:
        if h[0] != dtype:
            raise ShapeError(f"trying to push to list with wrong element dtype. List has type {h[0]} but "
                             f"trying to push element with type {dtype}")
        element = h[1]
    _list_element(c, element, dtype)


@shape_fn("TensorListPopBack")
def _tensor_list_pop_back(c):
    dtype = c.attr("element_dtype")
    h = _check_list_handle(c, 0)
    element = None
    if h is not None:
        _check_list_dtype(h, dtype)
        c.output_handles[0] = c.input_handles[0]
        element = h[1]
    c.set_output(1, element)
    c.set_output(0, [])


@shape_fn("TensorListScatterIntoExistingList")
def _tensor_list_scatter_into_existing(c):
    with_rank_at_least(c.inputs[1], 1)
    with_rank(c.inputs[2], 1)
    dtype = c.attr("element_dtype")
    h = _list_handle(c, 0)
    element = None
    if h is not None:
        _check_list_dtype(h, dtype)
        element = h[1]
    _list_element(c, element, dtype)
    c.set_output(0, [])


@shape_fn("TensorListResize")
def _tensor_list_resize(c):
    with_rank(c.inputs[1], 0)
    c.set_output(0, [])
    if _list_handle(c, 0) is not None:
        c.output_handles[0] = c.input_handles[0]


@shape_fn("TensorListGetItem")
def _tensor_list_get_item(c):
    dtype = c.attr("element_dtype")
    h = _list_handle(c, 0)
    element = None
    if h is not None:
        element = h[1]
        _check_list_dtype(h, dtype)
    element = merge_shape(element, c.shape_from_shape_tensor(2, treat_scalar_as_unknown=True))
    c.set_output(0, element)


@shape_fn("TensorListGather")
def _tensor_list_gather(c):
    dtype = c.attr("element_dtype")
    h = _list_handle(c, 0)
    element = None
    if h is not None:
        element = h[1]
        _check_list_dtype(h, dtype)
    element = merge_shape(element, c.shape_from_shape_tensor(2, treat_scalar_as_unknown=True))
    c.set_output(0, concatenate(c.inputs[1], element))


@shape_fn("TensorListStack")
def _tensor_list_stack(c):
    dtype = c.attr("element_dtype")
    h = _check_list_handle(c, 0)
    element = None
    if h is not None:
        _check_list_dtype(h, dtype)
        element = h[1]
    element = merge_shape(element, c.shape_from_shape_tensor(1, treat_scalar_as_unknown=True))
    num = c.attr("num_elements", -1)
    c.set_output(0, concatenate([num if num >= 0 else -1], element))


def _tensor_list_concat(c, element):
    dtype = c.attr("element_dtype")
    h = _check_list_handle(c, 0)
    if h is not None:
        _check_list_dtype(h, dtype)
        element = merge_shape(element, h[1])
    c.set_output(0, None if element is None else concatenate([-1], subshape(element, 1)))
    c.set_output(1, [-1])


@shape_fn("TensorListConcat")
def _tensor_list_concat_v1(c):
    _tensor_list_concat(c, c.attr("element_shape"))


@shape_fn("TensorListConcatV2")
def _tensor_list_concat_v2(c):
    _tensor_list_concat(c, c.shape_from_shape_tensor(1, treat_scalar_as_unknown=True))


@shape_fn("TensorListLength")
def _tensor_list_length(c):
    c.set_output(0, [])


@shape_fn("TensorListElementShape")
def _tensor_list_element_shape(c):
    # A vector of the element's rank; TensorFlow gives the scalar -1 for an unknown rank.
    h = _list_handle(c, 0)
    c.set_output(0, None if h is None or h[1] is None else [len(h[1])])


@shape_fn("TensorListConcatLists")
def _tensor_list_concat_lists(c):
    c.set_output(0, merge_shape(c.inputs[0], c.inputs[1]))
    dtype = c.attr("element_dtype")
    ha, hb = c.input_handles[0], c.input_handles[1]
    if not ha and not hb:
        _list_element(c, None, dtype)
        return
    a = ha[0] if ha else hb[0]
    b = hb[0] if hb else ha[0]
    for h, name in ((a, "input_a"), (b, "input_b")):
        if h[0] != dtype:
            raise ShapeError(f"{name}.type != element_dtype: {h[0]} vs. {dtype}")
    _list_element(c, merge_shape(a[1], b[1]), dtype)


@shape_fn("Unique")
def _unique(c):
    c.set_output(0, [-1])
    c.set_output(1, c.inputs[0])


@shape_fn("TopKV2")
def _topk(c):
    s = with_rank_at_least(c.inputs[0], 1)
    k = c.input_tensor(1)
    kk = int(np.asarray(k).reshape(-1)[0]) if k is not None else -1
    out = None if s is None else s[:-1] + [kk]
    c.set_output(0, out)
    c.set_output(1, out)


@shape_fn("LayerNorm_unused")
def _unused(c):
    unknown_shape(c)


@shape_fn("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
          "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "StatelessRandomUniformV2",
          "StatelessRandomNormalV2", "StatelessTruncatedNormalV2")
def _random(c):
    c.set_output(0, c.shape_from_shape_tensor(0))


@shape_fn("Relu6Grad_unused")
def _noop2(c):
    unknown_shape(c)


# Strings and more elementwise ops.
for _op in ("AsString", "StringUpper", "StringLower", "RegexReplace", "StaticRegexReplace", "StringLength",
            "StringToNumber", "StringStrip", "ReverseV2", "Bucketize",
            "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
            "TensorScatterMin", "StringToHashBucketFast", "StringToHashBucketStrong", "StringToHashBucket",
            "UnicodeScript", "Cumsum", "Cumprod", "CumulativeLogsumexp", "LRN", "Relu6Grad", "ReluGrad",
            "SigmoidGrad", "TanhGrad", "RsqrtGrad", "SqrtGrad", "ReciprocalGrad", "EluGrad", "SeluGrad",
            "SoftplusGrad", "SoftsignGrad", "Mish", "ClipByValue", "Roll", "MatrixBandPart",
            "StatelessRandomGetKeyCounter_unused"):
    if not _op.endswith("_unused"):
        SHAPE_FNS[_op] = unchanged


@shape_fn("StringJoin")
def _string_join(c):
    if all(s is not None and len(s) == 0 for s in c.inputs):
        c.set_output(0, [])
        return
    out = None
    for s in c.inputs:
        if s is not None and len(s) != 0:
            out = merge_shape(out, s)
    c.set_output(0, out)


@shape_fn("StringFormat", "L2Loss", "Timestamp")
def _scalar_out(c):
    c.set_output(0, [])


@shape_fn("LookupTableFindV2")
def _lookup_find(c):
    c.set_output(0, None)


@shape_fn("LookupTableSizeV2")
def _lookup_size(c):
    c.set_output(0, [])


@shape_fn("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea")
def _resize(c):
    x = with_rank(c.inputs[0], 4)
    size = c.input_tensor(1)
    if size is None:
        h = w = -1
    else:
        h, w = (int(v) for v in np.asarray(size).reshape(-1)[:2])
    c.set_output(0, [x[0], h, w, x[3]])


@shape_fn("SoftmaxCrossEntropyWithLogits")
def _softmax_xent(c):
    logits = with_rank(c.inputs[0], 2)
    labels = with_rank(c.inputs[1], 2)
    batch = merge_dim(logits[0], labels[0])
    classes = merge_dim(logits[1], labels[1])
    c.set_output(0, [batch])
    c.set_output(1, [batch, classes])


@shape_fn("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent(c):
    features = with_rank(c.inputs[0], 2)
    labels = with_rank(c.inputs[1], 1)
    batch = merge_dim(features[0], labels[0])
    c.set_output(0, [batch])
    c.set_output(1, [batch, features[1]])


@shape_fn("DepthToSpace", "SpaceToDepth")
def _depth_space(c):
    x = with_rank(c.inputs[0], 4)
    bs = c.attr("block_size")
    fmt = c.attr("data_format", "NHWC")
    if fmt != "NHWC":
        c.set_output(0, [-1] * 4)
        return
    if c.op == "DepthToSpace":
        out = [x[0], x[1] * bs if x[1] >= 0 else -1, x[2] * bs if x[2] >= 0 else -1,
               x[3] // (bs * bs) if x[3] >= 0 else -1]
    else:
        out = [x[0], x[1] // bs if x[1] >= 0 else -1, x[2] // bs if x[2] >= 0 else -1,
               x[3] * bs * bs if x[3] >= 0 else -1]
    c.set_output(0, out)


@shape_fn("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd")
def _unsorted_segment(c):
    data = c.inputs[0]
    ids = c.inputs[1]
    n = c.input_tensor(2)
    num = int(np.asarray(n).reshape(-1)[0]) if n is not None else -1
    if data is None or ids is None:
        c.set_output(0, None)
        return
    c.set_output(0, [num] + data[len(ids):])


@shape_fn("ScatterNd")
def _scatter_nd(c):
    c.set_output(0, c.shape_from_shape_tensor(2))


@shape_fn("BroadcastArgs")
def _broadcast_args(c):
    a = with_rank(c.inputs[0], 1)
    b = with_rank(c.inputs[1], 1)
    if a[0] < 0 or b[0] < 0:
        c.set_output(0, [-1])
    else:
        c.set_output(0, [max(a[0], b[0])])


@shape_fn("BroadcastGradientArgs")
def _broadcast_gradient_args(c):
    c.set_output(0, [-1])
    c.set_output(1, [-1])


@shape_fn("Conv2DBackpropInput")
def _conv2d_backprop_input(c):
    fmt = c.attr("data_format", "NHWC")
    if fmt not in ("NHWC", "NCHW"):
        raise ShapeError(f"invalid data format string: {fmt}")
    b, (h, w), ch = _conv_dims(fmt, 4)
    out_grad = with_rank(c.inputs[2], 4)
    filt = with_rank(c.inputs[1], 4)
    batch = out_grad[b]
    merge_dim(out_grad[ch], filt[3])
    sizes = c.shape_from_shape_tensor(0)
    if sizes is None:
        sizes = with_rank(sizes, 4)
    if len(sizes) == 4:
        spatial = [sizes[h], sizes[w]]
        depth = sizes[ch]
        merge_dim(sizes[b], batch)  # checked only: the batch comes from out_backprop
    elif len(sizes) == 2:
        spatial = list(sizes)
        depth = filt[2]
    else:
        raise ShapeError("Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
                         f"but got: {len(sizes)}")
    out = [0] * 4
    out[b], out[h], out[w], out[ch] = batch, spatial[0], spatial[1], depth
    c.set_output(0, out)


@shape_fn("MirrorPadGrad_unused")
def _unused2(c):
    unknown_shape(c)


@shape_fn("Multinomial", "StatelessMultinomial")
def _multinomial(c):
    logits = with_rank(c.inputs[0], 2)
    n = c.input_tensor(1)
    c.set_output(0, [logits[0], int(np.asarray(n).reshape(-1)[0]) if n is not None else -1])


@shape_fn("LinSpace")
def _linspace(c):
    n = c.input_tensor(2)
    c.set_output(0, [int(np.asarray(n).reshape(-1)[0]) if n is not None else -1])


@shape_fn("DiagPart_unused")
def _unused3(c):
    unknown_shape(c)


@shape_fn("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd")
def _segment(c):
    data = with_rank_at_least(c.inputs[0], 1)
    ids = with_rank(c.inputs[1], 1)
    if data is not None:
        merge_dim(data[0], ids[0])
    c.set_output(0, None if data is None else [-1] + data[1:])


@shape_fn("DenseBincount")
def _dense_bincount(c):
    inp = c.inputs[0]
    size = c.input_tensor(1)
    n = int(np.asarray(size).reshape(-1)[0]) if size is not None else -1
    if inp is None:
        c.set_output(0, None)
    elif len(inp) == 1:
        c.set_output(0, [n])
    elif len(inp) == 2:
        c.set_output(0, [inp[0], n])
    else:
        raise ShapeError("DenseBincount input must be rank 1 or 2")


@shape_fn("MatrixDiagPartV3", "MatrixDiagPartV2")
def _matrix_diag_part(c):
    inp = with_rank_at_least(c.inputs[0], 2)
    k = c.input_tensor(1)
    if inp is None or k is None:
        c.set_output(0, None if inp is None else None)
        return
    kk = np.asarray(k).reshape(-1).tolist()
    k0, k1 = (int(kk[0]), int(kk[0])) if len(kk) == 1 else (int(kk[0]), int(kk[1]))
    m, n = inp[-2], inp[-1]
    if m < 0 or n < 0:
        length = -1
    else:
        length = min(m + min(k1, 0), n - max(k0, 0))
    batch = inp[:-2]
    c.set_output(0, batch + ([length] if k0 == k1 else [k1 - k0 + 1, length]))


@shape_fn("InvertPermutation")
def _invert_permutation(c):
    c.set_output(0, with_rank(c.inputs[0], 1))


def _diag_index(t):
    """ReadDiagIndex: (lower, upper) from a scalar or a 1- or 2-element vector."""
    arr = np.asarray(t)
    if arr.ndim == 0:
        k = int(arr)
        return k, k
    vals = [int(v) for v in arr.reshape(-1)]
    if len(vals) == 1:
        return vals[0], vals[0]
    if len(vals) == 2:
        return vals[0], vals[1]
    raise ShapeError(f"diag_index must be a vector with one or two elements. It has {len(vals)} elements.")


def _dim_or_unknown(v):
    return v if v >= 0 else -1


@shape_fn("MatrixDiagV2", "MatrixDiagV3")
def _matrix_diag_v2(c):
    inp = with_rank_at_least(c.inputs[0], 1)
    k_shape = with_rank_at_most(c.inputs[1], 1)
    for i in (2, 3, 4):
        with_rank(c.inputs[i], 0)
    k = c.input_tensor(1)
    if inp is None or k_shape is None or any(d < 0 for d in k_shape) or k is None:
        c.set_output(0, None)
        return
    lower, upper = _diag_index(k)
    if lower > upper:
        raise ShapeError("lower_diag_index is greater than upper_diag_index")
    rank = len(inp)
    if lower < upper:
        num_diags = inp[rank - 2] if rank >= 2 else -1
        if num_diags != upper - lower + 1:
            raise ShapeError("the number of rows of `diagonal` doesn't match the number of diagonals "
                             f"implied from `d_lower` and `d_upper` (num_diags = {num_diags}, "
                             f"d_lower = {lower}, d_upper = {upper})")
    rows_t, cols_t = c.input_tensor(2), c.input_tensor(3)
    num_rows = int(np.asarray(rows_t).reshape(-1)[0]) if rows_t is not None else -1
    num_cols = int(np.asarray(cols_t).reshape(-1)[0]) if cols_t is not None else -1
    # An unknown diagonal length counts as -1 in these sums, as in TensorFlow.
    max_diag_len = inp[rank - 1]
    min_rows = max_diag_len - min(upper, 0)
    min_cols = max_diag_len + max(lower, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    if num_rows == -1:
        num_rows = min_rows
    elif num_rows < min_rows:
        raise ShapeError("num_rows is too small")
    if num_cols == -1:
        num_cols = min_cols
    elif num_cols < min_cols:
        raise ShapeError("num_cols is too small")
    if num_rows != min_rows and num_cols != min_cols:
        raise ShapeError("num_rows and num_cols are not consistent with lower_diag_index, "
                         "upper_diag_index, and the length of the given diagonals")
    rows, cols = _dim_or_unknown(num_rows), _dim_or_unknown(num_cols)
    if lower == upper:
        out = replace_dim(inp, rank - 1, rows) + [cols]
    else:
        out = replace_dim(replace_dim(inp, rank - 2, rows), rank - 1, cols)
    c.set_output(0, out)


# Philox's key and counter sizes in 64-bit words (RNG_KEY_SIZE, RNG_MAX_COUNTER_SIZE).
_RNG_KEY_SIZE = 1
_RNG_MAX_COUNTER_SIZE = 2


@shape_fn("StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg")
def _stateless_random_get_key_counter(c):
    seed = with_rank(c.inputs[0], 1)
    with_value(seed[0], 2)
    c.set_output(0, [_RNG_KEY_SIZE])
    c.set_output(1, [_RNG_MAX_COUNTER_SIZE])
    if c.num_outputs > 2:
        c.set_output(2, [])


@shape_fn("StatelessRandomGetAlg")
def _stateless_random_get_alg(c):
    c.set_output(0, [])


@shape_fn("SplitV")
def _split_v(c):
    inp = c.inputs[0]
    n = c.num_outputs
    sizes = c.input_tensor(1)
    axis = c.input_tensor(2)
    if inp is None or axis is None:
        out = None if inp is None else [-1] * len(inp)
        for i in range(n):
            c.set_output(i, out)
        return
    d = int(np.asarray(axis).reshape(-1)[0])
    if d < 0:
        d += len(inp)
    if sizes is None:
        for i in range(n):
            o = list(inp)
            o[d] = -1
            c.set_output(i, o)
        return
    sz = [int(x) for x in np.asarray(sizes).reshape(-1)]
    if -1 in sz:
        known = sum(x for x in sz if x != -1)
        rest = inp[d] - known if inp[d] >= 0 else -1
        sz = [rest if x == -1 else x for x in sz]
    for i in range(n):
        o = list(inp)
        o[d] = sz[i]
        c.set_output(i, o)


# --- constant evaluation ----------------------------------------------------------------------------


# TPU and XLA bridge ops.

@shape_fn("TPUCompilationResult", "XlaReplicaId", "GlobalIterId", "TPURoundRobin")
def _tpu_scalar(c):
    c.set_output(0, [])


@shape_fn("TPUOrdinalSelector")
def _tpu_ordinal_selector(c):
    c.set_output(0, [-1])


@shape_fn("_TPUCompileMlir", "TPUCompile")
def _tpu_compile(c):
    # compilation status (scalar string), one program key (a 3-vector of strings) per core,
    # and for TPUCompile one may-modify-variables scalar per computation.
    c.set_output(0, [])
    keys = c.attr("num_computations", c.num_outputs - 1)
    for i in range(1, c.num_outputs):
        c.set_output(i, [3] if i <= keys else [])


@shape_fn("TPUReplicatedInput")
def _tpu_replicated_input(c):
    out = c.inputs[-1] if c.inputs else None
    for s in c.inputs:
        out = merge_shape(out, s)
    c.set_output(0, out)
    handles = [h for h in c.input_handles if h is not None]
    if handles and len(handles) == len(c.inputs) and all(h == handles[0] for h in handles):
        c.output_handles[0] = handles[0]


@shape_fn("TPUReplicatedOutput")
def _tpu_replicated_output(c):
    for i in range(c.num_outputs):
        c.set_output(i, c.inputs[0])
        if c.input_handles and c.input_handles[0] is not None:
            c.output_handles[i] = c.input_handles[0]


for _op in ("CrossReplicaSum", "XlaAllReduce", "CollectivePermute", "TPUAnnotateTensorsWithDynamicShape_unused"):
    if not _op.endswith("_unused"):
        SHAPE_FNS.setdefault(_op, unchanged)


@shape_fn("QuantizeV2")
def _quantize_v2(c):
    # TF's QuantizeV2 shape function: the output has the input's shape;
    # output_min/max are scalars, or vectors of the `axis` dimension.
    axis = c.attr("axis", -1)
    if axis < -1:
        raise ShapeError(f"axis should be at least -1, got {axis}")
    minmax_rank = 0 if axis == -1 else 1
    c.set_output(0, c.inputs[0])
    # (TF checks both ranks but outputs input_max's shape; the axis
    # dimension is only checked against it.)
    with_rank(c.inputs[1], minmax_rank)
    minmax = with_rank(c.inputs[2], minmax_rank)
    if axis != -1:
        data = with_rank_at_least(c.inputs[0], axis + 1)
        merge_dim(minmax[0], data[axis] if data is not None else -1)
    c.set_output(1, minmax)
    c.set_output(2, minmax)


@shape_fn("TensorArrayGatherV3")
def _tensor_array_gather_v3(c):
    # TF's TensorArrayGatherV3 shape function: [len(indices)] + element_shape,
    # the element_shape attribute merged with the TensorArray's handle data.
    indices = with_rank(c.inputs[1], 1)
    with_rank(c.inputs[0], 1)
    with_rank(c.inputs[2], 0)
    element = c.attr("element_shape")
    handles = c.input_handles[0] if c.input_handles else None
    if handles:
        element = merge_shape(element, handles[0][1])
    c.set_output(0, None if element is None else [indices[0]] + list(element))
