// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-partitioned-op-conversion

func.func @rank_too_small(%x: tensor<6xf32>) -> tensor<3xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{cannot partition 'tensor<6xf32>' (rank = 1) along dimension 1.}}
  %0:2 = "tf.TPUPartitionedOutput"(%x) {partition_dim = 1 : i64} : (tensor<6xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  func.return %0#0 : tensor<3xf32>
}

// -----

func.func @scalar_resource(%a: tensor<!tf_type.resource<tensor<f32>>>, %b: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{cannot partition 'tensor<f32>' (rank = 0) along dimension 0.}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>>
  func.return %0 : tensor<!tf_type.resource<tensor<f32>>>
}

// -----

// Only the first operand's type counts.
func.func @unranked_first(%a: tensor<*xi32>, %b: tensor<2xi32>) -> tensor<*xi32> {
  // expected-error @+1 {{cannot convert op with unranked or non-tensor input type 'tensor<*xi32>'.}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = -1 : i64} : (tensor<*xi32>, tensor<2xi32>) -> tensor<*xi32>
  func.return %0 : tensor<*xi32>
}

// -----

func.func @unranked_resource(%x: tensor<!tf_type.resource<tensor<*xf32>>>) -> tensor<!tf_type.resource<tensor<*xf32>>> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{cannot convert op with unranked or non-tensor input type 'tensor<*xf32>'.}}
  %0:2 = "tf.TPUPartitionedOutput"(%x) {partition_dim = 0 : i64} : (tensor<!tf_type.resource<tensor<*xf32>>>) -> (tensor<!tf_type.resource<tensor<*xf32>>>, tensor<!tf_type.resource<tensor<*xf32>>>)
  func.return %0#0 : tensor<!tf_type.resource<tensor<*xf32>>>
}

// -----

// The first failing op in post-order: the nested one.
func.func @first_failure(%x: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  %0 = "tf.IfRegion"(%p) ({
    // expected-error @+1 {{cannot partition 'tensor<4xf32>' (rank = 1) along dimension 2.}}
    %1:2 = "tf.TPUPartitionedOutput"(%x) {partition_dim = 2 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    "tf.Yield"(%x) : (tensor<4xf32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<4xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<4xf32>
  %2:2 = "tf.TPUPartitionedOutput"(%x) {partition_dim = 3 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return %0 : tensor<4xf32>
}

// -----

// The created V2 op must have one operand per core (TF's verifier).
func.func @operand_count(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 4 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op expected 4 inputs, got 2}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// No metadata: the number of cores is unknown (TF fails without a message).
func.func @no_metadata(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{number of cores per replica is unknown (0 'tf.TPUReplicateMetadata' ops in the function}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @two_metadata(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{(2 'tf.TPUReplicateMetadata' ops in the function}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @metadata_without_cores(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{a 'tf.TPUReplicateMetadata' without num_cores_per_replica}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @tf_crash_negative_dim(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  "tf.TPUReplicateMetadata"() {num_cores_per_replica = 2 : i64, num_replicas = 1 : i64} : () -> ()
  // expected-error @+1 {{has partition_dim = -2, neither -1 nor a dimension}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = -2 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @tf_crash_resource_without_subtype(%a: tensor<!tf_type.resource>, %b: tensor<!tf_type.resource>) -> tensor<!tf_type.resource> {
  // expected-error @+1 {{has a resource operand without a subtype}}
  %0 = "tf.TPUPartitionedInput"(%a, %b) {partition_dim = -1 : i64} : (tensor<!tf_type.resource>, tensor<!tf_type.resource>) -> tensor<!tf_type.resource>
  func.return %0 : tensor<!tf_type.resource>
}

// -----

func.func @tf_crash_no_operands() -> tensor<4xf32> {
  // expected-error @+1 {{has no operands}}
  %0 = "tf.TPUPartitionedInput"() {partition_dim = -1 : i64} : () -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
