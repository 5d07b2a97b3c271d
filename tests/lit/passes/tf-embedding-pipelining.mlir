// RUN: tfmlir-opt %s -split-input-file -tf-embedding-pipelining | FileCheck %s

// No tagged ops: unchanged.

// CHECK-LABEL: func @untagged
// CHECK: "tf.Neg"(%arg0) {_replication_info = "c0"}
func.func @untagged(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Sequencing asked for: forward/backward tags go, sequential ones stay for
// tf-embedding-sequencing; nothing else is checked.

// CHECK-LABEL: func @sequencing_requested
// CHECK: "tf.Neg"(%arg0) {_replication_info = "c0"}
// CHECK: "tf.Abs"({{.*}}) {_embedding_pipelining = "forward_sequential", _replication_info = "c1"}
// CHECK: "tf.Sqrt"({{.*}}) {_replication_info = "c2"}
// CHECK: "tf.Exp"({{.*}}) {_embedding_pipelining = "backward_sequential"}
func.func @sequencing_requested(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "forward_sequential", _replication_info = "c1"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Sqrt"(%1) {_embedding_pipelining = "backward", _replication_info = "c2"} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.Exp"(%2) {_embedding_pipelining = "backward_sequential"} : (tensor<f32>) -> tensor<f32>
  func.return %3 : tensor<f32>
}

// -----

// With summaries, pipelining is off: even bad tags stay as they are.

// CHECK-LABEL: func @summaries
// CHECK: _embedding_pipelining = "forward"
// CHECK: _embedding_pipelining = "sideways"
func.func @summaries(%a: tensor<f32>, %w: tensor<!tf_type.resource>, %s: tensor<!tf_type.string>, %t: tensor<i64>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "sideways"} : (tensor<f32>) -> tensor<f32>
  "tf.WriteSummary"(%w, %t, %1, %s, %s) : (tensor<!tf_type.resource>, tensor<i64>, tensor<f32>, tensor<!tf_type.string>, tensor<!tf_type.string>) -> ()
  func.return %1 : tensor<f32>
}
