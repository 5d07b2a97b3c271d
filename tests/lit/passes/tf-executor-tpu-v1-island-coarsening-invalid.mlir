// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-executor-tpu-v1-island-coarsening

// A host op between two ops of a cluster, using the first and feeding the
// second: merging would create a cycle.

func.func @cycle(%arg0: tensor<f32>) {
  // expected-error @+1 {{Merging island failed: the TPU cluster likely contains a cycle with non-TPU operations or has unsupported ops}}
  tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Neg"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %h, %hc = tf_executor.island wraps "tf.Exp"(%a) : (tensor<f32>) -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.Abs"(%h) {_replication_info = "c", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// A replicated input without a cluster feeding two clusters.

func.func @input_for_two_clusters(%arg0: tensor<f32>) {
  // expected-error @+1 {{Collect special Tpu ops failed: Graph contains op with inconsistent cluster info}}
  tf_executor.graph {
    %ri, %ric = tf_executor.island wraps "tf.TPUReplicatedInput"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %a, %ac = tf_executor.island wraps "tf.Neg"(%ri) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.Neg"(%ri) {_replication_info = "b", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// An Identity used by two clusters (found from the second one's inputs) fails
// too, even though it is also an output of the first.

func.func private @fine(%arg0: tensor<f32>) {
  tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Neg"(%arg0) {_xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.Neg"(%a) {_xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

func.func @identity_for_two_clusters(%arg0: tensor<f32>) {
  // expected-error @+1 {{Collect special Tpu ops failed}}
  tf_executor.graph {
    %i, %ic = tf_executor.island wraps "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.Neg"(%i) {_replication_info = "b", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %a, %ac = tf_executor.island wraps "tf.Neg"(%i) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// A replicated input comes into the cluster, but a host op before the cluster
// also uses it: merging breaks dominance (TF fails verifying its output; the
// error is at the use).

func.func @special_input_used_before(%arg0: tensor<f32>) {
  tf_executor.graph {
    %ri, %ric = tf_executor.island wraps "tf.TPUReplicatedInput"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %h, %hc = tf_executor.island wraps "tf.Exp"(%ri) : (tensor<f32>) -> tensor<f32>
    %a, %ac = tf_executor.island wraps "tf.Neg"(%ri) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.Neg"(%h) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// The first cluster island depends on the control token of a replicated input
// merged with it.

func.func @own_control_token(%arg0: tensor<f32>) {
  tf_executor.graph {
    %ri, %ric = tf_executor.island wraps "tf.TPUReplicatedInput"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %a, %ac = tf_executor.island(%ric) wraps "tf.Neg"(%ri) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}
