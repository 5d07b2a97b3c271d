// RUN: tfmlir-opt %s -split-input-file | FileCheck %s
// Modules TensorFlow 2.21's verifier accepts (checked with
// scripts/tf_testsuite_yardstick.py --extra); tfmlir must accept them too
// (issue 9), however odd: a verifier stricter than TF's is a bug.

// A constant's result type only has to be broadcast-compatible with its value.
// CHECK-LABEL: func @const_result_types
func.func @const_result_types() -> (tensor<*xi32>, tensor<3xi32>, tensor<?x2xf32>) {
  // CHECK: "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<*xi32>
  %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<*xi32>
  // CHECK: "tf.Const"() <{value = dense<2> : tensor<i32>}> : () -> tensor<3xi32>
  %1 = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<3xi32>
  // CHECK: "tf.Const"() <{value = dense<0.000000e+00> : tensor<1x2xf32>}> : () -> tensor<?x2xf32>
  %2 = "tf.Const"() {value = dense<0.0> : tensor<1x2xf32>} : () -> tensor<?x2xf32>
  func.return %0, %1, %2 : tensor<*xi32>, tensor<3xi32>, tensor<?x2xf32>
}

// -----

// Ops TF does not infer take any declared result type.
// CHECK-LABEL: func @no_inference_in_tf
func.func @no_inference_in_tf(%a: tensor<4x3x2xf32>, %b: tensor<1xf32>, %c: tensor<10xf32>,
                              %d: tensor<?xi32>) -> (tensor<?xi32>, tensor<10xf32>, tensor<i1>) {
  // CHECK: "tf.Rank"(%{{.*}}) : (tensor<4x3x2xf32>) -> tensor<?xi32>
  %0 = "tf.Rank"(%a) : (tensor<4x3x2xf32>) -> tensor<?xi32>
  // CHECK: "tf.AddN"(%{{.*}}, %{{.*}}) : (tensor<1xf32>, tensor<10xf32>) -> tensor<10xf32>
  %1 = "tf.AddN"(%b, %c) : (tensor<1xf32>, tensor<10xf32>) -> tensor<10xf32>
  // CHECK: "tf.NotEqual"(%{{.*}}, %{{.*}}) <{incompatible_shape_error = false}> : (tensor<?xi32>, tensor<?xi32>) -> tensor<i1>
  %2 = "tf.NotEqual"(%d, %d) {incompatible_shape_error = false} : (tensor<?xi32>, tensor<?xi32>) -> tensor<i1>
  func.return %0, %1, %2 : tensor<?xi32>, tensor<10xf32>, tensor<i1>
}

// -----

