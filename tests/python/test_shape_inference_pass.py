"""tf-shape-inference from Python: options, bad input (diagnostic at the op, module unchanged),
unknown ops, and the shared shape library it runs on."""
import pytest
from mlir import ir

import tfmlir
from tfmlir.passes import framework

VERSIONS = "{tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}}"


def _module(body):
    return ir.Module.parse(f"module attributes {VERSIONS} {{\n{body}\n}}", ir.Context())


def _run(module, options=""):
    framework.run(module, f"builtin.module(tf-shape-inference{options})")
    return tfmlir.print_ir(module)


def _errors(module, options=""):
    before = tfmlir.print_ir(module)
    with pytest.raises(ir.MLIRError) as info:
        framework.run(module, f"builtin.module(tf-shape-inference{options})")
    assert tfmlir.print_ir(module) == before, "a failing pass must leave the module unchanged"
    return [d.message for d in info.value.error_diagnostics]


_CHAIN = '''
func.func @main(%a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.MatMul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %1 = "tf.Relu"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %1 : tensor<*xf32>
}'''


def test_input_arg_shapes_refine_main_and_its_signature():
    out = _run(_module(_CHAIN), "{input-arg-shapes=2,3:3,5}")
    assert "func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x5xf32>) -> tensor<2x5xf32>" in out
    assert '"tf.Relu"(%0) : (tensor<2x5xf32>) -> tensor<2x5xf32>' in out


def test_input_arg_shapes_with_unknown_dimensions_and_scalars():
    out = _run(_module(_CHAIN), "{input-arg-shapes=-1,3:3,-1}")
    assert "-> tensor<?x?xf32>" in out


def test_contradictory_operand_shapes_are_reported_at_the_op():
    messages = _errors(_module(_CHAIN), "{input-arg-shapes=2,3:4,5}")
    assert any("'tf.MatMul' op has operand shapes no MatMul accepts" in m and "tensor<2x3xf32>" in m
               and "tensor<4x5xf32>" in m for m in messages), messages


def test_input_arg_shapes_need_main():
    module = _module('func.func @f(%a: tensor<*xf32>) -> tensor<*xf32> {\n  func.return %a : tensor<*xf32>\n}')
    messages = _errors(module, "{input-arg-shapes=2}")
    assert any("Input shapes provided but no `main` function found." in m for m in messages)


def test_input_arg_shapes_must_fit_main():
    messages = _errors(_module(_CHAIN), "{input-arg-shapes=2,3}")
    assert any("input-arg-shapes gives 1 shapes, main has 2 arguments" in m for m in messages), messages
    ranked = _module(_CHAIN.replace("%a: tensor<*xf32>", "%a: tensor<?xf32>").replace(
        "(tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>\n  %1", "(tensor<?xf32>, tensor<*xf32>) -> tensor<*xf32>\n  %1"))
    messages = _errors(ranked, "{input-arg-shapes=2,3:3,5}")
    assert any("argument 0 of main has type tensor<?xf32>" in m for m in messages), messages


def test_not_converging_within_max_iterations_is_an_error():
    module = _module('''
func.func @main(%a: tensor<2xf32>) -> tensor<*xf32> {
  %0 = "tf.While"(%a) {cond = @cond, body = @body, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<2xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @cond(%x: tensor<*xf32>) -> tensor<*xi1> {
  %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0 = "tf.Identity"(%c) : (tensor<i1>) -> tensor<*xi1>
  func.return %0 : tensor<*xi1>
}
func.func private @body(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}''')
    messages = _errors(module, "{max-iterations=1}")
    assert any("shape inference pass did not reach convergence after 1" in m for m in messages), messages


def test_unknown_ops_are_skipped_and_the_rest_refined():
    module = ir.Module.parse(f'''module attributes {VERSIONS} {{
func.func @main(%a: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {{
  %0 = "tf.Neg"(%a) : (tensor<2x3xf32>) -> tensor<*xf32>
  %1 = "tf.SomeOpTensorFlowDoesNotHave"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.Abs"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %1, %2 : tensor<*xf32>, tensor<*xf32>
}}
}}''', _unregistered_context())
    out = _run(module)
    assert '"tf.SomeOpTensorFlowDoesNotHave"(%0) : (tensor<2x3xf32>) -> tensor<*xf32>' in out
    assert '"tf.Abs"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>' in out


def _unregistered_context():
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    return ctx


def test_modules_without_a_producer_version_are_left_alone():
    module = ir.Module.parse('func.func @main(%a: tensor<2xf32>) -> tensor<*xf32> {\n'
                             '  %0 = "tf.Neg"(%a) : (tensor<2xf32>) -> tensor<*xf32>\n'
                             '  func.return %0 : tensor<*xf32>\n}', ir.Context())
    before = tfmlir.print_ir(module)
    assert _run(module) == before


def test_one_shape_library():
    # The importer and the pass run the same shape functions; the importer package holds none.
    from tfmlir.importers import shape_inference as importer_side
    from tfmlir.passes import tf_shape_inference as pass_side
    from tfmlir.shapes import functions

    assert importer_side.SHAPE_FNS is functions.SHAPE_FNS
    assert pass_side.SHAPE_FNS is functions.SHAPE_FNS
    assert not hasattr(importer_side, "broadcast_shapes")
