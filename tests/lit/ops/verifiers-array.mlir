// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// Verifiers of array ops (cpp/lib/TfVerifiersArray.cpp): shapes, indices,
// slicing, segments, parsing. Valid uses first (unknown shapes included, where
// a rule cannot be decided), then one case per rule with its message.

func.func @valid_shapes(%a: tensor<4x4xi8>, %b: tensor<?x4xi8>, %c: tensor<3xf32>, %d: tensor<*xf32>,
                        %e: tensor<8x3x3x2xf32>, %f: tensor<*xi32>, %g: tensor<2x6x4x1xf32>) {
  %0 = "tf.Bitcast"(%a) : (tensor<4x4xi8>) -> tensor<4xi32>
  %1 = "tf.Bitcast"(%b) : (tensor<?x4xi8>) -> tensor<?xi32>
  %2 = "tf.Bitcast"(%c) : (tensor<3xf32>) -> tensor<3xi32>
  %3 = "tf.Bitcast"(%c) : (tensor<3xf32>) -> tensor<3x2xi16>
  %crops = "tf.Const"() <{value = dense<[[0, 1], [2, 0]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %4 = "tf.BatchToSpace"(%e, %crops) <{block_size = 2 : i64}> : (tensor<8x3x3x2xf32>, tensor<2x2xi32>) -> tensor<2x5x4x2xf32>
  %5 = "tf.BatchToSpace"(%d, %f) <{block_size = 3 : i64}> : (tensor<*xf32>, tensor<*xi32>) -> tensor<?x?x?x?xf32>
  %block = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %pads = "tf.Const"() <{value = dense<[[0, 0], [1, 1]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %6 = "tf.SpaceToBatchND"(%g, %block, %pads) : (tensor<2x6x4x1xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<12x3x2x1xf32>
  %7 = "tf.SpaceToBatchND"(%d, %f, %f) : (tensor<*xf32>, tensor<*xi32>, tensor<*xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @valid_indices(%x: tensor<2x5xf32>, %y: tensor<1x5xf32>, %u: tensor<*xi32>, %v: tensor<*xf32>,
                         %s3: tensor<3xi32>, %i: tensor<i32>) {
  %s0 = "tf.Const"() <{value = dense<[2, 1, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %s1 = "tf.Const"() <{value = dense<[3]> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r0, %r1 = "tf.BroadcastGradientArgs"(%s0, %s1) : (tensor<3xi32>, tensor<1xi32>) -> (tensor<1xi32>, tensor<2xi32>)
  %idx0 = "tf.Const"() <{value = dense<[0, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %idx1 = "tf.Const"() <{value = dense<[1]> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = "tf.DynamicStitch"(%idx0, %idx1, %x, %y) : (tensor<2xi32>, tensor<1xi32>, tensor<2x5xf32>, tensor<1x5xf32>) -> tensor<3x5xf32>
  %1 = "tf.DynamicStitch"(%u, %v) : (tensor<*xi32>, tensor<*xf32>) -> tensor<*xf32>
  %2:2 = "tf.ConcatOffset"(%i, %s3, %s3) : (tensor<i32>, tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  %3:2 = "tf.ShapeN"(%x, %v) : (tensor<2x5xf32>, tensor<*xf32>) -> (tensor<2xi64>, tensor<?xi64>)
  %axis = "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
  %4 = "tf.Cumprod"(%x, %axis) : (tensor<2x5xf32>, tensor<i32>) -> tensor<2x5xf32>
  %5 = "tf.Cumsum"(%v, %i) : (tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
  %dims = "tf.Const"() <{value = dense<[-2, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %b = "tf.Const"() <{value = dense<true> : tensor<2x5xi1>}> : () -> tensor<2x5xi1>
  %6 = "tf.All"(%b, %dims) <{keep_dims = false}> : (tensor<2x5xi1>, tensor<2xi32>) -> tensor<i1>
  %7 = "tf.Any"(%b, %i) <{keep_dims = true}> : (tensor<2x5xi1>, tensor<i32>) -> tensor<*xi1>
  return
}

// -----

func.func @valid_misc(%x: tensor<2x3xf32>, %v: tensor<*xf32>, %k: tensor<i32>, %p: tensor<2x2xi32>,
                      %ids: tensor<2xi32>, %q: tensor<4x2xi32>, %n: tensor<i64>, %pv: tensor<3xi32>) {
  %m = "tf.Const"() <{value = dense<[2, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.Tile"(%x, %m) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<4x0xf32>
  %1 = "tf.MatrixBandPart"(%x, %n, %n) : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<*xf32>
  %2 = "tf.Pad"(%x, %p) : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<?x?xf32>
  %3 = "tf.Concat"(%k, %x, %v) : (tensor<i32>, tensor<2x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.Slice"(%x, %ids, %ids) : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  %depth = "tf.Const"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
  %on = "tf.Const"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %5 = "tf.OneHot"(%ids, %depth, %on, %on) <{axis = 1 : i64}> : (tensor<2xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xf32>
  %6 = "tf.DataFormatVecPermute"(%q) : (tensor<4x2xi32>) -> tensor<4x2xi32>
  %7:2 = "tf.TopKV2"(%x, %k) : (tensor<2x3xf32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xi32>)
  %8 = "tf.InvertPermutation"(%pv) : (tensor<3xi32>) -> tensor<3xi32>
  %9 = "tf.Einsum"(%x, %x) <{equation = "ij,kj->ik"}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %10 = "tf.UnsortedSegmentSum"(%x, %ids, %k) : (tensor<2x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<?x3xf32>
  %u = "tf.Const"() <{value = dense<1.0> : tensor<3x3xf32>}> : () -> tensor<3x3xf32>
  %11 = "tf.TensorScatterUpdate"(%x, %q, %u) : (tensor<2x3xf32>, tensor<4x2xi32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @bitcast_wide_output(%x: tensor<2x3xi8>) {
  // expected-error@+1 {{'tf.Bitcast' op input rightmost dimension size is not equal to the divisor. the last dimension of input is expected to be 4}}
  %0 = "tf.Bitcast"(%x) : (tensor<2x3xi8>) -> tensor<2xi32>
  return
}

// -----

func.func @bitcast_narrow_output_rank(%x: tensor<5xi64>) {
  // expected-error@+1 {{rank of input tensor is 1. rank of output tensor is expected to be 2, instead of 1.}}
  %0 = "tf.Bitcast"(%x) : (tensor<5xi64>) -> tensor<5xi16>
  return
}

// -----

func.func @bitcast_same_width(%x: tensor<5xf32>) {
  // expected-error@+1 {{output tensor shape shall be equal to input tensor shape}}
  %0 = "tf.Bitcast"(%x) : (tensor<5xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @batch_to_space_depth(%x: tensor<8x3x3x2xf32>, %c: tensor<2x2xi32>) {
  // expected-error@+1 {{requires output depth (dimension 3) to be equal to input depth (dimension 3), but got output depth 5 and input depth 2}}
  %0 = "tf.BatchToSpace"(%x, %c) <{block_size = 2 : i64}> : (tensor<8x3x3x2xf32>, tensor<2x2xi32>) -> tensor<2x6x6x5xf32>
  return
}

// -----

func.func @batch_to_space_crops(%x: tensor<8x3x3x2xf32>) {
  %crops = "tf.Const"() <{value = dense<[[0, 1], [2, 0]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // expected-error@+1 {{requires output width (dimension 2) to be equal to input width (dimension 2) * block_size - crop_left - crop_right, but got output width 6, input width 3, crop_left 2, crop_right 0, and block_size 2}}
  %0 = "tf.BatchToSpace"(%x, %crops) <{block_size = 2 : i64}> : (tensor<8x3x3x2xf32>, tensor<2x2xi32>) -> tensor<2x5x6x2xf32>
  return
}

// -----

func.func @space_to_batch_divisible(%x: tensor<2x5x4x1xf32>) {
  %block = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %pads = "tf.Const"() <{value = dense<[[0, 1], [1, 0]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // expected-error@+1 {{requires block_shape[i] divides input_shape[i + 1] + paddings[i, 0] + paddings[i, 1]; failed for i=1}}
  %0 = "tf.SpaceToBatchND"(%x, %block, %pads) : (tensor<2x5x4x1xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @space_to_batch_paddings_rank(%x: tensor<2x5x4x1xf32>, %b: tensor<2xi32>, %p: tensor<4xi32>) {
  // expected-error@+1 {{requires rank of paddings = 2; got 1}}
  %0 = "tf.SpaceToBatchND"(%x, %b, %p) : (tensor<2x5x4x1xf32>, tensor<2xi32>, tensor<4xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @broadcast_gradient_args_size() {
  %s0 = "tf.Const"() <{value = dense<[2, 1, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %s1 = "tf.Const"() <{value = dense<[3]> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{requires dimension 0 size of 'r1' to be 2 but got 3}}
  %r0, %r1 = "tf.BroadcastGradientArgs"(%s0, %s1) : (tensor<3xi32>, tensor<1xi32>) -> (tensor<1xi32>, tensor<3xi32>)
  return
}

// -----

func.func @broadcast_gradient_args_rank(%s: tensor<2x2xi64>, %t: tensor<2xi64>) {
  // expected-error@+1 {{failed to verify that operand 0 is 1-D}}
  %r0, %r1 = "tf.BroadcastGradientArgs"(%s, %t) : (tensor<2x2xi64>, tensor<2xi64>) -> (tensor<?xi64>, tensor<?xi64>)
  return
}

// -----

func.func @broadcast_gradient_args_element_type(%s: tensor<2xi64>, %t: tensor<2xi64>) {
  // expected-error@+1 {{requires the same element type for all operands and results}}
  %r0, %r1 = "tf.BroadcastGradientArgs"(%s, %t) : (tensor<2xi64>, tensor<2xi64>) -> (tensor<?xi32>, tensor<?xi64>)
  return
}

// -----

func.func @dynamic_stitch_missing(%x: tensor<2x5xf32>) {
  %idx = "tf.Const"() <{value = dense<[0, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{missing index 1}}
  %0 = "tf.DynamicStitch"(%idx, %x) : (tensor<2xi32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @dynamic_stitch_items(%i: tensor<2xi32>, %j: tensor<i32>, %x: tensor<2x5xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{has inconsistent shaped data and index pairs; inferred item shapes [5] and [4] don't match}}
  %0 = "tf.DynamicStitch"(%i, %j, %x, %y) : (tensor<2xi32>, tensor<i32>, tensor<2x5xf32>, tensor<4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @concat_offset_lengths(%i: tensor<i32>, %a: tensor<3xi32>, %b: tensor<2xi32>) {
  // expected-error@+1 {{'tf.ConcatOffset' op requires shape tensor (rank 1) operand 1 to be of length 3, got tensor (rank 1) of length 2}}
  %0:2 = "tf.ConcatOffset"(%i, %a, %b) : (tensor<i32>, tensor<3xi32>, tensor<2xi32>) -> (tensor<3xi32>, tensor<2xi32>)
  return
}

// -----

func.func @shape_n_rank(%x: tensor<2x5xf32>) {
  // expected-error@+1 {{'tf.ShapeN' op requires dimension size of result #0 to match rank of operand #0}}
  %0:2 = "tf.ShapeN"(%x, %x) : (tensor<2x5xf32>, tensor<2x5xf32>) -> (tensor<3xi32>, tensor<2xi32>)
  return
}

// -----

func.func @shape_n_static_for_unranked(%x: tensor<*xf32>) {
  // expected-warning@+1 {{has static shape result #1 for unranked operand #1}}
  %0:2 = "tf.ShapeN"(%x, %x) : (tensor<*xf32>, tensor<*xf32>) -> (tensor<?xi32>, tensor<4xi32>)
  return
}

// -----

func.func @cumprod_axis(%x: tensor<2x5xf32>) {
  %axis = "tf.Const"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{axis operand should be within range [-2, 2); actual value: 2}}
  %0 = "tf.Cumprod"(%x, %axis) : (tensor<2x5xf32>, tensor<i32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @cumsum_types(%x: tensor<2x5xf32>, %axis: tensor<i32>) {
  // expected-error@+1 {{failed to verify that all of {x, out} have dynamically equal types}}
  %0 = "tf.Cumsum"(%x, %axis) : (tensor<2x5xf32>, tensor<i32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @any_dims(%b: tensor<2x5xi1>) {
  %dims = "tf.Const"() <{value = dense<[0, -3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{1-th dimension should be in the range of [-2, 2)}}
  %0 = "tf.Any"(%b, %dims) <{keep_dims = false}> : (tensor<2x5xi1>, tensor<2xi32>) -> tensor<*xi1>
  return
}

// -----

func.func @tile_output(%x: tensor<2x3xf32>) {
  %m = "tf.Const"() <{value = dense<[2, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{requires input.shape[0] (2) * 2 to be equal to output.shape[0] (2)}}
  %0 = "tf.Tile"(%x, %m) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @matrix_band_part_rank(%x: tensor<5xf32>, %n: tensor<i64>) {
  // expected-error@+1 {{requires `input` to have rank of at least 2, but found 'tensor<5xf32>'}}
  %0 = "tf.MatrixBandPart"(%x, %n, %n) : (tensor<5xf32>, tensor<i64>, tensor<i64>) -> tensor<5xf32>
  return
}

// -----

func.func @mirror_pad_paddings(%x: tensor<2x3xf32>, %p: tensor<4xi32>) {
  // expected-error@+1 {{'tf.MirrorPad' op failed to verify that operand 1 is 2-D}}
  %0 = "tf.MirrorPad"(%x, %p) <{mode = "REFLECT"}> : (tensor<2x3xf32>, tensor<4xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<1x1xi32>, %x: tensor<2x3xf32>) {
  // expected-error@+1 {{'tf.Concat' op requires axis to be of scalar type (or vector type for older versions)}}
  %0 = "tf.Concat"(%a, %x, %x) : (tensor<1x1xi32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @concat_ranks(%k: tensor<i32>, %x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  // expected-error@+1 {{operand type 'tensor<2xf32>' is not compatible with preceding operands; expected rank: 2}}
  %0 = "tf.Concat"(%k, %x, %y) : (tensor<i32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @slice_element_type(%x: tensor<2x3xf32>, %b: tensor<2xi32>) {
  // expected-error@+1 {{'tf.Slice' op failed to verify that input and output must have same element type}}
  %0 = "tf.Slice"(%x, %b, %b) : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xi32>
  return
}

// -----

func.func @strided_slice_grad_shape(%s: tensor<2x2xi32>, %b: tensor<2xi32>, %dy: tensor<2x2xf32>) {
  // expected-error@+1 {{'shape' operand must be 1D tensor, but got 2D tensor}}
  %0 = "tf.StridedSliceGrad"(%s, %b, %b, %b, %dy) : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @strided_slice_grad_strides(%s: tensor<2xi32>, %b: tensor<2xi32>, %dy: tensor<2x2xf32>) {
  %strides = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{requires non-zero strides}}
  %0 = "tf.StridedSliceGrad"(%s, %b, %b, %strides, %dy) : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @one_hot_depth(%i: tensor<2xi32>, %on: tensor<f32>) {
  %depth = "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{depth must be non-negative, got: -1}}
  %0 = "tf.OneHot"(%i, %depth, %on, %on) <{axis = -1 : i64}> : (tensor<2xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @one_hot_axis(%i: tensor<2xi32>, %d: tensor<i32>, %on: tensor<f32>) {
  // expected-error@+1 {{expected axis (2) to be -1 or between [0, 1]}}
  %0 = "tf.OneHot"(%i, %d, %on, %on) <{axis = 2 : i64}> : (tensor<2xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @data_format_vec_permute(%x: tensor<3xi32>) {
  // expected-error@+1 {{requires 1D input of size 4 or size 2}}
  %0 = "tf.DataFormatVecPermute"(%x) : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @einsum_arity(%x: tensor<2xf32>) {
  // expected-error@+1 {{'tf.Einsum' op must have 1 or 2 operands}}
  %0 = "tf.Einsum"(%x, %x, %x) <{equation = "i,i,i->"}> : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  return
}

// -----

func.func @top_k_input(%x: tensor<f32>, %k: tensor<i32>) {
  // expected-error@+1 {{requires input operand to have at least 1 dimension}}
  %0:2 = "tf.TopKV2"(%x, %k) : (tensor<f32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xi32>)
  return
}

// -----

func.func @invert_permutation_rank(%x: tensor<i32>) {
  // expected-error@+1 {{requires input x to be 1-dimensional}}
  %0 = "tf.InvertPermutation"(%x) : (tensor<i32>) -> tensor<i32>
  return
}

// -----

func.func @tensor_scatter_update_rank(%t: tensor<3xf32>, %i: tensor<2x4xi32>, %u: tensor<2xf32>) {
  // expected-error@+1 {{requires tensor operand with rank greater than or equal to the indices operand's last dimensions}}
  %0 = "tf.TensorScatterUpdate"(%t, %i, %u) : (tensor<3xf32>, tensor<2x4xi32>, tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @unsorted_segment_prefix(%x: tensor<4x3xf32>, %ids: tensor<3xi32>, %n: tensor<i32>) {
  // expected-error@+1 {{requires segment ids shape to be a prefix of data shape, but dimension #0 differs: 3 vs. 4}}
  %0 = "tf.UnsortedSegmentMin"(%x, %ids, %n) : (tensor<4x3xf32>, tensor<3xi32>, tensor<i32>) -> tensor<?x3xf32>
  return
}

// -----

func.func @parse_example_num_sparse(%s: tensor<2x!tf_type.string>, %k: tensor<1x!tf_type.string>, %e: tensor<0x!tf_type.string>) {
  // expected-error@+1 {{attribute 'num_sparse' should be the same as the length of attribute 'sparse_types'}}
  %0:3 = "tf.ParseExampleV2"(%s, %s, %k, %e, %e) <{dense_shapes = [], num_sparse = 2 : i64, resultSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}> : (tensor<2x!tf_type.string>, tensor<2x!tf_type.string>, tensor<1x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>) -> (tensor<?x2xi64>, tensor<?xf32>, tensor<2xi64>)
  return
}

// -----

func.func @parse_example_valid(%s: tensor<2x!tf_type.string>, %k: tensor<1x!tf_type.string>, %e: tensor<0x!tf_type.string>) {
  %0:3 = "tf.ParseExampleV2"(%s, %s, %k, %e, %e) <{dense_shapes = [], num_sparse = 1 : i64, resultSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}> : (tensor<2x!tf_type.string>, tensor<2x!tf_type.string>, tensor<1x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>) -> (tensor<?x2xi64>, tensor<?xf32>, tensor<2xi64>)
  return
}
