// RUN: tfmlir-opt %s -split-input-file -tf-tpu-cluster-formation -verify-diagnostics | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-tpu-cluster-formation=strict-clusters=true 2>&1 >/dev/null | FileCheck %s --check-prefix=STRICT
// RUN: tfmlir-opt %s -split-input-file -tf-tpu-cluster-formation=strict-clusters=true 2>/dev/null | FileCheck %s

// Warnings are MLIR warning diagnostics, as TF's; with strict-clusters a
// control-only cycle is an error diagnostic and the pass still succeeds, as
// in TF.

// Behaviour reference: TF 2.21's tpu_cluster_formation.cc (the pass is not
// registered in TF's Python build, so these cases follow its source). TF's
// output is observed through its whole tf-replicated-clustering-bridge-v2 on
// programs without outside compilation, where the other unregistered passes
// are no-ops (sharding attributes aside): tests/python/test_tpu_cluster_formation.py.

// The cluster ops lose _replication_info, _xla_compile_device_type and their
// device (nested ops too) unless it is a TPU_REPLICATED_CORE device; the
// cluster gets the metadata's attributes but `name` and `num_replicas`; the
// metadata op goes.

// CHECK-LABEL: func @attributes
// CHECK-NOT:   TPUReplicateMetadata
// CHECK:       "tf_device.cluster"() ({
// CHECK-NEXT:    %[[A:.*]] = "tf.Neg"(%arg0) {_class = ["loc:@x"], _xla_outside_compilation = "0"} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = "tf.Abs"(%[[A]]) {device = "/job:worker/replica:0/task:0/device:TPU_REPLICATED_CORE:0"}
// CHECK-NEXT:    %[[C:.*]] = "tf.Square"(%[[B]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[D:.*]] = "tf.IfRegion"
// CHECK-NEXT:      "tf.Sqrt"(%[[C]]) {device = "/device:TPU_REPLICATED_CORE"} :
// CHECK:           "tf.Exp"(%[[C]]) :
// CHECK:         tf_device.return %[[D]] : tensor<f32>
// CHECK-NEXT:  }) {_replication_info = "comp", _xla_compile_device_type = "TPU", allow_soft_placement = false, device = "/job:worker/replica:0/task:0/device:CPU:0", num_cores_per_replica = 1 : i64, topology = "topo"} : () -> tensor<f32>
// CHECK-NEXT:  return
func.func @attributes(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU", _xla_outside_compilation = "0", _class = ["loc:@x"], device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", name = "meta", num_replicas = 1, num_cores_per_replica = 1, topology = "topo", allow_soft_placement = false, device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> ()
  %1 = "tf.Abs"(%0) {_replication_info = "comp", _xla_compile_device_type = "TPU", device = "/job:worker/replica:0/task:0/device:TPU_REPLICATED_CORE:0"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Square"(%1) {_replication_info = "comp", _xla_compile_device_type = "TPU", device = "TPU_REPLICATED_CORE:0"} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.IfRegion"(%arg1) ({
    %4 = "tf.Sqrt"(%2) {_replication_info = "comp", _xla_compile_device_type = "TPU", device = "/device:TPU_REPLICATED_CORE"} : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%4) : (tensor<f32>) -> ()
  }, {
    %5 = "tf.Exp"(%2) {device = "/device:TPU:0"} : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%5) : (tensor<f32>) -> ()
  }) {_replication_info = "comp", _xla_compile_device_type = "TPU", is_stateless = true} : (tensor<i1>) -> tensor<f32>
  func.return %3 : tensor<f32>
}

// -----

// The cluster takes the place of its last op. Ops in between that use the
// cluster (transitively) follow it, in order; the others stay before it. Only
// results used outside the cluster are returned (in op and result order),
// and every outside use -- nested ones too -- takes the cluster's result.

