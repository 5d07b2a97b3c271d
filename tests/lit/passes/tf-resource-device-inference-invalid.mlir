// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-resource-device-inference

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// Two callers pass resources on different devices to one callee.

func.func @two_callers(%arg0: !res {tf.device = "/CPU:0"}, %arg1: !res {tf.device = "/CPU:1"}) {
  "tf.StatefulPartitionedCall"(%arg0) {f = @callee, config = "", config_proto = "", executor_type = ""} : (!res) -> ()
  // expected-error @+1 {{Conflicting device assignment for resource}}
  "tf.StatefulPartitionedCall"(%arg1) {f = @callee, config = "", config_proto = "", executor_type = ""} : (!res) -> ()
  func.return
}
func.func private @callee(%arg0: !res) {
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// The callee's argument has another device than the variable passed.

func.func @argument_device(%arg0: !res) {
  %v = "tf.VarHandleOp"() {container = "", shared_name = "x", device = "/TPU:3"} : () -> !res
  // expected-error @+1 {{Conflicting device assignment for resource}}
  "tf.PartitionedCall"(%arg0, %v) {f = @leaf, config = "", config_proto = "", executor_type = ""} : (!res, !res) -> ()
  func.return
}
func.func private @leaf(%a: !res, %b: !res {tf.device = "/TPU:4"}) {
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// Arguments that are one resource (tf._resource_arg_unique_id) on two devices.

// expected-error @+1 {{Conflicting device assignment for resource}}
func.func @same_resource(%arg0: !res {tf.device = "/CPU:0", tf._resource_arg_unique_id = 7 : i64},
                         %arg1: !res {tf.device = "/CPU:1", tf._resource_arg_unique_id = 7 : i64}) {
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// A call through a value cannot be followed.

func.func @indirect(%arg0: !res {tf.device = "/CPU:0"}) {
  %f = "func.constant"() {value = @leaf} : () -> ((!res) -> ())
  // expected-error @+1 {{Cannot propagate device attribute to callee: Unable to resolve call}}
  "func.call_indirect"(%f, %arg0) : ((!res) -> (), !res) -> ()
  func.return
}
func.func private @leaf(%a: !res) {
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// A callee in a nested module (TensorFlow crashes here).

module @outer {
  func.func @nested_callee(%arg0: !res {tf.device = "/CPU:0"}) {
    // expected-error @+1 {{calls a function nested in another module}}
    "tf.PartitionedCall"(%arg0) {f = @inner::@leaf, config = "", config_proto = "", executor_type = ""} : (!res) -> ()
    func.return
  }
  module @inner {
    func.func @leaf(%a: !res) {
      func.return
    }
  }
}
