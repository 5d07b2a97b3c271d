// RUN: tfmlir-opt %s -split-input-file -tf-device-attribute-to-launch | FileCheck %s

// A TF op with a device moves into a launch on that device; its users take
// the launch's results.

// CHECK-LABEL: func @single_op
func.func @single_op(%arg0: tensor<f32>) -> tensor<f32> {
  // CHECK: %[[LAUNCH:.*]] = "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: tf_device.return %[[NEG]]
  // CHECK-NEXT: })
  // CHECK: "tf.Abs"(%[[LAUNCH]])
  %0 = "tf.Neg"(%arg0) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%0) : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

// Empty and non-string devices, ops without a device and ops of other
// dialects stay; ops without results get a launch without results.

// CHECK-LABEL: func @untouched
func.func @untouched(%arg0: tensor<f32>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> {
  // CHECK-NEXT: "tf.Neg"(%arg0) {device = ""}
  %0 = "tf.Neg"(%arg0) {device = ""} : (tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "tf.Abs"(%{{.*}}) {device = 1 : i32}
  %1 = "tf.Abs"(%0) {device = 1 : i32} : (tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "tf.Sqrt"
  %2 = "tf.Sqrt"(%1) : (tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "tf_device.launch"() <{device = "TPU:0"}> ({
  // CHECK-NEXT: "tf.AssignVariableOp"(%arg1, %{{.*}}) <{validate_shape = false}> : (
  // CHECK-NEXT: tf_device.return
  // CHECK-NEXT: }) : () -> ()
  "tf.AssignVariableOp"(%arg1, %2) {device = "TPU:0", validate_shape = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %2 : tensor<f32>
}

// -----

// Nested ops first: an op in a region gets its launch, then the op holding
// the region gets one around it.

// CHECK-LABEL: func @nested
func.func @nested(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // CHECK: "tf_device.launch"() <{device = "/device:CPU:0"}> ({
  // CHECK-NEXT: "tf.IfRegion"(%arg0) <{_else_func_name = "e", is_stateless = true}> ({
  // CHECK-NEXT: "tf_device.launch"() <{device = "/device:GPU:0"}> ({
  // CHECK-NEXT: "tf.Neg"
  // CHECK-NEXT: tf_device.return
  // CHECK: "tf.Yield"
  // CHECK: }) : (tensor<i1>) -> tensor<f32>
  // CHECK-NEXT: tf_device.return
  %0 = "tf.IfRegion"(%arg0) ({
    %1 = "tf.Neg"(%arg1) {device = "/device:GPU:0"} : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }) {device = "/device:CPU:0", is_stateless = true, _else_func_name = "e"} : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Ops in islands and clusters too.

// CHECK-LABEL: func @islands
func.func @islands(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // CHECK: tf_executor.island wraps "tf_device.launch"() <{device = "CPU:0"}>
    // CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %1, %c = tf_executor.island wraps "tf.Neg"(%arg0) {device = "CPU:0"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %1 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
