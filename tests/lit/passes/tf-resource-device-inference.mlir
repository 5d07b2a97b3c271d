// RUN: tfmlir-opt %s -split-input-file -tf-resource-device-inference | FileCheck %s

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// Devices of resource arguments and variables reach the identities that
// forward them, in islands too; an identity that has a device keeps it, an
// empty one is replaced. IdentityN gets nothing.

// CHECK-LABEL: func.func @in_one_function
func.func @in_one_function(%arg0: !res {tf.device = "/job:w/device:CPU:0"}, %arg1: !res) -> !res {
  %0 = tf_executor.graph {
    // CHECK: "tf.Identity"(%arg0) {device = "/job:w/device:CPU:0"}
    %a, %ca = tf_executor.island wraps "tf.Identity"(%arg0) : (!res) -> !res
    // CHECK: "tf.Identity"(%outputs) {device = "/job:w/device:CPU:0"}
    %b, %cb = tf_executor.island wraps "tf.Identity"(%a) {device = ""} : (!res) -> !res
    // CHECK: "tf.VarHandleOp"
    %v, %cv = tf_executor.island wraps "tf.VarHandleOp"() {container = "", shared_name = "v", device = "/job:w/device:TPU:1"} : () -> !res
    // CHECK: "tf.Identity"(%{{[a-z_0-9]+}}) {device = "/job:w/device:TPU:1"}
    %c, %cc = tf_executor.island wraps "tf.Identity"(%v) : (!res) -> !res
    // CHECK: "tf.Identity"(%{{[a-z_0-9]+}}) {device = "/mine"}
    %d, %cd = tf_executor.island wraps "tf.Identity"(%v) {device = "/mine"} : (!res) -> !res
    // CHECK: "tf.IdentityN"(%outputs, %{{[a-z_0-9]+}}) :
    %n:2, %cn = tf_executor.island wraps "tf.IdentityN"(%a, %v) : (!res, !res) -> (!res, !res)
    // CHECK: "tf.Identity"(%arg1) :
    %e, %ce = tf_executor.island wraps "tf.Identity"(%arg1) : (!res) -> !res
    tf_executor.fetch %b : !res
  }
  func.return %0 : !res
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// A callee's resource arguments take the device of what the callers pass,
// through calls of callees in turn; an argument with a device keeps it.

// CHECK-LABEL: func.func @caller
func.func @caller(%arg0: !res {tf.device = "/CPU:0"}) {
  %v = "tf.VarHandleOp"() {container = "c", shared_name = "v", device = "/TPU:0"} : () -> !res
  %u = "tf.VarHandleOp"() {container = "c", shared_name = "u"} : () -> !res
  "tf.StatefulPartitionedCall"(%arg0, %v, %u) {f = @middle, config = "", config_proto = "", executor_type = ""} : (!res, !res, !res) -> ()
  func.return
}
// CHECK: func.func private @middle(%arg0: {{.*}} {tf.device = "/CPU:0"}, %arg1: {{.*}} {tf.device = "/TPU:0"}, %arg2: {{[^{]*}}) {
func.func private @middle(%arg0: !res, %arg1: !res, %arg2: !res) {
  // CHECK: "tf.Identity"(%arg1) {device = "/TPU:0"}
  %i = "tf.Identity"(%arg1) : (!res) -> !res
  %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  "tf.PartitionedCall"(%i, %arg0, %c, %arg2) {f = @leaf, config = "", config_proto = "", executor_type = ""} : (!res, !res, tensor<f32>, !res) -> ()
  func.return
}
// CHECK: func.func private @leaf(%arg0: {{.*}} {tf.device = "/TPU:0"}, %arg1: {{.*}} {tf.device = "/CPU:0"}, %arg2: tensor<f32>, %arg3: {{.*}} {tf.device = "/GPU:0"})
func.func private @leaf(%arg0: !res, %arg1: !res, %arg2: tensor<f32>, %arg3: !res {tf.device = "/GPU:0"}) {
  func.return
}
func.func private @declared(!res)

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// tf.While passes its operands to the body and the condition, tf.If its
// inputs after the condition to both branches; a loop result holds what the
// body passes through.

// CHECK-LABEL: func.func @control_flow
func.func @control_flow(%arg0: !res {tf.device = "/CPU:0"}, %arg1: tensor<i1>) {
  %v = "tf.VarHandleOp"() {container = "", shared_name = "x", device = "/TPU:3"} : () -> !res
  %0:2 = "tf.While"(%arg0, %v) {body = @body, cond = @cond, is_stateless = false} : (!res, !res) -> (!res, !res)
  "tf.If"(%arg1, %0#1, %0#0) {then_branch = @then, else_branch = @else, is_stateless = false} : (tensor<i1>, !res, !res) -> ()
  // CHECK: "tf.Identity"(%1#0) {device = "/CPU:0"}
  %i = "tf.Identity"(%0#0) : (!res) -> !res
  func.return
}
// CHECK: func.func private @body(%arg0: {{.*}} {tf.device = "/CPU:0"}, %arg1: {{.*}} {tf.device = "/TPU:3"})
func.func private @body(%a: !res, %b: !res) -> (!res, !res) {
  %i = "tf.Identity"(%b) : (!res) -> !res
  func.return %a, %i : !res, !res
}
// CHECK: func.func private @cond(%arg0: {{.*}} {tf.device = "/CPU:0"}, %arg1: {{.*}} {tf.device = "/TPU:3"})
func.func private @cond(%a: !res, %b: !res) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  func.return %c : tensor<i1>
}
// CHECK: func.func private @then(%arg0: {{.*}} {tf.device = "/TPU:3"}, %arg1: {{.*}} {tf.device = "/CPU:0"})
func.func private @then(%a: !res, %b: !res) {
  func.return
}
// CHECK: func.func private @else(%arg0: {{.*}} {tf.device = "/TPU:3"}, %arg1: {{.*}} {tf.device = "/CPU:0"})
func.func private @else(%a: !res, %b: !res) {
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// Loops whose body swaps two resources: the results may hold either, so
// with two devices they get none; a swapped resource and a copy of it keep
// their one device.

// CHECK-LABEL: func.func @swaps
func.func @swaps(%arg0: !res {tf.device = "/CPU:0"}, %arg1: !res {tf.device = "/CPU:1"}) {
  %0:2 = "tf.WhileRegion"(%arg0, %arg1) ({
  ^bb0(%a: !res, %b: !res):
    %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: !res, %b: !res):
    // CHECK: "tf.Identity"(%arg3) :
    %i = "tf.Identity"(%b) : (!res) -> !res
    "tf.Yield"(%i, %a) : (!res, !res) -> ()
  }) {is_stateless = false} : (!res, !res) -> (!res, !res)
  // CHECK: "tf.Identity"(%0#0) :
  %i0 = "tf.Identity"(%0#0) : (!res) -> !res
  %1:2 = "tf.WhileRegion"(%arg0, %arg0) ({
  ^bb0(%a: !res, %b: !res):
    %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: !res, %b: !res):
    // CHECK: "tf.Identity"(%arg3) {device = "/CPU:0"}
    %i = "tf.Identity"(%b) : (!res) -> !res
    "tf.Yield"(%i, %a) : (!res, !res) -> ()
  }) {is_stateless = false} : (!res, !res) -> (!res, !res)
  // CHECK: "tf.Identity"(%{{[0-9]+}}#1) {device = "/CPU:0"}
  %i1 = "tf.Identity"(%1#1) : (!res) -> !res
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// Region control flow: an IfRegion result holds what either branch yields,
// a WhileRegion gives its regions' arguments the devices of its results
// before they are visited. Clusters and launches forward their results (a
// launch's own device does not count), casts forward their operand.

// CHECK-LABEL: func.func @regions
func.func @regions(%arg0: !res {tf.device = "/CPU:0"}, %arg1: !res {tf.device = "/CPU:1"}, %p: tensor<i1>) {
  %0 = "tf.IfRegion"(%p) ({
    "tf.Yield"(%arg0) : (!res) -> ()
  }, {
    "tf.Yield"(%arg1) : (!res) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> !res
  // CHECK: "tf.Identity"(%0) :
  %a = "tf.Identity"(%0) : (!res) -> !res
  %1 = "tf_device.cluster"() ({
    %c = "tf.Cast"(%arg1) : (!res) -> !res
    tf_device.return %c : !res
  }) : () -> !res
  %2 = "tf_device.launch"() ({
    tf_device.return %1 : !res
  }) {device = "/CPU:7"} : () -> !res
  %w:2 = "tf.WhileRegion"(%2, %0) ({
  ^bb0(%x: !res, %y: !res):
    // CHECK: "tf.Identity"(%arg3) {device = "/CPU:1"}
    %i = "tf.Identity"(%x) : (!res) -> !res
    %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: !res, %y: !res):
    // CHECK: "tf.Identity"(%arg3) {device = "/CPU:1"}
    %i = "tf.Identity"(%x) : (!res) -> !res
    // CHECK: "tf.Identity"(%arg4) :
    %j = "tf.Identity"(%y) : (!res) -> !res
    "tf.Yield"(%i, %j) : (!res, !res) -> ()
  }) {is_stateless = false} : (!res, !res) -> (!res, !res)
  func.return
}

// -----

!res = tensor<*x!tf_type.resource<tensor<4xf32>>>

// Replicated resources (a replicate's block arguments) have no device of
// their own; the variables passed to a cluster function do.

// CHECK-LABEL: func.func @replicated
func.func @replicated(%arg0: !res {tf.device = "/CPU:0"}) {
  %v = "tf.VarHandleOp"() {container = "", shared_name = "x", device = "/TPU:3"} : () -> !res
  %0:2 = tf_device.replicate([%arg0, %v] as %ri: !res) {n = 2 : i32} {
    // CHECK: "tf.Identity"(%arg1) :
    %i = "tf.Identity"(%ri) : (!res) -> !res
    %c = "tf_device.cluster_func"(%i, %v) {func = @computation} : (!res, !res) -> tensor<4xf32>
    tf_device.return %c : tensor<4xf32>
  }
  func.return
}
// CHECK: func.func private @computation(%arg0: {{[^{]*}}, %arg1: {{.*}} {tf.device = "/TPU:3"})
func.func private @computation(%a: !res, %b: !res) -> tensor<4xf32> {
  %r = "tf.ReadVariableOp"(%b) : (!res) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
