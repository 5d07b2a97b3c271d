// RUN: tfmlir-opt %s -split-input-file -tf-replicate-tensor-list-init-ops | FileCheck %s

// A list used three times (twice by one loop, once by a set): three clones
// before the original, taking the uses latest first; the original stays.

// CHECK-LABEL: func.func @three_uses
// CHECK: %[[A:.*]] = "tf.TensorListReserve"(%[[S:[^,]*]], %[[N:[^)]*]])
// CHECK-NEXT: %[[B:.*]] = "tf.TensorListReserve"(%[[S]], %[[N]])
// CHECK-NEXT: %[[C:.*]] = "tf.TensorListReserve"(%[[S]], %[[N]])
// CHECK-NEXT: "tf.TensorListReserve"(%[[S]], %[[N]])
// CHECK-NEXT: "tf.WhileRegion"(%[[C]], %[[B]])
// CHECK: "tf.TensorListSetItem"(%[[A]],
func.func @three_uses(%x: tensor<2xf32>) -> (tensor<!tf_type.variant<tensor<2xf32>>>) {
  %shape = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %n = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %i = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %tl = "tf.TensorListReserve"(%shape, %n) : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
  %w:2 = "tf.WhileRegion"(%tl, %tl) ({
  ^bb0(%a: tensor<!tf_type.variant<tensor<2xf32>>>, %b: tensor<!tf_type.variant<tensor<2xf32>>>):
    %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<!tf_type.variant<tensor<2xf32>>>, %b: tensor<!tf_type.variant<tensor<2xf32>>>):
    "tf.Yield"(%a, %b) : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<!tf_type.variant<tensor<2xf32>>>) -> ()
  }) {is_stateless = true} : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<!tf_type.variant<tensor<2xf32>>>) -> (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<!tf_type.variant<tensor<2xf32>>>)
  %set = "tf.TensorListSetItem"(%tl, %i, %x) : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<i32>, tensor<2xf32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
  func.return %set : tensor<!tf_type.variant<tensor<2xf32>>>
}

// -----

// EmptyTensorList too, inside a nested region; an unused list is left alone.

// CHECK-LABEL: func.func @nested_and_unused
// CHECK: "tf.IfRegion"
// CHECK: %[[E:.*]] = "tf.EmptyTensorList"
// CHECK-NEXT: "tf.EmptyTensorList"
// CHECK-NEXT: "tf.Yield"(%[[E]])
// CHECK: %[[F:.*]] = "tf.EmptyTensorList"
// CHECK-NEXT: "tf.EmptyTensorList"
// CHECK-NEXT: "tf.Yield"(%[[F]])
// CHECK: "tf.EmptyTensorList"
// CHECK-NEXT: return
func.func @nested_and_unused(%p: tensor<i1>, %shape: tensor<i32>, %n: tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>> {
  %r = "tf.IfRegion"(%p) ({
    %e = "tf.EmptyTensorList"(%shape, %n) : (tensor<i32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
    "tf.Yield"(%e) : (tensor<!tf_type.variant<tensor<*xf32>>>) -> ()
  }, {
    %e = "tf.EmptyTensorList"(%shape, %n) : (tensor<i32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
    "tf.Yield"(%e) : (tensor<!tf_type.variant<tensor<*xf32>>>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<!tf_type.variant<tensor<*xf32>>>
  %unused = "tf.EmptyTensorList"(%shape, %n) : (tensor<i32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
  func.return %r : tensor<!tf_type.variant<tensor<*xf32>>>
}
