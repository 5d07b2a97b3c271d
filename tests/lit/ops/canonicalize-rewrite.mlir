// RUN: tfmlir-opt %s -canonicalize | FileCheck %s
// Canonicalization patterns rewriting tf ops into their newer or simpler
// form (cpp/lib/TfPatternsRewrite.cpp; If/Case/IfRegion/CaseRegion in
// cpp/lib/TfCanonicalize.cpp), as TF 2.21 does them.

// An Assert of a constant true condition is erased; false or unknown stay.
// CHECK-LABEL: func @assert_kept_unless_true
// CHECK-NEXT: %[[F:.*]] = "tf.Const"() <{value = dense<false> : tensor<i1>}>
// CHECK-NEXT: "tf.Assert"(%[[F]], %arg0) <{summarize = 5 : i64}>
// CHECK-NEXT: "tf.Assert"(%arg1, %arg0) :
// CHECK-NEXT: return
func.func @assert_kept_unless_true(%arg0: tensor<3xf32>, %arg1: tensor<i1>) {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %f = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  "tf.Assert"(%t, %arg0) : (tensor<i1>, tensor<3xf32>) -> ()
  "tf.Assert"(%f, %arg0) {summarize = 5 : i64} : (tensor<i1>, tensor<3xf32>) -> ()
  "tf.Assert"(%arg1, %arg0) : (tensor<i1>, tensor<3xf32>) -> ()
  func.return
}

// Gather -> GatherV2 on axis 0, batch_dims 0; device and underscored
// attributes carried over, others and validate_indices dropped.
// CHECK-LABEL: func @gather_v1
// CHECK: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
// CHECK: "tf.GatherV2"(%arg0, %arg1, %[[AXIS]]) <{batch_dims = 0 : i64}> {_class = "a", device = "/device:CPU:0"} : (tensor<5x2xi32>, tensor<3xi64>, tensor<i32>) -> tensor<3x2xi32>
func.func @gather_v1(%arg0: tensor<5x2xi32>, %arg1: tensor<3xi64>) -> tensor<3x2xi32> {
  %0 = "tf.Gather"(%arg0, %arg1) {validate_indices = false, _class = "a", device = "/device:CPU:0", other = 1 : i64} : (tensor<5x2xi32>, tensor<3xi64>) -> tensor<3x2xi32>
  func.return %0 : tensor<3x2xi32>
}

