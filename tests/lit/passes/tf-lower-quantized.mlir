// RUN: tfmlir-opt %s -split-input-file -tf-lower-quantized | FileCheck %s

// qint8 to f32: shift by the half range (128), scale by (max - min) / 255,
// add min; constants hoisted to the top of the function, the cast of f32 to
// f32 folded away.

// CHECK-LABEL: func.func @qint8
// CHECK-DAG: %[[C255:.*]] = "tf.Const"() <{value = dense<2.550000e+02> : tensor<f32>}>
// CHECK-DAG: %[[C128:.*]] = "tf.Const"() <{value = dense<1.280000e+02> : tensor<f32>}>
// CHECK: %[[F:.*]] = "tf.Cast"(%arg0) <{Truncate = false}> : (tensor<4x!tf_type.qint8>) -> tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = "tf.AddV2"(%[[F]], %[[C128]]) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = "tf.Sub"(%arg2, %arg1) : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[D:.*]] = "tf.Div"(%[[R]], %[[C255]]) : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[M:.*]] = "tf.Mul"(%[[S]], %[[D]]) : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = "tf.AddV2"(%[[M]], %arg1) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[A]]
func.func @qint8(%arg0: tensor<4x!tf_type.qint8>, %min: tensor<f32>, %max: tensor<1xf32>) -> tensor<4xf32> {
  %0 = "tf.Dequantize"(%arg0, %min, %max) {axis = -1 : i64, mode = "MIN_COMBINED", narrow_range = false} : (tensor<4x!tf_type.qint8>, tensor<f32>, tensor<1xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// quint8 to bf16 with constant ranges: the half range is 0 (x + 0 folds) and
// the scale folds to a constant.

// CHECK-LABEL: func.func @quint8_constant_ranges
// CHECK-DAG: "tf.Const"() <{value = dense<0.0392156877> : tensor<f32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<-5.000000e+00> : tensor<f32>}>
// CHECK: "tf.Cast"(%arg0) <{Truncate = false}> : (tensor<*x!tf_type.quint8>) -> tensor<*xf32>
// CHECK-NEXT: "tf.Mul"
// CHECK-NEXT: "tf.AddV2"
// CHECK-NEXT: "tf.Cast"({{.*}}) <{Truncate = false}> : (tensor<*xf32>) -> tensor<*xbf16>
func.func @quint8_constant_ranges(%arg0: tensor<*x!tf_type.quint8>) -> tensor<*xbf16> {
  %min = "tf.Const"() {value = dense<-5.0> : tensor<f32>} : () -> tensor<f32>
  %max = "tf.Const"() {value = dense<5.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Dequantize"(%arg0, %min, %max) : (tensor<*x!tf_type.quint8>, tensor<f32>, tensor<f32>) -> tensor<*xbf16>
  func.return %0 : tensor<*xbf16>
}

// -----

// Forms TF does not lower stay: other modes, narrow range, per-axis, other
// quantized types.

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: "tf.Dequantize"
func.func @kept(%q8: tensor<4x!tf_type.qint8>, %q32: tensor<4x!tf_type.qint32>, %min: tensor<f32>, %max: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "tf.Dequantize"(%q8, %min, %max) {mode = "SCALED"} : (tensor<4x!tf_type.qint8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %1 = "tf.Dequantize"(%q8, %min, %max) {narrow_range = true} : (tensor<4x!tf_type.qint8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %2 = "tf.Dequantize"(%q8, %min, %max) {axis = 0 : i64} : (tensor<4x!tf_type.qint8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %3 = "tf.Dequantize"(%q32, %min, %max) : (tensor<4x!tf_type.qint32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
