// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-validate-session-inputs | FileCheck %s

// Warnings only; the IR is unchanged and the pass never fails, not even on
// what tf-tpu-validate-inputs refuses.

// CHECK-LABEL: func @infeed
// CHECK-COUNT-3: "tf.InfeedDequeueTuple"
func.func @infeed() -> () {
  // expected-warning @+1 {{TPU_REPLICATED_CORE:0 device is not supported for op = tf.InfeedDequeueTuple in TF2XLA MLIR Bridge}}
  %0 = "tf.InfeedDequeueTuple"() {device = "/job:worker/replica:0/task:0/device:TPU_REPLICATED_CORE:0"} : () -> tensor<f32>
  // Other cores, or no device: nothing.
  %1 = "tf.InfeedDequeueTuple"() {device = "/device:TPU_REPLICATED_CORE:1"} : () -> tensor<f32>
  %2 = "tf.InfeedDequeueTuple"() : () -> tensor<f32>
  // Not TF's input check: strings without soft placement, an input count.
  "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 2 : i64} : () -> ()
  %3 = "tf.TPUReplicatedInput"(%0) : (tensor<f32>) -> tensor<f32>
  %4 = "tf.AsString"(%3) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<!tf_type.string>
  func.return
}

// -----

// v1 control flow: one warning per graph, at its first op that is not an island.

// CHECK-LABEL: func @v1_control_flow
func.func @v1_control_flow(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  %r = tf_executor.graph {
    %x, %c0 = tf_executor.island wraps "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
    // expected-warning @+1 {{is v1 control flow op which is not supported in TF2XLA MLIR Bridge.}}
    %t, %f, %c1 = tf_executor.Switch %x, %p : tensor<f32>
    %m, %i, %c2 = tf_executor.Merge %t, %f : tensor<f32>
    tf_executor.fetch %m : tensor<f32>
  }
  %s = tf_executor.graph {
    %x, %c0 = tf_executor.island wraps "tf.Neg"(%r) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %x : tensor<f32>
  }
  func.return %s : tensor<f32>
}