// CHECK-LABEL: func @placement
// CHECK-NEXT:  %[[OTHER:.*]] = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
// CHECK-NEXT:  %[[INDEP:.*]] = "tf.Cos"(%[[OTHER]])
// CHECK-NEXT:  %[[CL:.*]]:3 = "tf_device.cluster"() ({
// CHECK-NEXT:    %[[A:.*]] = "tf.Neg"(%arg0)
// CHECK-NEXT:    %[[B:.*]]:2 = "tf.Unpack"(%arg1)
// CHECK-NEXT:    %[[C:.*]] = "tf.AddV2"(%[[A]], %[[INDEP]])
// CHECK-NEXT:    %[[D:.*]] = "tf.Mul"(%[[C]], %[[B]]#0)
// CHECK-NEXT:    tf_device.return %[[A]], %[[B]]#1, %[[D]] : tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT:  }) {_replication_info = "comp", _xla_compile_device_type = "TPU", topology = ""}
// CHECK-NEXT:  %[[U1:.*]] = "tf.Sin"(%[[CL]]#0)
// CHECK-NEXT:  %[[U2:.*]] = "tf.Tan"(%[[U1]])
// CHECK-NEXT:  %[[L:.*]] = "tf_device.launch"() <{device = "/device:CPU:0"}> ({
// CHECK-NEXT:    %[[N:.*]] = "tf.Sub"(%[[CL]]#1, %[[U2]])
// CHECK-NEXT:    tf_device.return %[[N]]
// CHECK:       return %[[CL]]#2, %[[L]], %[[CL]]#0
func.func @placement(%arg0: tensor<f32>, %arg1: tensor<2xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %1:2 = "tf.Unpack"(%arg1) {_replication_info = "comp", _xla_compile_device_type = "TPU", axis = 0 : i64} : (tensor<2xf32>) -> (tensor<f32>, tensor<f32>)
  %u1 = "tf.Sin"(%0) : (tensor<f32>) -> tensor<f32>
  %other = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %u2 = "tf.Tan"(%u1) : (tensor<f32>) -> tensor<f32>
  %indep = "tf.Cos"(%other) : (tensor<f32>) -> tensor<f32>
  %l = "tf_device.launch"() ({
    %n = "tf.Sub"(%1#1, %u2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tf_device.return %n : tensor<f32>
  }) {device = "/device:CPU:0"} : () -> tensor<f32>
  %2 = "tf.AddV2"(%0, %indep) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1, topology = ""} : () -> ()
  %3 = "tf.Mul"(%2, %1#0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %3, %l, %0 : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// A nested op of a cluster op using another cluster op keeps its operand; a
// cluster op's result used only inside the cluster is not returned.

// CHECK-LABEL: func @nested_use_inside
// CHECK:       %[[CL:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:    %[[A:.*]] = "tf.Neg"(%arg0)
// CHECK-NEXT:    %[[W:.*]] = "tf.WhileRegion"(%arg0)
// CHECK:           "tf.AddV2"(%{{.*}}, %[[A]])
// CHECK:         tf_device.return %[[W]] : tensor<f32>
// CHECK:       return %[[CL]]
func.func @nested_use_inside(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.WhileRegion"(%arg0) ({
  ^bb0(%a: tensor<f32>):
    %c = "tf.Less"(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>):
    %s = "tf.AddV2"(%a, %0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%s) : (tensor<f32>) -> ()
  }) {_replication_info = "comp", _xla_compile_device_type = "TPU", is_stateless = true, parallel_iterations = 10 : i64} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return %1 : tensor<f32>
}

// -----

// Two computations in one block, interleaved: each gets its own cluster with
// its own metadata; a metadata without ops is just erased.

