// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-resource-partition

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @packed_write_without_cores(%v: tensor<!tf_type.resource<tensor<4xf32>>>) {
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op num cores per replica unavailable}}
  %0 = "tf.TPUPartitionedInputV2"(%v) {_XlaSharding = "", partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf_device.cluster_func"(%v) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%0, %1) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @write_operand_count(%v: tensor<!tf_type.resource<tensor<4xf32>>>) {
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op expects 4 operands but found 2}}
  %0 = "tf.TPUPartitionedInputV2"(%v, %v) {_XlaSharding = "", partition_dims = [2]} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf_device.cluster_func"(%v) {func = @step, use_spmd_for_xla_partitioning = true, num_cores_per_replica = 4 : i64} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%0, %1) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

// A MAXIMAL sharding (type 1).
func.func @host_reader_maximal(%v0: tensor<!tf_type.resource<tensor<4xf32>>>, %v1: tensor<!tf_type.resource<tensor<4xf32>>>) {
  // expected-error @+1 {{'tf.TPUPartitionedInputV2' op TPUPartitionedInputV2 variable used in outside compiled code is only supported with REPLICATED sharding}}
  %0 = "tf.TPUPartitionedInputV2"(%v0, %v1) {_XlaSharding = "\08\01\1A\01\01\22\01\00", partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf.Identity"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

// Handles on a COMPOSITE device count as packed (the defining op's device).
func.func @host_reader_composite() {
  %v = "tf.VarHandleOp"() {container = "", shared_name = "v", device = "/job:localhost/replica:0/task:0/device:COMPOSITE:0"} : () -> tensor<!tf_type.resource<tensor<4xf32>>>
  // expected-error @+1 {{only supported with UNPACKED ops (wrap value in tf.identity ordisable packing in TPUStrategy)}}
  %0 = "tf.TPUPartitionedInputV2"(%v, %v) {_XlaSharding = "", partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "tf.Identity"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @host_reader_packed(%v: tensor<!tf_type.resource<tensor<4xf32>>>) {
  // expected-error @+1 {{only supported with UNPACKED ops}}
  %0 = "tf.TPUPartitionedInputV2"(%v) {_XlaSharding = "", partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "tf.Identity"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @singleton_with_more_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{Expected 2 ops in parallel_execute.}}
  %0 = "tf_device.parallel_execute"() ({
    %1 = "tf.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.return %2 : tensor<4xf32>
  }) : () -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @tf_crash_read_without_sharding(%v: tensor<!tf_type.resource<tensor<4xf32>>>) {
  // expected-error @+1 {{has no _XlaSharding}}
  %0 = "tf.TPUPartitionedInputV2"(%v, %v) {partition_dims = []} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @tf_crash_not_a_resource(%x: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 is not a resource}}
  %0 = "tf.TPUPartitionedInputV2"(%x) {_XlaSharding = "", partition_dims = []} : (tensor<4xf32>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  %2 = "tf_device.cluster_func"(%1) {func = @step, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @tf_crash_negative_cores(%v: tensor<!tf_type.resource<tensor<4xf32>>>) {
  %0 = "tf.TPUPartitionedInputV2"(%v) {_XlaSharding = "", partition_dims = [], is_packed = true} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<!tf_type.resource<tensor<4xf32>>>
  // expected-error @+1 {{has num_cores_per_replica = -2 for a packed variable}}
  %1 = "tf_device.cluster_func"(%v) {func = @step, use_spmd_for_xla_partitioning = true, num_cores_per_replica = -2 : i64} : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%0, %1) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
  func.return
}
