// RUN: tfmlir-opt %s -canonicalize | FileCheck %s
// The tf dialect's constant-folding hook (TF's TFConstantFoldInterface and
// constant_fold.cc): ops without a folder of their own fold on constant
// operands when TF's policy allows it, evaluated by tfmlir.constant_folding.

// CHECK-LABEL: func @reciprocal
// CHECK-NEXT:    %[[C:.*]] = "tf.Const"() <{value = dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>}>
// CHECK-NEXT:    return %[[C]]
func.func @reciprocal() -> tensor<2xf32> {
  %0 = "tf.Const"() <{value = dense<[2.0, 4.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %1 = "tf.Reciprocal"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// Division by an f32 constant becomes a multiplication by its reciprocal,
// which then folds (TF's RealDivWithConstDivisor).
// CHECK-LABEL: func @real_div_by_constant
// CHECK-NEXT:    %[[C:.*]] = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}>
// CHECK-NEXT:    %[[M:.*]] = "tf.Mul"(%arg0, %[[C]]) {device = "/device:CPU:0"}
// CHECK-NEXT:    return %[[M]]
func.func @real_div_by_constant(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "tf.Const"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %1 = "tf.RealDiv"(%arg0, %0) {device = "/device:CPU:0"} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// x / sqrt(y) -> x * rsqrt(y)
// CHECK-LABEL: func @real_div_by_sqrt
// CHECK-NEXT:    %[[R:.*]] = "tf.Rsqrt"(%arg1)
// CHECK-NEXT:    %[[M:.*]] = "tf.Mul"(%arg0, %[[R]])
// CHECK-NEXT:    return %[[M]]
func.func @real_div_by_sqrt(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "tf.Sqrt"(%arg1) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "tf.RealDiv"(%arg0, %0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// Results that are all empty fold whatever the operands are.
// CHECK-LABEL: func @empty_results
// CHECK-NEXT:    %[[C:.*]] = "tf.Const"() <{value = dense<> : tensor<0x3xf32>}>
// CHECK-NEXT:    return %[[C]]
func.func @empty_results(%arg0: tensor<0x3xf32>, %arg1: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = "tf.Atan2"(%arg0, %arg1) : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// Not with TF's NoConstantFold trait, nor for an op TF's dialect does not
// define (TF leaves it unregistered), nor with side effects.
// CHECK-LABEL: func @empty_results_kept
// CHECK-NEXT:    "tf.Const"
// CHECK-NEXT:    "tf.StatelessRandomUniform"
// CHECK-NEXT:    "tf.RiscCast"
// CHECK-NEXT:    "tf.RandomUniform"
func.func @empty_results_kept(%arg0: tensor<2xi32>, %arg1: tensor<0xf32>) -> (tensor<0x3xf32>, tensor<0xf32>, tensor<0x3xf32>) {
  %seed = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.StatelessRandomUniform"(%arg0, %seed) : (tensor<2xi32>, tensor<2xi32>) -> tensor<0x3xf32>
  %1 = "tf.RiscCast"(%arg1) : (tensor<0xf32>) -> tensor<0xf32>
  %2 = "tf.RandomUniform"(%arg0) <{seed = 0 : i64, seed2 = 0 : i64}> : (tensor<2xi32>) -> tensor<0x3xf32>
  return %0, %1, %2 : tensor<0x3xf32>, tensor<0xf32>, tensor<0x3xf32>
}

// Shared evaluators: integer reductions, ranges, slices, casts.
// CHECK-LABEL: func @evaluated
// CHECK-DAG:     "tf.Const"() <{value = dense<[3, 7]> : tensor<2xi32>}>
// CHECK-DAG:     "tf.Const"() <{value = dense<[0, 3, 6]> : tensor<3xi64>}>
// CHECK-DAG:     "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}>
// CHECK-DAG:     "tf.Const"() <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>}>
// CHECK-NOT:     "tf.Sum"
// CHECK-NOT:     "tf.Range"
// CHECK-NOT:     "tf.Slice"
// CHECK-NOT:     "tf.Cast"
func.func @evaluated() -> (tensor<2xi32>, tensor<3xi64>, tensor<2xi32>, tensor<2xf64>) {
  %x = "tf.Const"() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %axis = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %0 = "tf.Sum"(%x, %axis) <{keep_dims = false}> : (tensor<2x2xi32>, tensor<i32>) -> tensor<2xi32>
  %s = "tf.Const"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %l = "tf.Const"() <{value = dense<9> : tensor<i64>}> : () -> tensor<i64>
  %d = "tf.Const"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %1 = "tf.Range"(%s, %l, %d) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %b = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %z = "tf.Const"() <{value = dense<[2, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %2 = "tf.Slice"(%x, %b, %z) : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x1xi32>
  %shape = "tf.Const"() <{value = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %3 = "tf.Reshape"(%2, %shape) : (tensor<2x1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %f = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %4 = "tf.Cast"(%f) <{Truncate = false}> : (tensor<2xi32>) -> tensor<2xf64>
  return %0, %1, %3, %4 : tensor<2xi32>, tensor<3xi64>, tensor<2xi32>, tensor<2xf64>
}

// Left unfolded: a slice out of bounds (TF's kernel fails). (TF also folds
// float reductions, which tfmlir leaves: Eigen's order of summation is not
// numpy's.)
// CHECK-LABEL: func @not_evaluated
// CHECK:         "tf.Slice"
func.func @not_evaluated() -> tensor<?x?xi32> {
  %x = "tf.Const"() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %b = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %z = "tf.Const"() <{value = dense<[1, -2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.Slice"(%x, %b, %z) : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
