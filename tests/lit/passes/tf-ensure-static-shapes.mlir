// RUN: tfmlir-opt %s -split-input-file -tf-ensure-static-shapes | FileCheck %s

// Static shapes everywhere: the module comes out unchanged. Types that are
// not shaped (control, tokens, bare tf_type types) count as static; so does a
// resource or variant handle whose subtype has dynamic dimensions (the handle
// itself is a rank-0 tensor).

// CHECK-LABEL: func @all_static
// CHECK-SAME: (%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<!tf_type.resource<tensor<?xf32>>>, %{{.*}}: tensor<!tf_type.variant<tensor<*xi32>>>, %{{.*}}: !tf_type.string) -> tensor<3x2xf32>
func.func @all_static(%x: tensor<2x3xf32>, %v: tensor<!tf_type.resource<tensor<?xf32>>>, %l: tensor<!tf_type.variant<tensor<*xi32>>>, %s: !tf_type.string) -> tensor<3x2xf32> {
  // CHECK-NEXT: %[[G:.*]] = tf_executor.graph
  %0 = tf_executor.graph {
    // CHECK-NEXT: %[[P:.*]], %{{.*}} = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %perm, %c0 = tf_executor.island wraps "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
    // CHECK-NEXT: %[[T:.*]], %{{.*}} = tf_executor.island(%{{.*}}) wraps "tf.Transpose"(%arg0, %[[P]])
    %t, %c1 = tf_executor.island(%c0) wraps "tf.Transpose"(%x, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
    // CHECK-NEXT: tf_executor.fetch %[[T]]
    tf_executor.fetch %t : tensor<3x2xf32>
  }
  // CHECK: return %[[G]]
  func.return %0 : tensor<3x2xf32>
}

// Declarations and region control flow with static block arguments.

// CHECK-LABEL: func private @declared(tensor<4xi8>) -> tensor<i1>
func.func private @declared(tensor<4xi8>) -> tensor<i1>

// CHECK-LABEL: func @loop
func.func @loop(%n: tensor<i32>) -> tensor<i32> {
  // CHECK: "tf.WhileRegion"
  %0 = "tf.WhileRegion"(%n) ({
  ^bb0(%c: tensor<i32>):
    %z = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %p = "tf.Greater"(%c, %z) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<i32>):
    %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %d = "tf.Sub"(%b, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%d) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// Nested modules are checked too (and may be all static).

// CHECK-LABEL: module @outer
module @outer {
  // CHECK: module @inner
  module @inner {
    // CHECK: func @f(%{{.*}}: tensor<1x1xf16>) -> tensor<1x1xf16>
    func.func @f(%a: tensor<1x1xf16>) -> tensor<1x1xf16> {
      func.return %a : tensor<1x1xf16>
    }
  }
}
