// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-shape-inference

// Operand shapes no op could accept: an error at the op naming the op and the
// operand types (TensorFlow's pass silently leaves such ops unrefined); the
// module is left unchanged.

module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%a) : (tensor<2x3xf32>) -> tensor<*xf32>
  // expected-error@+1 {{'tf.MatMul' op has operand shapes no MatMul accepts: dimensions must be equal, but are 3 and 4 (operand types: tensor<2x3xf32>, tensor<4x5xf32>)}}
  %1 = "tf.MatMul"(%0, %b) {transpose_a = false, transpose_b = false} : (tensor<*xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  func.return %1 : tensor<*xf32>
}
}

// -----

// A reshape to a shape with a different number of elements.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  %c = "tf.Const"() {value = dense<[4, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error@+1 {{'tf.Reshape' op has operand shapes no Reshape accepts}}
  %0 = "tf.Reshape"(%a, %c) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
}
