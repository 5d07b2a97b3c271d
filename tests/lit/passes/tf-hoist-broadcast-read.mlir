// RUN: tfmlir-opt %s -split-input-file -tf-hoist-broadcast-read | FileCheck %s

// A read of a resource argument placed on a CPU moves in front of the
// replicate; its users inside keep using it.

// CHECK-LABEL: func.func @cpu_resource
// CHECK-NEXT: %[[R:.*]] = "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: tf_device.replicate
// CHECK-NEXT: "tf.Neg"(%[[R]])
func.func @cpu_resource(%arg0: tensor<!tf_type.resource<tensor<4xf32>>> {tf.device = "/job:worker/replica:0/task:0/device:CPU:0"}) {
  tf_device.replicate {n = 2 : i32} {
    %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
    %1 = "tf.Neg"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.return
  }
  func.return
}

// -----

// Only CPU resources: a TPU one, one without tf.device, and one whose device
// has no type stay inside.

// CHECK-LABEL: func.func @not_cpu
// CHECK-NEXT: tf_device.replicate
// CHECK-NEXT: "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: "tf.ReadVariableOp"(%arg1)
// CHECK-NEXT: "tf.ReadVariableOp"(%arg2)
func.func @not_cpu(%arg0: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
                   %arg1: tensor<!tf_type.resource<tensor<f32>>>,
                   %arg2: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0"}) {
  tf_device.replicate {n = 2 : i32} {
    %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %1 = "tf.ReadVariableOp"(%arg1) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %2 = "tf.ReadVariableOp"(%arg2) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_device.return
  }
  func.return
}

// -----

// The legacy short form /cpu:0 is a CPU device too.

// CHECK-LABEL: func.func @legacy_cpu
// CHECK-NEXT: "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: tf_device.replicate
func.func @legacy_cpu(%arg0: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/cpu:0"}) {
  tf_device.replicate {n = 2 : i32} {
    %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_device.return
  }
  func.return
}

// -----

// A write before the read keeps it inside (the read sees the replica's write);
// a write after it does not, nor do other reads before it. Hoisted reads keep
// their order.

// CHECK-LABEL: func.func @writes
// CHECK-NEXT: %[[A:.*]] = "tf.ReadVariableOp"(%arg1)
// CHECK-NEXT: %[[B:.*]] = "tf.ReadVariableOp"(%arg1)
// CHECK-NEXT: tf_device.replicate
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0
// CHECK-NEXT: "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: "tf.AddV2"(%[[A]], %[[B]])
// CHECK-NEXT: "tf.AssignVariableOp"(%arg1
func.func @writes(%arg0: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:CPU:0"},
                  %arg1: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:CPU:0"},
                  %arg2: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    %0 = "tf.ReadVariableOp"(%arg1) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    "tf.AssignVariableOp"(%arg0, %arg2) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    %1 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %2 = "tf.ReadVariableOp"(%arg1) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %3 = "tf.AddV2"(%0, %2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.AssignVariableOp"(%arg1, %3) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    tf_device.return
  }
  func.return
}

// -----

// A use nested in an earlier op counts as that op: a cluster using the
// resource before the read keeps the read inside; uses outside the replicate
// do not matter.

// CHECK-LABEL: func.func @nested_use
// CHECK-NEXT: "tf.VarIsInitializedOp"(%arg0)
// CHECK-NEXT: tf_device.replicate
// CHECK-NEXT: "tf_device.cluster"
// CHECK: "tf.ReadVariableOp"(%arg0)
func.func @nested_use(%arg0: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:CPU:0"}) {
  %init = "tf.VarIsInitializedOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<i1>
  tf_device.replicate {n = 2 : i32} {
    "tf_device.cluster"() ({
      %c = "tf.VarIsInitializedOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<i1>
      tf_device.return
    }) : () -> ()
    %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_device.return
  }
  func.return
}

// -----

// Only top-level reads of the replicate body, and only of function arguments
// (not of replicated block arguments); a replicate nested in control flow
// still hoists its own reads.

// CHECK-LABEL: func.func @not_top_level
// CHECK: tf_device.replicate([%arg0, %arg0] as %[[RA:.*]]: tensor
// CHECK-NEXT: "tf.ReadVariableOp"(%[[RA]])
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: "tf.ReadVariableOp"(%arg0)
// CHECK: "tf.IfRegion"
// CHECK-NEXT: "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: tf_device.replicate
func.func @not_top_level(%arg0: tensor<!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:CPU:0"}, %p: tensor<i1>) {
  tf_device.replicate([%arg0, %arg0] as %r: tensor<!tf_type.resource<tensor<f32>>>) {n = 2 : i32} {
    %0 = "tf.ReadVariableOp"(%r) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    "tf_device.cluster"() ({
      %1 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
      tf_device.return
    }) : () -> ()
    tf_device.return
  }
  "tf.IfRegion"(%p) ({
    tf_device.replicate {n = 2 : i32} {
      %2 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
      tf_device.return
    }
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  func.return
}
