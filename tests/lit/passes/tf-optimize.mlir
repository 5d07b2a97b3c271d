// RUN: tfmlir-opt %s -split-input-file -tf-optimize | FileCheck %s

// A per-channel multiplier folds into the NHWC convolution's filter (here
// filter * multiplier folds to the multiplier: the filter is all ones); the new
// Conv2D has every attribute explicit and no derived T.

// CHECK-LABEL: func.func @mul_into_conv
// CHECK-NEXT: %[[F:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00, 1.500000e+00, -1.000000e+00]]]]> : tensor<1x1x1x3xf32>
// CHECK-NEXT: %[[C:.*]] = "tf.Conv2D"(%arg0, %[[F]]) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<2x4x4x1xf32>, tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @mul_into_conv(%arg0: tensor<2x4x4x1xf32>) -> tensor<2x4x4x3xf32> {
  %w = arith.constant dense<1.0> : tensor<1x1x1x3xf32>
  %m = arith.constant dense<[[[[2.0, 1.5, -1.0]]]]> : tensor<1x1x1x3xf32>
  %0 = "tf.Conv2D"(%arg0, %w) {T = f32, padding = "VALID", strides = [1, 1, 1, 1], device = "/device:CPU:0"} : (tensor<2x4x4x1xf32>, tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
  %1 = "tf.Mul"(%0, %m) : (tensor<2x4x4x3xf32>, tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
  func.return %1 : tensor<2x4x4x3xf32>
}

// -----

// Not fused: the convolution used twice; a multiplier that varies along more
// than the last dimension; NCHW; tf.Const (not arith.constant) operands. A
// constant on the left of the Mul is fused: folding moves it to the right of
// the commutative Mul first.

// CHECK-LABEL: func.func @not_fused
// CHECK-COUNT-4: "tf.Mul"
// CHECK-NOT: "tf.Mul"
func.func @not_fused(%arg0: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x1x2x2xf32>
  %m = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %m2 = arith.constant dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
  %tw = "tf.Const"() {value = dense<1.0> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %0 = "tf.Conv2D"(%arg0, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = "tf.Mul"(%0, %m) : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = "tf.Conv2D"(%arg0, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %3 = "tf.Mul"(%2, %m2) : (tensor<1x2x2x2xf32>, tensor<2x2xf32>) -> tensor<1x2x2x2xf32>
  %4 = "tf.Conv2D"(%arg0, %w) {data_format = "NCHW", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %5 = "tf.Mul"(%4, %m) : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %6 = "tf.Conv2D"(%arg0, %tw) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %7 = "tf.Mul"(%6, %m) : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %8 = "tf.Conv2D"(%arg0, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %9 = "tf.Mul"(%m, %8) : (tensor<2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %1, %0, %3, %5, %7, %9 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// A bias between the convolution and the multiplier (BiasAdd or AddV2) is
// moved past it: the multiplier then folds into the filter and the bias is
// scaled.

// CHECK-LABEL: func.func @bias_then_mul
// CHECK-DAG: %[[F:.*]] = "tf.Const"() <{value = dense<5.000000e-01> : tensor<1x1x1x2xf32>}>
// CHECK-DAG: %[[B:.*]] = "tf.Const"() <{value = dense<[5.000000e-01, 1.000000e+00]> : tensor<2xf32>}>
// CHECK: %[[C:.*]] = "tf.Conv2D"(%arg0, %[[F]])
// CHECK-NEXT: %[[A:.*]] = "tf.AddV2"(%[[C]], %[[B]])
// CHECK: %[[C2:.*]] = "tf.Conv2D"(%arg0, %[[F]])
// CHECK-NEXT: %[[A2:.*]] = "tf.AddV2"(%[[C2]], %[[B]])
// CHECK-NEXT: return %[[A]], %[[A2]]
func.func @bias_then_mul(%arg0: tensor<1x3x3x1xf32>) -> (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x1x1x2xf32>
  %b = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = arith.constant dense<0.5> : tensor<2xf32>
  %0 = "tf.Conv2D"(%arg0, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x3x3x2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
  %2 = "tf.Mul"(%1, %v) : (tensor<1x3x3x2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
  %3 = "tf.Conv2D"(%arg0, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  %4 = "tf.AddV2"(%3, %b) : (tensor<1x3x3x2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
  %5 = "tf.Mul"(%4, %v) : (tensor<1x3x3x2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
  func.return %2, %5 : tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>
}

// -----

// FFT of a real tensor cast to complex is an RFFT of the real tensor.

// CHECK-LABEL: func.func @rfft
// CHECK: %[[N:.*]] = arith.constant dense<8> : tensor<1xi32>
// CHECK: "tf.RFFT"(%arg0, %[[N]]) : (tensor<3x8xf64>, tensor<1xi32>) -> tensor<3x8xcomplex<f64>>
// CHECK: "tf.FFT"
// CHECK: "tf.FFT"
func.func @rfft(%arg0: tensor<3x8xf64>, %arg1: tensor<3x?xf32>) -> (tensor<3x8xcomplex<f64>>, tensor<3x?xcomplex<f32>>, tensor<3x8xcomplex<f64>>) {
  %0 = "tf.Cast"(%arg0) : (tensor<3x8xf64>) -> tensor<3x8xcomplex<f64>>
  %1 = "tf.FFT"(%0) : (tensor<3x8xcomplex<f64>>) -> tensor<3x8xcomplex<f64>>
  %2 = "tf.Cast"(%arg1) : (tensor<3x?xf32>) -> tensor<3x?xcomplex<f32>>
  %3 = "tf.FFT"(%2) : (tensor<3x?xcomplex<f32>>) -> tensor<3x?xcomplex<f32>>
  %4 = "tf.Cast"(%arg0) {Truncate = true} : (tensor<3x8xf64>) -> tensor<3x8xcomplex<f64>>
  %5 = "tf.FFT"(%4) : (tensor<3x8xcomplex<f64>>) -> tensor<3x8xcomplex<f64>>
  func.return %1, %3, %5 : tensor<3x8xcomplex<f64>>, tensor<3x?xcomplex<f32>>, tensor<3x8xcomplex<f64>>
}

// -----

// A reshape that only drops unit dimensions of a broadcast moves before it.

// CHECK-LABEL: func.func @broadcast_reshape
// CHECK-DAG: %[[S1:.*]] = "tf.Const"() <{value = dense<[3, 1, 5]> : tensor<3xi64>}>
// CHECK-DAG: %[[S2:.*]] = "tf.Const"() <{value = dense<[3, 4, 5]> : tensor<3xi64>}>
// CHECK: %[[R:.*]] = "tf.Reshape"(%arg0, %[[S1]]) : (tensor<3x1x1x5xi32>, tensor<3xi64>) -> tensor<3x1x5xi32>
// CHECK-NEXT: %[[B:.*]] = "tf.BroadcastTo"(%[[R]], %[[S2]]) : (tensor<3x1x5xi32>, tensor<3xi64>) -> tensor<3x4x5xi32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_reshape(%arg0: tensor<3x1x1x5xi32>) -> tensor<3x4x5xi32> {
  %s = arith.constant dense<[3, 4, 1, 5]> : tensor<4xi64>
  %0 = "tf.BroadcastTo"(%arg0, %s) : (tensor<3x1x1x5xi32>, tensor<4xi64>) -> tensor<3x4x1x5xi32>
  %t = arith.constant dense<[3, 4, 5]> : tensor<3xi64>
  %1 = "tf.Reshape"(%0, %t) : (tensor<3x4x1x5xi32>, tensor<3xi64>) -> tensor<3x4x5xi32>
  func.return %1 : tensor<3x4x5xi32>
}

// CHECK-LABEL: func.func @broadcast_reshape_kept
// CHECK: "tf.BroadcastTo"
// CHECK-NEXT: "tf.Reshape"
func.func @broadcast_reshape_kept(%arg0: tensor<3x1xi32>) -> tensor<12xi32> {
  %s = arith.constant dense<[3, 4]> : tensor<2xi64>
  %0 = "tf.BroadcastTo"(%arg0, %s) : (tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x4xi32>
  %t = arith.constant dense<[12]> : tensor<1xi64>
  %1 = "tf.Reshape"(%0, %t) : (tensor<3x4xi32>, tensor<1xi64>) -> tensor<12xi32>
  func.return %1 : tensor<12xi32>
}
