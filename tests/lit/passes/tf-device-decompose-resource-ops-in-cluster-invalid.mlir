// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-device-decompose-resource-ops-in-cluster

// The value does not broadcast with the variable: TF's builder has no type for the sum.
func.func @not_broadcastable(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %x: tensor<3xf32>) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.AssignAddVariableOp' cannot be decomposed: 'tf.AddV2': non-broadcastable operands tensor<4xf32> and tensor<3xf32>}}
    "tf.AssignAddVariableOp"(%v, %x) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<3xf32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// Adagrad's zero epsilon cannot be a quantized constant.
func.func @quantized(%v: tensor<!tf_type.resource<tensor<4x!tf_type.qint8>>>, %x: tensor<4x!tf_type.qint8>, %lr: tensor<!tf_type.qint8>) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.ResourceApplyAdagrad' cannot be decomposed: no scalar constant of element type !tf_type.qint8}}
    "tf.ResourceApplyAdagrad"(%v, %v, %lr, %x) : (tensor<!tf_type.resource<tensor<4x!tf_type.qint8>>>, tensor<!tf_type.resource<tensor<4x!tf_type.qint8>>>, tensor<!tf_type.qint8>, tensor<4x!tf_type.qint8>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// In a function a cluster calls, the function is decomposed as a whole; the failure is at the op.
func.func @main(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %x: tensor<3xf32>) {
  "tf_device.cluster"() ({
    "tf.StatefulPartitionedCall"(%v, %x) <{config = "", config_proto = "", executor_type = "", f = @sub_not_broadcastable}> : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<3xf32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

func.func private @sub_not_broadcastable(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'tf.AssignSubVariableOp' cannot be decomposed: 'tf.Sub': non-broadcastable operands tensor<4xf32> and tensor<3xf32>}}
  "tf.AssignSubVariableOp"(%v, %x) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<3xf32>) -> ()
  func.return
}
