// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-update-embedding-enqueue-op-inputs

// The second enqueue op of a layer in walk order (post-order: the nested one first).
func.func @duplicate_enqueue(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  "tf_device.launch"() ({
    "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "layer", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/device:CPU:0"} : () -> ()
  // expected-error @+1 {{'tf.EnqueueTPUEmbeddingRaggedTensorBatch' op found duplicate TPU embedding ops potentially from multiple TPUEmbedding layers}}
  "tf.EnqueueTPUEmbeddingRaggedTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "layer", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "layer", config = "c"} : () -> tensor<8x4xf32>
  func.return
}

// -----

func.func @duplicate_send(%g: tensor<8x4xf32>) {
  "tf.SendTPUEmbeddingGradients"(%g) {_tpu_embedding_layer = "layer", config = "c", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
  // expected-error @+1 {{'tf.SendTPUEmbeddingGradients' op found duplicate TPU embedding ops potentially from multiple TPUEmbedding layers}}
  "tf.SendTPUEmbeddingGradients"(%g) {_tpu_embedding_layer = "layer", config = "c", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
  func.return
}

// -----

// A receive op without an enqueue op.
// expected-error @+1 {{expects the number of embedding enqueue ops to match the number of 'tf.RecvTPUEmbeddingActivations' ops}}
func.func @recv_without_enqueue() {
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "layer", config = "c"} : () -> tensor<8x4xf32>
  func.return
}

// -----

func.func @no_recv_of_the_layer(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  // expected-error @+1 {{'tf.EnqueueTPUEmbeddingSparseTensorBatch' op must have a corresponding 'tf.RecvTPUEmbeddingActivations' op}}
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "layer", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "other", config = "c"} : () -> tensor<8x4xf32>
  func.return
}

// -----

// Several layers lack a receive op: the one reported comes first in the hash
// order of TF's llvm::StringMap ("beta", then "gamma", then "alpha").
func.func @first_in_hash_order(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "alpha", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  // expected-error @+1 {{'tf.EnqueueTPUEmbeddingRaggedTensorBatch' op must have a corresponding 'tf.RecvTPUEmbeddingActivations' op}}
  "tf.EnqueueTPUEmbeddingRaggedTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "beta", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "gamma", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "x", config = "c"} : () -> tensor<8x4xf32>
  %1 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "y", config = "c"} : () -> tensor<8x4xf32>
  %2 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "z", config = "c"} : () -> tensor<8x4xf32>
  func.return
}
