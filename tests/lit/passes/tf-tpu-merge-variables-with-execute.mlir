// RUN: tfmlir-opt %s -split-input-file -tf-tpu-merge-variables-with-execute | FileCheck %s

// A variable read before the execute and assigned from its output, on the
// launch's device: the read and the assign are gone, the execute takes the
// resource and names it in both index lists. The unmerged output keeps its
// use; the execute's attributes are not carried over.

// CHECK-LABEL: func @read_and_update
// CHECK-SAME: (%[[V:[a-z0-9]+]]: {{.*}}, %[[X:[a-z0-9]+]]: tensor<2xf32>, %[[KEY:[a-z0-9]+]]: tensor<3x!tf_type.string>)
func.func @read_and_update(
    %v: tensor<*x!tf_type.resource<tensor<2xf32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %x: tensor<2xf32>, %key: tensor<3x!tf_type.string>) -> tensor<f32> {
  // CHECK-NEXT: %[[L:.*]] = "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:TPU:0"}> ({
  // CHECK-NEXT:   %[[E:.*]] = "tf.TPUExecuteAndUpdateVariables"(%[[V]], %[[X]], %[[KEY]])
  // CHECK-SAME:     <{device_var_reads_indices = [0], device_var_updates_indices = [1]}>
  // CHECK-SAME:     : (tensor<*x!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>, tensor<3x!tf_type.string>) -> tensor<f32>
  // CHECK-NEXT:   tf_device.return %[[E]] : tensor<f32>
  // CHECK-NEXT: }) : () -> tensor<f32>
  // CHECK-NEXT: return %[[L]]
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %e:2 = "tf_device.launch"() ({
    %0:2 = "tf.TPUExecute"(%r, %x, %key) {Targs = [tensor<2xf32>, tensor<2xf32>], Tresults = [tensor<f32>, tensor<2xf32>]}
      : (tensor<2xf32>, tensor<2xf32>, tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<2xf32>)
    tf_device.return %0#0, %0#1 : tensor<f32>, tensor<2xf32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> (tensor<f32>, tensor<2xf32>)
  "tf.AssignVariableOp"(%v, %e#1) : (tensor<*x!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  func.return %e#0 : tensor<f32>
}

// -----

// Only read: the update index is -1. A read that has another user stays
// (here returned); the execute takes the resource anyway. A variable only
// assigned (never read into the execute) is not merged: its assign stays.

// CHECK-LABEL: func @read_only_and_update_only
// CHECK-SAME: (%[[A:[a-z0-9]+]]: {{.*}}, %[[B:[a-z0-9]+]]: {{.*}}, %[[C:[a-z0-9]+]]: {{.*}}, %[[KEY:[a-z0-9]+]]: {{.*}})
func.func @read_only_and_update_only(
    %a: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %b: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %c: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %key: tensor<3x!tf_type.string>) -> tensor<f32> {
  // CHECK-NEXT: %[[RB:.*]] = "tf.ReadVariableOp"(%[[B]])
  // CHECK-NEXT: %[[L:.*]] = "tf_device.launch"
  // CHECK-NEXT: "tf.TPUExecuteAndUpdateVariables"(%[[A]], %[[B]], %[[KEY]])
  // CHECK-SAME: device_var_reads_indices = [0, 1], device_var_updates_indices = [-1, -1]
  // CHECK-SAME: -> tensor<f32>
  // CHECK: "tf.AssignVariableOp"(%[[C]], %[[L]])
  // CHECK-NEXT: return %[[RB]]
  %ra = "tf.ReadVariableOp"(%a) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %rb = "tf.ReadVariableOp"(%b) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%ra, %rb, %key) : (tensor<f32>, tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%c, %e) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %rb : tensor<f32>
}

// -----

// Devices: a variable on another device (argument or handle op) or with no
// device is left alone; a handle op on the launch's device, or on a COMPOSITE
// device (a packed variable), merges. Only outputs assigned to merged
// variables are merged updates.

// CHECK-LABEL: func @devices
// CHECK-SAME: (%[[CPU:[a-z0-9]+]]: {{.*}}, %[[NONE:[a-z0-9]+]]: {{.*}}, %[[KEY:[a-z0-9]+]]: {{.*}})
func.func @devices(
    %cpu: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:CPU:0"},
    %none: tensor<*x!tf_type.resource<tensor<f32>>>,
    %key: tensor<3x!tf_type.string>) {
  // CHECK-DAG: %[[H_TPU:.*]] = "tf.VarHandleOp"() {{.*}}shared_name = "on_tpu"
  // CHECK-DAG: %[[H_COMP:.*]] = "tf.VarHandleOp"() {{.*}}shared_name = "packed"
  // CHECK-DAG: %[[H_TPU1:.*]] = "tf.VarHandleOp"() {{.*}}shared_name = "on_tpu1"
  // CHECK-DAG: %[[R_CPU:.*]] = "tf.ReadVariableOp"(%[[CPU]])
  // CHECK-DAG: %[[R_NONE:.*]] = "tf.ReadVariableOp"(%[[NONE]])
  // CHECK-DAG: %[[R_TPU1:.*]] = "tf.ReadVariableOp"(%[[H_TPU1]])
  %h_tpu = "tf.VarHandleOp"() {container = "", shared_name = "on_tpu", device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %h_comp = "tf.VarHandleOp"() {container = "", shared_name = "packed", device = "/job:worker/replica:0/task:0/device:COMPOSITE:0"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %h_tpu1 = "tf.VarHandleOp"() {container = "", shared_name = "on_tpu1", device = "/job:worker/replica:0/task:0/device:TPU:1"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %r0 = "tf.ReadVariableOp"(%cpu) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %r1 = "tf.ReadVariableOp"(%none) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %r2 = "tf.ReadVariableOp"(%h_tpu) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %r3 = "tf.ReadVariableOp"(%h_comp) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %r4 = "tf.ReadVariableOp"(%h_tpu1) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  // CHECK: %[[L:.*]]:2 = "tf_device.launch"
  // CHECK-NEXT: "tf.TPUExecuteAndUpdateVariables"(%[[R_CPU]], %[[R_NONE]], %[[H_TPU]], %[[H_COMP]], %[[R_TPU1]], %[[KEY]])
  // CHECK-SAME: device_var_reads_indices = [2, 3], device_var_updates_indices = [1, 0]
  // CHECK-SAME: -> (tensor<f32>, tensor<f32>)
  %e:4 = "tf_device.launch"() ({
    %0:4 = "tf.TPUExecute"(%r0, %r1, %r2, %r3, %r4, %key)
      : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
    tf_device.return %0#0, %0#1, %0#2, %0#3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  // CHECK-NEXT: tf_device.return
  // CHECK-NEXT: })
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[CPU]], %[[L]]#0)
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[H_TPU1]], %[[L]]#1)
  // CHECK-NEXT: return
  "tf.AssignVariableOp"(%cpu, %e#2) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%h_comp, %e#0) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%h_tpu, %e#1) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%h_tpu1, %e#3) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}

// -----

// Interfering accesses. Between a read and the execute: a write of the same
// variable (%a), a read of an alias through tf.Identity (%b) -- either keeps
// the read. Between the execute and an assign: a read of the variable (%c)
// keeps the assign (the read still sees the old value); the read of %c before
// the execute merges. An access to another variable (%d) does not interfere.

// CHECK-LABEL: func @interfering_accesses
// CHECK-SAME: (%[[A:[a-z0-9]+]]: {{.*}}, %[[B:[a-z0-9]+]]: {{.*}}, %[[C:[a-z0-9]+]]: {{.*}}, %[[D:[a-z0-9]+]]: {{.*}}, %[[X:[a-z0-9]+]]: {{.*}}, %[[KEY:[a-z0-9]+]]: {{.*}})
func.func @interfering_accesses(
    %a: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %b: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %c: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %d: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %x: tensor<f32>, %key: tensor<3x!tf_type.string>) -> tensor<f32> {
  // CHECK-NEXT: %[[RA:.*]] = "tf.ReadVariableOp"(%[[A]])
  // CHECK-NEXT: %[[RB:.*]] = "tf.ReadVariableOp"(%[[B]])
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[A]], %[[X]])
  // CHECK-NEXT: %[[ID:.*]] = "tf.Identity"(%[[B]])
  // CHECK-NEXT: %[[RID:.*]] = "tf.ReadVariableOp"(%[[ID]])
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[D]], %[[X]])
  // CHECK-NEXT: %[[L:.*]]:3 = "tf_device.launch"
  // CHECK-NEXT: "tf.TPUExecuteAndUpdateVariables"(%[[RA]], %[[RB]], %[[C]], %[[D]], %[[KEY]])
  // CHECK-SAME: device_var_reads_indices = [2, 3], device_var_updates_indices = [-1, 3]
  // CHECK-SAME: -> (tensor<f32>, tensor<f32>, tensor<f32>)
  %ra = "tf.ReadVariableOp"(%a) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %rb = "tf.ReadVariableOp"(%b) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %rc = "tf.ReadVariableOp"(%c) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf.AssignVariableOp"(%a, %x) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %id = "tf.Identity"(%b) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<*x!tf_type.resource<tensor<f32>>>
  %rid = "tf.ReadVariableOp"(%id) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf.AssignVariableOp"(%d, %x) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %rd = "tf.ReadVariableOp"(%d) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e:4 = "tf_device.launch"() ({
    %0:4 = "tf.TPUExecute"(%ra, %rb, %rc, %rd, %key)
      : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
    tf_device.return %0#0, %0#1, %0#2, %0#3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  // CHECK: %[[LATE:.*]] = "tf.ReadVariableOp"(%[[C]])
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[C]], %[[L]]#2)
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[A]], %[[L]]#0)
  // CHECK-NEXT: "tf.AssignVariableOp"(%[[B]], %[[L]]#1)
  // CHECK-NOT: "tf.AssignVariableOp"(%[[D]]
  // CHECK: return %[[LATE]]
  %late = "tf.ReadVariableOp"(%c) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf.AssignVariableOp"(%c, %e#2) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%d, %e#3) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%a, %e#0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%b, %e#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %late : tensor<f32>
}

// -----

// Arguments marked as the same resource (tf._resource_arg_unique_id) alias: a
// write of %alias between the read of %v and the execute keeps the read. A
// resource the analysis cannot identify (from an op it does not know) makes
// every read before it stay.

// CHECK-LABEL: func @aliases_and_unknown_resources
func.func @aliases_and_unknown_resources(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0", tf._resource_arg_unique_id = 0 : i64},
    %alias: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0", tf._resource_arg_unique_id = 0 : i64},
    %w: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0", tf._resource_arg_unique_id = 1 : i64},
    %x: tensor<f32>, %key: tensor<3x!tf_type.string>) {
  // CHECK: "tf.TPUExecute"(
  %rv = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf.AssignVariableOp"(%alias, %x) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %e = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%rv, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  // CHECK: "tf.TPUExecute"(
  %rw = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %unknown = "tf.UnknownResourceMaker"() : () -> tensor<*x!tf_type.resource<tensor<f32>>>
  "tf.AssignVariableOp"(%unknown, %x) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %e2 = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%rw, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%w, %e2) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  // CHECK-NOT: TPUExecuteAndUpdateVariables
  func.return
}

