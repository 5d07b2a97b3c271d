// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-validate-inputs | FileCheck %s

// A well-formed replicated program: nothing to report, the IR is unchanged.

// CHECK-LABEL: func @replicated
// CHECK: "tf.TPUReplicatedInput"
// CHECK: "tf.AddV2"{{.*}}_tpu_replicate = "c0"
// CHECK: "tf.TPUReplicatedOutput"
func.func @replicated(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r:2 = tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 2 : i64, num_cores_per_replica = 1 : i64} : () -> ()
    %in, %c1 = tf_executor.island wraps "tf.TPUReplicatedInput"(%a, %b) {is_packed = false} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %x, %c2 = tf_executor.island wraps "tf.AddV2"(%in, %in) {_tpu_replicate = "c0"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %out:2, %c3 = tf_executor.island wraps "tf.TPUReplicatedOutput"(%x) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    tf_executor.fetch %out#0, %out#1 : tensor<f32>, tensor<f32>
  }
  func.return %r#0, %r#1 : tensor<f32>, tensor<f32>
}

// -----

// An op of the cluster feeding an op outside it: a warning only (TF keeps it so).

// CHECK-LABEL: func @leaves_cluster
func.func @leaves_cluster(%a: tensor<f32>) -> tensor<f32> {
  %r = tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 1 : i64} : () -> ()
    %x, %c1 = tf_executor.island wraps "tf.Neg"(%a) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    // expected-warning @+1 {{TF2XLA TPU bridge input check: cluster op = tf.Neg with cluster = c0 has successor as non cluster op tf.Abs}}
    %y, %c2 = tf_executor.island wraps "tf.Abs"(%x) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %y : tensor<f32>
  }
  func.return %r : tensor<f32>
}

// -----

// A string in a cluster that allows soft placement is fine; on a TPU device
// it is not, but a tf.Identity only gets a warning.

// CHECK-LABEL: func @identity_string
func.func @identity_string(%s: tensor<!tf_type.string>) -> tensor<!tf_type.string> {
  %r = tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 1 : i64, allow_soft_placement = true} : () -> ()
    %x, %c1 = tf_executor.island wraps "tf.Identity"(%s) {_tpu_replicate = "c0"} : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
    // expected-warning @+1 {{TF/XLA TPU bridge input check: found invalid op. tf.Identity can't be both xla and non-xla}}
    %y, %c2 = tf_executor.island wraps "tf.Identity"(%x) {_tpu_replicate = "c0", device = "/device:TPU:0"} : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
    tf_executor.fetch %y : tensor<!tf_type.string>
  }
  func.return %r : tensor<!tf_type.string>
}

// -----

// Resources, string references and strings outside clusters are valid; so
// are the ops TF exempts (tf.Const) and outside-compiled ops.

// CHECK-LABEL: func @not_invalid
func.func @not_invalid(%r: tensor<!tf_type.resource<tensor<f32>>>, %s: tensor<!tf_type.stringref>) -> () {
  tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 1 : i64} : () -> ()
    %v, %c1 = tf_executor.island wraps "tf.ReadVariableOp"(%r) {_tpu_replicate = "c0"} : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %w, %c2 = tf_executor.island wraps "tf.Identity"(%s) {_tpu_replicate = "c0"} : (tensor<!tf_type.stringref>) -> tensor<!tf_type.stringref>
    %k, %c3 = tf_executor.island wraps "tf.Const"() {_tpu_replicate = "c0", value = dense<"x"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
    %n, %c4 = tf_executor.island wraps "tf.StringToNumber"(%k) {_tpu_replicate = "c0", _xla_outside_compilation = "0", out_type = f32} : (tensor<!tf_type.string>) -> tensor<f32>
    // expected-warning @+1 {{cluster op = tf.Const with cluster = c0 has successor as non cluster op tf.StringToNumber}}
    %t, %c5 = tf_executor.island wraps "tf.StringToNumber"(%k) {out_type = f32} : (tensor<!tf_type.string>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Infeed on replicated core 0, and v1 control flow in a graph: warnings.

// CHECK-LABEL: func @warnings
func.func @warnings(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  %r = tf_executor.graph {
    // expected-warning @+1 {{TPU_REPLICATED_CORE:0 device is not supported for op = tf.InfeedDequeueTuple in TF2XLA MLIR Bridge}}
    %x, %c0 = tf_executor.island wraps "tf.InfeedDequeueTuple"() {device = "/device:TPU_REPLICATED_CORE:0"} : () -> tensor<f32>
    // expected-warning @+1 {{is v1 control flow op which is not supported in TF2XLA MLIR Bridge.}}
    %t, %f, %c1 = tf_executor.Switch %a, %p : tensor<f32>
    %m, %i, %c2 = tf_executor.Merge %t, %f : tensor<f32>
    tf_executor.fetch %m : tensor<f32>
  }
  func.return %r : tensor<f32>
}
