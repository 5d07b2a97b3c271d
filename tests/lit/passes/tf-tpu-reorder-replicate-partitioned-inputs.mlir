// RUN: tfmlir-opt %s -split-input-file -tf-tpu-reorder-replicate-partitioned-inputs | FileCheck %s

// Two replicas of two cores: replicated inputs per core, then one partitioned
// input; the attributes of the old ops move to the new ones.

// CHECK-LABEL: func @two_by_two
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<2xf32>, %[[D:.*]]: tensor<2xf32>)
func.func @two_by_two(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>, %d: tensor<2xf32>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 2 : i64} : () -> ()
  // CHECK: %[[R0:.*]] = "tf.TPUReplicatedInput"(%[[A]], %[[C]]) <{index = 3 : i64, is_mirrored_variable = true, is_packed = false}> {_tpu_replicate = "c"}
  // CHECK: %[[R1:.*]] = "tf.TPUReplicatedInput"(%[[B]], %[[D]]) <{index = 3 : i64, is_mirrored_variable = true, is_packed = false}> {_tpu_replicate = "c"}
  // CHECK: %[[P:.*]] = "tf.TPUPartitionedInputV2"(%[[R0]], %[[R1]]) <{_XlaSharding = "s", is_packed = false, partition_dims = [2]}> {device = "/device:CPU:0"}
  // CHECK-NOT: tf.TPUPartitionedInputV2
  %0 = "tf.TPUPartitionedInputV2"(%a, %b) {_XlaSharding = "s", partition_dims = [2], device = "/device:CPU:0"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %1 = "tf.TPUPartitionedInputV2"(%c, %d) {_XlaSharding = "s", partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %2 = "tf.TPUReplicatedInput"(%0, %1) {index = 3 : i64, is_mirrored_variable = true, _tpu_replicate = "c"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: return %[[P]]
  func.return %2 : tensor<4xf32>
}

// -----

// Without metadata the number of cores is the first op's operand count
// (here three cores, one replica).

// CHECK-LABEL: func @no_metadata
func.func @no_metadata(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> tensor<6xf32> {
  // CHECK: %[[R0:.*]] = "tf.TPUReplicatedInput"(%arg0)
  // CHECK: %[[R1:.*]] = "tf.TPUReplicatedInput"(%arg1)
  // CHECK: %[[R2:.*]] = "tf.TPUReplicatedInput"(%arg2)
  // CHECK: "tf.TPUPartitionedInputV2"(%[[R0]], %[[R1]], %[[R2]])
  %0 = "tf.TPUPartitionedInputV2"(%a, %b, %c) {partition_dims = [3]} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<6xf32>
  %1 = "tf.TPUReplicatedInput"(%0) : (tensor<6xf32>) -> tensor<6xf32>
  func.return %1 : tensor<6xf32>
}

// -----

// Packed: the same resource in every replica is passed once per core and
// marked packed; different resources are not.

// CHECK-LABEL: func @packed
func.func @packed(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %w: tensor<!tf_type.resource<tensor<4xf32>>>) -> (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 3 : i64} : () -> ()
  // CHECK: %[[S0:.*]] = "tf.TPUReplicatedInput"(%arg0) <{is_packed = true}>
  // CHECK: %[[S1:.*]] = "tf.TPUReplicatedInput"(%arg0) <{is_packed = true}>
  // CHECK: %[[SP:.*]] = "tf.TPUPartitionedInputV2"(%[[S0]], %[[S1]]) <{is_packed = false, partition_dims = []}>
  %0 = "tf.TPUPartitionedInputV2"(%v) {partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.TPUReplicatedInput"(%0, %0, %0) {is_packed = false} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  // CHECK: %[[M0:.*]] = "tf.TPUReplicatedInput"(%arg0, %arg1, %arg0) <{is_packed = false}>
  // CHECK: %[[M1:.*]] = "tf.TPUReplicatedInput"(%arg0, %arg1, %arg0) <{is_packed = false}>
  // CHECK: %[[MP:.*]] = "tf.TPUPartitionedInputV2"(%[[M0]], %[[M1]])
  %2 = "tf.TPUPartitionedInputV2"(%v) {partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %3 = "tf.TPUPartitionedInputV2"(%w) {partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %4 = "tf.TPUReplicatedInput"(%2, %3, %0) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  // CHECK: return %[[SP]], %[[MP]]
  func.return %1, %4 : tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>
}

// -----

// Unused partitioned inputs are erased, also ones unused before the pass;
// used ones and replicated inputs of other values stay.

// CHECK-LABEL: func @cleanup
func.func @cleanup(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
  // CHECK-NEXT: %[[KEEP:.*]] = "tf.TPUPartitionedInputV2"(%arg0, %arg1)
  // CHECK-NEXT: %[[R:.*]] = "tf.TPUReplicatedInput"(%arg0, %arg1)
  // CHECK-NEXT: return %[[KEEP]], %[[R]]
  %0 = "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %1 = "tf.TPUPartitionedInputV2"(%b, %a) {partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %2 = "tf.TPUReplicatedInput"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0, %2 : tensor<4xf32>, tensor<2xf32>
}

// -----

// In tf_executor form the operands come from islands: nothing changes.

// CHECK-LABEL: func @islands
func.func @islands(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  // CHECK: tf_executor.island wraps "tf.TPUPartitionedInputV2"
  // CHECK: tf_executor.island wraps "tf.TPUReplicatedInput"
  %0 = tf_executor.graph {
    %1, %c1 = tf_executor.island wraps "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
    %2, %c2 = tf_executor.island wraps "tf.TPUReplicatedInput"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    tf_executor.fetch %2 : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}

// -----

// Ops inside regions are rewritten; only the metadata of the replicated
// input's own block counts (none here: three operands give three cores).

// CHECK-LABEL: func @nested
func.func @nested(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>, %p: tensor<i1>) -> tensor<6xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // CHECK: "tf.IfRegion"
  // CHECK: "tf.TPUReplicatedInput"(%arg0)
  // CHECK: "tf.TPUReplicatedInput"(%arg1)
  // CHECK: "tf.TPUReplicatedInput"(%arg2)
  // CHECK: "tf.TPUPartitionedInputV2"
  %0 = "tf.IfRegion"(%p) ({
    %1 = "tf.TPUPartitionedInputV2"(%a, %b, %c) {partition_dims = [3]} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<6xf32>
    %2 = "tf.TPUReplicatedInput"(%1) : (tensor<6xf32>) -> tensor<6xf32>
    "tf.Yield"(%2) : (tensor<6xf32>) -> ()
  }, {
    %3 = "tf.Const"() {value = dense<0.0> : tensor<6xf32>} : () -> tensor<6xf32>
    "tf.Yield"(%3) : (tensor<6xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<6xf32>
  func.return %0 : tensor<6xf32>
}
