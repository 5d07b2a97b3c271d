// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// Verifiers of pooling, bias, normalization, loss, fake and uniform
// quantization and XLA ops (cpp/lib/TfVerifiersNn.cpp): what TF 2.21 accepts
// verifies, what it rejects is rejected with its message.

// Valid uses, including shapes a rule cannot decide.
func.func @valid_nn(%img: tensor<2x9x9x4xf32>, %u: tensor<*xf32>, %d: tensor<?x?x?x?xf32>,
                    %v: tensor<3x4xf32>, %b: tensor<4xf32>, %s: tensor<f32>, %c: tensor<?xf32>,
                    %l: tensor<3xi32>, %vol: tensor<1x8x8x8x2xf32>, %k: tensor<3x3x3x2x5xf32>) {
  %0 = "tf.AvgPool"(%img) {ksize = [1, 3, 3, 1, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<2x9x9x4xf32>) -> tensor<2x5x5x4xf32>
  %1 = "tf.AvgPool"(%u) {data_format = "NCHW", ksize = [1, 1, 2, 2], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.MaxPoolGrad"(%img, %img, %img) {ksize = [1, 1, 1, 1], padding = "EXPLICIT", explicit_paddings = [0, 0, 0, 0, 0, 0, 0, 0], strides = [1, 1, 1, 1]} : (tensor<2x9x9x4xf32>, tensor<2x9x9x4xf32>, tensor<2x9x9x4xf32>) -> tensor<2x9x9x4xf32>
  %3 = "tf.MaxPoolGrad"(%u, %d, %u) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<*xf32>, tensor<?x?x?x?xf32>, tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.BiasAdd"(%v, %b) {data_format = "NHWC"} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %5 = "tf.BiasAddGrad"(%img) {data_format = "NCHW"} : (tensor<2x9x9x4xf32>) -> tensor<9xf32>
  %6 = "tf.BiasAddGrad"(%u) : (tensor<*xf32>) -> tensor<?xf32>
  %7:5 = "tf.FusedBatchNorm"(%img, %b, %b, %c, %c) {data_format = "NCHW"} : (tensor<2x9x9x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<2x9x9x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  %8 = "tf.Softmax"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %9:2 = "tf.SoftmaxCrossEntropyWithLogits"(%v, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> (tensor<3xf32>, tensor<3x4xf32>)
  %10:2 = "tf.SparseSoftmaxCrossEntropyWithLogits"(%v, %l) : (tensor<3x4xf32>, tensor<3xi32>) -> (tensor<3xf32>, tensor<3x4xf32>)
  %11 = "tf.Conv3D"(%vol, %k) {padding = "SAME", strides = [1, 1, 2, 2, 1]} : (tensor<1x8x8x8x2xf32>, tensor<3x3x3x2x5xf32>) -> tensor<1x8x4x4x5xf32>
  %12 = "tf.Conv3D"(%vol, %k) {padding = "VALID", strides = [1, 1, 1, 1, 1], dilations = [1, 2, 1, 1, 1]} : (tensor<1x8x8x8x2xf32>, tensor<3x3x3x2x5xf32>) -> tensor<?x?x?x?x?xf32>
  %13 = "tf.Conv3D"(%vol, %k) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x8x8x8x2xf32>, tensor<3x3x3x2x5xf32>) -> tensor<*xf32>
  %14 = "tf.Conv3D"(%vol, %k) {data_format = "NCDHW", padding = "VALID", strides = [1, 1, 1, 2, 1]} : (tensor<1x8x8x8x2xf32>, tensor<3x3x3x2x5xf32>) -> tensor<1x5x6x3x?xf32>
  return
}

// -----

func.func @valid_quantization(%x: tensor<2x8xf32>, %s: tensor<f32>, %c: tensor<8xf32>, %e: tensor<0xf32>,
                              %z: tensor<0x0xf32>) {
  %0 = "tf.FakeQuantWithMinMaxArgs"(%x) {min = -1.0 : f32, max = 1.0 : f32, num_bits = 16} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = "tf.FakeQuantWithMinMaxVars"(%x, %s, %s) {num_bits = 2} : (tensor<2x8xf32>, tensor<f32>, tensor<f32>) -> tensor<2x8xf32>
  %2 = "tf.FakeQuantWithMinMaxVarsPerChannel"(%x, %c, %c) : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  // TF compares a dynamic last dimension (read as 0) with the sizes as is.
  %3 = "tf.FakeQuantWithMinMaxVarsPerChannel"(%z, %e, %e) : (tensor<0x0xf32>, tensor<0xf32>, tensor<0xf32>) -> tensor<0x0xf32>
  return
}

// -----

func.func @valid_uniform(%f: tensor<2x4xf32>, %q: tensor<4x3x!tf_type.qint8>, %s: tensor<f32>, %zp: tensor<i32>,
                         %sv: tensor<3xf32>, %zv: tensor<3xi32>, %su: tensor<*xf32>, %zu: tensor<?xi32>,
                         %a: tensor<2x3x!tf_type.qint32>) {
  %0 = "tf.UniformQuantizedDotHybrid"(%f, %q, %sv, %zv) {rhs_quantization_axis = 1 : i64, rhs_quantization_min_val = -128 : i64, rhs_quantization_max_val = 127 : i64} : (tensor<2x4xf32>, tensor<4x3x!tf_type.qint8>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  %1 = "tf.UniformQuantizedDotHybrid"(%f, %q, %su, %zu) {rhs_quantization_axis = 1 : i64, rhs_quantization_min_val = -128 : i64, rhs_quantization_max_val = 127 : i64} : (tensor<2x4xf32>, tensor<4x3x!tf_type.qint8>, tensor<*xf32>, tensor<?xi32>) -> tensor<2x3xf32>
  %2 = "tf.UniformQuantize"(%f, %s, %zp) {quantization_min_val = -128 : i64, quantization_max_val = 127 : i64} : (tensor<2x4xf32>, tensor<f32>, tensor<i32>) -> tensor<2x4x!tf_type.qint8>
  %3 = "tf.UniformDequantize"(%2, %s, %zp) {quantization_min_val = -128 : i64, quantization_max_val = 127 : i64} : (tensor<2x4x!tf_type.qint8>, tensor<f32>, tensor<i32>) -> tensor<2x4xf32>
  %4 = "tf.UniformRequantize"(%a, %s, %zp, %sv, %zv) {input_quantization_min_val = -2147483648 : i64, input_quantization_max_val = 2147483647 : i64, output_quantization_axis = 1 : i64, output_quantization_min_val = -128 : i64, output_quantization_max_val = 127 : i64} : (tensor<2x3x!tf_type.qint32>, tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3x!tf_type.qint8>
  %5 = "tf.UniformQuantizedAdd"(%a, %a, %s, %zp, %s, %zp, %s, %zp) {lhs_quantization_min_val = -2147483648 : i64, lhs_quantization_max_val = 2147483647 : i64, rhs_quantization_min_val = -2147483648 : i64, rhs_quantization_max_val = 2147483647 : i64, output_quantization_min_val = -2147483648 : i64, output_quantization_max_val = 2147483647 : i64} : (tensor<2x3x!tf_type.qint32>, tensor<2x3x!tf_type.qint32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3x!tf_type.qint32>
  %6 = "tf.UniformQuantizedClipByValue"(%a, %a, %a, %sv, %zv) {quantization_axis = 1 : i64, quantization_min_val = -2147483648 : i64, quantization_max_val = 2147483647 : i64} : (tensor<2x3x!tf_type.qint32>, tensor<2x3x!tf_type.qint32>, tensor<2x3x!tf_type.qint32>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3x!tf_type.qint32>
  return
}

// -----

func.func @valid_xla(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %u: tensor<*xf32>, %i: tensor<2xi32>,
                     %init: tensor<f32>) {
  %dims = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %0:2 = "tf.XlaBroadcastHelper"(%x, %y, %dims) : (tensor<2x3xf32>, tensor<3xf32>, tensor<1xi32>) -> (tensor<2x3xf32>, tensor<1x3xf32>)
  %1:2 = "tf.XlaBroadcastHelper"(%x, %y, %dims) : (tensor<2x3xf32>, tensor<3xf32>, tensor<1xi32>) -> (tensor<*xf32>, tensor<?x?xf32>)
  %2:2 = "tf.XlaBroadcastHelper"(%u, %y, %i) : (tensor<*xf32>, tensor<3xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<3xf32>)
  %none = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %3:2 = "tf.XlaBroadcastHelper"(%x, %init, %none) : (tensor<2x3xf32>, tensor<f32>, tensor<0xi32>) -> (tensor<2x3xf32>, tensor<f32>)
  %ones = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %pad = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %4 = "tf.XlaReduceWindow"(%x, %init, %ones, %ones, %ones, %ones, %pad) {computation = @add} : (tensor<2x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<2x3xf32>
  %5 = "tf.XlaSelectAndScatter"(%x, %ones, %ones, %pad, %x, %init) {select = @ge, scatter = @add} : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %bounds = "tf.Const"() {value = dense<[4, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %6 = "tf.SetStaticDimensionBounds"(%x, %bounds) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return
}
func.func private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32>
func.func private @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1>

// -----

func.func @avg_pool_ksize(%x: tensor<1x4x4x1xf32>) {
  // expected-error@+1 {{'tf.AvgPool' op attribute 'ksize' failed to satisfy constraint: 64-bit integer array attribute with at least 4 elements}}
  %0 = "tf.AvgPool"(%x) {ksize = [2, 2], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @avg_pool_padding(%x: tensor<1x4x4x1xf32>) {
  // expected-error@+1 {{'tf.AvgPool' op attribute 'padding' failed to satisfy constraint: string attribute whose value is SAME, or VALID}}
  %0 = "tf.AvgPool"(%x) {ksize = [1, 2, 2, 1], padding = "EXPLICIT", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @max_pool_grad_data_format(%x: tensor<1x4x4x1xf32>) {
  // expected-error@+1 {{'tf.MaxPoolGrad' op attribute 'data_format' failed to satisfy constraint: 'NHWC' or 'NCHW' convnet data format}}
  %0 = "tf.MaxPoolGrad"(%x, %x, %x) {data_format = "NDHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @max_pool_grad_rank(%x: tensor<1x4x4x1xf32>, %g: tensor<4x4x1xf32>) {
  // expected-error@+1 {{'tf.MaxPoolGrad' op requires grad to be rank 4}}
  %0 = "tf.MaxPoolGrad"(%x, %x, %g) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>, tensor<4x4x1xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @bias_add_grad_nchw(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'tf.BiasAddGrad' op requires out_backprop operand to have rank at least three with `NCHW` data format}}
  %0 = "tf.BiasAddGrad"(%x) {data_format = "NCHW"} : (tensor<3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @fused_batch_norm_scale(%x: tensor<1x2x2x3xf32>, %s: tensor<1x3xf32>, %m: tensor<3xf32>) {
  // expected-error@+1 {{'tf.FusedBatchNorm' op requires scale to be a 1D float tensor}}
  %0:5 = "tf.FusedBatchNorm"(%x, %s, %m, %m, %m) : (tensor<1x2x2x3xf32>, tensor<1x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @softmax_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'tf.Softmax' op requires operand to have rank at least 1}}
  %0 = "tf.Softmax"(%x) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @softmax_cross_entropy_rank(%f: tensor<2x3x4xf32>, %l: tensor<4xf32>) {
  // expected-error@+1 {{'tf.SoftmaxCrossEntropyWithLogits' op requires features and labels to be broadcast compatible to rank two}}
  %0:2 = "tf.SoftmaxCrossEntropyWithLogits"(%f, %l) : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @sparse_softmax_cross_entropy_batch(%f: tensor<2x4xf32>, %l: tensor<3xi64>) {
  // expected-error@+1 {{'tf.SparseSoftmaxCrossEntropyWithLogits' op requires features and labels with matching first dimension}}
  %0:2 = "tf.SparseSoftmaxCrossEntropyWithLogits"(%f, %l) : (tensor<2x4xf32>, tensor<3xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @conv3d_inferred(%x: tensor<1x8x8x8x2xf32>, %k: tensor<3x3x3x2x5xf32>) {
  // expected-error@+2 {{'tf.Conv3D' op inferred type(s) 'tensor<1x6x6x6x5xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x8x5xf32>'}}
  // expected-error@+1 {{'tf.Conv3D' op failed to infer returned types}}
  %0 = "tf.Conv3D"(%x, %k) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x8x8x8x2xf32>, tensor<3x3x3x2x5xf32>) -> tensor<1x8x8x8x5xf32>
  return
}

// -----

func.func @conv3d_channels(%x: tensor<1x8x8x8x3xf32>, %k: tensor<3x3x3x2x5xf32>) {
  // expected-error@+1 {{'tf.Conv3D' op requires the number of input channels to be divisible by the number of filter input channels; found 3 and 2, respectively}}
  %0 = "tf.Conv3D"(%x, %k) {padding = "SAME", strides = [1, 1, 1, 1, 1]} : (tensor<1x8x8x8x3xf32>, tensor<3x3x3x2x5xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv3d_data_format(%x: tensor<1x8x8x8x2xf32>, %k: tensor<3x3x3x2x5xf32>) {
  // expected-error@+1 {{'tf.Conv3D' op attribute 'data_format' failed to satisfy constraint: string attribute whose value is NDHWC, or NCDHW}}
  %0 = "tf.Conv3D"(%x, %k) {data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1, 1]} : (tensor<1x8x8x8x2xf32>, tensor<3x3x3x2x5xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @fake_quant_range(%x: tensor<4xf32>) {
  // expected-error@+1 {{'tf.FakeQuantWithMinMaxArgs' op range is invalid: [1.000000,1.000000]}}
  %0 = "tf.FakeQuantWithMinMaxArgs"(%x) {min = 1.0 : f32, max = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quant_vars_num_bits(%x: tensor<4xf32>, %m: tensor<f32>) {
  // expected-error@+1 {{'tf.FakeQuantWithMinMaxVars' op requires num_bits to be between 2 and 16, inclusive}}
  %0 = "tf.FakeQuantWithMinMaxVars"(%x, %m, %m) {num_bits = 17} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quant_per_channel_dynamic(%x: tensor<2x?xf32>, %m: tensor<8xf32>) {
  // expected-error@+1 {{'tf.FakeQuantWithMinMaxVarsPerChannel' op requires min and max to have same size as last dimension of inputs}}
  %0 = "tf.FakeQuantWithMinMaxVarsPerChannel"(%x, %m, %m) : (tensor<2x?xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x?xf32>
  return
}

// -----

func.func @fake_quant_per_channel_min(%x: tensor<2x8xf32>, %m: tensor<f32>, %n: tensor<8xf32>) {
  // expected-error@+1 {{'tf.FakeQuantWithMinMaxVarsPerChannel' op requires min to be a 1d float tensor}}
  %0 = "tf.FakeQuantWithMinMaxVarsPerChannel"(%x, %m, %n) : (tensor<2x8xf32>, tensor<f32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @uniform_quantize_zero_points(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<i32>) {
  // expected-error@+1 {{'tf.UniformQuantize' op quantization_axis is not -1, zero_points must have 1 rank.}}
  %0 = "tf.UniformQuantize"(%x, %s, %z) {quantization_axis = 1 : i64, quantization_min_val = -128 : i64, quantization_max_val = 127 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<i32>) -> tensor<2x3x!tf_type.qint8>
  return
}

// -----

func.func @uniform_requantize_output(%x: tensor<2x3x!tf_type.qint32>, %s: tensor<f32>, %z: tensor<i32>, %sv: tensor<3xf32>, %zv: tensor<2xi32>) {
  // expected-error@+1 {{'tf.UniformRequantize' op scales and zero points must have same number of elements.}}
  %0 = "tf.UniformRequantize"(%x, %s, %z, %sv, %zv) {input_quantization_min_val = -2147483648 : i64, input_quantization_max_val = 2147483647 : i64, output_quantization_axis = 1 : i64, output_quantization_min_val = -128 : i64, output_quantization_max_val = 127 : i64} : (tensor<2x3x!tf_type.qint32>, tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<2xi32>) -> tensor<2x3x!tf_type.qint8>
  return
}

// -----

func.func @uniform_add_output(%x: tensor<2x3x!tf_type.qint32>, %s: tensor<f32>, %z: tensor<i32>, %sv: tensor<3xf32>) {
  // expected-error@+1 {{'tf.UniformQuantizedAdd' op quantization_axis is -1, scales must have 0 rank.}}
  %0 = "tf.UniformQuantizedAdd"(%x, %x, %s, %z, %s, %z, %sv, %z) {lhs_quantization_min_val = -2147483648 : i64, lhs_quantization_max_val = 2147483647 : i64, rhs_quantization_min_val = -2147483648 : i64, rhs_quantization_max_val = 2147483647 : i64, output_quantization_min_val = -2147483648 : i64, output_quantization_max_val = 2147483647 : i64} : (tensor<2x3x!tf_type.qint32>, tensor<2x3x!tf_type.qint32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<i32>) -> tensor<2x3x!tf_type.qint32>
  return
}

// -----

func.func @xla_broadcast_helper_out_of_range(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  %dims = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  // TF lets a dim equal to the rank through and writes past its vectors.
  // expected-error@+2 {{out of range broadcast dim}}
  // expected-error@+1 {{'tf.XlaBroadcastHelper' op failed to infer returned types}}
  %0:2 = "tf.XlaBroadcastHelper"(%x, %y, %dims) : (tensor<2x3xf32>, tensor<3xf32>, tensor<1xi32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @xla_broadcast_helper_inferred(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  %dims = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error@+2 {{'tf.XlaBroadcastHelper' op inferred type(s) 'tensor<2x3xf32>', 'tensor<3x1xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>', 'tensor<1x3xf32>'}}
  // expected-error@+1 {{'tf.XlaBroadcastHelper' op failed to infer returned types}}
  %0:2 = "tf.XlaBroadcastHelper"(%x, %y, %dims) : (tensor<2x3xf32>, tensor<3xf32>, tensor<1xi32>) -> (tensor<2x3xf32>, tensor<1x3xf32>)
  return
}

// -----

func.func @xla_conv_v2_padding(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<2x2x2x2xf32>) {
  %strides = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %padding = "tf.Const"() {value = dense<0> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %groups = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  // expected-error@+1 {{'tf.XlaConvV2' op expects padding to be a matrix with minor dimension 2}}
  %0 = "tf.XlaConvV2"(%lhs, %rhs, %strides, %padding, %strides, %strides, %groups) {dimension_numbers = "", precision_config = ""} : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>, tensor<2xi32>, tensor<2x3xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

func.func @xla_reduce_window_rank(%x: tensor<2x3xf32>, %init: tensor<f32>) {
  %ones = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %bad = "tf.Const"() {value = dense<1> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  %pad = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error@+1 {{'tf.XlaReduceWindow' op expects the rank of window_stridesto be 1, got 2}}
  %0 = "tf.XlaReduceWindow"(%x, %init, %ones, %bad, %ones, %ones, %pad) {computation = @add} : (tensor<2x3xf32>, tensor<f32>, tensor<2xi32>, tensor<1x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<2x3xf32>
  return
}
func.func private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32>

// -----

func.func @xla_reduce_window_not_func(%x: tensor<2x3xf32>, %init: tensor<f32>) {
  %ones = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %pad = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error@+1 {{'tf.XlaReduceWindow' op has no reduction function specified}}
  %0 = "tf.XlaReduceWindow"(%x, %init, %ones, %ones, %ones, %ones, %pad) {computation = @missing} : (tensor<2x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @xla_select_and_scatter_no_result(%x: tensor<2x3xf32>, %init: tensor<f32>) {
  %ones = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %pad = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // TF reads a result the select function does not have (it crashes).
  // expected-error@+1 {{'tf.XlaSelectAndScatter' op expects select function to return a single boolean result but got none}}
  %0 = "tf.XlaSelectAndScatter"(%x, %ones, %ones, %pad, %x, %init) {select = @sel, scatter = @add} : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}
func.func private @sel(%a: tensor<f32>, %b: tensor<f32>)
func.func private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32>

// -----

func.func @xla_select_and_scatter_strides(%x: tensor<2x3xf32>, %init: tensor<f32>) {
  %ones = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %three = "tf.Const"() {value = dense<1> : tensor<3xi32>} : () -> tensor<3xi32>
  %pad = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error@+1 {{'tf.XlaSelectAndScatter' op expects the size of window_stridesto be equal to the input rank (3 vs. 2)}}
  %0 = "tf.XlaSelectAndScatter"(%x, %ones, %three, %pad, %x, %init) {select = @ge, scatter = @add} : (tensor<2x3xf32>, tensor<2xi32>, tensor<3xi32>, tensor<2x2xi32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}
func.func private @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1>
func.func private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32>

// -----

func.func @set_static_dimension_bounds_rank(%x: tensor<2x3xf32>, %b: tensor<3xi32>) {
  // expected-error@+1 {{'tf.SetStaticDimensionBounds' op static shape must have num_elements == rank of input tensor}}
  %0 = "tf.SetStaticDimensionBounds"(%x, %b) : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<?x?xf32>
  return
}
