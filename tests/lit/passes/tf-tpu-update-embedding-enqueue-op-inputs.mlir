// RUN: tfmlir-opt %s -split-input-file -tf-tpu-update-embedding-enqueue-op-inputs | FileCheck %s

// Without a send op the layer is in inference mode; the old mode value stays.
// CHECK-LABEL: func @inference_mode
func.func @inference_mode(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[OLD:.*]] = "tf.Identity"(%arg2)
  // CHECK-NEXT: %[[MODE:.*]] = "tf.Const"() <{value = dense<"inference"> : tensor<!tf_type.string>}> : () -> tensor<!tf_type.string>
  // CHECK-NEXT: "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%arg0, %arg0, %arg1, %[[MODE]])
  // CHECK-NOT: _tpu_embedding_layer
  // CHECK-SAME: -> ()
  // CHECK-NEXT: "tf.RecvTPUEmbeddingActivations"() <{config = "c"}> : () -> tensor<8x4xf32>
  %m = "tf.Identity"(%mode) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %m) {_tpu_embedding_layer = "layer", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "layer", config = "c"} : () -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}

// -----

// A send op of the layer means training; the const is outside compiled like the enqueue op.
// CHECK-LABEL: func @training_mode
func.func @training_mode(%splits: tensor<?xi32>, %ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  // CHECK:      "tf.SendTPUEmbeddingGradients"
  // CHECK-NOT:  _tpu_embedding_layer
  // CHECK-SAME: -> ()
  // CHECK-NEXT: %[[MODE:.*]] = "tf.Const"() <{value = dense<"train"> : tensor<!tf_type.string>}> {_xla_outside_compilation = "host"}
  // CHECK-NEXT: "tf.EnqueueTPUEmbeddingRaggedTensorBatch"(%arg0, %arg1, %arg2, %[[MODE]]) <{{.*}}> {_xla_outside_compilation = "host"}
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "layer", config = "c"} : () -> tensor<8x4xf32>
  "tf.SendTPUEmbeddingGradients"(%0) {_tpu_embedding_layer = "layer", config = "c", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
  "tf.EnqueueTPUEmbeddingRaggedTensorBatch"(%splits, %ids, %w, %mode) {_tpu_embedding_layer = "layer", _xla_outside_compilation = "host", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  func.return
}

// -----

// Two layers, one training and one inference, with ops in nested regions.
// CHECK-LABEL: func @two_layers_nested
func.func @two_layers_nested(%ids: tensor<?xi64>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  // CHECK:      "tf_device.cluster"
  // CHECK-NEXT:   %[[RECV:.*]] = "tf.RecvTPUEmbeddingActivations"() <{config = "a"}>
  // CHECK-NEXT:   "tf.SendTPUEmbeddingGradients"(%[[RECV]])
  // CHECK-NEXT:   "tf.RecvTPUEmbeddingActivations"() <{config = "b"}>
  // CHECK:      "tf_device.launch"
  // CHECK-NEXT:   %[[TRAIN:.*]] = "tf.Const"() <{value = dense<"train">
  // CHECK-NEXT:   "tf.EnqueueTPUEmbeddingArbitraryTensorBatch"(%arg0, %arg0, %arg1, %[[TRAIN]])
  // CHECK-NEXT:   "tf.Cast"
  // CHECK-NEXT:   %[[INFER:.*]] = "tf.Const"() <{value = dense<"inference">
  // CHECK-NEXT:   "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%{{.*}}, %{{.*}}, %arg1, %[[INFER]])
  "tf_device.cluster"() ({
    %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "a", config = "a"} : () -> tensor<8x4xf32>
    "tf.SendTPUEmbeddingGradients"(%0) {_tpu_embedding_layer = "a", config = "a", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
    %1 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "b", config = "b"} : () -> tensor<8x4xf32>
    tf_device.return
  }) : () -> ()
  "tf_device.launch"() ({
    "tf.EnqueueTPUEmbeddingArbitraryTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "a"} : (tensor<?xi64>, tensor<?xi64>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
    %i = "tf.Cast"(%ids) : (tensor<?xi64>) -> tensor<?xi32>
    "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%i, %i, %w, %mode) {_tpu_embedding_layer = "b", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/device:CPU:0"} : () -> ()
  func.return
}

// -----

// A send op of another layer does not make this one training; a send op with no
// enqueue op still loses its tag.
// CHECK-LABEL: func @send_of_another_layer
func.func @send_of_another_layer(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  // CHECK:      %[[RECV:.*]] = "tf.RecvTPUEmbeddingActivations"() <{config = "c"}> : ()
  // CHECK-NEXT: "tf.SendTPUEmbeddingGradients"(%[[RECV]]) <{config = "c", operandSegmentSizes = array<i32: 1, 0>}> : (tensor<8x4xf32>) -> ()
  // CHECK-NEXT: "tf.Const"() <{value = dense<"inference">
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "layer", config = "c"} : () -> tensor<8x4xf32>
  "tf.SendTPUEmbeddingGradients"(%0) {_tpu_embedding_layer = "other", config = "c", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "layer", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  func.return
}

// -----

// Tags that are not strings, and tags on other ops, are not TPU embedding
// layers: they stay, and the enqueue op keeps its mode. An outside compilation
// attribute that is not a string is not copied.
// CHECK-LABEL: func @not_layers
func.func @not_layers(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  // CHECK-NEXT: "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%arg0, %arg0, %arg1, %arg2) <{{.*}}> {_tpu_embedding_layer = 1 : i64}
  // CHECK-NEXT: "tf.Identity"(%arg2) {_tpu_embedding_layer = "layer"}
  // CHECK-NEXT: %[[MODE:.*]] = "tf.Const"() <{value = dense<"inference"> : tensor<!tf_type.string>}> : () -> tensor<!tf_type.string>
  // CHECK-NEXT: "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%arg0, %arg0, %arg1, %[[MODE]]) <{{.*}}> {_xla_outside_compilation = 3 : i64}
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = 1 : i64, table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  %i = "tf.Identity"(%mode) {_tpu_embedding_layer = "layer"} : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "layer", _xla_outside_compilation = 3 : i64, table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  %0 = "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "layer", config = "c"} : () -> tensor<8x4xf32>
  func.return
}

// -----

// Enqueue ops inside islands of a graph.
// CHECK-LABEL: func @in_islands
func.func @in_islands(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  // CHECK:      tf_executor.island {
  // CHECK-NEXT:   %[[MODE:.*]] = "tf.Const"() <{value = dense<"train">
  // CHECK-NEXT:   "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%arg0, %arg0, %arg1, %[[MODE]])
  tf_executor.graph {
    %c0 = tf_executor.island wraps "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {_tpu_embedding_layer = "layer", table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
    %r, %c1 = tf_executor.island wraps "tf.RecvTPUEmbeddingActivations"() {_tpu_embedding_layer = "layer", config = "c"} : () -> tensor<8x4xf32>
    %c2 = tf_executor.island wraps "tf.SendTPUEmbeddingGradients"(%r) {_tpu_embedding_layer = "layer", config = "c", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
    tf_executor.fetch
  }
  func.return
}

// -----

// CHECK-LABEL: func @nothing_tagged
func.func @nothing_tagged(%ids: tensor<?xi32>, %w: tensor<?xf32>, %mode: tensor<!tf_type.string>) {
  // CHECK-NOT: tf.Const
  // CHECK: "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%arg0, %arg0, %arg1, %arg2)
  "tf.EnqueueTPUEmbeddingSparseTensorBatch"(%ids, %ids, %w, %mode) {table_ids = [0]} : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<!tf_type.string>) -> ()
  func.return
}
