// RUN: tfmlir-opt %s -split-input-file -tf-resource-op-lifting | FileCheck %s

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// A variable read and updated in a cluster: one read before the cluster (the
// first read's attributes, without device), the value last written returned
// by the cluster and written after it (the last write's attributes); reads
// after a write take the written value; identities inside are gone.

// CHECK-LABEL: func.func @read_and_update
func.func @read_and_update(%arg0: !res) -> tensor<4xf32> {
  // CHECK: %[[READ:.*]] = "tf.ReadVariableOp"(%arg0) {_r = 1 : i64} : ({{.*}}) -> tensor<4xf32>
  // CHECK: %[[C:.*]]:2 = "tf_device.cluster"() ({
  %0 = "tf_device.cluster"() ({
    %i = "tf.Identity"(%arg0) : (!res) -> !res
    // CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%[[READ]])
    %r = "tf.ReadVariableOp"(%i) {device = "/TPU:0", _r = 1} : (!res) -> tensor<4xf32>
    %n = "tf.Neg"(%r) : (tensor<4xf32>) -> tensor<4xf32>
    "tf.AssignVariableOp"(%arg0, %n) {_w = 1} : (!res, tensor<4xf32>) -> ()
    // CHECK-NEXT: %[[ABS:.*]] = "tf.Abs"(%[[NEG]])
    %r2 = "tf.ReadVariableOp"(%arg0) : (!res) -> tensor<4xf32>
    %a = "tf.Abs"(%r2) : (tensor<4xf32>) -> tensor<4xf32>
    "tf.AssignVariableOp"(%arg0, %a) {_w = 2, device = "/TPU:0"} : (!res, tensor<4xf32>) -> ()
    // CHECK-NEXT: tf_device.return %[[ABS]], %[[ABS]]
    tf_device.return %a : tensor<4xf32>
  }) {_c = 1} : () -> tensor<4xf32>
  // CHECK: "tf.AssignVariableOp"(%arg0, %[[C]]#1) <{validate_shape = false}> {_w = 2 : i64}
  // CHECK: return %[[C]]#0
  func.return %0 : tensor<4xf32>
}

// -----

!res = tensor<*x!tf_type.resource<tensor<f32>>>

// A variable only written needs no read; one only read is not written back.
// A resource used by another op stays inside with its reads and writes.

// CHECK-LABEL: func.func @write_only_read_only
func.func @write_only_read_only(%arg0: !res, %arg1: !res, %arg2: !res) {
  // CHECK-NEXT: %[[R1:.*]] = "tf.ReadVariableOp"(%arg1)
  // CHECK-NEXT: %[[C:.*]] = "tf_device.cluster"
  "tf_device.cluster"() ({
    %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    "tf.AssignVariableOp"(%arg0, %c) : (!res, tensor<f32>) -> ()
    // CHECK: "tf.AddV2"(%[[R1]], %[[R1]])
    %r = "tf.ReadVariableOp"(%arg1) : (!res) -> tensor<f32>
    %s = "tf.AddV2"(%r, %r) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    // CHECK: "tf.ReadVariableOp"(%arg2)
    // CHECK: "tf.AssignAddVariableOp"(%arg2
    %t = "tf.ReadVariableOp"(%arg2) : (!res) -> tensor<f32>
    "tf.AssignAddVariableOp"(%arg2, %s) : (!res, tensor<f32>) -> ()
    tf_device.return
  }) : () -> ()
  // CHECK: "tf.AssignVariableOp"(%arg0, %[[C]])
  // CHECK-NOT: tf.AssignVariableOp
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<2xi32>>>

// A local variable (TF's anonymous shared name) only assigned is removed; a
// variable with a shared name stays, with its write (it is not captured).
// VarIsInitializedOp becomes true.

// CHECK-LABEL: func.func @local_variables
func.func @local_variables(%arg0: tensor<2xi32>) -> tensor<i1> {
  // CHECK: "tf_device.cluster"
  %0 = "tf_device.cluster"() ({
    // CHECK-NOT: cd2c89b7
    // CHECK: %[[NAMED:.*]] = "tf.VarHandleOp"
    // CHECK-SAME: shared_name = "kept"
    // CHECK-NEXT: "tf.AssignVariableOp"(%[[NAMED]], %arg0)
    %v = "tf.VarHandleOp"() {container = "", shared_name = "cd2c89b7-88b7-44c8-ad83-06c2a9158347"} : () -> !res
    "tf.AssignVariableOp"(%v, %arg0) : (!res, tensor<2xi32>) -> ()
    %w = "tf.VarHandleOp"() {container = "", shared_name = "kept"} : () -> !res
    "tf.AssignVariableOp"(%w, %arg0) : (!res, tensor<2xi32>) -> ()
    // CHECK: %[[TRUE:.*]] = "tf.Const"() <{value = dense<true> : tensor<i1>}>
    %i = "tf.VarIsInitializedOp"(%w) : (!res) -> tensor<i1>
    // CHECK: tf_device.return %[[TRUE]]
    tf_device.return %i : tensor<i1>
  }) : () -> tensor<i1>
  func.return %0 : tensor<i1>
}

// -----

!res = tensor<*x!tf_type.resource<tensor<f32>>>

// An IfRegion writing a variable in one branch: it is read before the
// IfRegion, both branches return its value (written, or as read) and it is
// written after; the cluster then does the same for its own body. A
// WhileRegion writing a variable gets it as a new loop variable.

// CHECK-LABEL: func.func @regions
func.func @regions(%arg0: !res, %arg1: tensor<i1>, %arg2: !res) {
  // CHECK: %[[R0:.*]] = "tf.ReadVariableOp"(%arg0)
  // CHECK: %[[R2:.*]] = "tf.ReadVariableOp"(%arg2)
  // CHECK: %[[C:.*]]:2 = "tf_device.cluster"
  "tf_device.cluster"() ({
    // CHECK: %[[IF:.*]] = "tf.IfRegion"
    "tf.IfRegion"(%arg1) ({
      %c = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
      "tf.AssignVariableOp"(%arg0, %c) : (!res, tensor<f32>) -> ()
      // CHECK: "tf.Yield"(%{{.*}}) : (tensor<f32>) -> ()
      "tf.Yield"() : () -> ()
    }, {
      // CHECK: "tf.Yield"(%[[R0]]) : (tensor<f32>) -> ()
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : (tensor<i1>) -> ()
    // CHECK: %[[W:.*]] = "tf.WhileRegion"(%[[R2]])
    "tf.WhileRegion"() ({
    // CHECK-NEXT: ^bb0(%[[CA:.*]]: tensor<f32>):
      %r = "tf.ReadVariableOp"(%arg2) : (!res) -> tensor<f32>
      %p = "tf.Less"(%r, %r) : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }, {
    // CHECK: ^bb0(%[[BA:.*]]: tensor<f32>):
      %r = "tf.ReadVariableOp"(%arg2) : (!res) -> tensor<f32>
      // CHECK-NEXT: %[[N:.*]] = "tf.Neg"(%[[BA]])
      %n = "tf.Neg"(%r) : (tensor<f32>) -> tensor<f32>
      "tf.AssignVariableOp"(%arg2, %n) : (!res, tensor<f32>) -> ()
      // CHECK-NEXT: "tf.Yield"(%[[N]])
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : () -> ()
    // CHECK: tf_device.return %[[IF]], %[[W]]
    tf_device.return
  }) : () -> ()
  // CHECK: "tf.AssignVariableOp"(%arg0, %[[C]]#0)
  // CHECK: "tf.AssignVariableOp"(%arg2, %[[C]]#1)
  func.return
}
