// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-ensure-static-shapes

// An op result with a dynamic dimension (the first such value: the second
// result comes first, later dynamic values are not reported).
func.func @dynamic_result(%x: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{result #1 of 'tf.Unique' does not have a static shape: tensor<?xi32> at loc(}}
  %y, %idx = "tf.Unique"(%x) : (tensor<8xi32>) -> (tensor<8xi32>, tensor<?xi32>)
  %z = "tf.Neg"(%idx) : (tensor<?xi32>) -> tensor<?xi32>
  func.return %y : tensor<8xi32>
}

// -----

// An unranked function argument: reported as an input of the signature.
// expected-error @+1 {{input #1 of the signature of @unranked_argument does not have a static shape: tensor<*xf32>}}
func.func @unranked_argument(%a: tensor<2xf32>, %b: tensor<*xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

// -----

// A declaration's dynamic result.
// expected-error @+1 {{result #0 of the signature of @declared does not have a static shape: tensor<2x?xf32>}}
func.func private @declared(tensor<2x3xf32>) -> tensor<2x?xf32>

// -----

// A block argument of a region (the error goes to the op owning the region;
// the message gives the argument's own location).
func.func @block_argument(%n: tensor<i32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{argument #1 of block #0 of region #1 of 'tf.WhileRegion' does not have a static shape: tensor<?xf32> at loc("body_arg")}}
  %0:2 = "tf.WhileRegion"(%n, %x) ({
  ^bb0(%c: tensor<i32>, %v: tensor<3xf32>):
    %p = "tf.ToBool"(%c) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<i32>, %w: tensor<?xf32> loc("body_arg")):
    "tf.Yield"(%b, %w) : (tensor<i32>, tensor<?xf32>) -> ()
  }) {is_stateless = true, shape_invariant} : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)
  func.return
}

// -----

// The order is the printed one: the island's result (outer op) before the op
// it wraps.
func.func @in_a_graph(%x: tensor<2xf32>) {
  tf_executor.graph {
    // expected-error @+1 {{result #0 of 'tf_executor.island' does not have a static shape: tensor<*xf32>}}
    %r, %c = tf_executor.island wraps "tf.Cast"(%x) : (tensor<2xf32>) -> tensor<*xf32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Inside a nested module.
module @outer {
  func.func @fine(%a: tensor<1xi8>) -> tensor<1xi8> {
    func.return %a : tensor<1xi8>
  }
  module @inner {
    func.func @g(%a: tensor<1xf32>) {
      // expected-error @+1 {{result #0 of 'tf.Shape' does not have a static shape: tensor<?xi64>}}
      %s = "tf.Shape"(%a) : (tensor<1xf32>) -> tensor<?xi64>
      func.return
    }
  }
}

// -----

// A region's ops come before the next region's block arguments.
func.func @region_order(%n: tensor<i32>, %x: tensor<3xf32>) {
  %0:2 = "tf.WhileRegion"(%n, %x) ({
  ^bb0(%c: tensor<i32>, %v: tensor<3xf32>):
    // expected-error @+1 {{result #0 of 'tf.Cast' does not have a static shape: tensor<*xi1>}}
    %p = "tf.Cast"(%c) : (tensor<i32>) -> tensor<*xi1>
    %q = "tf.ToBool"(%p) : (tensor<*xi1>) -> tensor<i1>
    "tf.Yield"(%q) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<i32>, %w: tensor<?xf32>):
    "tf.Yield"(%b, %w) : (tensor<i32>, tensor<?xf32>) -> ()
  }) {is_stateless = true, shape_invariant} : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)
  func.return
}
