// RUN: tfmlir-opt %s -split-input-file -tf-annotate-parameter-replication | FileCheck %s

// Values from outside the replicate and mirrored variables (through
// identities and reads) are the same on every replica; replicated inputs and
// values computed inside are not.

// CHECK-LABEL: func @annotate
func.func @annotate(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<!tf_type.resource<tensor<f32>>>, %arg3: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> {
  %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<f32>, [%arg2, %arg3] as %rv: tensor<!tf_type.resource<tensor<f32>>>, [%arg2, %arg3] as %rm: tensor<!tf_type.resource<tensor<f32>>>) {n = 2 : i32, _mirrored_variable_indices = [2]} {
    %id = "tf.Identity"(%c) : (tensor<f32>) -> tensor<f32>
    %read = "tf.ReadVariableOp"(%rm) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %read_id = "tf.Identity"(%read) : (tensor<f32>) -> tensor<f32>
    %plain = "tf.ReadVariableOp"(%rv) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %inside = "tf.Neg"(%ri) : (tensor<f32>) -> tensor<f32>
    %1 = "tf_device.cluster_func"(%ri, %id, %read_id, %plain, %inside, %arg0) {func = @computation} : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }
  // Outside any replicate: nothing.
  %2 = "tf_device.cluster_func"(%arg0) {func = @single} : (tensor<f32>) -> tensor<f32>
  func.return %0#0 : tensor<f32>
}
// CHECK: func private @computation(
// CHECK-SAME: %arg0: tensor<f32>,
// CHECK-SAME: %arg1: tensor<f32> {mhlo.is_same_data_across_replicas = true},
// CHECK-SAME: %arg2: tensor<f32> {mhlo.is_same_data_across_replicas = true},
// CHECK-SAME: %arg3: tensor<f32>,
// CHECK-SAME: %arg4: tensor<f32>,
// CHECK-SAME: %arg5: tensor<f32> {mhlo.is_same_data_across_replicas = true})
func.func private @computation(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>, %e: tensor<f32>, %f: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
// CHECK: func private @single(%arg0: tensor<f32>)
func.func private @single(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

// -----

// Existing argument attributes are kept; a cluster_func nested deeper in the
// replicate counts too.

// CHECK-LABEL: func @nested
func.func @nested(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {
  %0:2 = tf_device.replicate {n = 2 : i32} {
    %1 = "tf.IfRegion"(%arg1) ({
      %2 = "tf_device.cluster_func"(%arg0) {func = @callee} : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%2) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%arg0) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }
  func.return %0#0 : tensor<f32>
}
// CHECK: func private @callee(%arg0: tensor<f32> {mhlo.is_same_data_across_replicas = true, mhlo.sharding = ""})
func.func private @callee(%a: tensor<f32> {mhlo.sharding = ""}) -> tensor<f32> {
  func.return %a : tensor<f32>
}
