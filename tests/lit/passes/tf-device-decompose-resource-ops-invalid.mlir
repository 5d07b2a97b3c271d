// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(tf-device-decompose-resource-ops))"

// Every function is decomposed: the failure is at the op, the function is left as it was.
func.func @unclustered_not_broadcastable(%v: tensor<!tf_type.resource<tensor<2x4xf32>>>, %x: tensor<3x4xf32>) {
  // expected-error @+1 {{'tf.AssignAddVariableOp' cannot be decomposed: 'tf.AddV2': non-broadcastable operands tensor<2x4xf32> and tensor<3x4xf32>}}
  "tf.AssignAddVariableOp"(%v, %x) : (tensor<!tf_type.resource<tensor<2x4xf32>>>, tensor<3x4xf32>) -> ()
  func.return
}
