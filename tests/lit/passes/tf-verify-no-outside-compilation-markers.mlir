// RUN: tfmlir-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tf-verify-no-outside-compilation-markers))' | FileCheck %s

// Nothing left of outside compilation: the IR passes unchanged. Launches
// outside clusters, markers that are not strings and other attributes are
// fine.

// CHECK-LABEL: func @clean
// CHECK:       "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}>
// CHECK:       "tf.Abs"(%arg0) {_xla_map_outside_compilation = true, _xla_outside_compilation = 1 : i32}
// CHECK:       "tf_device.cluster"
// CHECK:       "tf.Neg"
func.func @clean(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
    %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = 1 : i32, _xla_map_outside_compilation = true} : (tensor<i32>) -> tensor<i32>
    tf_device.return %1 : tensor<i32>
  }) : () -> tensor<i32>
  %2 = "tf_device.cluster"() ({
    %3 = "tf.Neg"(%0) : (tensor<i32>) -> tensor<i32>
    tf_device.return %3 : tensor<i32>
  }) : () -> tensor<i32>
  func.return %2 : tensor<i32>
}

// -----

// CHECK-LABEL: func @empty
func.func @empty() {
  func.return
}
