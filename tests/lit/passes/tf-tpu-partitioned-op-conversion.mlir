// RUN: tfmlir-opt %s -split-input-file -tf-tpu-partitioned-op-conversion | FileCheck %s

// Two cores per replica: the inputs are split along dimension 1 of a rank 3
// value; the V2 op keeps the shardings and drops the other attributes.

// CHECK-LABEL: func @input_along_dim_1
// CHECK-SAME: (%[[A:.*]]: tensor<4x3x8xf32>, %[[B:.*]]: tensor<4x3x8xf32>)
func.func @input_along_dim_1(%a: tensor<4x3x8xf32>, %b: tensor<4x3x8xf32>) -> tensor<4x6x8xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // CHECK: %[[PI:.*]] = "tf.TPUPartitionedInputV2"(%[[A]], %[[B]])
  // CHECK-SAME: _XlaSharding = "s1", _XlaShardingV2 = "s2", is_packed = false, partition_dims = [1, 2, 1]
  // CHECK-NOT: device
  // CHECK-NOT: "tf.TPUPartitionedInput"
  %0 = "tf.TPUPartitionedInput"(%a, %b) {_XlaSharding = "s1", _XlaShardingV2 = "s2", partition_dim = 1 : i64, device = "/device:CPU:0"} : (tensor<4x3x8xf32>, tensor<4x3x8xf32>) -> tensor<4x6x8xf32>
  // CHECK: %[[RI:.*]] = "tf.TPUReplicatedInput"(%[[PI]])
  %1 = "tf.TPUReplicatedInput"(%0) : (tensor<4x6x8xf32>) -> tensor<4x6x8xf32>
  // CHECK: return %[[RI]]
  func.return %1 : tensor<4x6x8xf32>
}

// -----

// Without partition_dim the op partitions along dimension 0.

// CHECK-LABEL: func @default_dim
func.func @default_dim(%a: tensor<2x5xi32>, %b: tensor<2x5xi32>) -> tensor<4x5xi32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // CHECK: "tf.TPUPartitionedInputV2"
  // CHECK-SAME: is_packed = false, partition_dims = [2, 1]
  %0 = "tf.TPUPartitionedInput"(%a, %b) : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<4x5xi32>
  func.return %0 : tensor<4x5xi32>
}

// -----

// partition_dim = -1 replicates the value: no metadata is needed and
// partition_dims is empty; resources are converted like tensors.

// CHECK-LABEL: func @replicated_resources
func.func @replicated_resources(%a: tensor<!tf_type.resource<tensor<3xf32>>>, %b: tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<!tf_type.resource<tensor<3xf32>>> {
  // CHECK: "tf.TPUPartitionedInputV2"(%arg0, %arg1) <{is_packed = false, partition_dims = []}>
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = -1 : i64} : (tensor<!tf_type.resource<tensor<3xf32>>>, tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<!tf_type.resource<tensor<3xf32>>>
  func.return %0 : tensor<!tf_type.resource<tensor<3xf32>>>
}

// -----

// A partitioned resource: the partition dims follow the rank of the
// resource's value type.

// CHECK-LABEL: func @partitioned_resource
func.func @partitioned_resource(%a: tensor<!tf_type.resource<tensor<2x2xf32>>>, %b: tensor<!tf_type.resource<tensor<2x2xf32>>>, %c: tensor<!tf_type.resource<tensor<2x2xf32>>>, %d: tensor<!tf_type.resource<tensor<2x2xf32>>>) -> tensor<!tf_type.resource<tensor<2x4xf32>>> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 4 : i64, num_replicas = 1 : i64} : () -> ()
  // CHECK: "tf.TPUPartitionedInputV2"(%arg0, %arg1, %arg2, %arg3)
  // CHECK-SAME: partition_dims = [1, 4]
  %0 = "tf.TPUPartitionedInput"(%a, %b, %c, %d) {partition_dim = 1 : i64} : (tensor<!tf_type.resource<tensor<2x2xf32>>>, tensor<!tf_type.resource<tensor<2x2xf32>>>, tensor<!tf_type.resource<tensor<2x2xf32>>>, tensor<!tf_type.resource<tensor<2x2xf32>>>) -> tensor<!tf_type.resource<tensor<2x4xf32>>>
  func.return %0 : tensor<!tf_type.resource<tensor<2x4xf32>>>
}

// -----

// Outputs: all results move to the V2 op; no is_packed.

// CHECK-LABEL: func @output
func.func @output(%x: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 2 : i64} : () -> ()
  // CHECK: %[[PO:.*]]:2 = "tf.TPUPartitionedOutputV2"(%arg0) <{_XlaShardingV2 = "v2", partition_dims = [2, 1]}>
  %0:2 = "tf.TPUPartitionedOutput"(%x) {_XlaShardingV2 = "v2", partition_dim = 0 : i64, _tpu_replicate = "c"} : (tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  // CHECK: return %[[PO]]#1, %[[PO]]#0
  func.return %0#1, %0#0 : tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// Ops nested in regions are converted; the metadata may be nested too.

// CHECK-LABEL: func @nested
func.func @nested(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  // CHECK: tf_executor.island wraps "tf.TPUReplicateMetadata"
  // CHECK: "tf.TPUPartitionedInputV2"(%arg0, %arg1) <{is_packed = false, partition_dims = [2]}>
  // CHECK: "tf.TPUPartitionedOutputV2"
  // CHECK-SAME: partition_dims = []
  %0 = tf_executor.graph {
    %c = tf_executor.island wraps "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
    %1, %c1 = tf_executor.island wraps "tf.TPUPartitionedInput"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
    %2:2, %c2 = tf_executor.island wraps "tf.TPUPartitionedOutput"(%1) {partition_dim = -1 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    tf_executor.fetch %2#0 : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}

// -----

// Each function reads its own metadata; a function without partitioning ops
// is left alone.

// CHECK-LABEL: func @three_cores
// CHECK: partition_dims = [3]
func.func @three_cores(%a: tensor<1xf32>, %b: tensor<1xf32>, %c: tensor<1xf32>) -> tensor<3xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 3 : i64, num_replicas = 1 : i64} : () -> ()
  %0 = "tf.TPUPartitionedInput"(%a, %b, %c) : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// CHECK-LABEL: func @untouched
// CHECK: "tf.TPUReplicateMetadata"() <{num_cores_per_replica = 3 : i64, num_replicas = 1 : i64}>
// CHECK-NEXT: return
func.func @untouched() {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 3 : i64, num_replicas = 1 : i64} : () -> ()
  func.return
}
