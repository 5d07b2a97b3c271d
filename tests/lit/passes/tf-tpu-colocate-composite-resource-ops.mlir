// RUN: tfmlir-opt %s -split-input-file -tf-tpu-colocate-composite-resource-ops | FileCheck %s

// A read and a write of a packed variable of a replicate running a TPU program
// go into launches on the replicate's first TPU core; the read's users take
// the launch's result.

// CHECK-LABEL: func @packed_read_and_write
// CHECK-SAME: (%[[V:.*]]: tensor<!tf_type.resource<tensor<8xf32>>>, %[[KEY:.*]]: tensor<3x!tf_type.string>)
func.func @packed_read_and_write(%v: tensor<!tf_type.resource<tensor<8xf32>>>, %key: tensor<3x!tf_type.string>) {
  // CHECK: tf_device.replicate(%[[V]] as %[[P:[a-z0-9]*]]: tensor<!tf_type.resource<tensor<8xf32>>>)
  tf_device.replicate(%v as %p: tensor<!tf_type.resource<tensor<8xf32>>>) {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]}} {
    // CHECK-NEXT: %[[READ:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:   %[[R:.*]] = "tf.ReadVariableOp"(%[[P]])
    // CHECK-NEXT:   tf_device.return %[[R]] : tensor<8xf32>
    // CHECK-NEXT: }) : () -> tensor<8xf32>
    %r = "tf.ReadVariableOp"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    // CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%[[READ]])
    %n = "tf.Neg"(%r) : (tensor<8xf32>) -> tensor<8xf32>
    // CHECK-NEXT: "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:   "tf.AssignVariableOp"(%[[P]], %[[NEG]])
    // CHECK-NEXT:   tf_device.return
    // CHECK-NEXT: }) : () -> ()
    "tf.AssignVariableOp"(%p, %n) {validate_shape = false} : (tensor<!tf_type.resource<tensor<8xf32>>>, tensor<8xf32>) -> ()
    // CHECK-NEXT: "tf_device.launch"
    // CHECK-NEXT: "tf.TPUExecute"
    %e = "tf_device.launch"() ({
      %o = "tf.TPUExecute"(%n, %key) : (tensor<8xf32>, tensor<3x!tf_type.string>) -> tensor<8xf32>
      tf_device.return %o : tensor<8xf32>
    }) {device = "TPU_REPLICATED_CORE_0"} : () -> tensor<8xf32>
    tf_device.return
  }
  func.return
}

// -----

// Reads through tf.Identity chains are colocated too (the Identity ops stay);
// a read nested in another launch gets its launch inside that one. Ops
// using a replicated (not packed) variable, and other ops using the packed
// one, stay where they are.

// CHECK-LABEL: func @identity_and_nested
func.func @identity_and_nested(%v: tensor<!tf_type.resource<tensor<8xf32>>>, %w0: tensor<!tf_type.resource<tensor<8xf32>>>, %w1: tensor<!tf_type.resource<tensor<8xf32>>>, %key: tensor<3x!tf_type.string>) {
  tf_device.replicate([%w0, %w1] as %w: tensor<!tf_type.resource<tensor<8xf32>>>, %v as %p: tensor<!tf_type.resource<tensor<8xf32>>>) {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]}} {
    // CHECK: %[[ID0:.*]] = "tf.Identity"(%[[P:.*]]) :
    // CHECK-NEXT: %[[ID1:.*]] = "tf.Identity"(%[[ID0]]) :
    // CHECK-NEXT: "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:   "tf.ReadVariableOp"(%[[ID1]])
    %i0 = "tf.Identity"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<!tf_type.resource<tensor<8xf32>>>
    %i1 = "tf.Identity"(%i0) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<!tf_type.resource<tensor<8xf32>>>
    %r = "tf.ReadVariableOp"(%i1) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    // CHECK: "tf.ReadVariableOp"(%[[W:.*]]) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    // CHECK-NEXT: "tf.VarIsInitializedOp"(%[[P]])
    %rw = "tf.ReadVariableOp"(%w) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    %init = "tf.VarIsInitializedOp"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<i1>
    // CHECK: "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:   "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:     "tf.ReadVariableOp"(%[[P]])
    // CHECK-NEXT:     tf_device.return
    // CHECK-NEXT:   }) : () -> tensor<8xf32>
    %h = "tf_device.launch"() ({
      %hr = "tf.ReadVariableOp"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
      tf_device.return %hr : tensor<8xf32>
    }) {device = "/job:w/replica:0/task:0/device:CPU:0"} : () -> tensor<8xf32>
    "tf_device.launch"() ({
      "tf.TPUExecuteAndUpdateVariables"(%p, %key) {device_var_reads_indices = [0], device_var_updates_indices = [0]} : (tensor<!tf_type.resource<tensor<8xf32>>>, tensor<3x!tf_type.string>) -> ()
      tf_device.return
    }) {device = "TPU_REPLICATED_CORE_0"} : () -> ()
    tf_device.return
  }
  func.return
}

