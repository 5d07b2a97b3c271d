// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-lower-quantized

// Ranges whose shapes do not broadcast: TF's builders would build an op
// without a type; tfmlir reports it at the Dequantize and leaves the module
// unchanged.

func.func @ranges_not_broadcastable(%arg0: tensor<4x!tf_type.qint8>, %min: tensor<2xf32>, %max: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tf.Dequantize' cannot be lowered: 'tf.Sub': non-broadcastable operands tensor<3xf32> and tensor<2xf32>}}
  %0 = "tf.Dequantize"(%arg0, %min, %max) : (tensor<4x!tf_type.qint8>, tensor<2xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// Ranges that broadcast with each other but not with the input: the scale
// cannot multiply the shifted input.

func.func @min_not_broadcastable(%arg0: tensor<4x!tf_type.quint8>, %min: tensor<3xf32>, %max: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tf.Dequantize' cannot be lowered}}
  %0 = "tf.Dequantize"(%arg0, %min, %max) : (tensor<4x!tf_type.quint8>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
