// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-device-cluster-outlining

// The body returns another type than the cluster's result: the function
// would not verify (TF's verifier message). Nothing is outlined.

func.func @return_type(%x: tensor<*xi32>) -> tensor<?xi32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Identity"(%x) : (tensor<*xi32>) -> tensor<*xi32>
    // expected-error @+1 {{type of return operand 0 ('tensor<*xi32>') doesn't match function result type ('tensor<?xi32>') in function @_func}}
    tf_device.return %1 : tensor<*xi32>
  }) : () -> tensor<?xi32>
  func.return %0 : tensor<?xi32>
}

// -----

func.func @return_count(%x: tensor<i32>) -> tensor<i32> {
  %0 = "tf_device.cluster"() ({
    // expected-error @+1 {{'func.return' op has 2 operands, but enclosing function (@_func) returns 1}}
    tf_device.return %x, %x : tensor<i32>, tensor<i32>
  }) : () -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// A cluster in a nested module: its function would go into the outer module,
// out of the call's reach (TF's verifier rejects the call).

module {
  module @inner {
    func.func @nested_module(%x: tensor<i32>) -> tensor<i32> {
      // expected-error @+1 {{'func' attribute refers to an undefined function: _func}}
      %0 = "tf_device.cluster"() ({
        tf_device.return %x : tensor<i32>
      }) : () -> tensor<i32>
      func.return %0 : tensor<i32>
    }
  }
}

// -----

// An empty function name (TF creates a function without a name).

func.func @empty_outlined_function_name() {
  // expected-error @+1 {{'tf_device.cluster' op has an empty '_cluster_outlined_function_name': the outlined function needs a name}}
  "tf_device.cluster"() ({
    tf_device.return
  }) {_cluster_outlined_function_name = ""} : () -> ()
  func.return
}
