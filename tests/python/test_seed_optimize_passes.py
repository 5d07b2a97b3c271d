"""Failure paths of the seed's graph optimization passes that lit cannot express."""
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
from tfmlir import passes

_BAD_MODULE = r'''
func.func @f(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func @main(%a: tensor<f32>) -> tensor<f32> {\0A  func.return %a : tensor<f32>\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func @main(%a: tensor<f32>) -> tensor<f32> {\0A  func.return %undefined : tensor<f32>\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  func.return %0, %1 : tensor<f32>, tensor<f32>
}
'''


def test_passthrough_module_that_does_not_parse():
    """The parser's own diagnostic comes first, then TF's message at the op; the pass fails
    and the good op before it is not materialized (the module is unchanged)."""
    module = ir.Module.parse(_BAD_MODULE, ir.Context())
    before = str(module)
    try:
        passes.run(module, "func.func(tf-materialize-passthrough-op)")
    except ir.MLIRError as err:
        messages = [d.message for d in err.error_diagnostics]
    else:
        raise AssertionError("the pass must fail")
    assert "use of undeclared SSA value name" in messages[0], messages
    assert messages[1] == "tf-materialize-passthrough-op: could not parse attached MLIR module", messages
    assert str(module) == before


def test_lowering_that_cannot_be_typed_fails_with_the_op():
    """Ranges whose shapes do not broadcast: TF's builders would build a null type; tfmlir
    fails at the Dequantize, leaving the module unchanged."""
    text = r'''
func.func @f(%arg0: tensor<4x!tf_type.qint8>, %min: tensor<2xf32>, %max: tensor<3xf32>) -> tensor<4xf32> {
  %0 = "tf.Dequantize"(%arg0, %min, %max) : (tensor<4x!tf_type.qint8>, tensor<2xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
'''
    module = ir.Module.parse(text, ir.Context())
    before = str(module)
    try:
        passes.run(module, "func.func(tf-lower-quantized)")
    except ir.MLIRError as err:
        messages = [d.message for d in err.error_diagnostics]
    else:
        raise AssertionError("the pass must fail")
    assert messages[-1].startswith("tf-lower-quantized: 'tf.Dequantize' cannot be lowered: 'tf.Sub': "
                                   "non-broadcastable operands"), messages
    assert str(module) == before
