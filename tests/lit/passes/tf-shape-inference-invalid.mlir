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

// -----

// XlaConvV2 whose kernel does not match the input's features (TF's check).

module attributes {tf.versions = {producer = 888 : i32}} {
func.func @main(%lhs: tensor<2x5x5x2xf32>, %rhs: tensor<3x3x3x4xf32>) -> tensor<?x?x?x?xf32> {
  %s = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %p = "tf.Const"() {value = dense<1> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %d = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %g = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{Expected the size of kernel_input_features (value 3) in rhs times feature_group_count (value 1) in lhs should equal the size of the z dimension (value 2) in lhs.}}
  %0 = "tf.XlaConvV2"(%lhs, %rhs, %s, %p, %d, %d, %g) {batch_group_count = 1 : i64, dimension_numbers = "\18\02 \032\02\00\01@\03P\03Z\02\01\02b\02\01\02", precision_config = ""} : (tensor<2x5x5x2xf32>, tensor<3x3x3x4xf32>, tensor<2xi32>, tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<?x?x?x?xf32>
  func.return %0 : tensor<?x?x?x?xf32>
}
}

// -----

// XlaSelectAndScatter whose source is not the window-reduced operand's shape
// (TF's check).
module attributes {tf.versions = {producer = 888 : i32}} {
func.func private @sum(%a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.AddV2"(%a, %b) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @ge(%a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xi1> {
  %0 = "tf.GreaterEqual"(%a, %b) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xi1>
  func.return %0 : tensor<*xi1>
}
func.func @main(%x: tensor<4x6xf32>, %init: tensor<f32>, %src: tensor<3x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %dims = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %ones = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %pad = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.XlaReduceWindow"(%x, %init, %dims, %strides, %ones, %ones, %pad) {computation = @sum} : (tensor<4x6xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<*xf32>
  // expected-error @+1 {{Source shape does not match the shape of window-reduced operand.}}
  %1 = "tf.XlaSelectAndScatter"(%x, %dims, %strides, %pad, %src, %init) {scatter = @sum, select = @ge} : (tensor<4x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>, tensor<3x3xf32>, tensor<f32>) -> tensor<*xf32>
  func.return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
}
