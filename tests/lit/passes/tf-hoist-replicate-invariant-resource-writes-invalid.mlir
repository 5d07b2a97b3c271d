// RUN: tfmlir-opt %s -split-input-file -tf-hoist-replicate-invariant-resource-writes -verify-diagnostics

// Malformed replicates never reach the pass: the module is verified first.

func.func @results_not_n_per_returned_value(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %a: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of results (1) to be equal to 'n' * number of terminator operands (2 * 1)}}
  %r = "tf_device.replicate"() <{n = 2 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
    "tf.AssignVariableOp"(%v, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    tf_device.return %a : tensor<f32>
  }) : () -> tensor<f32>
  func.return
}

// -----

func.func @block_arguments_do_not_match(%v0: tensor<*x!tf_type.resource<tensor<f32>>>, %v1: tensor<*x!tf_type.resource<tensor<f32>>>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of block arguments (1) to be equal to number of replicated inputs (0) / 'n' (2) + number of packed inputs (2)}}
  "tf_device.replicate"(%v0, %v1) <{n = 2 : i32, operandSegmentSizes = array<i32: 0, 2>}> ({
  ^bb0(%x: tensor<*x!tf_type.resource<tensor<f32>>>):
    tf_device.return
  }) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<*x!tf_type.resource<tensor<f32>>>) -> ()
  func.return
}
