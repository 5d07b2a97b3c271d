// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-embedding-sequencing

// Tagged embedding programs (sequential or not): TF would rewrite them.

func.func @program(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "backward_sequential", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.Abs' op is tagged for TF's embedding sequencing rewrite of SparseCore embedding programs (_embedding_pipelining), which is not supported yet}}
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "forward", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

// Summaries do not turn sequencing off.

func.func @summaries(%a: tensor<f32>, %w: tensor<!tf_type.resource>, %s: tensor<!tf_type.string>, %t: tensor<i64>) -> () {
  // expected-error @+1 {{embedding sequencing rewrite}}
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward_sequential", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  "tf.WriteSummary"(%w, %t, %0, %s, %s) : (tensor<!tf_type.resource>, tensor<i64>, tensor<f32>, tensor<!tf_type.string>, tensor<!tf_type.string>) -> ()
  func.return
}

// -----

func.func @unknown(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.Abs' op embedding op has unknown _embedding_pipelining attribute value Forward.}}
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "Forward"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

func.func @backward_only(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.Neg' op embedding backwards pass op with no forwards pass ops.}}
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "backward_sequential"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @replication_info(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward_sequential", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.Abs' op embedding ops with different replication info "c0" vs "c1"}}
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "backward_sequential", _replication_info = "c1"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

func.func @two_regions(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.launch"() ({
    %2 = "tf.Abs"(%a) {_embedding_pipelining = "forward_sequential"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %2 : tensor<f32>
  }) {device = ""} : () -> tensor<f32>
  // expected-error @+1 {{'tf.Neg' op embedding ops in two different regions}}
  %1 = "tf.Neg"(%0) {_embedding_pipelining = "forward_sequential"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
