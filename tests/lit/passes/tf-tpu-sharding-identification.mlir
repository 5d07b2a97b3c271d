// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-sharding-identification | FileCheck %s

// With SPMD, inputs and outputs without a sharding are replicated (""): on
// the cluster_func and on the callee's arguments and results (other argument
// attributes kept).

// CHECK-LABEL: func.func @spmd_defaults
// CHECK: "tf_device.cluster_func"
// CHECK-SAME: input_sharding_configuration = ["", ""]
// CHECK-SAME: output_sharding_configuration = [""]
// CHECK: func.func private @spmd_defaults_body(%arg0: tensor<4xf32> {mhlo.sharding = ""}, %arg1: tensor<4xf32> {mhlo.is_same_data_across_replicas = true, mhlo.sharding = ""}) -> (tensor<4xf32> {mhlo.sharding = ""})
func.func @spmd_defaults(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf_device.cluster_func"(%arg0, %arg0) {func = @spmd_defaults_body, num_cores_per_replica = 1 : i64, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @spmd_defaults_body(%arg0: tensor<4xf32>, %arg1: tensor<4xf32> {mhlo.is_same_data_across_replicas = true}) -> tensor<4xf32> {
  %0 = "tf.AddV2"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// Without SPMD the default is logical core 0: the serialized MAXIMAL
// OpSharding on device 0. An XlaSharding after an Identity and a Cast gives
// the input's sharding; an op placed on TPU_REPLICATED_CORE:1 gives both its
// operand (an input) and its result (an output) core 1.

// CHECK-LABEL: func.func @mpmd
// CHECK: input_sharding_configuration = ["\08\01\1A\01\01\22\01\01", "{devices=[2,1]0,1}"]
// CHECK-SAME: output_sharding_configuration = ["\08\01\1A\01\01\22\01\01", "\08\01\1A\01\01\22\01\00"]
// CHECK-SAME: use_spmd_for_xla_partitioning = false
func.func @mpmd(%arg0: tensor<4x2xf32>) {
  %0:2 = "tf_device.cluster_func"(%arg0, %arg0) {func = @mpmd_body, num_cores_per_replica = 2 : i64, use_spmd_for_xla_partitioning = false} : (tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  func.return
}
func.func private @mpmd_body(%arg0: tensor<4x2xf32>, %arg1: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %0 = "tf.Identity"(%arg1) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = "tf.Cast"(%0) : (tensor<4x2xf32>) -> tensor<4x2xbf16>
  %2 = "tf.XlaSharding"(%1) {_XlaSharding = "{devices=[2,1]0,1}", sharding = "{devices=[2,1]0,1}"} : (tensor<4x2xbf16>) -> tensor<4x2xbf16>
  %3 = "tf.Neg"(%arg0) {device = "/device:TPU_REPLICATED_CORE:1"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  func.return %3, %arg0 : tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// A MAXIMAL sharding with SPMD falls back to MPMD: shardings are looked for
// again outside the function only, with core 0 as default.

// CHECK-LABEL: func.func @maximal_fallback
// CHECK: input_sharding_configuration = ["\08\01\1A\01\01\22\01\00"]
// CHECK-SAME: output_sharding_configuration = ["\08\01\1A\01\01\22\01\00"]
// CHECK-SAME: use_spmd_for_xla_partitioning = false
func.func @maximal_fallback(%arg0: tensor<4xf32>) {
  %0 = "tf_device.cluster_func"(%arg0) {func = @maximal_fallback_body, num_cores_per_replica = 2 : i64, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
func.func private @maximal_fallback_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.XlaSharding"(%arg0) {_XlaSharding = "{maximal device=1}", sharding = ""} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// Partitioned inputs and outputs with _XlaSharding give theirs (through a
// resource read and a resource write); an argument aliased to a result
// shares the result's sharding; returned values are followed through calls
// and element-wise ops.

// CHECK-LABEL: func.func @partitioned
// CHECK: input_sharding_configuration = ["\08\03\1A\02\02\01\22\02\00\01", "{devices=[1,2]0,1}"]
// CHECK-SAME: output_sharding_configuration = ["\08\03\1A\02\01\02\22\02\00\01", "{devices=[1,2]0,1}", "{replicated}"]
func.func @partitioned(%arg0: tensor<2x2xf32>, %arg1: tensor<2x2xf32>, %arg2: tensor<!tf_type.resource<tensor<2x2xf32>>>) {
  %0 = "tf.TPUPartitionedInputV2"(%arg0, %arg1) {_XlaSharding = "\08\03\1A\02\02\01\22\02\00\01", partition_dims = [2, 1], is_packed = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %1 = "tf.ReadVariableOp"(%arg2) : (tensor<!tf_type.resource<tensor<2x2xf32>>>) -> tensor<2x2xf32>
  %2:3 = "tf_device.cluster_func"(%0, %1) {func = @partitioned_body, num_cores_per_replica = 2 : i64, use_spmd_for_xla_partitioning = true} : (tensor<4x2xf32>, tensor<2x2xf32>) -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %3:2 = "tf.TPUPartitionedOutputV2"(%2#0) {_XlaSharding = "\08\03\1A\02\01\02\22\02\00\01", partition_dims = [1, 2]} : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  func.return
}
func.func private @partitioned_body(%arg0: tensor<4x2xf32>, %arg1: tensor<2x2xf32> {tf.aliasing_output = 1 : i64}) -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = "tf.OpT"(%arg0) : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %1 = "tf.XlaSharding"(%arg1) {_XlaSharding = "{devices=[1,2]0,1}", sharding = ""} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = "tf.StatefulPartitionedCall"(%arg1) {config = "", config_proto = "", executor_type = "", f = @partitioned_callee} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = "tf.AddV2"(%2, %arg1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0, %1, %3 : tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
func.func private @partitioned_callee(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "tf.Neg"(%arg0) {_XlaSharding = "{replicated}"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// Inputs are followed into while loops and called functions.

// CHECK-LABEL: func.func @while_and_call
// CHECK: input_sharding_configuration = ["{devices=[2]0,1}", "{devices=[2]1,0}"]
func.func @while_and_call(%arg0: tensor<4xf32>) {
  "tf_device.cluster_func"(%arg0, %arg0) {func = @while_and_call_body, num_cores_per_replica = 2 : i64, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  func.return
}
func.func private @while_and_call_body(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) {
  %0 = "tf.WhileRegion"(%arg0) ({
  ^bb0(%c: tensor<4xf32>):
    %p = "tf.OpP"(%c) : (tensor<4xf32>) -> tensor<i1>
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<4xf32>):
    %s = "tf.XlaSharding"(%b) {_XlaSharding = "{devices=[2]0,1}", sharding = ""} : (tensor<4xf32>) -> tensor<4xf32>
    "tf.Yield"(%s) : (tensor<4xf32>) -> ()
  }) {is_stateless = true} : (tensor<4xf32>) -> tensor<4xf32>
  "tf.PartitionedCall"(%arg1) {config = "", config_proto = "", executor_type = "", f = @while_and_call_callee} : (tensor<4xf32>) -> ()
  func.return
}
func.func private @while_and_call_callee(%arg0: tensor<4xf32>) {
  %0 = "tf.XlaSharding"(%arg0) {_XlaSharding = "{devices=[2]1,0}", sharding = ""} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// A sharding tiling more dimensions than its tensor has is reported at the
// partitioned op and makes the computation fall back to MPMD (the pass does
// not fail).

// CHECK-LABEL: func.func @rank_mismatch
// CHECK: input_sharding_configuration = ["\08\03\1A\02\02\01\22\02\00\01"]
// CHECK-SAME: use_spmd_for_xla_partitioning = false
func.func @rank_mismatch(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) {
  // expected-error@+1 {{tensor of type tensor<4xf32> (rank=1) sharded in 1 extra dimension(s) by: goo.gle/debugonly}}
  %0 = "tf.TPUPartitionedInputV2"(%arg0, %arg1) {_XlaSharding = "\08\03\1A\02\02\01\22\02\00\01", partition_dims = [2], is_packed = false} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  "tf_device.cluster_func"(%0) {func = @rank_mismatch_body, num_cores_per_replica = 2 : i64, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> ()
  func.return
}
func.func private @rank_mismatch_body(%arg0: tensor<4xf32>) {
  func.return
}