// CHECK-LABEL: func @inferred_shapes_are_not_enforced
func.func @inferred_shapes_are_not_enforced(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %i: tensor<1xi32>,
                                            %p: tensor<2xi32>)
    -> (tensor<2x5xf32>, tensor<2xf32>, tensor<3x3xf32>) {
  // CHECK: "tf.MatMul"
  %0 = "tf.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  // CHECK: "tf.Sum"
  %1 = "tf.Sum"(%a, %i) {keep_dims = true} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<2xf32>
  // CHECK: "tf.Transpose"
  %2 = "tf.Transpose"(%a, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x3xf32>
  func.return %0, %1, %2 : tensor<2x5xf32>, tensor<2xf32>, tensor<3x3xf32>
}

// -----

// ConcatV2 checks neither the axis value nor the result; Pack not the
// result rank nor the element types.
// CHECK-LABEL: func @concat_and_pack
func.func @concat_and_pack(%a: tensor<i32>, %b: tensor<2xf32>, %c: tensor<2xi32>) -> (tensor<2xi32>, tensor<3x2xf32>) {
  %axis = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  // CHECK: "tf.ConcatV2"
  %0 = "tf.ConcatV2"(%a, %a, %axis) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2xi32>
  // CHECK: "tf.Pack"
  %1 = "tf.Pack"(%b, %c) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  func.return %0, %1 : tensor<2xi32>, tensor<3x2xf32>
}

// -----

// Ops without a verifier in TF: MatMul, Gather, Range, ExpandDims, Xlog1py.
// CHECK-LABEL: func @unverified_ops
func.func @unverified_ops(%a: tensor<2x3x4xf32>, %s: tensor<f32>, %v: tensor<2xi32>, %r: tensor<1xf32>) {
  // CHECK: "tf.MatMul"
  %0 = "tf.MatMul"(%a, %a) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<*xf32>
  // CHECK: "tf.Gather"
  %1 = "tf.Gather"(%s, %v) : (tensor<f32>, tensor<2xi32>) -> tensor<*xf32>
  // CHECK: "tf.Range"
  %2 = "tf.Range"(%r, %s, %s) : (tensor<1xf32>, tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  // CHECK: "tf.ExpandDims"
  %3 = "tf.ExpandDims"(%s, %v) : (tensor<f32>, tensor<2xi32>) -> tensor<1x1x1xf32>
  // CHECK: "tf.Xlog1py"
  %4 = "tf.Xlog1py"(%a, %r) : (tensor<2x3x4xf32>, tensor<1xf32>) -> tensor<5xf32>
  func.return
}

// -----

// Squeeze checks the range of squeeze_dims only; Transpose takes negative
// (and repeated) permutation entries; Fill does not tie dims to the result.
// CHECK-LABEL: func @lenient_shape_ops
func.func @lenient_shape_ops(%a: tensor<2x3xf32>, %d: tensor<2xi32>, %s: tensor<f32>) {
  // CHECK: "tf.Squeeze"
  %0 = "tf.Squeeze"(%a) {squeeze_dims = [0]} : (tensor<2x3xf32>) -> tensor<*xf32>
  %perm = "tf.Const"() {value = dense<[-1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  // CHECK: "tf.Transpose"
  %1 = "tf.Transpose"(%a, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x3xf32>
  // CHECK: "tf.Fill"
  %2 = "tf.Fill"(%d, %s) : (tensor<2xi32>, tensor<f32>) -> tensor<1x2x3xf32>
  func.return
}

// -----

// Conv2D ignores explicit_paddings unless the padding is EXPLICIT.
// CHECK-LABEL: func @conv2d_same_with_paddings
func.func @conv2d_same_with_paddings(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) -> tensor<*xf32> {
  // CHECK: "tf.Conv2D"
  %0 = "tf.Conv2D"(%x, %f) {data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [1, 2], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// -----

// IdentityN has no verifier in TF; calls check the callee's argument count only.
func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>
// CHECK-LABEL: func @identity_n_and_calls
func.func @identity_n_and_calls(%a: tensor<i32>, %b: tensor<f32>) {
  // CHECK: "tf.IdentityN"
  %0 = "tf.IdentityN"(%a, %b) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  // CHECK: "tf.StatefulPartitionedCall"
  %1:2 = "tf.StatefulPartitionedCall"(%a) {config = "", config_proto = "", executor_type = "", f = @callee} : (tensor<i32>) -> (tensor<i1>, tensor<i1>)
  func.return
}

// -----

// tf_device.launch and tf_device.cluster have no verifier in TF; a
// parallel_execute needs one region.
// CHECK-LABEL: func @device_regions
func.func @device_regions(%a: tensor<*xi32>) -> tensor<?xi32> {
  // CHECK: tf_device.launch
  %0 = "tf_device.launch"() ({
    tf_device.return %a : tensor<*xi32>
  }) {device = "/device:CPU:0"} : () -> tensor<?xi32>
  // CHECK: tf_device.cluster
  %1:2 = "tf_device.cluster"() ({
    tf_device.return %a : tensor<*xi32>
  }) : () -> (tensor<f32>, tensor<f32>)
  // CHECK: tf_device.parallel_execute
  "tf_device.parallel_execute"() ({
    tf_device.return
  }) : () -> ()
  func.return %0 : tensor<?xi32>
}