// BatchMatMul -> BatchMatMulV2 only for static shapes (V1 does not
// broadcast); BatchMatMulV2 of matrices -> MatMul.
// CHECK-LABEL: func @batch_matmul
// CHECK: %0 = "tf.BatchMatMulV2"(%arg0, %arg1) <{adj_x = false, adj_y = true, grad_x = false, grad_y = false}>
// CHECK: %1 = "tf.BatchMatMul"(%arg2, %arg1) <{adj_y = true}>
// CHECK: %2 = "tf.MatMul"(%arg3, %arg4) <{grad_a = false, grad_b = true, transpose_a = true, transpose_b = false}> : (tensor<3x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK: %3 = "tf.BatchMatMulV2"(%arg0, %arg1) <{adj_y = true}>
func.func @batch_matmul(%arg0: tensor<4x2x3xf32>, %arg1: tensor<4x5x3xf32>, %arg2: tensor<?x2x3xf32>, %arg3: tensor<3x2xf64>, %arg4: tensor<2x2xf64>) -> (tensor<4x2x5xf32>, tensor<?x2x5xf32>, tensor<2x2xf64>, tensor<4x2x5xf32>) {
  %0 = "tf.BatchMatMul"(%arg0, %arg1) {adj_y = true} : (tensor<4x2x3xf32>, tensor<4x5x3xf32>) -> tensor<4x2x5xf32>
  %1 = "tf.BatchMatMul"(%arg2, %arg1) {adj_y = true} : (tensor<?x2x3xf32>, tensor<4x5x3xf32>) -> tensor<?x2x5xf32>
  %2 = "tf.BatchMatMulV2"(%arg3, %arg4) {adj_x = true, grad_y = true} : (tensor<3x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %3 = "tf.BatchMatMulV2"(%arg0, %arg1) {adj_y = true} : (tensor<4x2x3xf32>, tensor<4x5x3xf32>) -> tensor<4x2x5xf32>
  func.return %0, %1, %2, %3 : tensor<4x2x5xf32>, tensor<?x2x5xf32>, tensor<2x2xf64>, tensor<4x2x5xf32>
}

// BatchToSpace of a rank-4 input and rank-2 crops -> BatchToSpaceND.
// CHECK-LABEL: func @batch_to_space
// CHECK: %[[SHAPE:.*]] = "tf.Const"() <{value = dense<2> : tensor<2xi64>}>
// CHECK: "tf.BatchToSpaceND"(%arg0, %[[SHAPE]], %arg1) : (tensor<8x1x1x3xf32>, tensor<2xi64>, tensor<2x2xi64>) -> tensor<2x2x2x3xf32>
// CHECK: "tf.BatchToSpace"(%arg2, %arg1) <{block_size = 2 : i64}>
func.func @batch_to_space(%arg0: tensor<8x1x1x3xf32>, %arg1: tensor<2x2xi64>, %arg2: tensor<*xf32>) -> (tensor<2x2x2x3xf32>, tensor<*xf32>) {
  %0 = "tf.BatchToSpace"(%arg0, %arg1) {block_size = 2 : i64} : (tensor<8x1x1x3xf32>, tensor<2x2xi64>) -> tensor<2x2x2x3xf32>
  %1 = "tf.BatchToSpace"(%arg2, %arg1) {block_size = 2 : i64} : (tensor<*xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  func.return %0, %1 : tensor<2x2x2x3xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @bias_add_v1
// CHECK: "tf.BiasAdd"(%arg0, %arg1) <{data_format = "NHWC"}> {_xla_outside_compilation = "c"}
func.func @bias_add_v1(%arg0: tensor<2x7xf16>, %arg1: tensor<7xf16>) -> tensor<2x7xf16> {
  %0 = "tf.BiasAddV1"(%arg0, %arg1) {_xla_outside_compilation = "c"} : (tensor<2x7xf16>, tensor<7xf16>) -> tensor<2x7xf16>
  func.return %0 : tensor<2x7xf16>
}

// A Bitcast to its own type is its operand; Bitcast of Bitcast is one.
// CHECK-LABEL: func @bitcasts
// CHECK-NEXT: %[[B:.*]] = "tf.Bitcast"(%arg0) {device = "d"} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: return %arg0, %[[B]]
func.func @bitcasts(%arg0: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0 = "tf.Bitcast"(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = "tf.Bitcast"(%arg0) : (tensor<4xi32>) -> tensor<4x2xi16>
  %2 = "tf.Bitcast"(%1) {device = "d"} : (tensor<4x2xi16>) -> tensor<4xf32>
  func.return %0, %2 : tensor<4xi32>, tensor<4xf32>
}

// CHECK-LABEL: func @concat_v1
// CHECK: "tf.ConcatV2"(%arg0, %arg1, %arg2, %arg3) : (tensor<3xf32>, tensor<2xf32>, tensor<4xf32>, tensor<i32>) -> tensor<9xf32>
func.func @concat_v1(%arg0: tensor<3xf32>, %arg1: tensor<2xf32>, %arg2: tensor<4xf32>, %axis: tensor<i32>) -> tensor<9xf32> {
  %0 = "tf.Concat"(%axis, %arg0, %arg1, %arg2) : (tensor<i32>, tensor<3xf32>, tensor<2xf32>, tensor<4xf32>) -> tensor<9xf32>
  func.return %0 : tensor<9xf32>
}

// Add -> AddV2 for numbers only (strings concatenate).
// CHECK-LABEL: func @add_v1
// CHECK: "tf.AddV2"(%arg0, %arg1) {_a = 1 : i64} : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
// CHECK: "tf.Add"(%arg2, %arg2)
func.func @add_v1(%arg0: tensor<2xui8>, %arg1: tensor<2xui8>, %arg2: tensor<!tf_type.string>, %arg3: tensor<2xi1>) -> (tensor<2xui8>, tensor<!tf_type.string>) {
  %0 = "tf.Add"(%arg0, %arg1) {_a = 1 : i64, b = 2 : i64} : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %1 = "tf.Add"(%arg2, %arg2) : (tensor<!tf_type.string>, tensor<!tf_type.string>) -> tensor<!tf_type.string>
  func.return %0, %1 : tensor<2xui8>, tensor<!tf_type.string>
}

// incompatible_shape_error becomes true where the result is ranked and not a
// scalar unless the operands are. Where the operands broadcast to an unranked
// type, TF's builder would give the op that type (IR TF's verifier then
// rejects); the op keeps its own.
// CHECK-LABEL: func @equal_shape_error
// CHECK: "tf.Equal"(%arg0, %arg1) <{incompatible_shape_error = true}> : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xi1>
// CHECK: "tf.NotEqual"(%arg2, %arg1) <{incompatible_shape_error = false}>
// CHECK: "tf.NotEqual"(%arg2, %arg2) <{incompatible_shape_error = false}>
// CHECK: "tf.Equal"(%arg3, %arg2) <{incompatible_shape_error = true}> : (tensor<*xf32>, tensor<?xf32>) -> tensor<?xi1>
func.func @equal_shape_error(%arg0: tensor<3x1xf32>, %arg1: tensor<4xf32>, %arg2: tensor<?xf32>, %arg3: tensor<*xf32>) -> (tensor<3x4xi1>, tensor<*xi1>, tensor<i1>, tensor<?xi1>) {
  %0 = "tf.Equal"(%arg0, %arg1) {incompatible_shape_error = false} : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %1 = "tf.NotEqual"(%arg2, %arg1) {incompatible_shape_error = false} : (tensor<?xf32>, tensor<4xf32>) -> tensor<*xi1>
  %2 = "tf.NotEqual"(%arg2, %arg2) {incompatible_shape_error = false} : (tensor<?xf32>, tensor<?xf32>) -> tensor<i1>
  %3 = "tf.Equal"(%arg3, %arg2) {incompatible_shape_error = false} : (tensor<*xf32>, tensor<?xf32>) -> tensor<?xi1>
  func.return %0, %1, %2, %3 : tensor<3x4xi1>, tensor<*xi1>, tensor<i1>, tensor<?xi1>
}

// AddN of one non-zero operand of the result type is that operand; of zeros
// only, a zero of the result type; broadcasting zeros stay.
// CHECK-LABEL: func @add_n
// CHECK-DAG: %[[NZ:.*]] = "tf.Const"() <{value = dense<-0.000000e+00> : tensor<3xf64>}>
// CHECK-DAG: %[[Z:.*]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3xf64>}>
// CHECK: %[[B:.*]] = "tf.AddN"(%arg1, %[[NZ]])
// CHECK: %[[S:.*]] = "tf.AddN"(%arg0, %arg0)
// CHECK: return %arg0, %[[Z]], %[[B]], %[[S]]
func.func @add_n(%arg0: tensor<3xf64>, %arg1: tensor<1xf64>) -> (tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) {
  %z = "tf.Const"() {value = dense<-0.0> : tensor<3xf64>} : () -> tensor<3xf64>
  %z1 = "tf.Const"() {value = dense<0.0> : tensor<1xf64>} : () -> tensor<1xf64>
  %0 = "tf.AddN"(%z, %arg0, %z) : (tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %1 = "tf.AddN"(%z1, %z) : (tensor<1xf64>, tensor<3xf64>) -> tensor<3xf64>
  %2 = "tf.AddN"(%arg1, %z) : (tensor<1xf64>, tensor<3xf64>) -> tensor<3xf64>
  %3 = "tf.AddN"(%arg0, %arg0) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  func.return %0, %1, %2, %3 : tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>
}

// ToBool of a scalar compares with zero; of other ranked tensors it is
// whether the tensor has elements (TF counts dynamic dimensions as
// non-zero); unranked stays.
// CHECK-LABEL: func @to_bool
// CHECK-DAG: %[[FALSE:.*]] = "tf.Const"() <{value = dense<false> : tensor<i1>}>
// CHECK-DAG: %[[TRUE:.*]] = "tf.Const"() <{value = dense<true> : tensor<i1>}>
// CHECK-DAG: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i64>}>
// CHECK: %[[NE:.*]] = "tf.NotEqual"(%arg0, %[[ZERO]]) <{incompatible_shape_error = true}> {device = "d"}
// CHECK: %[[U:.*]] = "tf.ToBool"(%arg3)
// CHECK: return %[[NE]], %[[TRUE]], %[[FALSE]], %[[U]]
func.func @to_bool(%arg0: tensor<i64>, %arg1: tensor<2x?xf32>, %arg2: tensor<3x0xi8>, %arg3: tensor<*xf32>) -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %0 = "tf.ToBool"(%arg0) {device = "d"} : (tensor<i64>) -> tensor<i1>
  %1 = "tf.ToBool"(%arg1) : (tensor<2x?xf32>) -> tensor<i1>
  %2 = "tf.ToBool"(%arg2) : (tensor<3x0xi8>) -> tensor<i1>
  %3 = "tf.ToBool"(%arg3) : (tensor<*xf32>) -> tensor<i1>
  func.return %0, %1, %2, %3 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}

func.func private @then(%arg0: tensor<2xf32>) -> tensor<2xf32>

func.func private @else(%arg0: tensor<2xf32>) -> tensor<2xf32>

// If/Case of a constant are calls of the branch taken (Case: the last one
// for an index out of range); output_shapes is dropped.
// CHECK-LABEL: func @if_case
// CHECK: "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @then}> {_attr = "x"}
// CHECK: "tf.If"(%arg1, %arg0) <{else_branch = @else, is_stateless = false, then_branch = @then}> : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @else}> {device = "d"}
// CHECK: "tf.Case"(%arg2, %arg0) <{branches = [@then, @else], is_stateless = false}> : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
func.func @if_case(%arg0: tensor<2xf32>, %arg1: tensor<i1>, %arg2: tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %i = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.If"(%t, %arg0) {then_branch = @then, else_branch = @else, is_stateless = true, _attr = "x", other = "y", output_shapes = [#tf_type.shape<2>]} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.If"(%arg1, %arg0) {then_branch = @then, else_branch = @else, is_stateless = false, output_shapes = [#tf_type.shape<2>]} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Case"(%i, %arg0) {branches = [@then, @else], is_stateless = false, device = "d"} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = "tf.Case"(%arg2, %arg0) {branches = [@then, @else], is_stateless = false, output_shapes = [#tf_type.shape<2>]} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// IfRegion of a constant: the branch taken, inlined. A value every branch
// yields from outside replaces its result, unless their types differ (TF
// replaces those too, with IR its verifier rejects here).
// CHECK-LABEL: func @if_region
// CHECK-NEXT: %[[ABS:.*]] = "tf.Abs"(%arg0)
// CHECK-NEXT: %[[IF:.*]]:2 = "tf.IfRegion"(%arg2) <{is_stateless = false}> ({
// CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%arg0)
// CHECK-NEXT: "tf.Yield"(%[[NEG]], %arg1) : (tensor<2xf32>, tensor<?xf32>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: "tf.Yield"(%arg0, %arg1) : (tensor<2xf32>, tensor<?xf32>) -> ()
// CHECK-NEXT: }) : (tensor<i1>) -> (tensor<2xf32>, tensor<*xf32>)
// CHECK-NEXT: return %[[ABS]], %[[IF]]#0, %arg1, %[[IF]]#1
func.func @if_region(%arg0: tensor<2xf32>, %arg1: tensor<?xf32>, %arg2: tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>, tensor<?xf32>, tensor<*xf32>) {
  %f = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %0 = "tf.IfRegion"(%f) ({
    %n = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    "tf.Yield"(%n) : (tensor<2xf32>) -> ()
  }, {
    %a = "tf.Abs"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    "tf.Yield"(%a) : (tensor<2xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<2xf32>
  %1:3 = "tf.IfRegion"(%arg2) ({
    %n = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    "tf.Yield"(%n, %arg1, %arg1) : (tensor<2xf32>, tensor<?xf32>, tensor<?xf32>) -> ()
  }, {
    "tf.Yield"(%arg0, %arg1, %arg1) : (tensor<2xf32>, tensor<?xf32>, tensor<?xf32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> (tensor<2xf32>, tensor<?xf32>, tensor<*xf32>)
  func.return %0, %1#0, %1#1, %1#2 : tensor<2xf32>, tensor<2xf32>, tensor<?xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @case_region_not_pass_through
// CHECK: "tf.CaseRegion"(%arg2)
// CHECK: "tf.Yield"(%arg0)
// CHECK: "tf.Yield"(%arg1)
func.func @case_region_not_pass_through(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<i32>) -> tensor<2xf32> {
  %0 = "tf.CaseRegion"(%arg2) ({
    "tf.Yield"(%arg0) : (tensor<2xf32>) -> ()
  }, {
    "tf.Yield"(%arg1) : (tensor<2xf32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @nms_and_batch_norm
// CHECK: %[[SEL:.*]], %{{.*}} = "tf.NonMaxSuppressionV4"(%arg0, %arg1, %arg2, %arg3, %arg3) <{pad_to_max_output_size = false}> : (tensor<5x4xf16>, tensor<5xf16>, tensor<i32>, tensor<f16>, tensor<f16>) -> (tensor<?xi32>, tensor<i32>)
// CHECK: %[[Y:.*]], %{{.*}}, %[[VAR:.*]], %{{.*}}, %{{.*}}, %{{.*}} = "tf.FusedBatchNormV3"(%arg4, %arg5, %arg5, %arg5, %arg5) <{epsilon = 5.000000e-01 : f32, is_training = false}> {_k = 3 : i64} : {{.*}} -> (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<*xf32>)
// CHECK: return %[[SEL]], %[[Y]], %[[VAR]]
func.func @nms_and_batch_norm(%arg0: tensor<5x4xf16>, %arg1: tensor<5xf16>, %arg2: tensor<i32>, %arg3: tensor<f16>, %x: tensor<1x2x2x3xf32>, %s: tensor<3xf32>) -> (tensor<?xi32>, tensor<1x2x2x3xf32>, tensor<3xf32>) {
  %0 = "tf.NonMaxSuppressionV3"(%arg0, %arg1, %arg2, %arg3, %arg3) : (tensor<5x4xf16>, tensor<5xf16>, tensor<i32>, tensor<f16>, tensor<f16>) -> tensor<?xi32>
  %1:5 = "tf.FusedBatchNorm"(%x, %s, %s, %s, %s) {epsilon = 0.5 : f32, is_training = false, _k = 3 : i64} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %0, %1#0, %1#2 : tensor<?xi32>, tensor<1x2x2x3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func @matrix_diag
// CHECK-DAG: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-DAG: %[[M1:.*]] = "tf.Const"() <{value = dense<-1> : tensor<i32>}>
// CHECK: "tf.MatrixDiagV3"(%arg0, %[[ZERO]], %[[M1]], %[[M1]], %[[ZERO]]) <{align = "RIGHT_LEFT"}>
// CHECK: "tf.MatrixSetDiagV3"(%arg1, %arg0, %[[ZERO]]) <{align = "RIGHT_LEFT"}>
// CHECK: "tf.MatrixSetDiagV3"(%arg1, %arg0, %arg2) <{align = "LEFT_LEFT"}>
func.func @matrix_diag(%arg0: tensor<3xi32>, %arg1: tensor<3x3xi32>, %arg2: tensor<2xi32>) -> (tensor<3x3xi32>, tensor<3x3xi32>, tensor<3x3xi32>) {
  %0 = "tf.MatrixDiag"(%arg0) : (tensor<3xi32>) -> tensor<3x3xi32>
  %1 = "tf.MatrixSetDiag"(%arg1, %arg0) : (tensor<3x3xi32>, tensor<3xi32>) -> tensor<3x3xi32>
  %2 = "tf.MatrixSetDiagV2"(%arg1, %arg0, %arg2) : (tensor<3x3xi32>, tensor<3xi32>, tensor<2xi32>) -> tensor<3x3xi32>
  func.return %0, %1, %2 : tensor<3x3xi32>, tensor<3x3xi32>, tensor<3x3xi32>
}

// CHECK-LABEL: func @variable_and_quantize
// CHECK: "tf.VariableV2"() <{container = "", shape = #tf_type.shape<2>, shared_name = "v"}> : () -> tensor<2x!tf_type.f32ref>
// CHECK: "tf.QuantizeAndDequantizeV4"(%arg0, %arg1, %arg1) <{axis = -1 : i64, narrow_range = false, num_bits = 4 : i64, range_given = true, round_mode = "HALF_TO_EVEN", signed_input = true}>
func.func @variable_and_quantize(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> (tensor<2x!tf_type.f32ref>, tensor<4xf32>) {
  %0 = "tf.Variable"() {shape = #tf_type.shape<2>, shared_name = "v"} : () -> tensor<2x!tf_type.f32ref>
  %1 = "tf.QuantizeAndDequantizeV2"(%arg0, %arg1, %arg1) {num_bits = 4 : i64, range_given = true} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return %0, %1 : tensor<2x!tf_type.f32ref>, tensor<4xf32>
}

// Users of a HashTable read a new HashTableV2, which takes the user's
// device; users of other handles stay.
// CHECK-LABEL: func @hash_table
// CHECK: %[[T1:.*]] = "tf.HashTableV2"() <{container = "", key_dtype = i64, shared_name = "", use_node_name_sharing = true, value_dtype = f32}> {device = "s"} : () -> tensor<!tf_type.resource>
// CHECK: %[[SIZE:.*]] = "tf.LookupTableSizeV2"(%[[T1]]) {device = "s"}
// CHECK: %[[T2:.*]] = "tf.HashTableV2"() <{container = "", key_dtype = i64, shared_name = "", use_node_name_sharing = true, value_dtype = f32}> : () -> tensor<!tf_type.resource>
// CHECK: %[[FIND:.*]] = "tf.LookupTableFindV2"(%[[T2]], %arg1, %arg2)
// CHECK: %[[OTHER:.*]] = "tf.LookupTableSize"(%arg0)
// CHECK-NOT: "tf.HashTable"
// CHECK: return %[[SIZE]], %[[FIND]], %[[OTHER]]
func.func @hash_table(%arg0: tensor<*x!tf_type.stringref>, %keys: tensor<2xi64>, %dflt: tensor<f32>) -> (tensor<i64>, tensor<2xf32>, tensor<i64>) {
  %0 = "tf.HashTable"() {key_dtype = i64, value_dtype = f32, use_node_name_sharing = true, device = "t"} : () -> tensor<*x!tf_type.stringref>
  %1 = "tf.LookupTableSize"(%0) {device = "s"} : (tensor<*x!tf_type.stringref>) -> tensor<i64>
  %2 = "tf.LookupTableFind"(%0, %keys, %dflt) : (tensor<*x!tf_type.stringref>, tensor<2xi64>, tensor<f32>) -> tensor<2xf32>
  %3 = "tf.LookupTableSize"(%arg0) : (tensor<*x!tf_type.stringref>) -> tensor<i64>
  func.return %1, %2, %3 : tensor<i64>, tensor<2xf32>, tensor<i64>
}

func.func private @max(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Maximum"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func @xla_ops
// CHECK: "tf.XlaConvV2"(%arg0, %arg1, %arg2, %arg3, %arg2, %arg2, %arg4) <{batch_group_count = 1 : i64, dimension_numbers = "", precision_config = ""}> {_c = "c"}
// CHECK: "tf.XlaVariadicReduceV2"(%arg5, %arg7) <{dimensions_to_reduce = [1], operandSegmentSizes = array<i32: 1, 1>, reducer = @max}> : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: "tf.XlaVariadicReduceV2"(%arg5, %arg7) <{dimensions_to_reduce = [1], operandSegmentSizes = array<i32: 1, 1>, reducer = @max}>
func.func @xla_ops(%lhs: tensor<1x4x3xf32>, %rhs: tensor<2x3x5xf32>, %w: tensor<1xi64>, %p: tensor<1x2xi64>, %g: tensor<i64>, %x: tensor<4x3xf32>, %y: tensor<4x3xi32>, %f: tensor<f32>, %i: tensor<i32>) -> (tensor<1x3x5xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "tf.XlaConv"(%lhs, %rhs, %w, %p, %w, %w, %g) {dimension_numbers = "", precision_config = "", _c = "c"} : (tensor<1x4x3xf32>, tensor<2x3x5xf32>, tensor<1xi64>, tensor<1x2xi64>, tensor<1xi64>, tensor<1xi64>, tensor<i64>) -> tensor<1x3x5xf32>
  %1 = "tf.XlaReduce"(%x, %f) {dimensions_to_reduce = [1], reducer = @max} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = "tf.XlaVariadicReduce"(%x, %f) {dimensions_to_reduce = [1], reducer = @max} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0, %1, %2 : tensor<1x3x5xf32>, tensor<4xf32>, tensor<4xf32>
}

// A read of a cast handle reads the handle when only reads use the cast.
// CHECK-LABEL: func @read_of_cast
// CHECK-NEXT: %[[R:.*]] = "tf.ReadVariableOp"(%arg0) {_r = "r"} : (tensor<!tf_type.resource<tensor<3xi32>>>) -> tensor<3xi32>
// CHECK-NEXT: %[[C:.*]] = "tf.Cast"(%arg0) <{Truncate = true}>
// CHECK-NEXT: "tf.ReadVariableOp"(%[[C]])
// CHECK-NEXT: "tf.AssignVariableOp"(%[[C]], %arg1)
func.func @read_of_cast(%arg0: tensor<!tf_type.resource<tensor<3xi32>>>, %arg1: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = "tf.Cast"(%arg0) : (tensor<!tf_type.resource<tensor<3xi32>>>) -> tensor<!tf_type.resource>
  %1 = "tf.ReadVariableOp"(%0) {_r = "r"} : (tensor<!tf_type.resource>) -> tensor<3xi32>
  %2 = "tf.Cast"(%arg0) {Truncate = true} : (tensor<!tf_type.resource<tensor<3xi32>>>) -> tensor<*x!tf_type.resource>
  %3 = "tf.ReadVariableOp"(%2) : (tensor<*x!tf_type.resource>) -> tensor<3xi32>
  "tf.AssignVariableOp"(%2, %arg1) : (tensor<*x!tf_type.resource>, tensor<3xi32>) -> ()
  func.return %1, %3 : tensor<3xi32>, tensor<3xi32>
}

// TensorListGetItem of a TensorListFromTensor only read by
// TensorListGetItem -> a gather of the tensor.
// CHECK-LABEL: func @tensor_list
// CHECK: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK: "tf.GatherV2"(%arg0, %arg2, %[[AXIS]]) <{batch_dims = 0 : i64}> {device = "g"} : (tensor<6x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
// CHECK: %[[L:.*]] = "tf.TensorListFromTensor"(%arg0, %arg1)
// CHECK: "tf.TensorListGetItem"(%[[L]], %arg2, %arg1)
func.func @tensor_list(%arg0: tensor<6x2xf32>, %shape: tensor<1xi32>, %i: tensor<i32>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<!tf_type.variant<tensor<2xf32>>>) {
  %0 = "tf.TensorListFromTensor"(%arg0, %shape) : (tensor<6x2xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
  %1 = "tf.TensorListGetItem"(%0, %i, %shape) {device = "g"} : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<i32>, tensor<1xi32>) -> tensor<2xf32>
  %2 = "tf.TensorListFromTensor"(%arg0, %shape) : (tensor<6x2xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
  %3 = "tf.TensorListGetItem"(%2, %i, %shape) : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<i32>, tensor<1xi32>) -> tensor<2xf32>
  %4 = "tf.TensorListPushBack"(%2, %x) : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<2xf32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
  func.return %1, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<!tf_type.variant<tensor<2xf32>>>
}

// A BiasAdd of a rank-1 value would not verify: BiasAddV1 stays.
// CHECK-LABEL: func @bias_add_v1_rank1
// CHECK: "tf.BiasAddV1"
func.func @bias_add_v1_rank1(%arg0: tensor<7xf32>, %arg1: tensor<7xf32>) -> tensor<7xf32> {
  %0 = "tf.BiasAddV1"(%arg0, %arg1) : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
  func.return %0 : tensor<7xf32>
}
