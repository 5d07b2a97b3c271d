// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// Hand-written shape/type rules attached to generated ops (cpp/lib/TfVerifiers.cpp).

// Valid uses, including unknown shapes where a rule cannot be decided.
func.func @valid(%t: tensor<2x3xf32>, %u: tensor<*xf32>, %s: tensor<2xi32>, %b: tensor<3xf32>,
                 %i: tensor<i32>, %m: tensor<3x4xf32>, %d: tensor<?xi32>) {
  %shape = "tf.Const"() <{value = dense<[3, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%t, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %1 = "tf.Reshape"(%u, %s) : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
  %perm = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %2 = "tf.Transpose"(%t, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %3 = "tf.BiasAdd"(%t, %b) <{data_format = "NHWC"}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = "tf.MatMul"(%t, %m) <{transpose_a = false, transpose_b = false}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %5 = "tf.ConcatV2"(%t, %t, %i) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %6 = "tf.Pack"(%t, %t) <{axis = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  %f = "tf.Const"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %7 = "tf.Fill"(%d, %f) : (tensor<?xi32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @reshape_shape_rank(%t: tensor<6xf32>, %s: tensor<2x1xi32>) {
  // expected-error@+1 {{'tf.Reshape' op requires 'shape' to be rank 1, but got 2}}
  %0 = "tf.Reshape"(%t, %s) : (tensor<6xf32>, tensor<2x1xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @reshape_element_count(%t: tensor<6xf32>, %s: tensor<2xi32>) {
  // expected-error@+1 {{requires 'output' number of elements to match 'tensor' number of elements, but got 8 and 6}}
  %0 = "tf.Reshape"(%t, %s) : (tensor<6xf32>, tensor<2xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_two_dynamic_dims(%t: tensor<6xf32>) {
  %shape = "tf.Const"() <{value = dense<[-1, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{requires 'shape' to have at most one dynamic dimension}}
  %0 = "tf.Reshape"(%t, %shape) : (tensor<6xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @transpose_perm_rank(%t: tensor<2x3xf32>, %p: tensor<2x1xi32>) {
  // expected-error@+1 {{expected perm to be a 1-D Tensor, got perm of rank 2}}
  %0 = "tf.Transpose"(%t, %p) : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @transpose_result_dim(%t: tensor<2x3xf32>) {
  %perm = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{requires y.shape[0] (2) to be equal to x.shape[perm[1]] (3)}}
  %0 = "tf.Transpose"(%t, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @bias_add_bias_rank(%t: tensor<2x3xf32>, %b: tensor<1x3xf32>) {
  // expected-error@+1 {{requires bias operand to have rank exactly one}}
  %0 = "tf.BiasAdd"(%t, %b) <{data_format = "NHWC"}> : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @bias_add_channels(%t: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{requires channel dimension and feature dimension to match; found 3 and 4, respectively}}
  %0 = "tf.BiasAdd"(%t, %b) <{data_format = "NHWC"}> : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @bias_add_value_rank(%t: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{requires value operand to have rank at least two with `NHWC` data format}}
  %0 = "tf.BiasAdd"(%t, %b) <{data_format = "NHWC"}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @concat_rank_mismatch(%t: tensor<2x3xf32>, %u: tensor<2xf32>, %a: tensor<i32>) {
  // expected-error@+1 {{operand type 'tensor<2xf32>' is not compatible with preceding operands; expected rank: 2}}
  %0 = "tf.ConcatV2"(%t, %u, %a) : (tensor<2x3xf32>, tensor<2xf32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

func.func @pack_incompatible(%t: tensor<2x3xf32>, %u: tensor<3x3xf32>) {
  // expected-error@+1 {{operand type 'tensor<3x3xf32>' is not compatible with preceding operands; expected dimension at index 0: 2}}
  %0 = "tf.Pack"(%t, %u) <{axis = 0 : i64}> : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @pack_axis(%t: tensor<2x3xf32>) {
  // expected-error@+1 {{attribute 'axis' should be within range [-3, 3); actual value: 3}}
  %0 = "tf.Pack"(%t, %t) <{axis = 3 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @fill_dims_rank(%d: tensor<2x1xi32>, %v: tensor<f32>) {
  // expected-error@+1 {{requires dims to be a 1D tensor}}
  %0 = "tf.Fill"(%d, %v) : (tensor<2x1xi32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @fill_value_scalar(%d: tensor<2xi32>, %v: tensor<1xf32>) {
  // expected-error@+1 {{requires value to be a scalar}}
  %0 = "tf.Fill"(%d, %v) : (tensor<2xi32>, tensor<1xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @concat_dimension(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) {
  %axis = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{operand type 'tensor<16x8xf32>' is not compatible with preceding operands; expected dimension at index 1: 16}}
  %0 = "tf.ConcatV2"(%a, %b, %axis) : (tensor<8x16xf32>, tensor<16x8xf32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

// More valid uses: the rules accept what they cannot decide.
func.func @valid_more(%x: tensor<2x3xf32>, %u: tensor<*xf32>, %dyn: tensor<?x6xf32>, %i: tensor<i32>,
                      %c: tensor<2x3xi1>, %c0: tensor<i1>, %v: tensor<2xi1>, %idx: tensor<5xi32>) {
  %0 = "tf.AddV2"(%x, %u) : (tensor<2x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  %b = "tf.Const"() <{value = dense<1.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %1 = "tf.Mul"(%x, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2:2 = "tf.Unpack"(%dyn) <{axis = 0 : i64}> : (tensor<?x6xf32>) -> (tensor<6xf32>, tensor<6xf32>)
  %3:2 = "tf.Split"(%i, %u) : (tensor<i32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %4 = "tf.Select"(%v, %x, %x) : (tensor<2xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = "tf.Select"(%c0, %x, %x) : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = "tf.SelectV2"(%c, %x, %b) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %7 = "tf.Equal"(%x, %idx) <{incompatible_shape_error = false}> : (tensor<2x3xf32>, tensor<5xi32>) -> tensor<i1>
  %8 = "tf.Cast"(%x) <{Truncate = false}> : (tensor<2x3xf32>) -> tensor<?x3xi32>
  return
}

// -----

func.func @broadcast(%x: tensor<2x3xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{'tf.AddV2' op operands don't have broadcast-compatible shapes}}
  %0 = "tf.AddV2"(%x, %y) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @broadcast_result(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{'tf.Less' op result type '3x3' not broadcast compatible with broadcasted operands's shapes '2x3'}}
  %0 = "tf.Less"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xi1>
  return
}

// -----

func.func @unpack_axis(%x: tensor<2x6xf32>) {
  // expected-error@+1 {{axis attribute must be in the range of [-2, 2)}}
  %0:2 = "tf.Unpack"(%x) <{axis = 5 : i64}> : (tensor<2x6xf32>) -> (tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @unpack_count(%x: tensor<2x6xf32>) {
  // expected-error@+1 {{result count must be equal to 6}}
  %0:2 = "tf.Unpack"(%x) <{axis = -1 : i64}> : (tensor<2x6xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @split_dim_scalar(%x: tensor<4x4xf32>, %d: tensor<1xi32>) {
  // expected-error@+1 {{split dimension should be an integer scalar tensor}}
  %0:2 = "tf.Split"(%d, %x) : (tensor<1xi32>, tensor<4x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @split_scalar_input(%x: tensor<f32>, %d: tensor<i32>) {
  // expected-error@+1 {{cannot split scalar input tensor}}
  %0:2 = "tf.Split"(%d, %x) : (tensor<i32>, tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @split_dim_range(%x: tensor<4x8xf32>) {
  %d = "tf.Const"() <{value = dense<-3> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{split dimension must be in range [-2, 2)}}
  %0:2 = "tf.Split"(%d, %x) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @split_divisible(%x: tensor<4x8xf32>) {
  %d = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{dimension #0 not divisible by the number of result tensors}}
  %0:3 = "tf.Split"(%d, %x) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @splitv_sizes_rank(%x: tensor<4x4xf32>, %s: tensor<2x2xi32>, %d: tensor<i32>) {
  // expected-error@+1 {{split sizes should be a 1D tensor of 2 elements}}
  %0:2 = "tf.SplitV"(%x, %s, %d) : (tensor<4x4xf32>, tensor<2x2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @splitv_two_dynamic(%x: tensor<4x4xf32>) {
  %d = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %s = "tf.Const"() <{value = dense<[-1, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{cannot have more than one dynamic dimension in split sizes}}
  %0:2 = "tf.SplitV"(%x, %s, %d) : (tensor<4x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @splitv_sum_dynamic(%x: tensor<4x4xf32>) {
  %d = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %s = "tf.Const"() <{value = dense<[-1, 7]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{split sizes must sum up to be less than or equal to the dimension size along split dimension, found 7 vs 4}}
  %0:2 = "tf.SplitV"(%x, %s, %d) : (tensor<4x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @splitv_sum(%x: tensor<4x4xf32>) {
  %d = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %s = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{split sizes must sum up to the dimension size along split dimension, found 3 vs 4}}
  %0:2 = "tf.SplitV"(%x, %s, %d) : (tensor<4x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @slice_begin_rank(%x: tensor<4xi32>, %b: tensor<2x2xi64>, %s: tensor<1xi64>) {
  // expected-error@+1 {{requires begin operand to be 1D tensor}}
  %0 = "tf.Slice"(%x, %b, %s) : (tensor<4xi32>, tensor<2x2xi64>, tensor<1xi64>) -> tensor<*xi32>
  return
}

// -----

func.func @slice_size_rank(%x: tensor<4xi32>, %b: tensor<1xi64>, %s: tensor<i64>) {
  // expected-error@+1 {{requires size operand to be 1D tensor}}
  %0 = "tf.Slice"(%x, %b, %s) : (tensor<4xi32>, tensor<1xi64>, tensor<i64>) -> tensor<*xi32>
  return
}

// -----

func.func @slice_lengths(%x: tensor<4xi32>, %b: tensor<1xi64>, %s: tensor<2xi64>) {
  // expected-error@+1 {{requires begin and size operands to have the same number of elements}}
  %0 = "tf.Slice"(%x, %b, %s) : (tensor<4xi32>, tensor<1xi64>, tensor<2xi64>) -> tensor<*xi32>
  return
}

// -----

func.func @slice_input_rank(%x: tensor<4x4xi32>, %b: tensor<1xi64>, %s: tensor<1xi64>) {
  // expected-error@+1 {{requires number of elements in begin and size are equal to input rank}}
  %0 = "tf.Slice"(%x, %b, %s) : (tensor<4x4xi32>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi32>
  return
}

// -----

func.func @slice_bounds(%x: tensor<4xi32>) {
  %b = "tf.Const"() <{value = dense<3> : tensor<1xi64>}> : () -> tensor<1xi64>
  %s = "tf.Const"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  // expected-error@+1 {{requires 0 <= begin[i] <= begin[i] + size[i] <= Di}}
  %0 = "tf.Slice"(%x, %b, %s) : (tensor<4xi32>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi32>
  return
}

// -----

func.func @strided_slice_rank(%x: tensor<4x8xf32>, %i: tensor<i64>) {
  // expected-error@+1 {{requires begin, end and strides to be 1D tensors}}
  %0 = "tf.StridedSlice"(%x, %i, %i, %i) : (tensor<4x8xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xf32>
  return
}

// -----

func.func @strided_slice_long(%x: tensor<4x8xf32>, %b: tensor<32xi64>) {
  // expected-error@+1 {{requires begin, end and strides operands with less than 32 elements}}
  %0 = "tf.StridedSlice"(%x, %b, %b, %b) : (tensor<4x8xf32>, tensor<32xi64>, tensor<32xi64>, tensor<32xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @strided_slice_lengths(%x: tensor<4x8xf32>, %b: tensor<2xi64>, %e: tensor<3xi64>) {
  // expected-error@+1 {{requires begin, end and strides to have the same number of elements}}
  %0 = "tf.StridedSlice"(%x, %b, %e, %b) : (tensor<4x8xf32>, tensor<2xi64>, tensor<3xi64>, tensor<2xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @strided_slice_zero_stride(%x: tensor<4x8xf32>, %b: tensor<2xi32>) {
  %s = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{requires non-zero strides}}
  %0 = "tf.StridedSlice"(%x, %b, %b, %s) : (tensor<4x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @strided_slice_ellipses(%x: tensor<4x8xf32>, %b: tensor<2xi32>) {
  // expected-error@+1 {{cannot have multiple ellipses}}
  %0 = "tf.StridedSlice"(%x, %b, %b, %b) <{begin_mask = 0 : i64, ellipsis_mask = 3 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> : (tensor<4x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @batch_matmul_rank(%x: tensor<3xf32>, %y: tensor<2x3x4xf32>) {
  // expected-error@+1 {{requires lhs operand to have rank at least two}}
  %0 = "tf.BatchMatMulV2"(%x, %y) <{adj_x = false, adj_y = false}> : (tensor<3xf32>, tensor<2x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @batch_matmul_batch(%x: tensor<2x5x3xf32>, %y: tensor<3x3x4xf32>) {
  // expected-error@+1 {{found incompatible broadcast batch dimensions for lhs shape 'tensor<2x5x3xf32>' and rhs shape 'tensor<3x3x4xf32>'}}
  %0 = "tf.BatchMatMulV2"(%x, %y) <{adj_x = false, adj_y = false}> : (tensor<2x5x3xf32>, tensor<3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<1x8x8xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires operands to be 4D tensor}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires strides attribute length to be 4}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_explicit(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires explicit_paddings attribute length to be 8}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [1, 1], padding = "EXPLICIT", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x8x8x5xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires the number of input channels to be divisible by the number of filter input channels; found 5 and 3, respectively}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x5xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @cast_shape(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{requires the same shape for all operands and results}}
  %0 = "tf.Cast"(%x) <{Truncate = false}> : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @select_vector(%c: tensor<3xi1>, %x: tensor<2x3xf32>) {
  // expected-error@+1 {{requires that, when pred is a vector, the shape matches the first dimension of t and e}}
  %0 = "tf.Select"(%c, %x, %x) : (tensor<3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @select_branches(%c: tensor<i1>, %x: tensor<2x3xf32>, %y: tensor<3x3xf32>) {
  // expected-error@+1 {{requires t and e have compatible shapes}}
  %0 = "tf.Select"(%c, %x, %y) : (tensor<i1>, tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @selectv2_broadcast(%c: tensor<4xi1>, %x: tensor<2x3xf32>) {
  // expected-error@+1 {{'tf.SelectV2' op operands don't have broadcast-compatible shapes}}
  %0 = "tf.SelectV2"(%c, %x, %x) : (tensor<4xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @gather_batch_dims(%p: tensor<16x2x3xf32>, %i: tensor<16x5xi32>, %a: tensor<1xi32>) {
  // expected-error@+1 {{batch_dims (-3) must be in range [-2, 3)}}
  %0 = "tf.GatherV2"(%p, %i, %a) <{batch_dims = -3 : i64}> : (tensor<16x2x3xf32>, tensor<16x5xi32>, tensor<1xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @gather_axis_rank(%p: tensor<16x2x3xf32>, %i: tensor<16x5xi32>, %a: tensor<1x1xi32>) {
  // expected-error@+1 {{requires axis to have rank at most 1}}
  %0 = "tf.GatherV2"(%p, %i, %a) <{batch_dims = 0 : i64}> : (tensor<16x2x3xf32>, tensor<16x5xi32>, tensor<1x1xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @gather_axis(%p: tensor<16x2x3xf32>, %i: tensor<16x5xi32>) {
  %a = "tf.Const"() <{value = dense<-4> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{axis (-4) must be in range [-3, 3)}}
  %0 = "tf.GatherV2"(%p, %i, %a) <{batch_dims = 0 : i64}> : (tensor<16x2x3xf32>, tensor<16x5xi32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

func.func @gather_axis_batch(%p: tensor<16x2x3xf32>, %i: tensor<16x5xi32>) {
  %a = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{requires axis (0) to be greater than or equal to batch_dims (1)}}
  %0 = "tf.GatherV2"(%p, %i, %a) <{batch_dims = -1 : i64}> : (tensor<16x2x3xf32>, tensor<16x5xi32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

func.func @squeeze_range(%x: tensor<2x1xf32>) {
  // expected-error@+1 {{squeeze dimension 2 not in [-2, 2)}}
  %0 = "tf.Squeeze"(%x) <{squeeze_dims = [2]}> : (tensor<2x1xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @batch_matmul_rhs_rank(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{requires rhs operand to have rank at least two}}
  %0 = "tf.BatchMatMulV2"(%x, %y) <{adj_x = false, adj_y = false}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_filter_rank(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3xf32>) {
  // expected-error@+1 {{requires operands to be 4D tensor}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_positive_strides(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires positive strides}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 0, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_dilations_length(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires dilations attribute length to be 4}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_positive_dilations(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires positive dilations}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, -1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_negative_padding(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{requires non negative explicit paddings}}
  %0 = "tf.Conv2D"(%x, %f) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [0, 0, -1, 1, 1, 1, 0, 0], padding = "EXPLICIT", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  return
}

