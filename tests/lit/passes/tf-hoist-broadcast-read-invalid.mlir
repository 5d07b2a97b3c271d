// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-hoist-broadcast-read

// A resource argument whose tf.device does not parse fails the pass at the
// read of it in the replicate (nothing is hoisted).

func.func @bad_device(%arg0: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:CPU:0"},
                      %arg1: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "bad device"}) {
  tf_device.replicate {n = 2 : i32} {
    %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    // expected-error@+1 {{'tf.ReadVariableOp' op invalid device 'bad device'}}
    %1 = "tf.ReadVariableOp"(%arg1) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_device.return
  }
  func.return
}

// -----

// A bad device outside any replicate is never looked at.

func.func @outside_replicate(%arg0: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "bad device"}) -> tensor<f32> {
  %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
