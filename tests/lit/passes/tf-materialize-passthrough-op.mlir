// RUN: tfmlir-opt %s -split-input-file -allow-unregistered-dialect -tf-materialize-passthrough-op | FileCheck %s

// The attached module's main body replaces the op: its arguments become the
// op's operands, its returned values the op's results.

// CHECK-LABEL: func.func @two_ops
// CHECK-NEXT: %[[M:.*]] = "tf.Mul"(%arg0, %arg1)
// CHECK-NEXT: %[[S:.*]] = "tf.Sub"(%[[M]], %arg0)
// CHECK-NEXT: %[[U:.*]]:2 = "my.unknown"(%[[S]])
// CHECK-NEXT: %[[N:.*]] = "tf.Neg"(%[[U]]#1)
// CHECK-NEXT: return %[[U]]#0, %[[N]]
func.func @two_ops(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = "tf.MlirPassthroughOp"(%arg0, %arg1) {Tinputs = [i32, i32], Toutputs = [i32], mlir_module = "func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {\0A  %m = \22tf.Mul\22(%x, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>\0A  %s = \22tf.Sub\22(%m, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>\0A  func.return %s : tensor<4xi32>\0A}\0A"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1:2 = "tf.MlirPassthroughOp"(%0) {Tinputs = [i32], Toutputs = [i32, i32], mlir_module = "func.func @main(%a: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {\0A  %u:2 = \22my.unknown\22(%a) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)\0A  func.return %u#0, %u#1 : tensor<4xi32>, tensor<4xi32>\0A}\0A"} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %2 = "tf.Neg"(%1#1) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %1#0, %2 : tensor<4xi32>, tensor<4xi32>
}

// -----

// A main that returns one of its arguments, and other functions of the
// attached module (not copied); inside an island.

// CHECK-LABEL: func.func @forwarding
// CHECK: tf_executor.island {
// CHECK-NEXT: tf_executor.yield %arg0
// CHECK-NOT: @helper
func.func @forwarding(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1, %c = tf_executor.island wraps "tf.MlirPassthroughOp"(%arg0) {Tinputs = [f32], Toutputs = [f32], mlir_module = "func.func private @helper() -> ()\0Afunc.func @main(%a: tensor<f32>) -> tensor<f32> {\0A  func.return %a : tensor<f32>\0A}\0A"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %1 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// No passthrough op: nothing changes.

// CHECK-LABEL: func.func @nothing
// CHECK-NEXT: "tf.Identity"
func.func @nothing(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
