// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-space-to-depth-pass

// Rewrites TF's pass carries out although the result does not verify: TF's
// verifier reports it after the pass; here the same diagnostics come from the
// pass, which then fails with the module left as it was.

// The convolution reads the argument directly: TF rebuilds the function type
// before it changes the argument's type, so the two disagree.

module {
  func.func @direct_argument(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    // expected-error @+1 {{the space-to-depth rewrite for this computation does not verify (neither does TF's); the module is left as it was}}
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // expected-error @+1 {{'func.func' op type of entry block argument #0('tensor<2x16x16x12xf32>') must match the type of the corresponding argument in function signature('tensor<2x32x32x3xf32>')}}
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %y = "tf.Conv2D"(%images, %w) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// A cast without a pad: only the cast's result takes the new shape.

module {
  func.func @cast_without_pad(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xi32>
    // expected-error @+1 {{the space-to-depth rewrite for this computation does not verify}}
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xi32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  func.func private @computation(%images: tensor<2x32x32x3xi32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    // expected-error @+1 {{'tf.Cast' op requires the same shape for all operands and results}}
    %f = "tf.Cast"(%images) : (tensor<2x32x32x3xi32>) -> tensor<2x32x32x3xf32>
    %y = "tf.Conv2D"(%f, %w) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// A filter height that is a multiple of the block size still gets a whole
// block of padding when the width is not one (TF's rule): the convolution's
// result no longer has its old shape.

module {
  func.func @uneven_filter(%it: tensor<!tf_type.resource>, %w: tensor<4x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    // expected-error @+1 {{the space-to-depth rewrite for this computation does not verify}}
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<4x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<4x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 2], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x35x34x3xf32>
    // expected-error @+2 {{'tf.Conv2D' op inferred type(s) 'tensor<2x15x16x8xf32>' are incompatible with return type(s) of operation 'tensor<2x16x16x8xf32>'}}
    // expected-error @+1 {{'tf.Conv2D' op failed to infer returned types}}
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x35x34x3xf32>, tensor<4x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}