// -----

// Deliberate difference from TF, which only looks at the resource operands of
// the ops in between: a write of the variable inside an op's region (here a
// tf.IfRegion) between the read and the execute keeps the read, so the
// execute still sees the value from before the write.

// CHECK-LABEL: func @write_nested_in_a_region
func.func @write_nested_in_a_region(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %p: tensor<i1>, %x: tensor<f32>, %key: tensor<3x!tf_type.string>) {
  // CHECK: %[[R:.*]] = "tf.ReadVariableOp"
  // CHECK: tf.IfRegion
  // CHECK: "tf.TPUExecute"(%[[R]],
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf.IfRegion"(%p) ({
    "tf.AssignVariableOp"(%v, %x) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  %e = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%r, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}

// -----

// Replicated: devices are not checked (the launch's device is a replica
// alias), reads must be in the replicate's body. A per-replica resource and a
// packed one merge; the read of %outside, outside the replicate, stays an
// operand.

// CHECK-LABEL: func @replicated
// CHECK-SAME: (%[[V0:[a-z0-9]+]]: {{.*}}, %[[V1:[a-z0-9]+]]: {{.*}}, %[[P:[a-z0-9]+]]: {{.*}}, %[[OUT:[a-z0-9]+]]: {{.*}}, %[[KEY:[a-z0-9]+]]: {{.*}})
func.func @replicated(
    %v0: tensor<*x!tf_type.resource<tensor<f32>>>, %v1: tensor<*x!tf_type.resource<tensor<f32>>>,
    %packed: tensor<*x!tf_type.resource<tensor<f32>>>, %outside: tensor<*x!tf_type.resource<tensor<f32>>>,
    %key: tensor<3x!tf_type.string>) {
  // CHECK-NEXT: %[[RO:.*]] = "tf.ReadVariableOp"(%[[OUT]])
  // CHECK-NEXT: tf_device.replicate([%[[V0]], %[[V1]]] as %[[RV:[a-z0-9]+]]: {{.*}}, %[[P]] as %[[RP:[a-z0-9]+]]: {{.*}})
  // CHECK-NEXT: %[[L:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}>
  // CHECK-NEXT: %[[E:.*]] = "tf.TPUExecuteAndUpdateVariables"(%[[RV]], %[[RP]], %[[RO]], %[[KEY]])
  // CHECK-SAME: device_var_reads_indices = [0, 1], device_var_updates_indices = [1, -1]
  // CHECK-SAME: -> tensor<f32>
  // CHECK-NEXT: tf_device.return %[[E]]
  // CHECK-NEXT: })
  // CHECK-NEXT: tf_device.return %[[L]]
  %ro = "tf.ReadVariableOp"(%outside) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %out:2 = tf_device.replicate([%v0, %v1] as %rv: tensor<*x!tf_type.resource<tensor<f32>>>,
                               %packed as %rp: tensor<*x!tf_type.resource<tensor<f32>>>)
      {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU:1"]}} {
    %r = "tf.ReadVariableOp"(%rv) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %rpv = "tf.ReadVariableOp"(%rp) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %e:2 = "tf_device.launch"() ({
      %0:2 = "tf.TPUExecute"(%r, %rpv, %ro, %key) : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<f32>)
      tf_device.return %0#0, %0#1 : tensor<f32>, tensor<f32>
    }) {device = "TPU_REPLICATED_CORE_0"} : () -> (tensor<f32>, tensor<f32>)
    "tf.AssignVariableOp"(%rv, %e#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    tf_device.return %e#0 : tensor<f32>
  }
  // CHECK: return
  func.return
}

