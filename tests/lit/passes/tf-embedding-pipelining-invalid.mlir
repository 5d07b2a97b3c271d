// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-embedding-pipelining

// A tagged embedding program: TF would rewrite it; tfmlir cannot yet.

func.func @program(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.Neg' op is tagged for TF's embedding pipelining rewrite of SparseCore embedding programs (_embedding_pipelining), which is not supported yet}}
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "backward", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

func.func @unknown(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.Neg' op embedding op has unknown _embedding_pipelining attribute value sideways.}}
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "sideways"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @backward_only(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.Neg' op embedding backwards pass op with no forwards pass ops.}}
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "backward"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "backward"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

func.func @two_regions(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf_device.launch"() ({
    // expected-error @+1 {{'tf.Abs' op embedding ops in two different regions}}
    %2 = "tf.Abs"(%0) {_embedding_pipelining = "backward", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %2 : tensor<f32>
  }) {device = ""} : () -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

func.func @replication_info(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_embedding_pipelining = "forward", _replication_info = "c0"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.Abs' op embedding ops with different replication info "c0" vs <<NULL ATTRIBUTE>>}}
  %1 = "tf.Abs"(%0) {_embedding_pipelining = "forward"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

// Where TF's process crashes: a tag that is not a string.

func.func @not_a_string(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.Neg' op attribute '_embedding_pipelining' is not a string attribute}}
  %0 = "tf.Neg"(%a) {_embedding_pipelining = 1 : i32} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
