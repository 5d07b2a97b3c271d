// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-reorder-replicate-partitioned-inputs

func.func @mixed(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'tf.TPUReplicatedInput' op expects all inputs from 'tf.TPUPartitionedInputV2' ops}}
  %1 = "tf.TPUReplicatedInput"(%c, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

func.func @packed_without_metadata(%v: tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>> {
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op num cores per replica unavailable, metadata missing?}}
  %0 = "tf.TPUPartitionedInputV2"(%v) {partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.TPUReplicatedInput"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  func.return %1 : tensor<!tf_type.resource<tensor<4xf32>>>
}

// -----

func.func @first_operand_count(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 4 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op expects 4 operands but found 2}}
  %0 = "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %1 = "tf.TPUReplicatedInput"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

// Not partitioned (replicated to each core), with more operands than cores.
func.func @replicated_operand_count(%v: tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op expects 2 operands but found 3}}
  %0 = "tf.TPUPartitionedInputV2"(%v, %v, %v) {partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.TPUReplicatedInput"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  func.return %1 : tensor<!tf_type.resource<tensor<4xf32>>>
}

// -----

func.func @dims_differ(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<4x2xf32> {
  %0 = "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = [2, 1]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op expects partition_dims = [2, 1] but found [1, 2]}}
  %1 = "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = [1, 2]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %2 = "tf.TPUReplicatedInput"(%0, %1) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  func.return %2 : tensor<4x2xf32>
}

// -----

func.func @packing_differs(%v: tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 1 : i64, num_replicas = 2 : i64} : () -> ()
  %0 = "tf.TPUPartitionedInputV2"(%v) {partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op packing should match across ops}}
  %1 = "tf.TPUPartitionedInputV2"(%v) {partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %2 = "tf.TPUReplicatedInput"(%0, %1) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  func.return %2 : tensor<!tf_type.resource<tensor<4xf32>>>
}

// -----

func.func @later_operand_count(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = []} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op expects 2 operands but found 1}}
  %1 = "tf.TPUPartitionedInputV2"(%a) {partition_dims = []} : (tensor<2xf32>) -> tensor<4xf32>
  %2 = "tf.TPUReplicatedInput"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

// An absent sharding differs from an empty one.
func.func @sharding_absent_vs_empty(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "tf.TPUPartitionedInputV2"(%a, %b) {partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %1 = "tf.TPUPartitionedInputV2"(%b, %a) {_XlaSharding = "", partition_dims = [2]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'tf.TPUReplicatedInput' op expects all inputs from 'tf.TPUPartitionedInputV2' ops to have identical XLA sharding}}
  %2 = "tf.TPUReplicatedInput"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

// Packed inputs partitioned in two, with three cores: the new op does not
// verify (TF's verifier).
func.func @created_op_does_not_verify(%v: tensor<4xf32>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 3 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op expected 2 inputs, got 3}}
  %0 = "tf.TPUPartitionedInputV2"(%v) {partition_dims = [2], is_packed = true} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "tf.TPUReplicatedInput"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

func.func @tf_crash_negative_cores(%v: tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>> {
  // expected-error @+1 {{has num_cores_per_replica = -1 for packed inputs}}
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = -1 : i64, num_replicas = 1 : i64} : () -> ()
  %0 = "tf.TPUPartitionedInputV2"(%v) {partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.TPUReplicatedInput"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  func.return %1 : tensor<!tf_type.resource<tensor<4xf32>>>
}
