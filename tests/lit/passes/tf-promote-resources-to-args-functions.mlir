// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-promote-resources-to-args=functions=step,reader | FileCheck %s

// Option functions: only the named functions are promoted (in the order
// given), main is left alone; names that are not functions are skipped.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
// CHECK-NEXT: "tf.ReadVariableOp"(%arg0)
func.func @main(%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> {
  %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @reader
// CHECK-SAME: (%arg0: tensor<f32> {tf.resource_name = "state"}) -> tensor<f32>
// CHECK-NEXT: return %arg0
func.func @reader() -> tensor<f32> {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "state"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%arg0: tensor<f32>) -> (tensor<f32> {tf.resource_name = "state"})
// CHECK-NEXT: return %arg0
func.func @step(%arg0: tensor<f32>) {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "state"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  "tf.AssignVariableOp"(%0, %arg0) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}

// -----

// A module without the named functions is left unchanged.

// CHECK-LABEL: func.func @other
// CHECK-SAME: (%arg0: tensor<!tf_type.resource<tensor<f32>>>)
func.func @other(%arg0: tensor<!tf_type.resource<tensor<f32>>>) {
  func.return
}
