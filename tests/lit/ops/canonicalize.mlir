// RUN: tfmlir-opt %s -canonicalize | FileCheck %s
// Folders (cpp/lib/TfFolders.cpp) and DRR patterns (td/TfCanonicalize.td) of tf ops.

// CHECK-LABEL: func @sub_self_int
// CHECK: %[[Z:.*]] = "tf.Const"() <{value = dense<0> : tensor<2x3xi32>}>
// CHECK-NOT: tf.Sub
// CHECK: return %[[Z]]
func.func @sub_self_int(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = "tf.Sub"(%x, %x) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// x - x stays for floats (inf - inf is NaN) and for dynamic shapes.
// CHECK-LABEL: func @sub_self_kept
// CHECK: "tf.Sub"(%arg0, %arg0)
// CHECK: "tf.Sub"(%arg1, %arg1)
func.func @sub_self_kept(%x: tensor<2xf32>, %y: tensor<?xi32>) -> (tensor<2xf32>, tensor<?xi32>) {
  %0 = "tf.Sub"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Sub"(%y, %y) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  return %0, %1 : tensor<2xf32>, tensor<?xi32>
}

// CHECK-LABEL: func @identities
// CHECK-NOT: "tf.AddV2"
// CHECK-NOT: "tf.Add"
// CHECK-NOT: "tf.Mul"
// CHECK-NOT: "tf.RealDiv"
// CHECK-NOT: "tf.Sub"
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg1
func.func @identities(%x: tensor<2x3xf32>, %i: tensor<4xi32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>) {
  %zero = "tf.Const"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %one = "tf.Const"() <{value = dense<1.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %izero = "tf.Const"() <{value = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %0 = "tf.AddV2"(%x, %zero) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = "tf.Add"(%zero, %x) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "tf.Mul"(%x, %one) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = "tf.Mul"(%one, %x) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "tf.RealDiv"(%x, %one) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = "tf.Sub"(%x, %zero) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %6 = "tf.AddV2"(%i, %izero) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>
}

// Not identities: -0.0 is not the additive identity TF folds, the zero
// broadcasts x to a larger shape, 0 - x is not x.
// CHECK-LABEL: func @identities_kept
// CHECK: "tf.AddV2"(%arg0, %{{.*}}) : (tensor<3xf32>, tensor<f32>)
// CHECK: "tf.AddV2"(%arg0, %{{.*}}) : (tensor<3xf32>, tensor<2x3xf32>)
// CHECK: "tf.Sub"(%{{.*}}, %arg0)
func.func @identities_kept(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>, tensor<3xf32>) {
  %nzero = "tf.Const"() <{value = dense<-0.0> : tensor<f32>}> : () -> tensor<f32>
  %zeros = "tf.Const"() <{value = dense<0.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %0 = "tf.AddV2"(%x, %nzero) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = "tf.AddV2"(%x, %zeros) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "tf.Sub"(%nzero, %x) : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<2x3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func @arithmetic
// CHECK-DAG: "tf.Const"() <{value = dense<{{\[}}[11, 22], [13, 24]]> : tensor<2x2xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[-3, 3, -3]> : tensor<3xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[2.500000e+00, -1.000000e+00]> : tensor<2xf32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[9, -7]> : tensor<2xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<-2> : tensor<2xi8>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[200, 1]> : tensor<2xui8>}>
// CHECK: "tf.Div"
// CHECK-NOT: "tf.AddV2"
// CHECK-NOT: "tf.Sub"
// CHECK-NOT: "tf.RealDiv"
func.func @arithmetic() -> (tensor<2x2xi32>, tensor<3xi32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<2xui8>) {
  %a = "tf.Const"() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %b = "tf.Const"() <{value = dense<[10, 20]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.AddV2"(%a, %b) : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  // Integer division truncates toward zero.
  %n = "tf.Const"() <{value = dense<[-7, 7, 7]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %d = "tf.Const"() <{value = dense<[2, 2, -2]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %1 = "tf.Div"(%n, %d) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %f = "tf.Const"() <{value = dense<[5.0, -3.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %g = "tf.Const"() <{value = dense<[2.0, 3.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %2 = "tf.RealDiv"(%f, %g) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %s = "tf.Const"() <{value = dense<[1, 27]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %3 = "tf.Sub"(%b, %s) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  // Division by zero is left to the runtime.
  %zero = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> : () -> tensor<2xi32>
  %4 = "tf.Div"(%b, %zero) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  // Integer arithmetic wraps around; unsigned types stay unsigned.
  %big = "tf.Const"() <{value = dense<127> : tensor<2xi8>}> : () -> tensor<2xi8>
  %5 = "tf.AddV2"(%big, %big) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %u = "tf.Const"() <{value = dense<[100, 255]> : tensor<2xui8>}> : () -> tensor<2xui8>
  %v = "tf.Const"() <{value = dense<[100, 2]> : tensor<2xui8>}> : () -> tensor<2xui8>
  %6 = "tf.AddV2"(%u, %v) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x2xi32>, tensor<3xi32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<2xui8>
}

// CHECK-LABEL: func @min_max_compare
// CHECK-DAG: "tf.Const"() <{value = dense<[3.000000e+00, 2.000000e+00]> : tensor<2xf32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[-5, 1]> : tensor<2xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[false, false, true]> : tensor<3xi1>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[false, true, false]> : tensor<3xi1>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[false, true, true]> : tensor<3xi1>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[true, false, false]> : tensor<3xi1>}>
// CHECK: "tf.Maximum"
// CHECK-NOT: "tf.Minimum"
// CHECK-NOT: "tf.Less"
func.func @min_max_compare() -> (tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %a = "tf.Const"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tf.Const"() <{value = dense<[3.0, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %0 = "tf.Maximum"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %i = "tf.Const"() <{value = dense<[-5, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %j = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %1 = "tf.Minimum"(%i, %j) : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  // A NaN operand is left to the runtime.
  %nan = "tf.Const"() <{value = dense<[0x7FC00000, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %2 = "tf.Maximum"(%nan, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %x = "tf.Const"() <{value = dense<[0x7FC00000, 1.0, 2.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %y = "tf.Const"() <{value = dense<[1.0, 1.0, 1.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %3 = "tf.Greater"(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %4 = "tf.NotEqual"(%x, %y) <{incompatible_shape_error = true}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %5 = "tf.Equal"(%x, %y) <{incompatible_shape_error = true}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %6 = "tf.LessEqual"(%y, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %7 = "tf.Less"(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %8 = "tf.LogicalOr"(%6, %7) : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %9 = "tf.LogicalNot"(%3) : (tensor<3xi1>) -> tensor<3xi1>
  %10 = "tf.LogicalAnd"(%9, %4) : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %0, %1, %2, %3, %5, %8, %10 : tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// CHECK-LABEL: func @unary
// CHECK-DAG: "tf.Const"() <{value = dense<[-1.500000e+00, 2.000000e+00]> : tensor<2xf32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[1.500000e+00, 2.000000e+00]> : tensor<2xf32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[9, 16]> : tensor<2xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[3, 4]> : tensor<2xi32>}>
// CHECK-NOT: "tf.Neg"
// CHECK-NOT: "tf.Abs"
// CHECK-NOT: "tf.Square"
func.func @unary() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>) {
  %f = "tf.Const"() <{value = dense<[1.5, -2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %i = "tf.Const"() <{value = dense<[-3, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.Neg"(%f) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Abs"(%f) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Square"(%i) : (tensor<2xi32>) -> tensor<2xi32>
  %3 = "tf.Abs"(%i) : (tensor<2xi32>) -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>
}

// CHECK-LABEL: func @cast
// CHECK-DAG: "tf.Const"() <{value = dense<[2, -2, 0]> : tensor<3xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[true, true, false]> : tensor<3xi1>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[3.000000e+00, -1.000000e+00]> : tensor<2xf64>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[3, 255]> : tensor<2xui8>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf16>}>
// CHECK: "tf.Cast"(%{{.*}}) <{Truncate = false}> : (tensor<2xf32>) -> tensor<2xi32>
// CHECK-NOT: "tf.Cast"
// CHECK: return %arg0
func.func @cast(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<3xi32>, tensor<3xi1>, tensor<2xf64>, tensor<2xui8>, tensor<2xf16>, tensor<2xi32>) {
  %0 = "tf.Cast"(%x) <{Truncate = false}> : (tensor<2xf32>) -> tensor<2xf32>
  %f = "tf.Const"() <{value = dense<[2.7, -2.7, 0.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %1 = "tf.Cast"(%f) <{Truncate = false}> : (tensor<3xf32>) -> tensor<3xi32>
  %2 = "tf.Cast"(%f) <{Truncate = false}> : (tensor<3xf32>) -> tensor<3xi1>
  %i = "tf.Const"() <{value = dense<[3, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %3 = "tf.Cast"(%i) <{Truncate = false}> : (tensor<2xi32>) -> tensor<2xf64>
  %4 = "tf.Cast"(%i) <{Truncate = false}> : (tensor<2xi32>) -> tensor<2xui8>
  %b = "tf.Const"() <{value = dense<[true, false]> : tensor<2xi1>}> : () -> tensor<2xi1>
  %5 = "tf.Cast"(%b) <{Truncate = false}> : (tensor<2xi1>) -> tensor<2xf16>
  // NaN has no integer value: left to the runtime.
  %nan = "tf.Const"() <{value = dense<[0x7FC00000, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %6 = "tf.Cast"(%nan) <{Truncate = false}> : (tensor<2xf32>) -> tensor<2xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xf32>, tensor<3xi32>, tensor<3xi1>, tensor<2xf64>, tensor<2xui8>, tensor<2xf16>, tensor<2xi32>
}

// CHECK-LABEL: func @shapes
// CHECK-DAG: "tf.Const"() <{value = dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<{{\[}}{{\[}}[1, 2, 3, 4, 5, 6]]]> : tensor<1x1x6xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi64>}>
// CHECK-DAG: "tf.Const"() <{value = dense<2> : tensor<i32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<6> : tensor<i64>}>
// CHECK-NOT: "tf.Reshape"
// CHECK-NOT: "tf.Transpose"
// CHECK-NOT: "tf.ExpandDims"
// CHECK-NOT: "tf.Squeeze"
// CHECK-NOT: "tf.Shape"
// CHECK-NOT: "tf.Rank"
// CHECK-NOT: "tf.Size"
// CHECK: return %arg0, %arg0
func.func @shapes(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<3x2xi32>, tensor<1x1x6xi32>, tensor<6xi32>, tensor<2xi64>, tensor<i32>, tensor<i64>) {
  %s = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %perm0 = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %1 = "tf.Transpose"(%x, %perm0) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %c = "tf.Const"() <{value = dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>}> : () -> tensor<6xi32>
  %2 = "tf.Reshape"(%c, %s) : (tensor<6xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  %perm = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %3 = "tf.Transpose"(%2, %perm) : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  %axis = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %e1 = "tf.ExpandDims"(%c, %axis) : (tensor<6xi32>, tensor<i32>) -> tensor<1x6xi32>
  %4 = "tf.ExpandDims"(%e1, %axis) : (tensor<1x6xi32>, tensor<i32>) -> tensor<1x1x6xi32>
  %5 = "tf.Squeeze"(%4) <{squeeze_dims = []}> : (tensor<1x1x6xi32>) -> tensor<6xi32>
  %6 = "tf.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  %7 = "tf.Rank"(%x) : (tensor<2x3xf32>) -> tensor<i32>
  %8 = "tf.Size"(%x) : (tensor<2x3xf32>) -> tensor<i64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<3x2xi32>, tensor<1x1x6xi32>, tensor<6xi32>, tensor<2xi64>, tensor<i32>, tensor<i64>
}

// Unknown shapes keep their shape ops.
// CHECK-LABEL: func @shapes_dynamic
// CHECK: "tf.Shape"
// CHECK: "tf.Rank"
// CHECK: "tf.Size"
// CHECK: "tf.Reshape"
func.func @shapes_dynamic(%x: tensor<?x3xf32>, %u: tensor<*xf32>) -> (tensor<2xi32>, tensor<i32>, tensor<i32>, tensor<?x3xf32>) {
  %0 = "tf.Shape"(%x) : (tensor<?x3xf32>) -> tensor<2xi32>
  %1 = "tf.Rank"(%u) : (tensor<*xf32>) -> tensor<i32>
  %2 = "tf.Size"(%x) : (tensor<?x3xf32>) -> tensor<i32>
  %s = "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %3 = "tf.Reshape"(%x, %s) : (tensor<?x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2xi32>, tensor<i32>, tensor<i32>, tensor<?x3xf32>
}

// CHECK-LABEL: func @select_fill
// CHECK-DAG: %[[FILL:.*]] = "tf.Const"() <{value = dense<7.000000e+00> : tensor<2x3xf32>}>
// CHECK-DAG: %[[ZEROS:.*]] = "tf.Const"() <{value = dense<0> : tensor<2x3xi32>}>
// CHECK-DAG: %[[ONES:.*]] = "tf.Const"() <{value = dense<true> : tensor<4xi1>}>
// CHECK-NOT: "tf.Select
// CHECK: return %arg0, %arg1, %arg1, %[[FILL]], %[[ZEROS]], %[[ONES]]
func.func @select_fill(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %c: tensor<2x3xi1>, %i: tensor<2x3xi32>, %b: tensor<4xi1>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<4xi1>) {
  %t = "tf.Const"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %f = "tf.Const"() <{value = dense<false> : tensor<2x3xi1>}> : () -> tensor<2x3xi1>
  %0 = "tf.Select"(%t, %x, %y) : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "tf.SelectV2"(%f, %x, %y) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "tf.SelectV2"(%c, %y, %y) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %dims = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %seven = "tf.Const"() <{value = dense<7.0> : tensor<f32>}> : () -> tensor<f32>
  %3 = "tf.Fill"(%dims, %seven) : (tensor<2xi32>, tensor<f32>) -> tensor<2x3xf32>
  %4 = "tf.ZerosLike"(%i) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %5 = "tf.OnesLike"(%b) : (tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<4xi1>
}

// CHECK-LABEL: func @pack_concat
// CHECK-DAG: "tf.Const"() <{value = dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<{{\[}}[1, 2, 5], [3, 4, 6]]> : tensor<2x3xi32>}>
// CHECK-NOT: "tf.Pack"
// CHECK-NOT: "tf.ConcatV2"
func.func @pack_concat() -> (tensor<2x2xi32>, tensor<2x3xi32>) {
  %a = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %b = "tf.Const"() <{value = dense<[3, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.Pack"(%a, %b) <{axis = -1 : i64}> : (tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  %1 = "tf.Pack"(%a, %b) <{axis = 0 : i64}> : (tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  %c = "tf.Const"() <{value = dense<[[5], [6]]> : tensor<2x1xi32>}> : () -> tensor<2x1xi32>
  %axis = "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
  %2 = "tf.ConcatV2"(%1, %c, %axis) : (tensor<2x2xi32>, tensor<2x1xi32>, tensor<i32>) -> tensor<2x3xi32>
  return %0, %2 : tensor<2x2xi32>, tensor<2x3xi32>
}

// Patterns keep the discardable attributes of the op they rewrite; an
// Identity of an Identity stays (TF has no such pattern).
// CHECK-LABEL: func @patterns
// CHECK-DAG: %[[PERM:.*]] = "tf.Const"() <{value = dense<[2, 0, 1]> : tensor<3xi32>}>
// CHECK-DAG: %[[ID0:.*]] = "tf.Identity"(%arg0) {device = "/device:CPU:1"}
// CHECK-DAG: %[[ID:.*]] = "tf.Identity"(%[[ID0]]) {device = "/device:CPU:0"}
// CHECK-DAG: %[[R:.*]] = "tf.Reshape"(%arg0, %arg2) {device = "/device:CPU:1"}
// CHECK: %[[T:.*]] = "tf.Transpose"(%arg1, %[[PERM]])
// CHECK: return %[[ID]], %[[R]], %[[T]], %arg1
func.func @patterns(%x: tensor<6xf32>, %y: tensor<2x3x4xf32>, %s: tensor<2xi32>)
    -> (tensor<6xf32>, tensor<*xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = "tf.Identity"(%x) {device = "/device:CPU:1"} : (tensor<6xf32>) -> tensor<6xf32>
  %1 = "tf.Identity"(%0) {device = "/device:CPU:0"} : (tensor<6xf32>) -> tensor<6xf32>
  %s1 = "tf.Const"() <{value = dense<[3, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %2 = "tf.Reshape"(%x, %s1) : (tensor<6xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %3 = "tf.Reshape"(%2, %s) {device = "/device:CPU:1"} : (tensor<3x2xf32>, tensor<2xi32>) -> tensor<*xf32>
  %p1 = "tf.Const"() <{value = dense<[1, 2, 0]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %4 = "tf.Transpose"(%y, %p1) : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<3x4x2xf32>
  %5 = "tf.Transpose"(%4, %p1) : (tensor<3x4x2xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
  // Composes to the identity permutation, which folds away.
  %p2 = "tf.Const"() <{value = dense<[2, 0, 1]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %6 = "tf.Transpose"(%4, %p2) : (tensor<3x4x2xf32>, tensor<3xi32>) -> tensor<2x3x4xf32>
  return %1, %3, %5, %6 : tensor<6xf32>, tensor<*xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// CHECK-LABEL: func @negations
// CHECK: %[[A:.*]] = "tf.Sub"(%arg0, %arg1) {device = "/device:CPU:0"}
// CHECK: %[[B:.*]] = "tf.Sub"(%arg0, %arg1)
// CHECK: %[[C:.*]] = "tf.AddV2"(%arg0, %arg1)
// CHECK-NOT: "tf.Neg"
// CHECK-NOT: "tf.LogicalNot"
// CHECK: return %[[A]], %[[B]], %[[C]], %arg0, %arg2
func.func @negations(%x: tensor<4xf32>, %y: tensor<4xf32>, %b: tensor<4xi1>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) {
  %ny = "tf.Neg"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "tf.AddV2"(%x, %ny) {device = "/device:CPU:0"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "tf.AddV2"(%ny, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "tf.Sub"(%x, %ny) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %nx = "tf.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "tf.Neg"(%nx) : (tensor<4xf32>) -> tensor<4xf32>
  %nb = "tf.LogicalNot"(%b) : (tensor<4xi1>) -> tensor<4xi1>
  %4 = "tf.LogicalNot"(%nb) : (tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>
}

// Inside an island, folded constants stay in the island.
// CHECK-LABEL: func @island
// CHECK: tf_executor.island {
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() <{value = dense<5> : tensor<i32>}>
// CHECK-NEXT: tf_executor.yield %[[C]]
// CHECK: tf_executor.island wraps "tf.Identity"
func.func @island() -> tensor<i32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      %a = "tf.Const"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
      %b = "tf.Const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %c = "tf.AddV2"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tf_executor.yield %c : tensor<i32>
    }
    %2:2 = tf_executor.island wraps "tf.Identity"(%1#0) {device = "/device:CPU:0"} : (tensor<i32>) -> tensor<i32>
    tf_executor.fetch %2#0 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// tf.WhileRegion: a value the body passes through (here through tf.Identity)
// is replaced by the operand and removed (TF's WhileRegionEliminatePassThrough);
// an operand whose type is not the regions' argument type is cast first
// (WhileRegionExplicitCast).
// CHECK-LABEL: func @while_region_pass_through
// CHECK-NEXT:    %[[CAST:.*]] = "tf.Cast"(%arg2) : (tensor<2xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %[[W:.*]]:2 = "tf.WhileRegion"(%arg0, %[[CAST]])
// CHECK-NEXT:    ^bb0(%[[I:.*]]: tensor<i32>, %{{.*}}: tensor<?xf32>):
// CHECK-NEXT:      "tf.Less"(%[[I]], %arg1)
// CHECK:         ^bb0(%[[J:.*]]: tensor<i32>, %[[X:.*]]: tensor<?xf32>):
// CHECK-NEXT:      "tf.AddV2"(%[[J]], %arg1)
// CHECK-NEXT:      "tf.Neg"(%[[X]])
// CHECK:         return %[[W]]#0, %arg1
func.func @while_region_pass_through(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<2xf32>) -> (tensor<i32>, tensor<i32>, tensor<?xf32>) {
  %0:3 = "tf.WhileRegion"(%arg0, %arg1, %arg2) <{is_stateless = true}> ({
  ^bb0(%i: tensor<i32>, %n: tensor<i32>, %x: tensor<?xf32>):
    %c = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %n: tensor<i32>, %x: tensor<?xf32>):
    %1 = "tf.AddV2"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "tf.Identity"(%n) : (tensor<i32>) -> tensor<i32>
    %3 = "tf.Neg"(%x) : (tensor<?xf32>) -> tensor<?xf32>
    "tf.Yield"(%1, %2, %3) : (tensor<i32>, tensor<i32>, tensor<?xf32>) -> ()
  }) : (tensor<i32>, tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<i32>, tensor<?xf32>)
  return %0#0, %0#1, %0#2 : tensor<i32>, tensor<i32>, tensor<?xf32>
}
