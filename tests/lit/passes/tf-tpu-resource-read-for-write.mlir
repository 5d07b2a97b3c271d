// RUN: tfmlir-opt %s -split-input-file -tf-tpu-resource-read-for-write | FileCheck %s

// A result written to a variable the computation does not read gets a read
// of that variable as an extra operand (and argument of the callee).

// CHECK-LABEL: func @write_only
// CHECK-SAME: (%[[ARG0:.*]]: tensor<f32>, %[[V0:.*]]: tensor<!tf_type.resource<tensor<f32>>>, %[[V1:.*]]: tensor<!tf_type.resource<tensor<i32>>>)
func.func @write_only(%arg0: tensor<f32>, %v0: tensor<!tf_type.resource<tensor<f32>>>, %v1: tensor<!tf_type.resource<tensor<i32>>>) {
  // CHECK: %[[R0:.*]] = "tf.ReadVariableOp"(%[[V0]]) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  // CHECK-NEXT: %[[R1:.*]] = "tf.ReadVariableOp"(%[[V1]]) : (tensor<!tf_type.resource<tensor<i32>>>) -> tensor<i32>
  // CHECK-NEXT: %[[C:.*]]:3 = "tf_device.cluster_func"(%[[ARG0]], %[[R0]], %[[R1]]) <{func = @computation}> {_replication_info = "c"}
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[V0]], %[[C]]#0)
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[V1]], %[[C]]#2)
  %0:3 = "tf_device.cluster_func"(%arg0) {func = @computation, _replication_info = "c"} : (tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<i32>)
  "tf.AssignVariableOp"(%v0, %0#0) {validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%v1, %0#2) {validate_shape = false} : (tensor<!tf_type.resource<tensor<i32>>>, tensor<i32>) -> ()
  // Two uses: not a write-only result.
  %1 = "tf.Neg"(%0#1) : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Abs"(%0#1) : (tensor<f32>) -> tensor<f32>
  func.return
}
// CHECK: func private @computation(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> (tensor<f32>, tensor<f32>, tensor<i32>)
func.func private @computation(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<i32>) {
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  func.return %a, %a, %c : tensor<f32>, tensor<f32>, tensor<i32>
}

// -----

// Variables the computation reads already, variables written by two results
// and results used by other ops get no read.

// CHECK-LABEL: func @no_read
func.func @no_read(%v0: tensor<!tf_type.resource<tensor<f32>>>, %v1: tensor<!tf_type.resource<tensor<f32>>>) {
  // CHECK-NEXT: "tf.ReadVariableOp"
  // CHECK-NEXT: "tf_device.cluster_func"(%{{.*}}) <{func = @computation}>
  %r = "tf.ReadVariableOp"(%v0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %0:3 = "tf_device.cluster_func"(%r) {func = @computation} : (tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
  "tf.AssignVariableOp"(%v0, %0#0) {validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%v1, %0#1) {validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%v1, %0#2) {validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}
// CHECK: func private @computation(%arg0: tensor<f32>) ->
func.func private @computation(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  func.return %a, %a, %a : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Under a replicate: a read feeding the replicate counts as a read; the read
// of a packed/replicated variable is made inside the replicate.

// CHECK-LABEL: func @replicated
func.func @replicated(%v0: tensor<!tf_type.resource<tensor<f32>>>, %v1: tensor<!tf_type.resource<tensor<f32>>>, %v2: tensor<!tf_type.resource<tensor<f32>>>) {
  %r = "tf.ReadVariableOp"(%v0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  tf_device.replicate([%r, %r] as %ri: tensor<f32>, [%v1, %v2] as %rv: tensor<!tf_type.resource<tensor<f32>>>) {n = 2 : i32} {
    // CHECK: tf_device.replicate
    // CHECK-NEXT: %[[READ:.*]] = "tf.ReadVariableOp"(%[[RV:.*]]) :
    // CHECK-NEXT: "tf_device.cluster_func"(%{{.*}}, %[[READ]])
    %1:2 = "tf_device.cluster_func"(%ri) {func = @computation} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    "tf.AssignVariableOp"(%v0, %1#0) {validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.AssignVariableOp"(%rv, %1#1) {validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    tf_device.return
  }
  func.return
}
// CHECK: func private @computation(%arg0: tensor<f32>, %arg1: tensor<f32>)
func.func private @computation(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  func.return %a, %a : tensor<f32>, tensor<f32>
}
