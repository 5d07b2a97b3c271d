// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-materialize-passthrough-op

// The attached module has no main function.

func.func @no_main(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{MLIR Opaque Op expects a main() entry point}}
  %0 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func @other(%a: tensor<f32>) -> tensor<f32> {\0A  func.return %a : tensor<f32>\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// A main that is not a function.

func.func @main_not_a_function(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{MLIR Opaque Op expects a main() entry point}}
  %0 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "module @main {\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @operand_count(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{mismatch between MLIR Opaque Op number of operands (1) and main() entry point in the module (2 args)}}
  %0 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\0A  func.return %a : tensor<f32>\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @result_count(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{mismatch between MLIR Opaque Op number of results (1) and main() entry point in the module (0 results)}}
  %0 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func @main(%a: tensor<f32>) {\0A  func.return\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// A main without a body.

func.func @declaration(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{MLIR Opaque Op expects a main() entry point with a single block}}
  %0 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func private @main(tensor<f32>) -> tensor<f32>\0A"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Every bad op is reported; the good one between them is not kept (the pass
// fails and the module is left as it was).

func.func @two_bad(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  // expected-error @+1 {{MLIR Opaque Op expects a main() entry point}}
  %0 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = ""} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func @main(%a: tensor<f32>) -> tensor<f32> {\0A  func.return %a : tensor<f32>\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{mismatch between MLIR Opaque Op number of operands (1) and main() entry point in the module (0 args)}}
  %2 = "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func @main() -> tensor<f32> {\0A  %c = \22tf.Const\22() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>\0A  func.return %c : tensor<f32>\0A}\0A"} : (tensor<f32>) -> tensor<f32>
  func.return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}
