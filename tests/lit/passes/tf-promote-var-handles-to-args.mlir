// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-promote-var-handles-to-args | FileCheck %s

// Every function of the module: handles become arguments appended after the
// existing ones, one per shared name in order of first appearance, named by
// tf.resource_name; their users (of any kind) take the argument.

// CHECK-LABEL: func.func @handles
// CHECK-SAME: (%arg0: tensor<f32> {tf._in = 0 : i64}, %arg1: tensor<!tf_type.resource<tensor<f32>>> {tf.resource_name = "w"}, %arg2: tensor<!tf_type.resource<tensor<2xi32>>> {tf.resource_name = "b"})
// CHECK-NOT: tf.VarHandleOp
// CHECK: "tf.AssignAddVariableOp"(%arg1, %arg0)
// CHECK: "tf.ReadVariableOp"(%arg2)
// CHECK: "tf.AssignSubVariableOp"(%arg1, %arg0)
func.func @handles(%arg0: tensor<f32> {tf._in = 0}) -> tensor<2xi32> {
  %w0 = "tf.VarHandleOp"() {container = "", shared_name = "w"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  "tf.AssignAddVariableOp"(%w0, %arg0) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %b = "tf.VarHandleOp"() {container = "c", shared_name = "b"} : () -> tensor<!tf_type.resource<tensor<2xi32>>>
  %0 = "tf.ReadVariableOp"(%b) : (tensor<!tf_type.resource<tensor<2xi32>>>) -> tensor<2xi32>
  %w1 = "tf.VarHandleOp"() {container = "", shared_name = "w"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  "tf.AssignSubVariableOp"(%w1, %arg0) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %0 : tensor<2xi32>
}

// A handle of a variable not initialized stays; one with _is_initialized true
// is promoted.

// CHECK-LABEL: func.func @initialization
// CHECK-SAME: (%arg0: tensor<!tf_type.resource<tensor<i64>>> {tf.resource_name = "ready"})
// CHECK-NEXT: %[[LATE:.*]] = "tf.VarHandleOp"() <{container = "", shared_name = "late"}> {_is_initialized = false}
// CHECK-NEXT: "tf.VarIsInitializedOp"(%[[LATE]])
// CHECK-NEXT: "tf.VarIsInitializedOp"(%arg0)
func.func @initialization() -> (tensor<i1>, tensor<i1>) {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "late", _is_initialized = false} : () -> tensor<!tf_type.resource<tensor<i64>>>
  %1 = "tf.VarIsInitializedOp"(%0) : (tensor<!tf_type.resource<tensor<i64>>>) -> tensor<i1>
  %2 = "tf.VarHandleOp"() {container = "", shared_name = "ready", _is_initialized = true} : () -> tensor<!tf_type.resource<tensor<i64>>>
  %3 = "tf.VarIsInitializedOp"(%2) : (tensor<!tf_type.resource<tensor<i64>>>) -> tensor<i1>
  func.return %1, %3 : tensor<i1>, tensor<i1>
}

// Handles nested in regions are left alone; a function without handles is
// unchanged.

// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%arg0: tensor<i1>) -> tensor<f32>
// CHECK: "tf.VarHandleOp"() <{container = "", shared_name = "inner"}>
func.func @nested(%arg0: tensor<i1>) -> tensor<f32> {
  %0 = "tf.IfRegion"(%arg0) ({
    %1 = "tf.VarHandleOp"() {container = "", shared_name = "inner"} : () -> tensor<!tf_type.resource<tensor<f32>>>
    %2 = "tf.ReadVariableOp"(%1) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    "tf.Yield"(%2) : (tensor<f32>) -> ()
  }, {
    %1 = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func private @no_handles
// CHECK-SAME: (%arg0: tensor<f32>) -> tensor<f32>
func.func private @no_handles(%arg0: tensor<f32>) -> tensor<f32> {
  func.return %arg0 : tensor<f32>
}
