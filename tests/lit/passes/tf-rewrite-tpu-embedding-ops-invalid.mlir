// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-rewrite-tpu-embedding-ops

func.func @two_recvs_in_the_body() -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = "tf.RecvTPUEmbeddingActivations"() {config = "a"} : () -> tensor<8x4xf32>
  // expected-error @+1 {{should be unique within a function}}
  %1 = "tf.RecvTPUEmbeddingActivations"() {config = "b"} : () -> tensor<8x4xf32>
  func.return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

func.func @two_sends_in_a_cluster(%g: tensor<8x4xf32>) {
  "tf_device.cluster"() ({
    "tf.SendTPUEmbeddingGradients"(%g) {config = "a", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
    // expected-error @+1 {{should be unique within a function}}
    "tf.SendTPUEmbeddingGradients"(%g) {config = "a", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// Receive ops are checked before send ops.
func.func @two_sends_and_two_recvs(%g: tensor<8x4xf32>) {
  "tf.SendTPUEmbeddingGradients"(%g) {config = "a", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
  "tf.SendTPUEmbeddingGradients"(%g) {config = "a", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
  %0 = "tf.RecvTPUEmbeddingActivations"() {config = "a"} : () -> tensor<8x4xf32>
  // expected-error @+1 {{should be unique within a function}}
  %1 = "tf.RecvTPUEmbeddingActivations"() {config = "a"} : () -> tensor<8x4xf32>
  func.return
}

// -----

// The body is checked before nested regions, inner regions before outer ones.
func.func @inner_region_first(%p: tensor<i1>) {
  "tf_device.cluster"() ({
    "tf_device.cluster"() ({
      %0 = "tf.RecvTPUEmbeddingActivations"() {config = "a"} : () -> tensor<8x4xf32>
      // expected-error @+1 {{should be unique within a function}}
      %1 = "tf.RecvTPUEmbeddingActivations"() {config = "a"} : () -> tensor<8x4xf32>
      tf_device.return
    }) : () -> ()
    %2 = "tf.RecvTPUEmbeddingActivations"() {config = "a"} : () -> tensor<8x4xf32>
    %3 = "tf.RecvTPUEmbeddingActivations"() {config = "a"} : () -> tensor<8x4xf32>
    tf_device.return
  }) : () -> ()
  func.return
}
