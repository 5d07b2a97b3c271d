// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(verify-clustering-pass))' | FileCheck %s

// The bridge's output: tf and tf_device ops in functions; unchanged.

// CHECK-LABEL: func @clustered
// CHECK: "tf_device.cluster_func"
// CHECK: "tf.Identity"
func.func @clustered(%a: tensor<f32>) -> tensor<f32> {
  %p = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0 = "tf_device.cluster_func"(%a, %p) {func = @cluster, _replication_info = "c0", _xla_compile_device_type = "TPU"} : (tensor<f32>, tensor<i1>) -> tensor<f32>
  %1 = "tf.Identity"(%0) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// CHECK-LABEL: func private @cluster
func.func private @cluster(%a: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> tensor<f32>
  %2 = "tf.IfRegion"(%p) ({
    "tf.Yield"(%0) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  func.return %2 : tensor<f32>
}

// -----

// Only functions are looked at: ops of other dialects elsewhere in the module stay.

// CHECK-LABEL: func @only_functions
// CHECK: tf_executor.graph
module {
  func.func @only_functions() -> () {
    func.return
  }
  "test.unknown"() : () -> ()
  module @nested {
    func.func @f() -> () {
      tf_executor.graph {
        tf_executor.fetch
      }
      func.return
    }
  }
}
