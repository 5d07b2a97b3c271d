// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-resource-read-for-write

// TF's process crashes on a callee without a body.
func.func @declaration(%arg0: tensor<f32>, %v: tensor<!tf_type.resource<tensor<f32>>>) {
  // expected-error @+1 {{'tf_device.cluster_func' op callee @external is not a function of the module with a body}}
  %0 = "tf_device.cluster_func"(%arg0) {func = @external} : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%v, %0) {validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}
func.func private @external(%a: tensor<f32>) -> tensor<f32>
