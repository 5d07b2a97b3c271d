// RUN: tfmlir-opt %s -split-input-file -tf-executor-tpu-v1-island-coarsening | FileCheck %s

// A replicated cluster: metadata, compilation result and computation merge at
// the first cluster island, in block order; the replicated input before it and
// the replicated output after it come in; host islands after it follow it.

// CHECK-LABEL: func.func @replicated
// CHECK:      %[[H:.*]], %{{.*}} = tf_executor.island wraps "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}>
// CHECK:      %[[IN:.*]], %{{.*}} = tf_executor.island wraps "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}>
// CHECK:      %[[M:.*]]:3, %[[MC:.*]] = tf_executor.island {
// CHECK-NEXT:   "tf.TPUReplicateMetadata"()
// CHECK-NEXT:   %[[RI:.*]] = "tf.TPUReplicatedInput"(%[[H]], %[[IN]])
// CHECK-NEXT:   %[[STATUS:.*]] = "tf.TPUCompilationResult"()
// CHECK-NEXT:   %[[ADD:.*]] = "tf.AddV2"(%[[RI]], %[[RI]])
// CHECK-NEXT:   %[[RO:.*]]:2 = "tf.TPUReplicatedOutput"(%[[ADD]])
// CHECK-NEXT:   tf_executor.yield %[[STATUS]], %[[RO]]#0, %[[RO]]#1
// CHECK:      %[[UNRELATED:.*]], %{{.*}} = tf_executor.island wraps "tf.Neg"(%[[H]])
// CHECK:      tf_executor.island(%[[MC]]) wraps "tf.Sub"(%[[M]]#1, %[[M]]#2)
// CHECK:      tf_executor.fetch %[[M]]#0, %[[UNRELATED]]
func.func @replicated() -> (tensor<!tf_type.string>, tensor<f32>) {
  %0:2 = tf_executor.graph {
    %h, %hc = tf_executor.island wraps "tf.Const"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
    %in, %inc = tf_executor.island wraps "tf.Const"() <{value = dense<3.0> : tensor<f32>}> : () -> tensor<f32>
    %mc = tf_executor.island wraps "tf.TPUReplicateMetadata"() <{num_replicas = 2 : i64}> {_replication_info = "c", _xla_compile_device_type = "TPU"} : () -> ()
    %ri, %ric = tf_executor.island wraps "tf.TPUReplicatedInput"(%h, %in) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %u, %uc = tf_executor.island wraps "tf.Neg"(%h) : (tensor<f32>) -> tensor<f32>
    %s, %sc = tf_executor.island wraps "tf.TPUCompilationResult"() {_tpu_compilation_status = "c"} : () -> tensor<!tf_type.string>
    %a, %ac = tf_executor.island wraps "tf.AddV2"(%ri, %ri) {_replication_info = "c", _xla_compile_device_type = "TPU"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %ro:2, %roc = tf_executor.island wraps "tf.TPUReplicatedOutput"(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %d, %dc = tf_executor.island(%ac) wraps "tf.Sub"(%ro#0, %ro#1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tf_executor.fetch %s, %u : tensor<!tf_type.string>, tensor<f32>
  }
  func.return %0#0, %0#1 : tensor<!tf_type.string>, tensor<f32>
}

// -----

// The merged island takes the control inputs of its first island only (the
// others' are dropped, as TF); host ops between cluster ops that use the
// cluster move after the merged island, those feeding it before.

// CHECK-LABEL: func.func @ordering
// CHECK:      %[[P:.*]], %[[PC:.*]] = tf_executor.island wraps "tf.Const"()
// CHECK:      %[[Q:.*]], %[[QC:.*]] = tf_executor.island wraps "tf.Const"()
// CHECK:      %[[FEED:.*]], %{{.*}} = tf_executor.island wraps "tf.Neg"(%[[Q]])
// CHECK:      %[[M:.*]], %{{.*}} = tf_executor.island(%[[PC]]) {
// CHECK-NEXT:   %[[A:.*]] = "tf.Abs"(%[[P]])
// CHECK-NEXT:   %[[B:.*]] = "tf.Mul"(%[[A]], %[[FEED]])
// CHECK-NEXT:   tf_executor.yield %[[A]]
// CHECK:      tf_executor.island wraps "tf.Exp"(%[[M]])
// CHECK:      tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e+00>
func.func @ordering() {
  tf_executor.graph {
    %p, %pc = tf_executor.island wraps "tf.Const"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
    %q, %qc = tf_executor.island wraps "tf.Const"() <{value = dense<4.0> : tensor<f32>}> : () -> tensor<f32>
    %a, %ac = tf_executor.island(%pc) wraps "tf.Abs"(%p) {_xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %e, %ec = tf_executor.island wraps "tf.Exp"(%a) : (tensor<f32>) -> tensor<f32>
    %f, %fc = tf_executor.island wraps "tf.Neg"(%q) : (tensor<f32>) -> tensor<f32>
    %k, %kc = tf_executor.island wraps "tf.Const"() <{value = dense<5.0> : tensor<f32>}> : () -> tensor<f32>
    %b, %bc = tf_executor.island(%qc) wraps "tf.Mul"(%a, %f) {_xla_compile_device_type = "TPU"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Two clusters merge separately; ops of another compile device type and ops
// with _replication_info but no TPU device type stay alone.

// CHECK-LABEL: func.func @two_clusters
// CHECK:      tf_executor.island {
// CHECK-NEXT:   "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {_replication_info = "a"
// CHECK-NEXT:   "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}> {_replication_info = "a"
// CHECK-NEXT:   tf_executor.yield
// CHECK:      tf_executor.island {
// CHECK-NEXT:   "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {_replication_info = "b"
// CHECK-NEXT:   "tf.Const"() <{value = dense<4.000000e+00> : tensor<f32>}> {_replication_info = "b"
// CHECK-NEXT:   tf_executor.yield
// CHECK:      tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e+00>
// CHECK:      tf_executor.island wraps "tf.Const"() <{value = dense<6.000000e+00>
// CHECK:      tf_executor.island wraps "tf.Const"() <{value = dense<7.000000e+00>
// CHECK:      tf_executor.island wraps "tf.Const"() <{value = dense<8.000000e+00>
func.func @two_clusters() {
  tf_executor.graph {
    %0, %c0 = tf_executor.island wraps "tf.Const"() <{value = dense<1.0> : tensor<f32>}> {_replication_info = "a", _xla_compile_device_type = "TPU"} : () -> tensor<f32>
    %1, %c1 = tf_executor.island wraps "tf.Const"() <{value = dense<2.0> : tensor<f32>}> {_replication_info = "b", _xla_compile_device_type = "TPU"} : () -> tensor<f32>
    %2, %c2 = tf_executor.island wraps "tf.Const"() <{value = dense<3.0> : tensor<f32>}> {_replication_info = "a", _xla_compile_device_type = "TPU"} : () -> tensor<f32>
    %3, %c3 = tf_executor.island wraps "tf.Const"() <{value = dense<4.0> : tensor<f32>}> {_replication_info = "b", _xla_compile_device_type = "TPU"} : () -> tensor<f32>
    %4, %c4 = tf_executor.island wraps "tf.Const"() <{value = dense<5.0> : tensor<f32>}> {_replication_info = "a", _xla_compile_device_type = "GPU"} : () -> tensor<f32>
    %5, %c5 = tf_executor.island wraps "tf.Const"() <{value = dense<6.0> : tensor<f32>}> {_replication_info = "a"} : () -> tensor<f32>
    %6, %c6 = tf_executor.island wraps "tf.Const"() <{value = dense<7.0> : tensor<f32>}> {_xla_compile_device_type = "GPU"} : () -> tensor<f32>
    %7, %c7 = tf_executor.island wraps "tf.Const"() <{value = dense<8.0> : tensor<f32>}> {_tpu_replicate = "a"} : () -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Identity chains: an Identity between a replicated input and the cluster
// comes in and is removed (its uses take its operand); an Identity after a
// replicated output too; an Identity feeding a host op stays out.

// CHECK-LABEL: func.func @identities
// CHECK:      %[[X:.*]], %{{.*}} = tf_executor.island wraps "tf.Const"()
// CHECK:      %[[M:.*]]:2, %{{.*}} = tf_executor.island {
// CHECK-NEXT:   %[[RI:.*]] = "tf.TPUReplicatedInput"(%[[X]], %[[X]])
// CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%[[RI]])
// CHECK-NEXT:   %[[RO:.*]]:2 = "tf.TPUReplicatedOutput"(%[[N]])
// CHECK-NEXT:   tf_executor.yield %[[N]], %[[RO]]#0
// CHECK:      %[[HOST:.*]], %{{.*}} = tf_executor.island wraps "tf.Identity"(%[[M]]#0)
// CHECK:      tf_executor.island wraps "tf.Exp"(%[[HOST]])
// CHECK:      tf_executor.fetch %[[M]]#1
func.func @identities() -> tensor<f32> {
  %r = tf_executor.graph {
    %x, %xc = tf_executor.island wraps "tf.Const"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
    %ri, %ric = tf_executor.island wraps "tf.TPUReplicatedInput"(%x, %x) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %i, %ic = tf_executor.island wraps "tf.Identity"(%ri) : (tensor<f32>) -> tensor<f32>
    %n, %nc = tf_executor.island wraps "tf.Neg"(%i) {_replication_info = "c", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %o, %oc = tf_executor.island wraps "tf.Identity"(%n) : (tensor<f32>) -> tensor<f32>
    %ro:2, %roc = tf_executor.island wraps "tf.TPUReplicatedOutput"(%o) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %h, %hc = tf_executor.island wraps "tf.Identity"(%n) : (tensor<f32>) -> tensor<f32>
    %e, %ec = tf_executor.island wraps "tf.Exp"(%h) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %ro#0 : tensor<f32>
  }
  func.return %r : tensor<f32>
}

// -----

// Identity ops outside clusters are removed from islands that do not wrap a
// single op, even when nothing merges; Identity ops of a cluster stay.

// CHECK-LABEL: func.func @identity_cleanup
// CHECK:      tf_executor.island {
// CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%arg0)
// CHECK-NEXT:   %[[K:.*]] = "tf.Identity"(%[[N]]) {_xla_compile_device_type = "TPU"}
// CHECK-NEXT:   tf_executor.yield %[[N]], %[[K]]
func.func @identity_cleanup(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r:2 = tf_executor.graph {
    %o:2, %c = tf_executor.island {
      %n = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
      %i = "tf.Identity"(%n) : (tensor<f32>) -> tensor<f32>
      %k = "tf.Identity"(%n) {_xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %i, %k : tensor<f32>, tensor<f32>
    }
    tf_executor.fetch %o#0, %o#1 : tensor<f32>, tensor<f32>
  }
  func.return %r#0, %r#1 : tensor<f32>, tensor<f32>
}

// -----

// Functions reachable from a tf.TPUPartitionedCall are marked
// _skip_island_outlining and left as they are.

// CHECK-LABEL: func.func @main
// CHECK-NOT:    _skip_island_outlining
// CHECK:        tf_executor.island wraps "tf.TPUPartitionedCall"
// CHECK-LABEL: func.func private @partitioned
// CHECK-SAME:   _skip_island_outlining = true
// CHECK:        tf_executor.island wraps "tf.Const"
// CHECK:        tf_executor.island wraps "tf.Const"
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:   _skip_island_outlining = true
// CHECK-LABEL: func.func private @unrelated
// CHECK-NOT:    _skip_island_outlining
func.func @main(%arg0: tensor<i32>) -> tensor<f32> {
  %r = tf_executor.graph {
    %o, %c = tf_executor.island wraps "tf.TPUPartitionedCall"(%arg0) <{f = @partitioned}> : (tensor<i32>) -> tensor<f32>
    tf_executor.fetch %o : tensor<f32>
  }
  func.return %r : tensor<f32>
}
func.func private @partitioned() -> tensor<f32> {
  %r = tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Const"() <{value = dense<1.0> : tensor<f32>}> {_xla_compile_device_type = "TPU"} : () -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.Const"() <{value = dense<2.0> : tensor<f32>}> {_xla_compile_device_type = "TPU"} : () -> tensor<f32>
    %d, %dc = tf_executor.island wraps "tf.PartitionedCall"() <{f = @callee, config = "", config_proto = "", executor_type = ""}> : () -> tensor<f32>
    tf_executor.fetch %a : tensor<f32>
  }
  func.return %r : tensor<f32>
}
func.func private @callee() -> tensor<f32> {
  %0 = "tf.Const"() <{value = dense<3.0> : tensor<f32>}> : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @unrelated() {
  func.return
}

// -----

// When several functions hold ops of a cluster, an island whose op references
// one of them joins the cluster (here a call of a function with cluster ops).

// CHECK-LABEL: func.func @calls
// CHECK:      tf_executor.island {
// CHECK-NEXT:   "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-NEXT:   "tf.PartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @body}>
// CHECK-NEXT:   tf_executor.yield
// CHECK:      tf_executor.island wraps "tf.PartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @host}>
func.func @calls() {
  tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Const"() <{value = dense<1.0> : tensor<f32>}> {_replication_info = "c", _xla_compile_device_type = "TPU"} : () -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.PartitionedCall"() <{f = @body, config = "", config_proto = "", executor_type = ""}> : () -> tensor<f32>
    %h, %hc = tf_executor.island wraps "tf.PartitionedCall"() <{f = @host, config = "", config_proto = "", executor_type = ""}> : () -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}
func.func private @body() -> tensor<f32> {
  %0 = "tf.Const"() <{value = dense<2.0> : tensor<f32>}> {_replication_info = "c", _xla_compile_device_type = "TPU"} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @host() -> tensor<f32> {
  %0 = "tf.Const"() <{value = dense<3.0> : tensor<f32>}> : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Control tokens of merged islands are replaced by the merged island's; a
// single cluster island stays as it is.

// CHECK-LABEL: func.func @control
// CHECK:      %[[M:.*]] = tf_executor.island {
// CHECK:      tf_executor.island(%[[M]], %[[M]]) wraps "tf.NoOp"()
// CHECK:      %[[ALONE:.*]] = tf_executor.island wraps "tf.NoOp"() {_replication_info = "alone"
// CHECK:      tf_executor.fetch %[[M]], %[[ALONE]]
func.func @control() {
  tf_executor.graph {
    %a = tf_executor.island wraps "tf.NoOp"() {_xla_compile_device_type = "TPU"} : () -> ()
    %b = tf_executor.island wraps "tf.NoOp"() {_xla_compile_device_type = "TPU"} : () -> ()
    %h = tf_executor.island(%a, %b) wraps "tf.NoOp"() : () -> ()
    %s = tf_executor.island wraps "tf.NoOp"() {_replication_info = "alone", _xla_compile_device_type = "TPU"} : () -> ()
    tf_executor.fetch %b, %s : !tf_executor.control, !tf_executor.control
  }
  func.return
}

// -----

// Only the first island's control inputs are kept: a host op between the
// cluster ops, using the first and a control input of the second, does not
// make a cycle (the second's control input is dropped, as TF).

// CHECK-LABEL: func.func @dropped_control_input
// CHECK:      %[[M:.*]] = tf_executor.island {
// CHECK-NEXT:   "tf.Neg"
// CHECK-NEXT:   "tf.Abs"
// CHECK-NEXT:   tf_executor.yield
// CHECK:      tf_executor.island(%[[M]]) wraps "tf.NoOp"()
func.func @dropped_control_input(%arg0: tensor<f32>) {
  tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Neg"(%arg0) {_xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    %h = tf_executor.island(%ac) wraps "tf.NoOp"() : () -> ()
    %b, %bc = tf_executor.island(%h) wraps "tf.Abs"(%arg0) {_xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}
