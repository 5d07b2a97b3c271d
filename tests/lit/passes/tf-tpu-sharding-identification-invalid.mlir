// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-sharding-identification

func.func @no_num_cores(%arg0: tensor<4xf32>) {
  // expected-error@+1 {{'tf_device.cluster_func' op requires attribute 'num_cores_per_replica'}}
  "tf_device.cluster_func"(%arg0) {func = @no_num_cores_body} : (tensor<4xf32>) -> ()
  func.return
}
func.func private @no_num_cores_body(%arg0: tensor<4xf32>) {
  func.return
}

// -----

// _XlaShardingV2 must be the same sharding as _XlaSharding (iota and explicit
// device lists compare by their devices).

func.func @v2_differs(%arg0: tensor<4x2xf32>) {
  // expected-error@+1 {{'tf_device.cluster_func' op _XlaShardingV2 is not equivalent to _XlaSharding: {devices=[2,1]<=[2]} vs {devices=[2,1]1,0}}}
  "tf_device.cluster_func"(%arg0) {func = @v2_differs_body, num_cores_per_replica = 2 : i64} : (tensor<4x2xf32>) -> ()
  func.return
}
func.func private @v2_differs_body(%arg0: tensor<4x2xf32>) {
  %0 = "tf.XlaSharding"(%arg0) {_XlaSharding = "{devices=[2,1]1,0}", _XlaShardingV2 = "{devices=[2,1]<=[2]}", sharding = ""} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  func.return
}

// -----

// An argument aliased to a result with a different sharding.

func.func @alias_mismatch(%arg0: tensor<4xf32>) {
  // expected-error@+1 {{'tf_device.cluster_func' op arg#0 is aliased to retval#0 but their sharding configurations don't match.}}
  %0 = "tf_device.cluster_func"(%arg0) {func = @alias_mismatch_body, num_cores_per_replica = 2 : i64, use_spmd_for_xla_partitioning = true} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
func.func private @alias_mismatch_body(%arg0: tensor<4xf32> {tf.aliasing_output = 0 : i64}) -> tensor<4xf32> {
  %0 = "tf.XlaSharding"(%arg0) {_XlaSharding = "{devices=[2]0,1}", sharding = ""} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "tf.Neg"(%arg0) {_XlaSharding = "{devices=[2]1,0}"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

// A TPU_REPLICATED_CORE beyond num_cores_per_replica (TF reads out of
// bounds).

func.func @core_out_of_range(%arg0: tensor<4xf32>) {
  // expected-error@+1 {{'tf_device.cluster_func' op logical core 3 of '/device:TPU_REPLICATED_CORE:3' is not below num_cores_per_replica (2)}}
  "tf_device.cluster_func"(%arg0) {func = @core_out_of_range_body, num_cores_per_replica = 2 : i64} : (tensor<4xf32>) -> ()
  func.return
}
func.func private @core_out_of_range_body(%arg0: tensor<4xf32>) {
  %0 = "tf.Neg"(%arg0) {device = "/device:TPU_REPLICATED_CORE:3"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
