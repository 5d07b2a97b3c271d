// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-space-to-depth-pass

// Inputs TF's pass has no answer for: the pass fails and leaves the module as
// it was.

// The convolution's input comes from an argument of a tf.WhileRegion body
// used once: TF rebuilds the "function type" of the tf.WhileRegion and its
// process crashes.

module {
  func.func @region_argument(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x32x32x3xf32>
    func.return
  }
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x32x32x3xf32> {
    // expected-error @+1 {{'tf.WhileRegion' op cannot be rewritten: the space-to-depth input is an argument of its region, not of a function (TF's process crashes here)}}
    %0 = "tf.WhileRegion"(%images) ({
    ^bb0(%x: tensor<2x32x32x3xf32>):
      %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
      "tf.Yield"(%t, %x) : (tensor<i1>, tensor<2x32x32x3xf32>) -> ()
    }, {
    ^bb0(%x: tensor<2x32x32x3xf32>):
      %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
      %padded = "tf.Pad"(%x, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
      %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
      %next = "tf.Const"() {value = dense<0.0> : tensor<2x32x32x3xf32>} : () -> tensor<2x32x32x3xf32>
      "tf.Yield"(%next) : (tensor<2x32x32x3xf32>) -> ()
    }) {is_stateless = false} : (tensor<2x32x32x3xf32>) -> tensor<2x32x32x3xf32>
    func.return %0 : tensor<2x32x32x3xf32>
  }
}

// -----

// A dynamic height: TF divides the dynamic size (INT64_MIN) by the block size
// and builds a type with a negative dimension.

module {
  func.func @dynamic_height(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    // expected-error @+1 {{'tf.IteratorGetNext' op cannot be rewritten: TF's space-to-depth computes a dimension size of -4611686018427387904 from a dynamic one (an invalid type)}}
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x?x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x?x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x?x16x8xf32>
    func.return
  }
  func.func private @computation(%images: tensor<2x?x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x?x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x?x32x3xf32>, tensor<4x2xi32>) -> tensor<2x?x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x?x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x?x16x8xf32>
    func.return %y : tensor<2x?x16x8xf32>
  }
}

// -----

// A filter of dynamic height and width (the host input is not an iterator's,
// so only the computation is rewritten).

module {
  func.func @dynamic_filter(%images: tensor<2x32x32x3xf32>, %w: tensor<?x?x3x8xf32>) {
    %1 = "tf_device.cluster_func"(%images, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<?x?x3x8xf32>) -> tensor<2x?x?x8xf32>
    func.return
  }
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<?x?x3x8xf32>) -> tensor<2x?x?x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    // expected-error @+1 {{'tf.Conv2D' op cannot be rewritten: TF's space-to-depth computes a dimension size of -4611686018427387904 from a dynamic one (an invalid type)}}
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<?x?x3x8xf32>) -> tensor<2x?x?x8xf32>
    func.return %y : tensor<2x?x?x8xf32>
  }
}

// -----

// A host input of rank 3 fed to a rank-4 argument: TF reads a fourth
// dimension past the end of its shape (and builds a tf.SpaceToDepth of
// whatever size it finds there).

module {
  func.func @host_rank(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    // expected-error @+1 {{'tf.IteratorGetNext' op cannot be rewritten: TF's space-to-depth reads four dimensions of tensor<2x32x96xf32>}}
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x96xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x96xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}