// CHECK-LABEL: func @two_computations
// CHECK:       %[[C0:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:    "tf.Neg"(%arg0)
// CHECK-NEXT:    "tf.Abs"
// CHECK:       }) {_replication_info = "first", _xla_compile_device_type = "TPU", topology = "t0"}
// CHECK-NEXT:  %[[C1:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:    "tf.Exp"(%arg0)
// CHECK-NEXT:    "tf.Sqrt"(%[[C0]])
// CHECK:       }) {_replication_info = "second", _xla_compile_device_type = "TPU", topology = "t1"}
// CHECK-NEXT:  return %[[C0]], %[[C1]]
// CHECK-NOT:   TPUReplicateMetadata
func.func @two_computations(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  "tf.TPUReplicateMetadata"() {_replication_info = "second", _xla_compile_device_type = "TPU", num_replicas = 1, topology = "t1"} : () -> ()
  "tf.TPUReplicateMetadata"() {_replication_info = "unused", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  %0 = "tf.Neg"(%arg0) {_replication_info = "first", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Exp"(%arg0) {_replication_info = "second", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Abs"(%0) {_replication_info = "first", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.Sqrt"(%2) {_replication_info = "second", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "first", _xla_compile_device_type = "TPU", num_replicas = 1, topology = "t0"} : () -> ()
  func.return %2, %3 : tensor<f32>, tensor<f32>
}

// -----

// Control dependencies come from TF's side-effect analysis of the function
// before the pass: a write of a variable the cluster reads follows the
// cluster, one of another variable stays. The metadata op (unknown effects)
// is a barrier in that analysis: a write after it does not depend on a read
// before it.

!res = tensor<*x!tf_type.resource<tensor<f32>>>

// CHECK-LABEL: func @resources
// CHECK-NEXT:  %[[ONE:.*]] = "tf.Const"
// CHECK-NEXT:  "tf.AssignSubVariableOp"(%arg1, %[[ONE]])
// CHECK-NEXT:  "tf_device.cluster"() ({
// CHECK-NEXT:    "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT:    "tf.NoOp"()
// CHECK-NEXT:    tf_device.return
// CHECK-NEXT:  })
// CHECK-NEXT:  "tf.AssignAddVariableOp"(%arg0, %[[ONE]])
// CHECK-NEXT:  return
func.func @resources(%arg0: !res, %arg1: !res) {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  %0 = "tf.ReadVariableOp"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (!res) -> tensor<f32>
  "tf.AssignAddVariableOp"(%arg0, %one) : (!res, tensor<f32>) -> ()
  "tf.AssignSubVariableOp"(%arg1, %one) : (!res, tensor<f32>) -> ()
  "tf.NoOp"() {_replication_info = "comp", _xla_compile_device_type = "TPU"} : () -> ()
  func.return
}

// CHECK-LABEL: func @metadata_barrier
// CHECK-NEXT:  %[[ONE:.*]] = "tf.Const"
// CHECK-NEXT:  "tf.AssignAddVariableOp"(%arg0, %[[ONE]])
// CHECK-NEXT:  "tf_device.cluster"() ({
// CHECK-NEXT:    "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT:    "tf.NoOp"()
func.func @metadata_barrier(%arg0: !res) {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.ReadVariableOp"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (!res) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  "tf.AssignAddVariableOp"(%arg0, %one) : (!res, tensor<f32>) -> ()
  "tf.NoOp"() {_replication_info = "comp", _xla_compile_device_type = "TPU"} : () -> ()
  func.return
}

// A nested op of an op between the cluster ops that writes a variable the
// cluster wrote before: the op follows the cluster.

// CHECK-LABEL: func @nested_write
// CHECK:       "tf_device.cluster"() ({
// CHECK-NEXT:    "tf.AssignVariableOp"(%arg0
// CHECK-NEXT:    "tf.NoOp"()
// CHECK-NEXT:    tf_device.return
// CHECK-NEXT:  })
// CHECK-NEXT:  "tf.IfRegion"
// CHECK-NEXT:    "tf.AssignAddVariableOp"(%arg0
func.func @nested_write(%arg0: !res, %arg1: tensor<i1>) {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  "tf.AssignVariableOp"(%arg0, %one) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (!res, tensor<f32>) -> ()
  "tf.IfRegion"(%arg1) ({
    "tf.AssignAddVariableOp"(%arg0, %one) : (!res, tensor<f32>) -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  "tf.NoOp"() {_replication_info = "comp", _xla_compile_device_type = "TPU"} : () -> ()
  func.return
}

// -----

// Every tf.Const of the module loses its attributes but `value` (TF distrusts
// attributes on constants), so constants are never clustered.

// CHECK-LABEL: func @constants
// CHECK-NEXT:  %[[K:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:  %[[CL:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:    "tf.Reshape"(%arg0, %[[K]])
// CHECK:       %[[K2:.*]] = "tf.Const"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
// CHECK-NEXT:  return
func.func @constants(%arg0: tensor<*xi32>) -> tensor<?xi32> {
  %k = "tf.Const"() {_replication_info = "comp", _xla_compile_device_type = "TPU", device = "", value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  %0 = "tf.Reshape"(%arg0, %k) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<*xi32>, tensor<1xi32>) -> tensor<?xi32>
  func.return %0 : tensor<?xi32>
}

// A function without metadata is not clustered, but its constants are scrubbed too.
func.func @no_metadata() -> tensor<i32> {
  %k = "tf.Const"() {_class = ["loc:@x"], value = dense<2> : tensor<i32>} : () -> tensor<i32>
  func.return %k : tensor<i32>
}

// -----

// Ops with a CPU, GPU or empty compile device type are left alone, even
// beside a TPU computation's metadata; so are ops of a computation without
// metadata (a warning at the function).

// CHECK-LABEL: func @other_device_types
// CHECK-NEXT:  "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "CPU"}
// CHECK-NEXT:  "tf.Abs"(%arg0) {_replication_info = "comp", _xla_compile_device_type = ""}
// CHECK-NEXT:  "tf.Exp"(%arg0) {_replication_info = "nowhere", _xla_compile_device_type = ""}
// CHECK-NEXT:  "tf.Sin"(%arg0) {_replication_info = "nowhere", _xla_compile_device_type = "CPU"}
// CHECK-NEXT:  return
func.func @other_device_types(%arg0: tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "CPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%arg0) {_replication_info = "comp", _xla_compile_device_type = ""} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Exp"(%arg0) {_replication_info = "nowhere", _xla_compile_device_type = ""} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.Sin"(%arg0) {_replication_info = "nowhere", _xla_compile_device_type = "CPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// CHECK-LABEL: func @missing_metadata
// CHECK-NEXT:  "tf.Neg"(%arg0) {_replication_info = "nowhere", _xla_compile_device_type = "TPU"}
// CHECK-NEXT:  "tf_device.cluster"
// CHECK-NEXT:    "tf.Abs"(%arg0)
// expected-warning @+1 {{TPUReplicateMetadata for associated '_replication_info' attribute 'nowhere' is missing}}
func.func @missing_metadata(%arg0: tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "nowhere", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}

// -----

// A block without metadata is not clustered; the single blocks of its ops'
// regions are, each with the metadata it holds. Ops of a computation outside
// the block holding its metadata are not part of it.

// CHECK-LABEL: func @nested_blocks
// CHECK:       "tf.Neg"(%arg0) {_replication_info = "inner", _xla_compile_device_type = "TPU"}
// CHECK:       "tf.IfRegion"
// CHECK-NEXT:    %[[CL:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:      "tf.Abs"(%arg0)
// CHECK:         }) {_replication_info = "inner", _xla_compile_device_type = "TPU"}
// CHECK-NEXT:    "tf.Yield"(%[[CL]])
// CHECK:         "tf_device.launch"
// CHECK-NEXT:      %[[CL2:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:        "tf.Exp"(%arg0)
// CHECK:           }) {_replication_info = "deeper", _xla_compile_device_type = "TPU"}
// CHECK-NEXT:      tf_device.return %[[CL2]]
func.func @nested_blocks(%arg0: tensor<f32>, %arg1: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf.Neg"(%arg0) {_replication_info = "inner", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.IfRegion"(%arg1) ({
    %2 = "tf.Abs"(%arg0) {_replication_info = "inner", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    "tf.TPUReplicateMetadata"() {_replication_info = "inner", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
    "tf.Yield"(%2) : (tensor<f32>) -> ()
  }, {
    %3 = "tf_device.launch"() ({
      %4 = "tf.Exp"(%arg0) {_replication_info = "deeper", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
      "tf.TPUReplicateMetadata"() {_replication_info = "deeper", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
      tf_device.return %4 : tensor<f32>
    }) {device = "/device:CPU:0"} : () -> tensor<f32>
    "tf.Yield"(%3) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  func.return %0, %1 : tensor<f32>, tensor<f32>
}

// A function declaration is skipped.
// CHECK-LABEL: func private @declaration
func.func private @declaration(tensor<f32>) -> tensor<f32>

// -----

// One replica: no tf_device.replicate; single-operand TPUReplicatedInput and
// single-result TPUReplicatedOutput ops are bypassed and erased, and so is an
// unused one with several operands.

// CHECK-LABEL: func @one_replica
// CHECK-NOT:   TPUReplicated
// CHECK-NOT:   tf_device.replicate
// CHECK:       %[[CL:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:    "tf.Neg"(%arg0)
// CHECK:       return %[[CL]]
func.func @one_replica(%arg0: tensor<f32>) -> tensor<f32> {
  %ri = "tf.TPUReplicatedInput"(%arg0) : (tensor<f32>) -> tensor<f32>
  %unused = "tf.TPUReplicatedInput"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = "tf.Neg"(%ri) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  %ro = "tf.TPUReplicatedOutput"(%0) : (tensor<f32>) -> tensor<f32>
  func.return %ro : tensor<f32>
}

// -----

// Replication: the TPUReplicatedInput ops the cluster uses become the
// replicate's inputs in first-use order (post-order walk of the cluster),
// packed ones last; their `index` attribute is not looked at. The mirrored
// ones are listed by their position in that order. A TPUReplicatedOutput user
// of a cluster result takes the replicas' results; any other user gets the
// first replica's. Values from outside that are not TPUReplicatedInput ops
// stay implicit captures.

// CHECK-LABEL: func @replicate
// CHECK-SAME:  (%[[A0:.*]]: tensor<f32>, %[[A1:.*]]: tensor<f32>, %[[A2:.*]]: tensor<i32>, %[[A3:.*]]: tensor<i32>, %[[A4:.*]]: tensor<f32>)
// CHECK-NOT:   TPUReplicated
// CHECK:       %[[R:.*]]:4 = tf_device.replicate([%[[A2]], %[[A3]]] as %[[I0:.*]]: tensor<i32>, [%[[A0]], %[[A1]]] as %[[I1:.*]]: tensor<f32>, %[[A4]] as %[[P0:.*]]: tensor<f32>, %[[A0]] as %[[P1:.*]]: tensor<f32>) {_mirrored_variable_indices = [1, 3], n = 2 : i32} {
// CHECK-NEXT:    %[[CL:.*]]:2 = "tf_device.cluster"() ({
// CHECK-NEXT:      %[[X:.*]] = "tf.Cast"(%[[I0]])
// CHECK-NEXT:      %[[Y:.*]] = "tf.AddN"(%[[P0]], %[[I1]], %[[X]], %[[P1]], %[[A4]])
// CHECK-NEXT:      %[[Z:.*]] = "tf.Neg"(%[[Y]])
// CHECK-NEXT:      tf_device.return %[[Y]], %[[Z]]
// CHECK-NEXT:    }) {_replication_info = "comp", _xla_compile_device_type = "TPU", num_cores_per_replica = 1 : i64, topology = ""}
// CHECK-NEXT:    tf_device.return %[[CL]]#0, %[[CL]]#1
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[PIN:.*]] = "tf.Identity"(%[[R]]#0)
// CHECK-NEXT:  return %[[R]]#1, %[[R]]#2, %[[PIN]]
func.func @replicate(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %packed = "tf.TPUReplicatedInput"(%arg4) {index = 0 : i64, is_packed = true} : (tensor<f32>) -> tensor<f32>
  %ri0 = "tf.TPUReplicatedInput"(%arg0, %arg1) {index = 1 : i64, is_mirrored_variable = true} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %ri1 = "tf.TPUReplicatedInput"(%arg2, %arg3) {index = 2 : i64} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %packed2 = "tf.TPUReplicatedInput"(%arg0) {is_packed = true, is_mirrored_variable = true} : (tensor<f32>) -> tensor<f32>
  %0 = "tf.Cast"(%ri1) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<i32>) -> tensor<f32>
  %1 = "tf.AddN"(%packed, %ri0, %0, %packed2, %arg4) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %ro:2 = "tf.TPUReplicatedOutput"(%1) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %pin = "tf.Identity"(%1) : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2, num_cores_per_replica = 1, topology = ""} : () -> ()
  %2 = "tf.Neg"(%1) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %ro2:2 = "tf.TPUReplicatedOutput"(%2) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return %ro#1, %ro2#0, %pin : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Model parallelism: a TPUPartitionedInputV2 the cluster uses, of
// TPUReplicatedInput ops (one per core), moves into the replicate in front of
// the cluster, taking the replicate's block arguments.

!rtype = tensor<!tf_type.resource<tensor<4xf32>>>

// CHECK-LABEL: func @partitioned_inputs
// CHECK-SAME:  (%[[A0:.*]]: {{.*}}, %[[A1:.*]]: {{.*}}, %[[A2:.*]]: {{.*}}, %[[A3:.*]]: {{.*}})
// CHECK:       %[[R:.*]]:2 = tf_device.replicate([%[[A2]], %[[A3]]] as %[[I0:.*]]: tensor<4xi32>, [%[[A0]], %[[A1]]] as %[[I1:.*]]: tensor<!tf_type.resource<tensor<4xf32>>>, [%[[A1]], %[[A0]]] as %[[I2:.*]]: tensor<!tf_type.resource<tensor<4xf32>>>) {n = 2 : i32} {
// CHECK-NEXT:    %[[PI:.*]] = "tf.TPUPartitionedInputV2"(%[[I1]], %[[I2]]) <{_XlaSharding = "", partition_dims = []}>
// CHECK-NEXT:    %[[CL:.*]] = "tf_device.cluster"() ({
// CHECK-NEXT:      "tf.Cast"(%[[I0]])
// CHECK-NEXT:      "tf.ReadVariableOp"(%[[PI]])
// CHECK-NEXT:      "tf.AddV2"
// CHECK:         }) {_replication_info = "comp", _xla_compile_device_type = "TPU", num_cores_per_replica = 2 : i64}
// CHECK-NEXT:    tf_device.return %[[CL]]
// CHECK:       return %[[R]]#1
func.func @partitioned_inputs(%arg0: !rtype, %arg1: !rtype, %arg2: tensor<4xi32>, %arg3: tensor<4xi32>) -> tensor<4xf32> {
  %i = "tf.TPUReplicatedInput"(%arg2, %arg3) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %r0 = "tf.TPUReplicatedInput"(%arg0, %arg1) : (!rtype, !rtype) -> !rtype
  %r1 = "tf.TPUReplicatedInput"(%arg1, %arg0) : (!rtype, !rtype) -> !rtype
  %pi = "tf.TPUPartitionedInputV2"(%r0, %r1) {_XlaSharding = "", partition_dims = []} : (!rtype, !rtype) -> !rtype
  %c = "tf.Cast"(%i) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<4xi32>) -> tensor<4xf32>
  %v = "tf.ReadVariableOp"(%pi) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (!rtype) -> tensor<4xf32>
  %s = "tf.AddV2"(%v, %c) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %ro:2 = "tf.TPUReplicatedOutput"(%s) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2, num_cores_per_replica = 2} : () -> ()
  func.return %ro#1 : tensor<4xf32>
}

// -----

// Partitioned outputs: each replica's TPUReplicatedOutput result reaching a
// TPUPartitionedOutputV2 (through single-use identities, which go): one new
// TPUPartitionedOutputV2 (partition_dims and sharding of the first, nothing
// else) splits the cluster's result inside the replicate; its results are
// core-major (replica r of core c is c * n + r). Other results follow.

// CHECK-LABEL: func @partitioned_outputs
// CHECK-NOT:   tf.Identity
// CHECK:       %[[R:.*]]:6 = tf_device.replicate([%{{.*}}, %{{.*}}] as %[[I:.*]]: tensor<?xi32>) {_mirrored_variable_indices = [0], n = 2 : i32} {
// CHECK-NEXT:    %[[CL:.*]]:2 = "tf_device.cluster"() ({
// CHECK-NEXT:      "tf.Unique"(%[[I]])
// CHECK:         }) {_replication_info = "comp", _xla_compile_device_type = "TPU", num_cores_per_replica = 2 : i64}
// CHECK-NEXT:    %[[PO:.*]]:2 = "tf.TPUPartitionedOutputV2"(%[[CL]]#0) <{_XlaSharding = "shard", partition_dims = [2]}> : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
// CHECK-NEXT:    tf_device.return %[[PO]]#0, %[[PO]]#1, %[[CL]]#1
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[R]]#0, %[[R]]#2, %[[R]]#1, %[[R]]#3, %[[R]]#5
func.func @partitioned_outputs(%arg0: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  %p0 = "tf.TPUPartitionedInputV2"(%arg0) {partition_dims = [], is_packed = true} : (tensor<?xi32>) -> tensor<?xi32>
  %p1 = "tf.TPUPartitionedInputV2"(%arg0) {partition_dims = [], is_packed = true} : (tensor<?xi32>) -> tensor<?xi32>
  %ri = "tf.TPUReplicatedInput"(%p0, %p1) {is_mirrored_variable = true} : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %u:2 = "tf.Unique"(%ri) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  %ro:2 = "tf.TPUReplicatedOutput"(%u#0) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  %id0 = "tf.Identity"(%ro#0) : (tensor<?xi32>) -> tensor<?xi32>
  %id1 = "tf.Identity"(%id0) : (tensor<?xi32>) -> tensor<?xi32>
  %po0:2 = "tf.TPUPartitionedOutputV2"(%id1) {_XlaSharding = "shard", partition_dims = [2], device = "/device:CPU:0"} : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  %po1:2 = "tf.TPUPartitionedOutputV2"(%ro#1) {_XlaSharding = "other", partition_dims = [3]} : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  %ro2:2 = "tf.TPUReplicatedOutput"(%u#1) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2, num_cores_per_replica = 2} : () -> ()
  func.return %po0#0, %po0#1, %po1#0, %po1#1, %ro2#1 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}

// -----

// TF counts a partitioned result's replicate results from the number of
// values returned before it, not from the replicate results before it: with
// a plain result first, the partitioned one's uses are shifted (kept as TF
// does).

// CHECK-LABEL: func @partitioned_output_after_plain
// CHECK:       %[[R:.*]]:6 = tf_device.replicate
// CHECK:         tf_device.return %[[CL:.*]]#0, %[[PO:.*]]#0, %[[PO]]#1
// CHECK:       return %[[R]]#1, %[[R]]#3, %[[R]]#2, %[[R]]#4, %[[R]]#0
func.func @partitioned_output_after_plain(%arg0: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %a = "tf.Neg"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<4xi32>) -> tensor<4xi32>
  %b = "tf.Abs"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<4xi32>) -> tensor<4xi32>
  %ra:2 = "tf.TPUReplicatedOutput"(%a) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %rb:2 = "tf.TPUReplicatedOutput"(%b) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %p0:2 = "tf.TPUPartitionedOutputV2"(%rb#0) {partition_dims = []} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %p1:2 = "tf.TPUPartitionedOutputV2"(%rb#1) {partition_dims = []} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 2, num_cores_per_replica = 2} : () -> ()
  func.return %p0#0, %p0#1, %p1#0, %p1#1, %ra#0 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// One replica with partitioned outputs: the identities between the
// TPUReplicatedOutput and the TPUPartitionedOutputV2 are bypassed and erased;
// the TPUPartitionedOutputV2 stays outside the cluster.

// CHECK-LABEL: func @single_replica_partitioned
// CHECK-NOT:   tf.Identity
// CHECK:       %[[CL:.*]]:2 = "tf_device.cluster"
// CHECK:       %[[PO:.*]]:2 = "tf.TPUPartitionedOutputV2"(%[[CL]]#0)
// CHECK-NEXT:  return %[[PO]]#0, %[[PO]]#1, %[[CL]]#1
func.func @single_replica_partitioned(%arg0: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  %u:2 = "tf.Unique"(%arg0) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  %ro = "tf.TPUReplicatedOutput"(%u#0) : (tensor<?xi32>) -> tensor<?xi32>
  %id = "tf.Identity"(%ro) : (tensor<?xi32>) -> tensor<?xi32>
  %po:2 = "tf.TPUPartitionedOutputV2"(%id) {partition_dims = []} : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  %ro2 = "tf.TPUReplicatedOutput"(%u#1) : (tensor<?xi32>) -> tensor<?xi32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1, num_cores_per_replica = 2} : () -> ()
  func.return %po#0, %po#1, %ro2 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}

// -----

// Several replicated computations in one block.

// CHECK-LABEL: func @replicated_interleaved
// CHECK:       tf_device.replicate([%arg0, %arg1] as
// CHECK:         _replication_info = "a"
// CHECK:       tf_device.replicate([%arg1, %arg0] as
// CHECK:         _replication_info = "b"
func.func @replicated_interleaved(%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  "tf.TPUReplicateMetadata"() {_replication_info = "a", _xla_compile_device_type = "TPU", num_replicas = 2} : () -> ()
  "tf.TPUReplicateMetadata"() {_replication_info = "b", _xla_compile_device_type = "TPU", num_replicas = 2} : () -> ()
  %ri0 = "tf.TPUReplicatedInput"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %ri1 = "tf.TPUReplicatedInput"(%arg1, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = "tf.Neg"(%ri0) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Neg"(%ri1) {_replication_info = "b", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Abs"(%0) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.Abs"(%1) {_replication_info = "b", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %ro0:2 = "tf.TPUReplicatedOutput"(%2) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %ro1:2 = "tf.TPUReplicatedOutput"(%3) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return %ro0#0, %ro1#1 : tensor<f32>, tensor<f32>
}

// -----

// An op between the cluster ops that the cluster depends on and that depends
// on the cluster only through control (side effects): TF warns and leaves it
// before the cluster.

// STRICT-NOT: warning: Op has cyclic
// STRICT: error: Op has cyclic dependency with a compilation cluster:
// STRICT-NEXT: The cluster depends on
// STRICT-NEXT: tf.Unknown

// CHECK-LABEL: func @control_cycle
// CHECK-NEXT:  "tf.Unknown"()
// CHECK-NEXT:  "tf_device.cluster"
// CHECK-NEXT:    "tf.Assert"
// CHECK-NEXT:    "tf.Print"
func.func @control_cycle(%arg0: tensor<i1>, %arg1: tensor<f32>) {
  "tf.Assert"(%arg0, %arg1) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<i1>, tensor<f32>) -> ()
  // expected-warning @+1 {{Op has cyclic dependency with a compilation cluster:}}
  "tf.Unknown"() : () -> ()
  %0 = "tf.Print"(%arg1) {_replication_info = "comp", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  "tf.TPUReplicateMetadata"() {_replication_info = "comp", _xla_compile_device_type = "TPU", num_replicas = 1} : () -> ()
  func.return
}
