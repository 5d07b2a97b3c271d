// RUN: tfmlir-opt %s -split-input-file -tf-tpu-resource-partition | FileCheck %s

func.func private @step(%x: tensor<8xf32>) -> tensor<8xf32>

// A variable split over two cores, read and written by the computation: one
// read per handle before the partitioned input, one write per core after the
// computation through a partitioned output.

// CHECK-LABEL: func @read_and_write
// CHECK-SAME: (%[[V0:.*]]: tensor<!tf_type.resource<tensor<4xf32>>>, %[[V1:.*]]: tensor<!tf_type.resource<tensor<4xf32>>>)
func.func @read_and_write(%v0: tensor<!tf_type.resource<tensor<4xf32>>>, %v1: tensor<!tf_type.resource<tensor<4xf32>>>) {
  // CHECK-NEXT: %[[R0:.*]] = "tf.ReadVariableOp"(%[[V0]]) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  // CHECK-NEXT: %[[R1:.*]] = "tf.ReadVariableOp"(%[[V1]]) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  // CHECK-NEXT: %[[P:.*]] = "tf.TPUPartitionedInputV2"(%[[R0]], %[[R1]]) <{_XlaSharding = "", _XlaShardingV2 = "v2", partition_dims = [2]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  // CHECK-NEXT: %[[C:.*]] = "tf_device.cluster_func"(%[[P]])
  // CHECK-NEXT: %[[O:.*]]:2 = "tf.TPUPartitionedOutputV2"(%[[C]]) <{_XlaSharding = "", _XlaShardingV2 = "v2", partition_dims = [2]}> : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[V0]], %[[O]]#0) <{validate_shape = false}>
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[V1]], %[[O]]#1) <{validate_shape = false}>
  // CHECK-NEXT: return
  %0 = "tf.TPUPartitionedInputV2"(%v0, %v1) {_XlaSharding = "", _XlaShardingV2 = "v2", partition_dims = [2], N = 2 : i64} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<8xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
  %2 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true, num_cores_per_replica = 2 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  "tf.AssignVariableOp"(%0, %2) {validate_shape = true, device = "x"} : (tensor<!tf_type.resource<tensor<8xf32>>>, tensor<8xf32>) -> ()
  func.return
}

// -----

func.func private @step(%x: tensor<!tf_type.resource<tensor<4xf32>>>, %y: tensor<4xf32>) -> tensor<4xf32>

// The same handle twice (not packed): one read for both; a packed input keeps
// is_packed; a read used twice by the computation is replaced once.

// CHECK-LABEL: func @shared_handles
func.func @shared_handles(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %w: tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = "tf.ReadVariableOp"(%arg0)
  // CHECK-NEXT: %[[P:.*]] = "tf.TPUPartitionedInputV2"(%[[R]], %[[R]]) <{_XlaSharding = "", partition_dims = []}>
  // CHECK: %[[Q:.*]] = "tf.ReadVariableOp"(%arg1)
  // CHECK-NEXT: %[[PP:.*]] = "tf.TPUPartitionedInputV2"(%[[Q]]) <{_XlaSharding = "", is_packed = true, partition_dims = []}>
  // CHECK: "tf_device.cluster_func"(%arg1, %[[P]], %[[PP]], %[[P]])
  %0 = "tf.TPUPartitionedInputV2"(%v, %v) {_XlaSharding = "", partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf.TPUPartitionedInputV2"(%w) {_XlaSharding = "", partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %3 = "tf.ReadVariableOp"(%2) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %4 = "tf_device.cluster_func"(%w, %1, %3, %1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %4 : tensor<4xf32>
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

// Not rewritten: no SPMD (absent, false, not a bool), a result with two
// uses, a write of another value, a variable without one subtype per handle.

// CHECK-LABEL: func @left_alone
func.func @left_alone(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %u: tensor<!tf_type.resource>) -> tensor<4xf32> {
  // CHECK: "tf.TPUPartitionedInputV2"(%arg0, %arg0)
  // CHECK-NEXT: "tf.ReadVariableOp"
  // CHECK-NOT: tf.TPUPartitionedOutputV2
  // CHECK: "tf.ReadVariableOp"(%{{.*}}) : (tensor<!tf_type.resource>) -> tensor<4xf32>
  // CHECK-NOT: tf.TPUPartitionedOutputV2
  %0 = "tf.TPUPartitionedInputV2"(%v, %v) {_XlaSharding = "", partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf_device.cluster_func"(%1) {func = @step} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = false} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = "true"} : (tensor<4xf32>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%0, %2) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
  %5 = "tf_device.cluster_func"(%2) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%0, %5) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
  %6 = "tf.Neg"(%5) : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "tf_device.cluster_func"(%3) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  %8 = "tf.Neg"(%7) : (tensor<4xf32>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%v, %8) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
  %9 = "tf.TPUPartitionedInputV2"(%u, %u) {_XlaSharding = "", partition_dims = []} : (tensor<!tf_type.resource>, tensor<!tf_type.resource>) -> tensor<!tf_type.resource>
  %10 = "tf.ReadVariableOp"(%9) : (tensor<!tf_type.resource>) -> tensor<4xf32>
  %11 = "tf_device.cluster_func"(%10) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%9, %11) : (tensor<!tf_type.resource>, tensor<4xf32>) -> ()
  func.return %4 : tensor<4xf32>
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

// Outside compiled code reading the variable gets the first handle's read
// (replicated sharding, here written out as type REPLICATED).

// CHECK-LABEL: func @host_reader
func.func @host_reader(%v0: tensor<!tf_type.resource<tensor<4xf32>>>, %v1: tensor<!tf_type.resource<tensor<4xf32>>>) {
  // CHECK: %[[R0:.*]] = "tf.ReadVariableOp"(%arg0)
  // CHECK: "tf_device.parallel_execute"
  // CHECK: "tf.Identity"(%[[R0]])
  // CHECK: "tf.TPUPartitionedOutputV2"
  %0 = "tf.TPUPartitionedInputV2"(%v0, %v1) {_XlaSharding = "\08\00", partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf_device.parallel_execute"() ({
    "tf_device.launch"() ({
      %3 = "tf.Identity"(%1) : (tensor<4xf32>) -> tensor<4xf32>
      tf_device.return
    }) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> ()
    tf_device.return
  }, {
    %4 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.return %4 : tensor<4xf32>
  }) : () -> tensor<4xf32>
  "tf.AssignVariableOp"(%0, %2) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

// A parallel_execute with one region around the computation is removed.

// CHECK-LABEL: func @singleton_parallel_execute
func.func @singleton_parallel_execute(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: tf_device.parallel_execute
  // CHECK: %[[C:.*]] = "tf_device.cluster_func"(%arg0)
  // CHECK-NEXT: return %[[C]]
  %0 = "tf_device.parallel_execute"() ({
    %1 = "tf_device.cluster_func"(%x) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.return %1 : tensor<4xf32>
  }) : () -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
