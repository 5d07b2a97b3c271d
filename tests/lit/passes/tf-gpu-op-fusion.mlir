// RUN: tfmlir-opt %s -split-input-file -tf-gpu-op-fusion | FileCheck %s

// Inference batch norm then Relu: one _FusedBatchNormEx with the Relu
// activation, created where the Relu was, carrying the batch norm's attributes.

// CHECK-LABEL: func.func @bn_relu
// CHECK-NEXT: %[[Y:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = "tf._FusedBatchNormEx"(%arg0, %arg1, %arg2, %arg3, %arg4) <{activation_mode = "Relu", data_format = "NCHW", epsilon = 2.000000e-03 : f32, is_training = false}> {device = "/device:GPU:0"}
// CHECK-NEXT: return %[[Y]]
func.func @bn_relu(%arg0: tensor<2x4x5x5xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>) -> tensor<2x4x5x5xf32> {
  %y:6 = "tf.FusedBatchNormV3"(%arg0, %arg1, %arg2, %arg3, %arg4) {data_format = "NCHW", epsilon = 0.002 : f32, is_training = false, device = "/device:GPU:0"} : (tensor<2x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  %r = "tf.Relu"(%y#0) : (tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  func.return %r : tensor<2x4x5x5xf32>
}

// -----

// A residual add on either side of the AddV2: the other operand is the side input.

// CHECK-LABEL: func.func @residual_left
// CHECK-NEXT: %[[Y:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = "tf._FusedBatchNormEx"(%arg0, %arg1, %arg1, %arg1, %arg1, %arg2) <{activation_mode = "Relu", is_training = false}>
// CHECK-NEXT: return %[[Y]]
func.func @residual_left(%arg0: tensor<1x3x3x2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %y:6 = "tf.FusedBatchNormV3"(%arg0, %arg1, %arg1, %arg1, %arg1) {is_training = false} : (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %a = "tf.AddV2"(%y#0, %arg2) : (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %r = "tf.Relu"(%a) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %r : tensor<1x3x3x2xf32>
}

// CHECK-LABEL: func.func @residual_right_add_used_twice
// CHECK-NEXT: %[[Y:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = "tf._FusedBatchNormEx"(%arg0, %arg1, %arg1, %arg1, %arg1, %arg2) <{is_training = false}>
// CHECK-NEXT: %[[R:.*]] = "tf.Relu"(%[[Y]])
// CHECK-NEXT: return %[[R]], %[[Y]]
func.func @residual_right_add_used_twice(%arg0: tensor<1x3x3x2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<1x3x3x2xf32>) -> (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) {
  %y:6 = "tf.FusedBatchNormV3"(%arg0, %arg1, %arg1, %arg1, %arg1) {is_training = false} : (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %a = "tf.AddV2"(%arg2, %y#0) : (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %r = "tf.Relu"(%a) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %r, %a : tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>
}

// -----

// Not fused: training (explicit, or by default), y used twice, a Relu of
// something else. The greedy driver still erases dead ops and folds.

// CHECK-LABEL: func.func @not_fused
// CHECK-NOT: _FusedBatchNormEx
// CHECK: "tf.FusedBatchNormV3"
// CHECK: "tf.Relu"
// CHECK: "tf.FusedBatchNormV3"
// CHECK: "tf.Relu"
// CHECK: "tf.Relu"
// CHECK-NOT: "tf.Neg"
// CHECK: return
func.func @not_fused(%arg0: tensor<1x3x3x2xf32>, %arg1: tensor<2xf32>) -> (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) {
  %y:6 = "tf.FusedBatchNormV3"(%arg0, %arg1, %arg1, %arg1, %arg1) : (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %r = "tf.Relu"(%y#0) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %z:6 = "tf.FusedBatchNormV3"(%arg0, %arg1, %arg1, %arg1, %arg1) {is_training = false} : (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %s = "tf.Relu"(%z#0) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %t = "tf.Relu"(%arg0) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %dead = "tf.Neg"(%arg0) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %r, %s, %z#0, %t : tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>
}
