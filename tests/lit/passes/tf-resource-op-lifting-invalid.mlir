// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-resource-op-lifting

!res = tensor<*x!tf_type.resource<tensor<f32>>>

// The condition of a loop writes a variable.

func.func @write_in_condition(%arg0: !res) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.WhileRegion' op found resource write in loop condition.}}
    "tf.WhileRegion"() ({
      %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
      "tf.AssignVariableOp"(%arg0, %c) : (!res, tensor<f32>) -> ()
      %p = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : () -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<f32>>>

// A resource loop result that the body does not pass through.

func.func @loop_swaps(%arg0: !res, %arg1: !res) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.WhileRegion' op Result #1 is not tied to arg #1 of the body}}
    %0:2 = "tf.WhileRegion"(%arg0, %arg1) ({
    ^bb0(%a: !res, %b: !res):
      %p = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%a: !res, %b: !res):
      "tf.Yield"(%b, %a) : (!res, !res) -> ()
    }) {is_stateless = false} : (!res, !res) -> (!res, !res)
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<f32>>>

// Branches returning different resources.

func.func @branches_differ(%arg0: !res, %arg1: !res, %arg2: tensor<i1>) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{Result #0 not tied to the same capture across all regions}}
    %0 = "tf.IfRegion"(%arg2) ({
      "tf.Yield"(%arg0) : (!res) -> ()
    }, {
      "tf.Yield"(%arg1) : (!res) -> ()
    }) {is_stateless = false} : (tensor<i1>) -> !res
    %r = "tf.ReadVariableOp"(%0) : (!res) -> tensor<f32>
    tf_device.return
  }) : () -> ()
  func.return
}
