// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-resource-op-lifting

// Functional control flow and calls under a cluster: TF lifts resources
// through them (cloning callees); tfmlir does not yet and says so (TF's bridge
// turns them into regions and inlines calls before this pass). Not a
// differential input: TF succeeds here.

!res = tensor<*x!tf_type.resource<tensor<f32>>>

func.func @functional_while(%arg0: !res) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.While' op: tfmlir does not lift resources through functional control flow}}
    %0 = "tf.While"(%arg0) {body = @body, cond = @cond, is_stateless = false} : (!res) -> !res
    tf_device.return
  }) : () -> ()
  func.return
}
func.func private @body(%arg0: !res) -> !res {
  func.return %arg0 : !res
}
func.func private @cond(%arg0: !res) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  func.return %c : tensor<i1>
}

// -----

!res = tensor<*x!tf_type.resource<tensor<f32>>>

func.func @call(%arg0: !res) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.StatefulPartitionedCall' op: tfmlir does not lift resources through functional control flow or calls}}
    "tf.StatefulPartitionedCall"(%arg0) {f = @callee, config = "", config_proto = "", executor_type = ""} : (!res) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}
func.func private @callee(%arg0: !res) {
  %r = "tf.ReadVariableOp"(%arg0) : (!res) -> tensor<f32>
  func.return
}
