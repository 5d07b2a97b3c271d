"""Constant folding agrees with TensorFlow's own kernels.

Each case builds `tf.<Op>` on constant operands, runs `-canonicalize` and
compares the folded constant with what TF's CPU kernel computes for the same
inputs (exact, NaN-aware; dtypes must match too). Cases the folders leave to
the runtime (division by zero, NaN casts, ...) are asserted not to fold.
"""
import numpy as np
import pytest

import tfmlir  # noqa: F401  (registers the dialects)
from mlir import ir, passmanager

tf = pytest.importorskip("tensorflow")

ELEMENT = {np.dtype(k): v for k, v in {
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "ui8",
    "uint16": "ui16", "uint32": "ui32", "uint64": "ui64", "float16": "f16",
    "float32": "f32", "float64": "f64", "bool": "i1"}.items()}


def _type(shape, dtype):
    return f"tensor<{''.join(f'{d}x' for d in shape)}{ELEMENT[np.dtype(dtype)]}>"


def _dense(array):
    if array.dtype == np.bool_:
        body = str(array.tolist()).replace("True", "true").replace("False", "false")
        return f"dense<{body}> : {_type(array.shape, array.dtype)}"
    if array.size == 0:
        return f"dense<> : {_type(array.shape, array.dtype)}"
    return f'dense<"0x{array.tobytes().hex().upper()}"> : {_type(array.shape, array.dtype)}'


def _fold(op, inputs, properties, expected):
    """Folds tf.<op>(inputs) with `-canonicalize`; the folded value or None."""
    result_type = _type(expected.shape, expected.dtype)
    lines = [f"func.func @f() -> {result_type} {{"]
    for i, array in enumerate(inputs):
        lines.append(f'  %a{i} = "tf.Const"() <{{value = {_dense(array)}}}> : () -> '
                     f"{_type(array.shape, array.dtype)}")
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    types = ", ".join(_type(a.shape, a.dtype) for a in inputs)
    props = f" <{{{properties}}}>" if properties else ""
    lines.append(f'  %r = "tf.{op}"({operands}){props} : ({types}) -> {result_type}')
    lines.append(f"  return %r : {result_type}\n}}")
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("\n".join(lines))
        passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
        func = module.body.operations[0]
        ret = func.regions[0].blocks[0].operations[-1]
        producer = ret.operands[0].owner
        if producer.name != "tf.Const":
            return None
        return np.array(ir.DenseElementsAttr(producer.attributes["value"]))


def _tf(op, inputs, kwargs):
    return getattr(tf.raw_ops, op)(**{k: tf.constant(v) for k, v in inputs.items()}, **kwargs).numpy()


rng = np.random.default_rng(7)
i32 = rng.integers(-1000, 1000, size=(2, 3)).astype(np.int32)
i32_row = rng.integers(-1000, 1000, size=(3,)).astype(np.int32)
f32 = rng.normal(size=(2, 3)).astype(np.float32)
f32_row = rng.normal(size=(3,)).astype(np.float32)
f16 = rng.normal(size=(4,)).astype(np.float16)
f16b = rng.normal(size=(4,)).astype(np.float16)
u8 = np.array([0, 100, 200, 255], np.uint8)
u8b = np.array([255, 156, 100, 1], np.uint8)
i8 = np.array([127, -128, 5, -5], np.int8)
nan_f32 = np.array([np.nan, 1.0, -0.0, 2.5, np.inf], np.float32)
cmp_f32 = np.array([1.0, 1.0, 0.0, 2.5, -np.inf], np.float32)
nonzero_i32 = np.array([[3, -7, 1], [-2, 5, 9]], np.int32)
bools = np.array([True, False, True, False])
bools2 = np.array([True, True, False, False])

