// RUN: tfmlir-opt %s -tf-embedding-sequencing | FileCheck %s

// No tagged ops: unchanged (the only way the pass succeeds without TF's rewrite).

// CHECK-LABEL: func @untagged
// CHECK: "tf.Neg"(%arg0) {_embedding_pipelining_inline = true, _replication_info = "c0"}
func.func @untagged(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining_inline = true, _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
