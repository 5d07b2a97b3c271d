// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-device-constant-sinking | FileCheck %s

// Constant sinking has no failure path of its own: what it relies on (a
// cluster with one block ending in tf_device.return) the verifier guarantees
// before any pass runs. IR other passes reject is not its business.

// A cluster whose results differ from what it returns: constants are sunk
// (cluster outlining reports the mismatch).

// CHECK-LABEL: func.func @mismatch
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: "tf.Const"
func.func @mismatch(%x: tensor<*xi32>) -> tensor<?xi32> {
  %k = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Add"(%x, %k) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
    tf_device.return %1 : tensor<*xi32>
  }) : () -> tensor<?xi32>
  func.return %0 : tensor<?xi32>
}

// -----

// A cluster in a function of a nested module (outlining refuses it): a
// function pass given at module level runs on the module's own functions
// only (as in mlir-opt and TF), so nothing changes here.

// CHECK-LABEL: func.func @in_nested_module
// CHECK-NEXT: "tf.Const"
// CHECK-NEXT: "tf_device.cluster"
module {
  module @inner {
    func.func @in_nested_module() -> tensor<i32> {
      %k = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %0 = "tf_device.cluster"() ({
        tf_device.return %k : tensor<i32>
      }) : () -> tensor<i32>
      func.return %0 : tensor<i32>
    }
  }
}
