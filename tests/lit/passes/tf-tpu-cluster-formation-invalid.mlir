// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-cluster-formation
// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-cluster-formation=strict-clusters=true

// Each failure leaves the module unchanged. Messages are TF 2.21's.

func.func @metadata_without_replication_info() {
  // expected-error @+1 {{requires '_replication_info' string attribute}}
  "tf.TPUReplicateMetadata"() {_xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

func.func @metadata_with_empty_replication_info() {
  // expected-error @+1 {{requires '_replication_info' string attribute}}
  "tf.TPUReplicateMetadata"() {_replication_info = "", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

func.func @metadata_with_non_string_replication_info() {
  // expected-error @+1 {{requires '_replication_info' string attribute}}
  "tf.TPUReplicateMetadata"() {_replication_info = 3 : i64, _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

func.func @duplicate_metadata() {
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  // expected-error @+1 {{multiple TPUReplicateMetadata ops with the same '_replication_info' attribute 'comp' found}}
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2} : () -> ()
  func.return
}

// -----

// expected-error @+1 {{'func.func' op Expecting a single block function}}
func.func @two_blocks(%arg0: tensor<f32>) -> tensor<f32> {
  cf.br ^bb1
^bb1:
  func.return %arg0 : tensor<f32>
}

// -----

// A region without exactly one block, in a block without metadata.
func.func @empty_region() {
  // expected-error @+1 {{'tf.Unknown' op Expected single block region}}
  "tf.Unknown"() ({
  }) : () -> ()
  func.return
}

// -----

// expected-error @+1 {{found different '_xla_compile_device_type' attribute values (CPU,GPU) in same block which is not supported}}
func.func @mixed_device_types(%arg0: tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "a", _xla_compile_device_type = "GPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Neg"(%arg0) {_replication_info = "b", _xla_compile_device_type = "CPU"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Neg"(%arg0) {_replication_info = "b", _xla_compile_device_type = ""} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

func.func @replication_info_alone(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf.Neg' op is expected to have either both or none of '_replication_info' and '_xla_compile_device_type' attributes.}}
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

func.func @device_type_alone(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf.Neg' op is expected to have either both or none of '_replication_info' and '_xla_compile_device_type' attributes.}}
  %0 = "tf.Neg"(%arg0) {_xla_compile_device_type = "TPU", _replication_info = 1 : i64} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

func.func @empty_replication_info(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf.Neg' op has an empty '_replication_info' attribute.}}
  %0 = "tf.Neg"(%arg0) {_replication_info = "", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

func.func @invalid_device_type(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf.Neg' op has invalid '_xla_compile_device_type' value 'XLA_TPU'}}
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "XLA_TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

// Neither attribute a string: TF dereferences a null attribute; tfmlir fails.
func.func @non_string_attributes(%arg0: tensor<f32>) {
  // expected-error @+1 {{requires '_replication_info' string attribute}}
  %0 = "tf.Neg"(%arg0) {_replication_info = 1 : i64, _xla_compile_device_type = 2 : i64} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

// The error is at the cluster, which has the location of the last cluster op.
func.func @zero_replicas(%arg0: tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{requires 'num_replicas' int attribute to be at least 1}}
  %1 = "tf.Abs"(%0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 0} : () -> ()
  func.return
}

// -----

func.func @replicated_input_operands(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf.TPUReplicatedInput' op requires 2 operands}}
  %ri = "tf.TPUReplicatedInput"(%arg0, %arg0, %arg0) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = "tf.Neg"(%ri) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2} : () -> ()
  func.return
}

// -----

func.func @packed_input_operands(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf.TPUReplicatedInput' op requires 1 operands}}
  %ri = "tf.TPUReplicatedInput"(%arg0, %arg0) {is_packed = true} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = "tf.Neg"(%ri) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2} : () -> ()
  func.return
}

// -----

!rtype = tensor<!tf_type.resource<tensor<4xf32>>>
func.func @partitioned_input_operands(%arg0: !rtype, %arg1: !rtype) {
  %r0 = "tf.TPUReplicatedInput"(%arg0, %arg1) : (!rtype, !rtype) -> !rtype
  %r1 = "tf.TPUReplicatedInput"(%arg1, %arg0) : (!rtype, !rtype) -> !rtype
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op requires 4 operands but found 2}}
  %pi = "tf.TPUPartitionedInputV2"(%r0, %r1) {partition_dims = []} : (!rtype, !rtype) -> !rtype
  %0 = "tf.ReadVariableOp"(%pi) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (!rtype) -> tensor<4xf32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2, num_cores_per_replica = 4} : () -> ()
  func.return
}

// -----

func.func @replicated_output_results(%arg0: tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.TPUReplicatedOutput' op requires 2 results}}
  %ro:3 = "tf.TPUReplicatedOutput"(%0) : (tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2} : () -> ()
  func.return
}

// -----

// One replica of two reaches a TPUPartitionedOutputV2 (M is, as in TF, the
// number of partitioned cluster results).
func.func @partitioned_output_count(%arg0: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<4xi32>) -> tensor<4xi32>
  %ro:2 = "tf.TPUReplicatedOutput"(%0) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  // expected-error @+1 {{'tf.TPUPartitionedOutputV2' op expected zero or 2 'TPUPartitionedOutput' op(s), instead got 1}}
  %po:2 = "tf.TPUPartitionedOutputV2"(%ro#0) {partition_dims = []} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2, num_cores_per_replica = 2} : () -> ()
  func.return %po#0, %po#1, %ro#1 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// A replicated input used outside the cluster cannot go.
func.func @replicated_input_used_outside(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.TPUReplicatedInput' op is expected to have no uses, but it is operand#0 of "func.return"(%0) : (tensor<f32>) -> ()}}
  %ri = "tf.TPUReplicatedInput"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = "tf.Neg"(%ri) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2} : () -> ()
  func.return %ri : tensor<f32>
}

// -----

// A replicated output of a cluster that is not replicated.
func.func @replicated_output_unreplicated(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.TPUReplicatedOutput' op is expected to have no uses, but it is operand#0 of %2 = "tf.Abs"(%1#1) : (tensor<f32>) -> tensor<f32>}}
  %ro:2 = "tf.TPUReplicatedOutput"(%0) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %1 = "tf.Abs"(%ro#1) : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return %1 : tensor<f32>
}

// -----

// An op between the cluster ops that uses the cluster and that the cluster
// uses: TF warns and leaves it in front of the cluster, where its operand
// does not dominate it; tfmlir fails with TF's message.
func.func @data_cycle(%arg0: tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  // expected-error-re @+1 {{Op has cyclic dependency with a compilation cluster:{{.*}}}}
  %1 = "tf.Sin"(%0) : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Abs"(%1) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

// A launch inside the cluster would lose its (required) device.
func.func @launch_in_cluster(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {
  %0 = "tf.IfRegion"(%arg1) ({
    // expected-error @+1 {{'tf_device.launch' op requires attribute 'device'}}
    %1 = "tf_device.launch"() ({
      %2 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_device.return %2 : tensor<f32>
    }) {device = "/device:CPU:0"} : () -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%arg0) : (tensor<f32>) -> ()
  }) {_replication_info = "comp", _xla_compile_device_type = "TPU", is_stateless = true} : (tensor<i1>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return %0 : tensor<f32>
}

// -----

// Two partitioned results: TF would put the cluster after the first new
// TPUPartitionedOutputV2, which uses it.
func.func @two_partitioned_results(%arg0: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %a = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<4xi32>) -> tensor<4xi32>
  // expected-error @+1 {{more than one partitioned cluster result}}
  %b = "tf.Abs"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<4xi32>) -> tensor<4xi32>
  %ra:2 = "tf.TPUReplicatedOutput"(%a) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %rb:2 = "tf.TPUReplicatedOutput"(%b) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %p0:2 = "tf.TPUPartitionedOutputV2"(%ra#0) {partition_dims = []} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %p1:2 = "tf.TPUPartitionedOutputV2"(%ra#1) {partition_dims = []} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %p2:2 = "tf.TPUPartitionedOutputV2"(%rb#0) {partition_dims = []} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %p3:2 = "tf.TPUPartitionedOutputV2"(%rb#1) {partition_dims = []} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2, num_cores_per_replica = 2} : () -> ()
  func.return %p0#0, %p0#1, %p1#0, %p1#1, %p2#0, %p2#1, %p3#0, %p3#1 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
