"""Hand-written semantics of generated tf ops through the Python API: result
type inference (builders without result types), folding and canonicalization,
and their failure paths."""
import pytest

import tfmlir  # noqa: F401  (registers the dialects)
from mlir import ir, passmanager
from tfmlir.dialects import tf


def _tensor(shape, elt=None):
    elt = elt or ir.F32Type.get()
    if shape is None:
        return ir.UnrankedTensorType.get(elt)
    return ir.RankedTensorType.get(shape, elt)


def _const(values, shape, elt=None):
    elt = elt or ir.IntegerType.get_signless(32)
    text = f"dense<{values}> : {_tensor(shape, elt)}"
    return tf.ConstOp(ir.Attribute.parse(text)).output


def _build(arg_types, body):
    """Builds func @f(args) whose body is built by `body(args)` returning the results."""
    from mlir.dialects import func
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        f = func.FuncOp("f", ir.FunctionType.get(arg_types, []))
        with ir.InsertionPoint(f.add_entry_block()):
            results = body(list(f.arguments))
            func.ReturnOp(results)
        f.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(arg_types, [r.type for r in results]))
    assert module.operation.verify()
    return module


@pytest.fixture
def ctx():
    with ir.Context() as context, ir.Location.unknown():
        yield context


def test_builders_infer_result_types(ctx):
    # Only the ops TensorFlow's own dialect infers (InferTypeOpInterface in its ODS: the
    # same-type-as-operand ops, Conv2D, ToBool) build without result types; the shape
    # functions of all other ops live in tfmlir.shapes (tf-shape-inference).
    types = [_tensor(None), _tensor([1, 32, 32, 3]), _tensor([3, 3, 3, 16]), _tensor([2, 3])]
    seen = {}

    def body(a):
        unranked, img, flt, x = a
        seen["relu"] = tf.ReluOp(unranked).result
        seen["tanh"] = tf.TanhOp(x).result
        seen["conv"] = tf.Conv2DOp(img, flt, strides=[1, 2, 2, 1], padding="SAME",
                                   dilations=[1, 1, 1, 1], data_format="NHWC",
                                   explicit_paddings=[], use_cudnn_on_gpu=True).result
        seen["conv_valid"] = tf.Conv2DOp(img, flt, strides=[1, 1, 1, 1], padding="VALID",
                                         dilations=[1, 2, 2, 1], data_format="NHWC",
                                         explicit_paddings=[], use_cudnn_on_gpu=True).result
        seen["to_bool"] = tf.ToBoolOp(x).result
        return list(seen.values())

    module = _build(types, body)
    got = {k: str(v.type) for k, v in seen.items()}
    assert got == {"relu": "tensor<*xf32>", "tanh": "tensor<2x3xf32>", "conv": "tensor<1x16x16x16xf32>",
                   "conv_valid": "tensor<1x28x28x16xf32>", "to_bool": "tensor<i1>"}
    # What the builders inferred is what TF prints back.
    assert "tensor<1x16x16x16xf32>" in str(module)


def test_ops_tensorflow_does_not_infer_need_result_types(ctx):
    with pytest.raises(TypeError):
        _build([_tensor([2, 3])], lambda a: [tf.MatMulOp(a[0], a[0], transpose_a=False,
                                                          transpose_b=True).result])
    with pytest.raises(ValueError):
        ir.InferTypeOpInterface(tf.MatMulOp)


def test_inference_leaves_unknowns_dynamic(ctx):
    seen = {}

    def body(a):
        img, flt, u = a
        seen["conv"] = tf.Conv2DOp(img, flt, strides=[1, 1, 1, 1], padding="VALID",
                                   dilations=[1, 1, 1, 1], data_format="NHWC",
                                   explicit_paddings=[], use_cudnn_on_gpu=True).result
        seen["relu"] = tf.ReluOp(u).result
        return list(seen.values())

    module = _build([_tensor([ir.ShapedType.get_dynamic_size(), 8, 8, 3]), _tensor([3, 3, 3, 4]), _tensor(None)], body)
    assert module.operation.verify()
    assert {k: str(v.type) for k, v in seen.items()} == {"conv": "tensor<?x6x6x4xf32>", "relu": "tensor<*xf32>"}


def test_declared_types_may_refine_the_inferred_ones(ctx):
    # TF prints result types more (or less) refined than the op's own
    # inference; both verify, an incompatible one does not.
    text = """
    func.func @f(%x: tensor<?x3xf32>, %y: tensor<*xf32>) -> (tensor<2x3xf32>, tensor<*xf32>) {
      %0 = "tf.Relu"(%x) : (tensor<?x3xf32>) -> tensor<2x3xf32>
      %1 = "tf.AddV2"(%x, %x) : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<*xf32>
      return %0, %1 : tensor<2x3xf32>, tensor<*xf32>
    }"""
    assert ir.Module.parse(text).operation.verify()
    bad = text.replace("-> tensor<2x3xf32>\n", "-> tensor<2x4xf32>\n").replace(
        "(tensor<2x3xf32>, tensor<*xf32>)", "(tensor<2x4xf32>, tensor<*xf32>)").replace(
        "%0, %1 : tensor<2x3xf32>", "%0, %1 : tensor<2x4xf32>")
    with pytest.raises(ir.MLIRError, match="'tf.Relu' op inferred type.*incompatible with return type"):
        ir.Module.parse(bad)


def test_inference_failure_is_a_python_error(ctx):
    iface = ir.InferTypeOpInterface(tf.Conv2DOp)
    with pytest.raises(ValueError):
        iface.inferReturnTypes(operands=[], attributes=ir.DictAttr.get({}), context=ctx,
                               loc=ir.Location.unknown())


def test_ops_without_inference_still_need_result_types(ctx):
    # tf.Cast's DstT comes from its result type: nothing to infer it from.
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
        _build([_tensor([2])], lambda a: [tf.CastOp(a[0], Truncate=False).result])


def test_canonicalize_folds_through_the_pass_manager(ctx):
    module = ir.Module.parse("""
    func.func @f(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
      %0 = "tf.Sub"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
      %one = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %1 = "tf.Mul"(%x, %one) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
      return %0, %1 : tensor<4xi32>, tensor<4xi32>
    }""")
    passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    text = str(module)
    assert "tf.Sub" not in text and "tf.Mul" not in text
    assert 'value = dense<0> : tensor<4xi32>' in text
    assert "return %cst, %arg0" in text


def test_greedy_folding_keeps_dynamic_result_types(ctx):
    # As TF's materializer: a folded value of a static type becomes a tf.Const
    # of the op's (dynamic) result type holding it; no type changes, the IR
    # verifies (TF 2.21 prints exactly this).
    module = ir.Module.parse("""
    func.func @f() -> (tensor<?xi32>, tensor<*xi32>) {
      %a = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
      %0 = "tf.AddV2"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<?xi32>
      %1 = "tf.Sub"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<*xi32>
      return %0, %1 : tensor<?xi32>, tensor<*xi32>
    }""")
    passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    assert module.operation.verify()
    text = str(module)
    assert "tf.AddV2" not in text and "tf.Sub" not in text
    assert ('"tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> : () -> tensor<?xi32>' in text)
    assert ('"tf.Const"() <{value = dense<0> : tensor<2xi32>}> : () -> tensor<*xi32>' in text)

