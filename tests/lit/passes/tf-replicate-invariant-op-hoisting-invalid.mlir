// RUN: tfmlir-opt %s -split-input-file -tf-replicate-invariant-op-hoisting -verify-diagnostics

// Malformed replicates never reach the pass: the module is verified first and
// the diagnostic points at the replicate (no crash, no output).

func.func @operands_not_a_multiple_of_n(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of replicated inputs (3) to be evenly divisible by 'n' (2)}}
  %r:2 = "tf_device.replicate"(%a, %b, %c) <{n = 2 : i32, operandSegmentSizes = array<i32: 3, 0>}> ({
  ^bb0(%x: tensor<f32>):
    tf_device.return %x : tensor<f32>
  }) : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}

// -----

func.func @devices_not_one_per_replica(%a: tensor<f32>, %b: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of devices (1) to be equal to 'n' (2)}}
  %r:2 = tf_device.replicate([%a, %b] as %x: tensor<f32>) {devices = {CORE_0 = ["/device:TPU:0"]}, n = 2 : i32} {
    %s = "tf.Shape"(%x) : (tensor<f32>) -> tensor<0xi32>
    tf_device.return %x : tensor<f32>
  }
  func.return
}
