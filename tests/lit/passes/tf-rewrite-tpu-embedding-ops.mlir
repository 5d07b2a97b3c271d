// RUN: tfmlir-opt %s -tf-rewrite-tpu-embedding-ops | FileCheck %s

// The receive op keeps every attribute; the deduplication data opens the body.
// CHECK-LABEL: func @recv_keeps_attributes
func.func @recv_keeps_attributes(%x: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<16x4xf32>) {
  // CHECK-NEXT: %[[DATA:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "tables"}> : () -> tensor<!tf_type.variant>
  // CHECK-NEXT: "tf.Neg"
  // CHECK-NEXT: %[[ACT:.*]]:2 = "tf.XlaRecvTPUEmbeddingActivations"(%[[DATA]]) <{config = "tables"}> {_tpu_embedding_layer = "layer", device = "/device:TPU:0"} : (tensor<!tf_type.variant>) -> (tensor<8x4xf32>, tensor<16x4xf32>)
  // CHECK-NEXT: return %[[ACT]]#0, %[[ACT]]#1
  %n = "tf.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %0:2 = "tf.RecvTPUEmbeddingActivations"() {config = "tables", device = "/device:TPU:0", _tpu_embedding_layer = "layer"} : () -> (tensor<8x4xf32>, tensor<16x4xf32>)
  func.return %0#0, %0#1 : tensor<8x4xf32>, tensor<16x4xf32>
}

// Learning rates keep their segment; the deduplication data is a third one.
// CHECK-LABEL: func @send_with_learning_rates
func.func @send_with_learning_rates(%g0: tensor<8x4xf32>, %g1: tensor<16x4xf32>, %lr: tensor<f32>) {
  // CHECK-NEXT: %[[DATA:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "grads"}>
  // CHECK-NEXT: "tf.XlaSendTPUEmbeddingGradients"(%arg0, %arg1, %arg2, %[[DATA]]) <{config = "grads", operandSegmentSizes = array<i32: 2, 1, 1>}> {_xla_outside_compilation = "oc"}
  // CHECK-NOT: tf.SendTPUEmbeddingGradients
  "tf.SendTPUEmbeddingGradients"(%g0, %g1, %lr) {config = "grads", operandSegmentSizes = array<i32: 2, 1>, _xla_outside_compilation = "oc"} : (tensor<8x4xf32>, tensor<16x4xf32>, tensor<f32>) -> ()
  func.return
}

// The send op comes first, but the data takes the receive op's config.
// CHECK-LABEL: func @send_before_recv
func.func @send_before_recv(%g: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[DATA:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "from_recv"}>
  // CHECK-NEXT: "tf.XlaSendTPUEmbeddingGradients"(%arg0, %[[DATA]]) <{config = "from_send"
  // CHECK-NEXT: "tf.XlaRecvTPUEmbeddingActivations"(%[[DATA]]) <{config = "from_recv"}>
  "tf.SendTPUEmbeddingGradients"(%g) {config = "from_send", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
  %0 = "tf.RecvTPUEmbeddingActivations"() {config = "from_recv"} : () -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}

// Every region is its own scope: the body, a cluster and both loop regions.
// CHECK-LABEL: func @one_per_region
func.func @one_per_region(%p: tensor<i1>, %g: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[TOP:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "top"}>
  // CHECK-NEXT: "tf_device.cluster"
  // CHECK-NEXT:   %[[IN_CLUSTER:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "cluster"}>
  // CHECK-NEXT:   "tf.XlaSendTPUEmbeddingGradients"(%arg1, %[[IN_CLUSTER]])
  // CHECK:      "tf.WhileRegion"
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT:   %[[IN_COND:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "cond"}>
  // CHECK-NEXT:   "tf.XlaRecvTPUEmbeddingActivations"(%[[IN_COND]])
  // CHECK:      ^bb0
  // CHECK-NEXT:   %[[IN_BODY:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "body"}>
  // CHECK-NEXT:   "tf.XlaSendTPUEmbeddingGradients"(%{{.*}}, %[[IN_BODY]])
  // CHECK:      "tf.XlaRecvTPUEmbeddingActivations"(%[[TOP]]) <{config = "top"}>
  "tf_device.cluster"() ({
    "tf.SendTPUEmbeddingGradients"(%g) {config = "cluster", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
    tf_device.return
  }) : () -> ()
  %w = "tf.WhileRegion"(%g) ({
  ^bb0(%a: tensor<8x4xf32>):
    %r = "tf.RecvTPUEmbeddingActivations"() {config = "cond"} : () -> tensor<8x4xf32>
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<8x4xf32>):
    "tf.SendTPUEmbeddingGradients"(%a) {config = "body", operandSegmentSizes = array<i32: 1, 0>} : (tensor<8x4xf32>) -> ()
    "tf.Yield"(%a) : (tensor<8x4xf32>) -> ()
  }) {is_stateless = false, parallel_iterations = 10 : i64} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %0 = "tf.RecvTPUEmbeddingActivations"() {config = "top"} : () -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}

// Two receive ops are fine when they live in different regions.
// CHECK-LABEL: func @two_recvs_in_two_branches
func.func @two_recvs_in_two_branches(%p: tensor<i1>) -> tensor<8x4xf32> {
  // CHECK: "tf.IfRegion"
  // CHECK-NEXT: %[[THEN:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "then"}>
  // CHECK-NEXT: "tf.XlaRecvTPUEmbeddingActivations"(%[[THEN]])
  // CHECK: %[[ELSE:.*]] = "tf.XlaRecvTPUEmbeddingDeduplicationData"() <{config = "else"}>
  // CHECK-NEXT: "tf.XlaRecvTPUEmbeddingActivations"(%[[ELSE]])
  %0 = "tf.IfRegion"(%p) ({
    %1 = "tf.RecvTPUEmbeddingActivations"() {config = "then"} : () -> tensor<8x4xf32>
    "tf.Yield"(%1) : (tensor<8x4xf32>) -> ()
  }, {
    %2 = "tf.RecvTPUEmbeddingActivations"() {config = "else"} : () -> tensor<8x4xf32>
    "tf.Yield"(%2) : (tensor<8x4xf32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}

// Without embedding ops nothing changes.
// CHECK-LABEL: func @nothing_to_do
// CHECK-NOT: tf.XlaRecvTPUEmbeddingDeduplicationData
// CHECK: return
func.func @nothing_to_do(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
