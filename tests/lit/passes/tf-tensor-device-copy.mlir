// RUN: tfmlir-opt %s -split-input-file -tf-tensor-device-copy | FileCheck %s

// An identity on the device its operand's op runs on is folded; one on
// another device stays.

// CHECK-LABEL: func.func @same_and_other_device
// CHECK-NEXT: %[[A:.*]] = "tf.Relu"(%arg0) {device = "/job:w/device:GPU:1"}
// CHECK-NEXT: %[[B:.*]] = "tf.Identity"(%[[A]]) {device = "/job:w/device:CPU:0"}
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @same_and_other_device(%arg0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = "tf.Relu"(%arg0) {device = "/job:w/device:GPU:1"} : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "tf.Identity"(%0) {device = "/job:w/device:GPU:1"} : (tensor<3xf32>) -> tensor<3xf32>
  %2 = "tf.Identity"(%0) {device = "/job:w/device:CPU:0"} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %1, %2 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Empty devices match each other; an identity without any device attribute
// does not match an operand whose op has one (even an empty one); an operand
// whose op has no device is forwarded anywhere.

// CHECK-LABEL: func.func @missing_devices
// CHECK-NEXT: %[[A:.*]] = "tf.Neg"(%arg0) {device = ""}
// CHECK-NEXT: %[[B:.*]] = "tf.Identity"(%[[A]]) :
// CHECK-NEXT: %[[C:.*]] = "tf.Abs"(%arg0) :
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @missing_devices(%arg0: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %0 = "tf.Neg"(%arg0) {device = ""} : (tensor<2xi32>) -> tensor<2xi32>
  %1 = "tf.Identity"(%0) {device = ""} : (tensor<2xi32>) -> tensor<2xi32>
  %2 = "tf.Identity"(%0) : (tensor<2xi32>) -> tensor<2xi32>
  %3 = "tf.Abs"(%arg0) : (tensor<2xi32>) -> tensor<2xi32>
  %4 = "tf.Identity"(%3) {device = "/device:CPU:0"} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %1, %2, %4 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// -----

// Function arguments: their tf.device attribute is the operand's device.

// CHECK-LABEL: func.func @arguments
// CHECK-NEXT: %[[A:.*]] = "tf.Identity"(%arg1) {device = "/device:CPU:0"}
// CHECK-NEXT: return %arg0, %[[A]], %arg2
func.func @arguments(%arg0: tensor<f32> {tf.device = "/device:CPU:0"}, %arg1: tensor<f32> {tf.device = "/device:GPU:0"}, %arg2: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = "tf.Identity"(%arg0) {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Identity"(%arg1) {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Identity"(%arg2) {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  func.return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// TPU: an identity placed on a TPU device, or fed by TPUExecute, is folded
// whatever the devices say.

// CHECK-LABEL: func.func @tpu
// CHECK-NEXT: %[[X:.*]] = "tf.TPUExecute"
// CHECK-NEXT: return %arg0, %[[X]]
func.func @tpu(%arg0: tensor<f32> {tf.device = "/device:CPU:0"}, %key: tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf.Identity"(%arg0) {device = "/job:w/device:TPU:0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.TPUExecute"(%arg0, %key) {device = "/job:w/device:TPU:0"} : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
  %2 = "tf.Identity"(%1) {device = "/job:w/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  func.return %0, %2 : tensor<f32>, tensor<f32>
}

// -----

// IdentityN folds only when every operand may be forwarded; it is decided
// after the Identity ops, on what they forwarded.

// CHECK-LABEL: func.func @identity_n
// CHECK-NEXT: %[[A:.*]] = "tf.Sqrt"(%arg0) {device = "/device:CPU:0"}
// CHECK-NEXT: %[[B:.*]] = "tf.Sqrt"(%arg0) {device = "/device:GPU:0"}
// CHECK-NEXT: %[[N:.*]]:2 = "tf.IdentityN"(%[[A]], %[[B]]) {device = "/device:CPU:0"}
// CHECK-NEXT: return %[[A]], %[[A]], %[[N]]#0, %[[N]]#1
func.func @identity_n(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %a = "tf.Sqrt"(%arg0) {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  %b = "tf.Sqrt"(%arg0) {device = "/device:GPU:0"} : (tensor<f32>) -> tensor<f32>
  %i = "tf.Identity"(%a) {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  %n:2 = "tf.IdentityN"(%a, %i) {device = "/device:CPU:0"} : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %m:2 = "tf.IdentityN"(%a, %b) {device = "/device:CPU:0"} : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return %n#0, %n#1, %m#0, %m#1 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Inside a loop body: an argument of the region is never forwarded; a value
// from outside whose device is unknown is, and nested identities fold too.

// CHECK-LABEL: func.func @loop
// CHECK: ^bb0(%[[I:.*]]: tensor<i32>):
// CHECK-NEXT: %[[K:.*]] = "tf.Identity"(%[[I]])
// CHECK-NEXT: "tf.Less"(%[[K]], %arg1)
// CHECK: ^bb0(%[[J:.*]]: tensor<i32>):
// CHECK-NEXT: %[[L:.*]] = "tf.Identity"(%[[J]])
// CHECK-NEXT: "tf.AddV2"(%[[L]], %arg1)
func.func @loop(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
  %0 = "tf.WhileRegion"(%arg0) ({
  ^bb0(%i: tensor<i32>):
    %k = "tf.Identity"(%i) : (tensor<i32>) -> tensor<i32>
    %n = "tf.Identity"(%arg1) : (tensor<i32>) -> tensor<i32>
    %c = "tf.Less"(%k, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%j: tensor<i32>):
    %l = "tf.Identity"(%j) : (tensor<i32>) -> tensor<i32>
    %n = "tf.Identity"(%arg1) : (tensor<i32>) -> tensor<i32>
    %s = "tf.AddV2"(%l, %n) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%s) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// Inside tf_executor islands.

// CHECK-LABEL: func.func @islands
// CHECK: tf_executor.island wraps "tf.Const"
// CHECK-NOT: tf.Identity
// CHECK: tf_executor.fetch
func.func @islands() -> tensor<f32> {
  %0 = tf_executor.graph {
    %c, %cc = tf_executor.island wraps "tf.Const"() {device = "/device:CPU:0", value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %i, %ic = tf_executor.island wraps "tf.Identity"(%c) {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %i : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
