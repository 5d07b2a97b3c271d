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
    f32 = ir.F32Type.get()
    i1 = ir.IntegerType.get_signless(1)
    types = [_tensor([2, 3]), _tensor([3]), _tensor([3, 4]), _tensor([8, 2, 3, 5]),
             _tensor([1, 32, 32, 3]), _tensor([3, 3, 3, 16]), _tensor(None), _tensor([2, 1, 3])]
    seen = {}

    def body(a):
        x, b, m, bm, img, flt, unranked, e = a
        seen["add"] = tf.AddV2Op(x, b).result                      # broadcast
        seen["less"] = tf.LessOp(x, b).result                      # predicate
        seen["relu"] = tf.ReluOp(unranked).result                  # same type
        seen["matmul"] = tf.MatMulOp(x, m, transpose_a=False, transpose_b=False).result
        bm2 = tf.ConstOp(ir.DenseElementsAttr.get_splat(_tensor([5, 7]), ir.FloatAttr.get(f32, 1.0)))
        seen["bmm"] = tf.BatchMatMulV2Op(bm, bm2.output, adj_x=False, adj_y=False).result
        seen["reshape"] = tf.ReshapeOp(x, _const("[3, -1]", [2])).result
        seen["transpose"] = tf.TransposeOp(bm, _const("[3, 0, 2, 1]", [4])).result
        seen["conv"] = tf.Conv2DOp(img, flt, strides=[1, 2, 2, 1], padding="SAME",
                                   dilations=[1, 1, 1, 1], data_format="NHWC",
                                   explicit_paddings=[], use_cudnn_on_gpu=True).result
        seen["conv_valid"] = tf.Conv2DOp(img, flt, strides=[1, 1, 1, 1], padding="VALID",
                                         dilations=[1, 2, 2, 1], data_format="NHWC",
                                         explicit_paddings=[], use_cudnn_on_gpu=True).result
        seen["pool"] = tf.MaxPoolOp(img, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                                    padding="VALID", data_format="NHWC",
                                    explicit_paddings=[]).result
        seen["mean"] = tf.MeanOp(bm, _const("[1, -1]", [2]), keep_dims=True).result
        seen["sum"] = tf.SumOp(bm, _const("[0]", [1]), keep_dims=False).result
        seen["concat"] = tf.ConcatV2Op([x, x], _const("1", [])).result
        seen["pack"] = tf.PackOp([b, b], axis=1).result
        seen["expand"] = tf.ExpandDimsOp(x, _const("-1", [])).result
        seen["squeeze"] = tf.SqueezeOp(e, squeeze_dims=[]).result
        cond = tf.ConstOp(ir.DenseElementsAttr.get_splat(_tensor([3], i1), ir.BoolAttr.get(True)))
        seen["select"] = tf.SelectV2Op(cond.output, x, b).result
        seen["fill"] = tf.FillOp(_const("[4, 2]", [2]), tf.ConstOp(
            ir.DenseElementsAttr.get_splat(_tensor([]), ir.FloatAttr.get(f32, 0.5))).output).result
        seen["rank"] = tf.RankOp(unranked).result
        return list(seen.values())

    module = _build(types, body)
    got = {k: str(v.type) for k, v in seen.items()}
    assert got == {
        "add": "tensor<2x3xf32>", "less": "tensor<2x3xi1>", "relu": "tensor<*xf32>",
        "matmul": "tensor<2x4xf32>", "bmm": "tensor<8x2x3x7xf32>", "reshape": "tensor<3x2xf32>",
        "transpose": "tensor<5x8x3x2xf32>", "conv": "tensor<1x16x16x16xf32>",
        "conv_valid": "tensor<1x28x28x16xf32>", "pool": "tensor<1x15x15x3xf32>",
        "mean": "tensor<8x1x3x1xf32>", "sum": "tensor<2x3x5xf32>", "concat": "tensor<2x6xf32>",
        "pack": "tensor<3x2xf32>", "expand": "tensor<2x3x1xf32>", "squeeze": "tensor<2x3xf32>",
        "select": "tensor<2x3xf32>", "fill": "tensor<4x2xf32>", "rank": "tensor<i32>",
    }
    # What the builders inferred is what TF prints back.
    assert "tensor<1x16x16x16xf32>" in str(module)


def test_inference_leaves_unknowns_dynamic(ctx):
    seen = {}

    def body(a):
        x, s, u = a
        seen["reshape"] = tf.ReshapeOp(x, s).result          # shape not constant: rank known
        seen["matmul"] = tf.MatMulOp(u, u, transpose_a=False, transpose_b=False).result
        seen["add"] = tf.AddV2Op(x, u).result
        return list(seen.values())

    module = _build([_tensor([2, 3]), _tensor([3], ir.IntegerType.get_signless(32)), _tensor(None)], body)
    assert module.operation.verify()
    assert {k: str(v.type) for k, v in seen.items()} == {
        "reshape": "tensor<?x?x?xf32>", "matmul": "tensor<?x?xf32>", "add": "tensor<*xf32>"}


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
    iface = ir.InferTypeOpInterface(tf.MatMulOp)
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


def test_greedy_folding_never_changes_types_on_dynamic_ir(ctx):
    # Constant folding needs a static result type; with a dynamic one the ops
    # stay (the materializer refuses a constant of another type), and the IR
    # still verifies.
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
    assert "tf.AddV2" in text and "tf.Sub" in text