# (op, TF input names -> arrays, TF kwargs, MLIR properties)
BINARY = [
    ("AddV2", dict(x=i32, y=i32_row), {}, ""),
    ("AddV2", dict(x=f32, y=f32_row), {}, ""),
    ("AddV2", dict(x=u8, y=u8b), {}, ""),
    ("AddV2", dict(x=i8, y=i8), {}, ""),
    ("AddV2", dict(x=f16, y=f16b), {}, ""),
    ("Add", dict(x=f32_row, y=f32), {}, ""),
    ("Sub", dict(x=i32, y=i32_row), {}, ""),
    ("Sub", dict(x=u8b, y=u8), {}, ""),
    ("Sub", dict(x=f16, y=f16b), {}, ""),
    ("Mul", dict(x=i32, y=i32), {}, ""),
    ("Mul", dict(x=i8, y=i8), {}, ""),
    ("Mul", dict(x=f32, y=f32_row), {}, ""),
    ("Mul", dict(x=f16, y=f16b), {}, ""),
    ("Div", dict(x=i32, y=nonzero_i32), {}, ""),
    ("Div", dict(x=u8, y=np.array([3, 7, 9, 255], np.uint8)), {}, ""),
    ("RealDiv", dict(x=f32, y=f32_row), {}, ""),
    ("RealDiv", dict(x=f16, y=f16b), {}, ""),
    ("RealDiv", dict(x=f32_row.astype(np.float64), y=f32.astype(np.float64)), {}, ""),
    ("Maximum", dict(x=i32, y=i32_row), {}, ""),
    ("Maximum", dict(x=f32, y=f32_row), {}, ""),
    ("Minimum", dict(x=u8, y=u8b), {}, ""),
    ("Minimum", dict(x=f32_row, y=f32), {}, ""),
    ("Less", dict(x=nan_f32, y=cmp_f32), {}, ""),
    ("LessEqual", dict(x=nan_f32, y=cmp_f32), {}, ""),
    ("Greater", dict(x=i32, y=i32_row), {}, ""),
    ("GreaterEqual", dict(x=u8, y=u8b), {}, ""),
    ("Equal", dict(x=nan_f32, y=cmp_f32), {}, "incompatible_shape_error = true"),
    ("NotEqual", dict(x=nan_f32, y=cmp_f32), {}, "incompatible_shape_error = true"),
    ("LogicalAnd", dict(x=bools, y=bools2), {}, ""),
    ("LogicalOr", dict(x=bools, y=bools2), {}, ""),
]
UNARY = [
    ("Neg", dict(x=i32), {}, ""), ("Neg", dict(x=i8), {}, ""), ("Neg", dict(x=nan_f32), {}, ""),
    ("Abs", dict(x=i8), {}, ""), ("Abs", dict(x=nan_f32), {}, ""),
    ("Square", dict(x=i32), {}, ""), ("Square", dict(x=f16), {}, ""),
    ("LogicalNot", dict(x=bools), {}, ""),
]
CASTS = [
    (np.array([2.7, -2.7, 0.5, -0.0, 1e6], np.float32), np.int32),
    (np.array([2.7, -2.7, 0.0, np.nan, -np.inf], np.float32), np.bool_),
    (np.array([16777217, -3, 0, 2**31 - 1], np.int32), np.float32),
    (np.array([2**40 + 5, -1, 2**31], np.int64), np.int32),
    (np.array([1e-5, 65504.0, 1e6, 0.1], np.float64), np.float16),
    (np.array([0, 1, -1, 300], np.int32), np.bool_),
    (np.array([0, 1, -1, 300], np.int32), np.uint8),
    (np.array([200, 1, 255], np.uint8), np.int8),
    (np.array([True, False]), np.float32),
    (np.array([True, False]), np.int64),
]
t3 = rng.integers(-9, 9, size=(2, 3, 4)).astype(np.int32)
SHAPE = [
    ("Transpose", dict(x=t3, perm=np.array([2, 0, 1], np.int32)), {}, ""),
    ("Transpose", dict(x=f32, perm=np.array([1, 0], np.int64)), {}, ""),
    ("Reshape", dict(tensor=t3, shape=np.array([4, -1], np.int32)), {}, ""),
    ("ExpandDims", dict(input=f32, axis=np.array(-1, np.int32)), {}, ""),
    ("Squeeze", dict(input=t3.reshape(1, 2, 1, 12)), {}, "squeeze_dims = []"),
    ("Fill", dict(dims=np.array([2, 2], np.int32), value=np.array(1.5, np.float32)), {}, ""),
    ("ZerosLike", dict(x=f32), {}, ""),
    ("OnesLike", dict(x=i32), {}, ""),
    ("ConcatV2", None, {}, ""),
    ("Pack", None, {}, ""),
]


def _check(op, inputs, kwargs, props):
    expected = _tf(op, inputs, kwargs)
    got = _fold(op, list(inputs.values()), props, expected)
    assert got is not None, f"tf.{op} was not folded"
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    if np.issubdtype(expected.dtype, np.floating):  # same zeros' signs too
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize("op,inputs,kwargs,props", BINARY + UNARY,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(BINARY + UNARY)])
def test_elementwise_folds_like_tf(op, inputs, kwargs, props):
    _check(op, inputs, kwargs, props)


@pytest.mark.parametrize("value,dtype", CASTS, ids=[f"{v.dtype}-{np.dtype(d)}" for v, d in CASTS])
def test_cast_folds_like_tf(value, dtype):
    _check("Cast", dict(x=value), dict(DstT=tf.as_dtype(dtype), Truncate=False), "Truncate = false")


@pytest.mark.parametrize("op,inputs,kwargs,props", [c for c in SHAPE if c[1] is not None],
                         ids=[c[0] for c in SHAPE if c[1] is not None])
def test_shape_ops_fold_like_tf(op, inputs, kwargs, props):
    _check(op, inputs, kwargs, props)


def test_pack_and_concat_fold_like_tf():
    a = rng.integers(-5, 5, size=(2, 3)).astype(np.int32)
    b = rng.integers(-5, 5, size=(2, 3)).astype(np.int32)
    for axis in (0, 1, -1):
        expected = tf.raw_ops.Pack(values=[a, b], axis=axis).numpy()
        assert (_fold("Pack", [a, b], f"axis = {axis} : i64", expected) == expected).all()
        expected = tf.raw_ops.ConcatV2(values=[a, b], axis=axis).numpy()
        got = _fold("ConcatV2", [a, b, np.array(axis, np.int32)], "", expected)
        assert (got == expected).all()


@pytest.mark.parametrize("op,inputs,result", [
    ("Div", [np.array([1, 2], np.int32), np.array([1, 0], np.int32)], np.zeros(2, np.int32)),
    ("Div", [np.array([-2**31], np.int32), np.array([-1], np.int32)], np.zeros(1, np.int32)),
    ("Cast", [np.array([np.nan], np.float32)], np.zeros(1, np.int32)),
    ("Cast", [np.array([1e10], np.float32)], np.zeros(1, np.int32)),
    ("Maximum", [np.array([np.nan], np.float32), np.array([1.0], np.float32)], np.zeros(1, np.float32)),
    ("Minimum", [np.array([0.0], np.float32), np.array([-0.0], np.float32)], np.zeros(1, np.float32)),
], ids=["div-by-zero", "div-overflow", "cast-nan", "cast-out-of-range", "max-nan", "min-signed-zeros"])
def test_undefined_or_order_dependent_results_are_left_to_the_runtime(op, inputs, result):
    props = "Truncate = false" if op == "Cast" else ""
    assert _fold(op, inputs, props, result) is None
