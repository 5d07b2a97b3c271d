// RUN: tfmlir-opt %s -split-input-file -tf-device-mark-input-output-aliases -verify-diagnostics

// Where TensorFlow would write past the function's arguments or assert on a
// conflicting alias, the pass fails at the cluster_func and changes nothing.

func.func @too_few_arguments(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %x: tensor<f32>) {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  // expected-error@+1 {{input #1 has no matching argument in '@device_short' (1 arguments)}}
  %o = "tf_device.cluster_func"(%x, %r) {func = @device_short} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%v, %o) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}
func.func private @device_short(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

// -----

func.func @conflicting_alias(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %x: tensor<f32>) {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  // expected-error@+1 {{argument #0 of '@device_conflict' already aliases output #0, not #1}}
  %o:2 = "tf_device.cluster_func"(%r) {func = @device_conflict} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  "tf.AssignVariableOp"(%v, %o#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.Use"(%o#0) : (tensor<f32>) -> ()
  func.return
}
func.func private @device_conflict(%a: tensor<f32> {tf.aliasing_output = 0 : i64}) -> (tensor<f32>, tensor<f32>) {
  func.return %a, %a : tensor<f32>, tensor<f32>
}

// -----

// Malformed device IR never reaches the pass: the module is verified first.

func.func @undefined_function(%x: tensor<f32>) {
  // expected-error@+1 {{'func' attribute refers to an undefined function: missing}}
  %o = "tf_device.cluster_func"(%x) {func = @missing} : (tensor<f32>) -> tensor<f32>
  func.return
}
