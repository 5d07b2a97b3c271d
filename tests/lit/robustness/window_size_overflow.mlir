// Windowed ops with strides, dilations or paddings near int64's bounds: the
// result sizes the verifiers infer must not overflow into a negative dimension
// (building such a tensor type aborts the process): such a size is unknown, and
// a result type that says otherwise gets the verifier's diagnostic.
// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics

func.func @conv2d_same_huge_stride(%x: tensor<1x3x3x1xf32>, %w: tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<1x3x1x2xf32>' are incompatible with return type(s) of operation 'tensor<1x3x3x2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 9223372036854775807, 1]} : (tensor<1x3x3x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @conv2d_valid_huge_dilation(%x: tensor<1x3x3x1xf32>, %w: tensor<2x2x1x2xf32>) -> tensor<1x2x?x2xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1], dilations = [1, 1, 9223372036854775807, 1]} : (tensor<1x3x3x1xf32>, tensor<2x2x1x2xf32>) -> tensor<1x2x?x2xf32>
  func.return %0 : tensor<1x2x?x2xf32>
}

// -----

func.func @conv2d_explicit_huge_padding(%x: tensor<1x3x3x1xf32>, %w: tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "EXPLICIT", explicit_paddings = [0, 0, 0, 0, 9223372036854775807, 9223372036854775807, 0, 0], strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @conv3d_valid_huge_stride(%x: tensor<1x3x3x3x1xf32>, %w: tensor<1x1x1x1x2xf32>) -> tensor<1x3x3x3x2xf32> {
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 9223372036854775807, 1]} : (tensor<1x3x3x3x1xf32>, tensor<1x1x1x1x2xf32>) -> tensor<1x3x3x3x2xf32>
  func.return %0 : tensor<1x3x3x3x2xf32>
}
