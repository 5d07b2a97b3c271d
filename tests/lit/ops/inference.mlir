// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// Result type inference (cpp/lib/TfInference.cpp): declared result types must
// be cast-compatible with what the op infers; more or less refined is fine.

// CHECK-LABEL: func @compatible
func.func @compatible(%x: tensor<?x3xf32>, %y: tensor<*xf32>, %w: tensor<3x4xf32>) {
  %0 = "tf.Relu"(%x) : (tensor<?x3xf32>) -> tensor<2x3xf32>
  %1 = "tf.Relu"(%x) : (tensor<?x3xf32>) -> tensor<*xf32>
  %2 = "tf.AddV2"(%x, %y) : (tensor<?x3xf32>, tensor<*xf32>) -> tensor<5x3xf32>
  %3 = "tf.MatMul"(%x, %w) <{transpose_a = false, transpose_b = false}> : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<7x4xf32>
  %4 = "tf.Equal"(%x, %y) <{incompatible_shape_error = true}> : (tensor<?x3xf32>, tensor<*xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @relu_shape(%x: tensor<2x3xf32>) {
  // expected-error@+2 {{'tf.Relu' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "tf.Relu"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @to_bool_scalar(%x: tensor<2xf32>) {
  // expected-error@+2 {{'tf.ToBool' op inferred type(s) 'tensor<i1>' are incompatible with return type(s) of operation 'tensor<2xi1>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "tf.ToBool"(%x) : (tensor<2xf32>) -> tensor<2xi1>
  return
}

// -----

func.func @reshape_constant_shape(%x: tensor<6xf32>) {
  %s = "tf.Const"() <{value = dense<[2, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // TF infers no Reshape type; its verifier computes the expected one.
  // expected-error@+1 {{'tf.Reshape' op requires 'output' type 'tensor<3x2xf32>' to be cast compatible with expected type 'tensor<2x3xf32>'}}
  %0 = "tf.Reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @conv_output(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+2 {{'tf.Conv2D' op inferred type(s) 'tensor<1x6x6x4xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x4xf32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  return
}