// -----

// As TF: with two TPU execute launches in the replicate, the packed
// variable's users are wrapped once per launch (a launch in a launch).

// CHECK-LABEL: func @two_executes
func.func @two_executes(%v: tensor<!tf_type.resource<tensor<8xf32>>>, %key: tensor<3x!tf_type.string>) {
  tf_device.replicate(%v as %p: tensor<!tf_type.resource<tensor<8xf32>>>) {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]}} {
    // CHECK:      %[[OUTER:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:   %[[INNER:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:     %[[R:.*]] = "tf.ReadVariableOp"
    // CHECK-NEXT:     tf_device.return %[[R]]
    // CHECK-NEXT:   }) : () -> tensor<8xf32>
    // CHECK-NEXT:   tf_device.return %[[INNER]]
    // CHECK-NEXT: }) : () -> tensor<8xf32>
    %r = "tf.ReadVariableOp"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    %e0 = "tf_device.launch"() ({
      %o = "tf.TPUExecute"(%r, %key) : (tensor<8xf32>, tensor<3x!tf_type.string>) -> tensor<8xf32>
      tf_device.return %o : tensor<8xf32>
    }) {device = "TPU_REPLICATED_CORE_0"} : () -> tensor<8xf32>
    %e1 = "tf_device.launch"() ({
      %o = "tf.TPUExecute"(%e0, %key) : (tensor<8xf32>, tensor<3x!tf_type.string>) -> tensor<8xf32>
      tf_device.return %o : tensor<8xf32>
    }) {device = "TPU_REPLICATED_CORE_0"} : () -> tensor<8xf32>
    tf_device.return
  }
  func.return
}

// -----

// Nothing changes without a TPU_REPLICATED_CORE_0 device in the replicate,
// without an execute launch (a launch with more than the execute is none), or
// for an execute launch outside any replicate.

// CHECK-LABEL: func @unchanged
func.func @unchanged(%v: tensor<!tf_type.resource<tensor<8xf32>>>, %key: tensor<3x!tf_type.string>) {
  // CHECK-NOT: TPU_REPLICATED_CORE_0"}> ({
  // CHECK: "tf.ReadVariableOp"(%{{.*}}) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
  // CHECK: "tf.ReadVariableOp"(%{{.*}}) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
  // CHECK: "tf.ReadVariableOp"(%{{.*}}) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
  // CHECK: "tf.ReadVariableOp"(%{{.*}}) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
  tf_device.replicate(%v as %p: tensor<!tf_type.resource<tensor<8xf32>>>) {n = 2 : i32, devices = {TPU_REPLICATED_HOST_0 = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:CPU:1"]}} {
    %r = "tf.ReadVariableOp"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    "tf_device.launch"() ({
      %o = "tf.TPUExecute"(%r, %key) : (tensor<8xf32>, tensor<3x!tf_type.string>) -> tensor<8xf32>
      tf_device.return
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> ()
    tf_device.return
  }
  tf_device.replicate(%v as %p: tensor<!tf_type.resource<tensor<8xf32>>>) {n = 2 : i32} {
    %r = "tf.ReadVariableOp"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    "tf_device.launch"() ({
      %o = "tf.TPUExecute"(%r, %key) : (tensor<8xf32>, tensor<3x!tf_type.string>) -> tensor<8xf32>
      tf_device.return
    }) {device = "TPU_REPLICATED_CORE_0"} : () -> ()
    tf_device.return
  }
  tf_device.replicate(%v as %p: tensor<!tf_type.resource<tensor<8xf32>>>) {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]}} {
    %r = "tf.ReadVariableOp"(%p) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
    "tf_device.launch"() ({
      %n = "tf.Neg"(%r) : (tensor<8xf32>) -> tensor<8xf32>
      %o = "tf.TPUExecute"(%n, %key) : (tensor<8xf32>, tensor<3x!tf_type.string>) -> tensor<8xf32>
      tf_device.return
    }) {device = "TPU_REPLICATED_CORE_0"} : () -> ()
    tf_device.return
  }
  %r = "tf.ReadVariableOp"(%v) : (tensor<!tf_type.resource<tensor<8xf32>>>) -> tensor<8xf32>
  "tf_device.launch"() ({
    %o = "tf.TPUExecute"(%r, %key) : (tensor<8xf32>, tensor<3x!tf_type.string>) -> tensor<8xf32>
    tf_device.return
  }) {device = "/job:w/replica:0/task:0/device:TPU:0"} : () -> ()
  func.return
}
