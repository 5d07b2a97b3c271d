// RUN: tfmlir-opt %s -split-input-file -tf-drop-while-shape-invariant | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-drop-while-shape-invariant-in-device-cluster | FileCheck %s --check-prefix=CLUSTER

// shape_invariant is dropped from tf.While and tf.WhileRegion everywhere by
// the first pass, only inside tf_device.cluster ops (at any depth) by the
// second; other attributes and ops stay.

// CHECK-LABEL: func.func @outside
// CHECK: "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true, parallel_iterations = 10 : i64}> {_keep = 1 : i64}
// CHECK: "tf.WhileRegion"(%arg0) <{is_stateless = false, parallel_iterations = 10 : i64}>
// CHECK: "tf.Identity"(%arg0) {shape_invariant}
// CLUSTER-LABEL: func.func @outside
// CLUSTER: "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant}> {_keep = 1 : i64}
// CLUSTER: "tf.WhileRegion"(%arg0) <{is_stateless = false, parallel_iterations = 10 : i64, shape_invariant}>
// CLUSTER: "tf.Identity"(%arg0) {shape_invariant}
func.func @outside(%x: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<2xf32>) {
  %0 = "tf.While"(%x) {cond = @cond, body = @body, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant, _keep = 1} : (tensor<2xf32>) -> tensor<*xf32>
  %1 = "tf.WhileRegion"(%x) ({
  ^bb0(%a: tensor<*xf32>):
    %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<*xf32>):
    "tf.Yield"(%a) : (tensor<*xf32>) -> ()
  }) {is_stateless = false, parallel_iterations = 10 : i64, shape_invariant} : (tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.Identity"(%x) {shape_invariant} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<2xf32>
}
func.func private @cond(%a: tensor<*xf32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%a: tensor<*xf32>) -> tensor<*xf32> {
  func.return %a : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @inside
// CHECK-NOT: shape_invariant
// CHECK: return
// CLUSTER-LABEL: func.func @inside
// CLUSTER: "tf_device.cluster"
// CLUSTER-NOT: shape_invariant
// CLUSTER: tf_device.return
// CLUSTER: "tf.While"{{.*}}shape_invariant
// CLUSTER: return
func.func @inside(%x: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.WhileRegion"(%x) ({
    ^bb0(%a: tensor<*xf32>):
      %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
      "tf.Yield"(%c) : (tensor<i1>) -> ()
    }, {
    ^bb0(%a: tensor<*xf32>):
      %2 = "tf.While"(%a) {cond = @cond, body = @body, is_stateless = true, shape_invariant} : (tensor<*xf32>) -> tensor<*xf32>
      "tf.Yield"(%2) : (tensor<*xf32>) -> ()
    }) {is_stateless = false, shape_invariant} : (tensor<2xf32>) -> tensor<*xf32>
    tf_device.return %1 : tensor<*xf32>
  }) {} : () -> tensor<*xf32>
  %3 = "tf.While"(%x) {cond = @cond, body = @body, is_stateless = true, shape_invariant} : (tensor<2xf32>) -> tensor<*xf32>
  func.return %0, %3 : tensor<*xf32>, tensor<*xf32>
}
func.func private @cond(%a: tensor<*xf32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%a: tensor<*xf32>) -> tensor<*xf32> {
  func.return %a : tensor<*xf32>
}
