// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-annotate-parameter-replication

// A callee TF cannot look up crashes its process; indices that are not integers TF reads as
// integers anyway (undefined behaviour).

func.func @bad_indices(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf_device.replicate' op '_mirrored_variable_indices' must be an array of integers, got ["a"]}}
  %0:2 = tf_device.replicate([%arg0, %arg0] as %ri: tensor<f32>) {n = 2 : i32, _mirrored_variable_indices = ["a"]} {
    %1 = "tf_device.cluster_func"(%ri) {func = @callee} : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }
  func.return
}
func.func private @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

// -----

// A cluster_func in a nested module: TF looks its callee up in the outer module.
module {
  module @inner {
    func.func @nested_module(%arg0: tensor<f32>) {
      %0:2 = tf_device.replicate {n = 2 : i32} {
        // expected-error @+1 {{'tf_device.cluster_func' op callee @callee is not a function of the module}}
        %1 = "tf_device.cluster_func"(%arg0) {func = @callee} : (tensor<f32>) -> tensor<f32>
        tf_device.return %1 : tensor<f32>
      }
      func.return
    }
    func.func private @callee(%a: tensor<f32>) -> tensor<f32> {
      func.return %a : tensor<f32>
    }
  }
}