// -----

// A parallel execute with a host launch before the execute's region: the
// parallel execute is rebuilt with the region's new results; uses of the
// host's results and of the unmerged output move to the new op.

// CHECK-LABEL: func @parallel_execute_with_host
// CHECK-SAME: (%[[V:[a-z0-9]+]]: {{.*}}, %[[KEY:[a-z0-9]+]]: {{.*}})
func.func @parallel_execute_with_host(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %key: tensor<3x!tf_type.string>) -> (tensor<i32>, tensor<f32>, tensor<i32>) {
  // CHECK-NEXT: %[[PE:.*]]:3 = "tf_device.parallel_execute"() ({
  // CHECK-NEXT:   %[[H:.*]] = "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}>
  // CHECK:          "tf._XlaRecvAtHost"
  // CHECK:        tf_device.return %[[H]] : tensor<i32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   %[[L:.*]] = "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:TPU:0"}>
  // CHECK-NEXT:     "tf.TPUExecuteAndUpdateVariables"(%[[V]], %[[KEY]])
  // CHECK-SAME:     device_var_reads_indices = [0], device_var_updates_indices = [0]
  // CHECK-SAME:     -> tensor<f32>
  // CHECK:        tf_device.return %[[L]] : tensor<f32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   %[[H2:.*]] = "tf_device.launch"
  // CHECK:        tf_device.return %[[H2]] : tensor<i32>
  // CHECK-NEXT: }) : () -> (tensor<i32>, tensor<f32>, tensor<i32>)
  // CHECK-NEXT: return %[[PE]]#0, %[[PE]]#1, %[[PE]]#2
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %pe:4 = "tf_device.parallel_execute"() ({
    %h = "tf_device.launch"() ({
      %k = "tf._XlaCompileMlirPlaceholderProgramKey"() : () -> tensor<3x!tf_type.string>
      %0 = "tf._XlaRecvAtHost"(%k) {device_ordinal = 0 : i64, key = "host_compute_channel_0_args"} : (tensor<3x!tf_type.string>) -> tensor<i32>
      tf_device.return %0 : tensor<i32>
    }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> tensor<i32>
    tf_device.return %h : tensor<i32>
  }, {
    %e:2 = "tf_device.launch"() ({
      %0:2 = "tf.TPUExecute"(%r, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<f32>)
      tf_device.return %0#0, %0#1 : tensor<f32>, tensor<f32>
    }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> (tensor<f32>, tensor<f32>)
    tf_device.return %e#0, %e#1 : tensor<f32>, tensor<f32>
  }, {
    %h2 = "tf_device.launch"() ({
      %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      tf_device.return %0 : tensor<i32>
    }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> tensor<i32>
    tf_device.return %h2 : tensor<i32>
  }) : () -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<i32>)
  "tf.AssignVariableOp"(%v, %pe#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %pe#0, %pe#2, %pe#3 : tensor<i32>, tensor<f32>, tensor<i32>
}

// -----

// Two executes in one parallel execute, inside a replicate: each merges its
// own variable, one after the other.

// CHECK-LABEL: func @replicated_parallel_execute
func.func @replicated_parallel_execute(
    %a0: tensor<*x!tf_type.resource<tensor<f32>>>, %a1: tensor<*x!tf_type.resource<tensor<f32>>>,
    %b0: tensor<*x!tf_type.resource<tensor<i32>>>, %b1: tensor<*x!tf_type.resource<tensor<i32>>>,
    %key: tensor<3x!tf_type.string>) {
  // CHECK: tf_device.replicate([%{{.*}}, %{{.*}}] as %[[RA:[a-z0-9]+]]: {{.*}}, [%{{.*}}, %{{.*}}] as %[[RB:[a-z0-9]+]]: {{.*}})
  // CHECK-NOT: ReadVariableOp
  // CHECK: "tf_device.parallel_execute"() ({
  // CHECK: "tf.TPUExecuteAndUpdateVariables"(%[[RA]], %{{.*}}) <{device_var_reads_indices = [0], device_var_updates_indices = [0]}>
  // CHECK: }, {
  // CHECK: "tf.TPUExecuteAndUpdateVariables"(%[[RB]], %{{.*}}) <{device_var_reads_indices = [0], device_var_updates_indices = [0]}>
  // CHECK: }) : () -> ()
  // CHECK-NOT: AssignVariableOp
  // CHECK: return
  tf_device.replicate([%a0, %a1] as %ra: tensor<*x!tf_type.resource<tensor<f32>>>,
                      [%b0, %b1] as %rb: tensor<*x!tf_type.resource<tensor<i32>>>) {n = 2 : i32} {
    %x = "tf.ReadVariableOp"(%ra) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %y = "tf.ReadVariableOp"(%rb) : (tensor<*x!tf_type.resource<tensor<i32>>>) -> tensor<i32>
    %pe:2 = "tf_device.parallel_execute"() ({
      %e = "tf_device.launch"() ({
        %0 = "tf.TPUExecute"(%x, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
        tf_device.return %0 : tensor<f32>
      }) {device = ""} : () -> tensor<f32>
      tf_device.return %e : tensor<f32>
    }, {
      %e = "tf_device.launch"() ({
        %0 = "tf.TPUExecute"(%y, %key) : (tensor<i32>, tensor<3x!tf_type.string>) -> tensor<i32>
        tf_device.return %0 : tensor<i32>
      }) {device = ""} : () -> tensor<i32>
      tf_device.return %e : tensor<i32>
    }) : () -> (tensor<f32>, tensor<i32>)
    "tf.AssignVariableOp"(%ra, %pe#0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.AssignVariableOp"(%rb, %pe#1) : (tensor<*x!tf_type.resource<tensor<i32>>>, tensor<i32>) -> ()
    tf_device.return
  }
  func.return
}

// -----

// Two executes in sequence, each with its own variable: both merge. A third
// one reads (through the same read op) a variable the first one updates: the
// merged first execute, in between, accesses it, so that read stays (TF, which
// does not look inside launches, would merge it and the third execute would
// see the updated value).

// CHECK-LABEL: func @several_executes
// CHECK-SAME: (%[[A:[a-z0-9]+]]: {{.*}}, %[[B:[a-z0-9]+]]: {{.*}}, %[[KEY:[a-z0-9]+]]: {{.*}})
func.func @several_executes(
    %a: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %b: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %key: tensor<3x!tf_type.string>) {
  // CHECK-NEXT: %[[RA:.*]] = "tf.ReadVariableOp"(%[[A]])
  // CHECK-NEXT: "tf_device.launch"
  // CHECK-NEXT: "tf.TPUExecuteAndUpdateVariables"(%[[A]], %[[KEY]]) <{device_var_reads_indices = [0], device_var_updates_indices = [0]}>
  // CHECK: "tf_device.launch"
  // CHECK-NEXT: "tf.TPUExecuteAndUpdateVariables"(%[[B]], %[[KEY]]) <{device_var_reads_indices = [0], device_var_updates_indices = [0]}>
  // CHECK: "tf_device.launch"
  // CHECK-NEXT: "tf.TPUExecute"(%[[RA]], %[[KEY]])
  %ra = "tf.ReadVariableOp"(%a) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e0 = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%ra, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%a, %e0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %rb = "tf.ReadVariableOp"(%b) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e1 = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%rb, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%b, %e1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %e2 = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%ra, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  func.return
}

// -----

// Nothing to merge: an execute with no variable operands, a launch holding
// more than the execute, an execute outside a launch, two reads of one
// variable, two outputs assigned to one variable (then nothing merges, not even
// the other variable), an output with a second use.

// CHECK-LABEL: func @nothing_to_merge
// CHECK-NOT: TPUExecuteAndUpdateVariables
// CHECK: return
func.func @nothing_to_merge(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %w: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %x: tensor<f32>, %key: tensor<3x!tf_type.string>) -> tensor<f32> {
  %e0 = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%x, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  %r1 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e1 = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%r1, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    %1 = "tf.Identity"(%0) : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %r2 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e2 = "tf.TPUExecute"(%r2, %key) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e2) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %r3 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %r4 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e3 = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%r3, %r4, %key) : (tensor<f32>, tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e3) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %r5 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %r6 = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e4:2 = "tf_device.launch"() ({
    %0:2 = "tf.TPUExecute"(%r5, %r6, %key) : (tensor<f32>, tensor<f32>, tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<f32>)
    tf_device.return %0#0, %0#1 : tensor<f32>, tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> (tensor<f32>, tensor<f32>)
  "tf.AssignVariableOp"(%v, %e4#0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%v, %e4#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %r7 = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  func.return %r7 : tensor<f32>
}

// -----

// An output with two uses is not a merged update; the read still merges.

// CHECK-LABEL: func @output_with_two_uses
// CHECK-SAME: (%[[V:[a-z0-9]+]]: {{.*}}, %[[KEY:[a-z0-9]+]]: {{.*}})
func.func @output_with_two_uses(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %key: tensor<3x!tf_type.string>) -> tensor<f32> {
  // CHECK-NEXT: %[[L:.*]] = "tf_device.launch"
  // CHECK-NEXT: "tf.TPUExecuteAndUpdateVariables"(%[[V]], %[[KEY]]) <{device_var_reads_indices = [0], device_var_updates_indices = [-1]}>
  // CHECK: "tf.AssignVariableOp"(%[[V]], %[[L]])
  // CHECK-NEXT: return %[[L]]
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%r, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %e : tensor<f32>
}
