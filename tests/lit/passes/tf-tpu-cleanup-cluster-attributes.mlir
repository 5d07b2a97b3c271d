// RUN: tfmlir-opt %s -split-input-file -tf-tpu-cleanup-cluster-attributes | FileCheck %s

// Ops of a cluster lose _replication_info, _xla_compile_device_type, _class
// and a device that is not a TPU_REPLICATED_CORE device; other attributes
// stay. The cluster keeps its own attributes, ops outside it keep theirs.

// CHECK-LABEL: func.func @basic
// CHECK: "tf.Neg"(%arg0) {_keep = 1 : i64, _xla_outside_compilation = "host"}
// CHECK-NEXT: "tf.Abs"
// CHECK-SAME: {device = "/job:worker/replica:0/task:0/device:TPU_REPLICATED_CORE:0"}
// CHECK-NEXT: tf_device.return
// CHECK-NEXT: }) {_replication_info = "cluster", _xla_compile_device_type = "TPU", device = "/job:worker/replica:0/task:0/device:CPU:0"}
// CHECK-NEXT: "tf.Square"
// CHECK-SAME: {_class = ["loc:@outside"], _replication_info = "cluster", device = "/job:worker/replica:0/task:0/device:CPU:0"}
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0"]} {
func.func @basic(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Neg"(%arg0) {_replication_info = "cluster", _xla_compile_device_type = "TPU", _class = ["loc:@a"], device = "/job:worker/replica:0/task:0/device:CPU:0", _keep = 1, _xla_outside_compilation = "host"} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "tf.Abs"(%1) {_replication_info = "cluster", device = "/job:worker/replica:0/task:0/device:TPU_REPLICATED_CORE:0"} : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.return %2 : tensor<4xf32>
  }) {_replication_info = "cluster", _xla_compile_device_type = "TPU", device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> tensor<4xf32>
  %3 = "tf.Square"(%0) {_replication_info = "cluster", _class = ["loc:@outside"], device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %3 : tensor<4xf32>
}
}

// -----

// Which devices stay: those TF's device name parser reads as a
// TPU_REPLICATED_CORE device (with or without job, task or id); a bare
// "TPU_REPLICATED_CORE:0" does not parse, "TPU_REPLICATED_CORE_0" is another
// type. A device that is not a string stays.

// CHECK-LABEL: func.func @devices
// CHECK: "tf.Neg"(%arg0) {device = "/device:TPU_REPLICATED_CORE"}
// CHECK-NEXT: "tf.Neg"({{.*}}) {device = "/job:*/device:TPU_REPLICATED_CORE:*"}
// CHECK-NEXT: "tf.Neg"({{.*}}) {device = "/replica:3/device:TPU_REPLICATED_CORE:1"}
// CHECK-NEXT: "tf.Neg"({{.*}}) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"({{.*}}) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"({{.*}}) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"({{.*}}) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"({{.*}}) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"({{.*}}) {device = 3 : i64}
// CHECK-NEXT: tf_device.return
func.func @devices(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Neg"(%arg0) {device = "/device:TPU_REPLICATED_CORE"} : (tensor<f32>) -> tensor<f32>
    %2 = "tf.Neg"(%1) {device = "/job:*/device:TPU_REPLICATED_CORE:*"} : (tensor<f32>) -> tensor<f32>
    %3 = "tf.Neg"(%2) {device = "/replica:3/device:TPU_REPLICATED_CORE:1"} : (tensor<f32>) -> tensor<f32>
    %4 = "tf.Neg"(%3) {device = "TPU_REPLICATED_CORE:0"} : (tensor<f32>) -> tensor<f32>
    %5 = "tf.Neg"(%4) {device = "/device:TPU_REPLICATED_CORE_0"} : (tensor<f32>) -> tensor<f32>
    %6 = "tf.Neg"(%5) {device = "/device:TPU_REPLICATED_CORE:x"} : (tensor<f32>) -> tensor<f32>
    %7 = "tf.Neg"(%6) {device = "/device:TPU:0"} : (tensor<f32>) -> tensor<f32>
    %8 = "tf.Neg"(%7) {device = ""} : (tensor<f32>) -> tensor<f32>
    %9 = "tf.Neg"(%8) {device = 3} : (tensor<f32>) -> tensor<f32>
    tf_device.return %9 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Nested ops count: a tf_device.launch keeps its device (its other
// attributes go), the ops in it and in control flow regions are cleaned.
// A cluster nested in a cluster keeps its own attributes.

// CHECK-LABEL: func.func @nested_ops
// CHECK: "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
// CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>)
// CHECK: }) : () -> tensor<f32>
// CHECK-NEXT: "tf.IfRegion"
// CHECK-NEXT: "tf.Abs"({{.*}}) : (tensor<f32>)
// CHECK: "tf.Yield"
// CHECK: "tf_device.cluster"() ({
// CHECK-NEXT: "tf.Square"({{.*}}) : (tensor<f32>)
// CHECK-NEXT: tf_device.return
// CHECK-NEXT: }) {_replication_info = "inner", device = "/job:worker/replica:0/task:0/device:CPU:0"}
// CHECK: }) {_replication_info = "outer"}
func.func @nested_ops(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf_device.launch"() ({
      %2 = "tf.Neg"(%arg0) {_replication_info = "outer", device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
      tf_device.return %2 : tensor<f32>
    }) {device = "/job:worker/replica:0/task:0/device:CPU:0", _replication_info = "outer"} : () -> tensor<f32>
    %3 = "tf.IfRegion"(%arg1) ({
      %4 = "tf.Abs"(%1) {_class = ["loc:@x"], device = "cpu"} : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%4) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%1) : (tensor<f32>) -> ()
    }) {is_stateless = true, _replication_info = "outer"} : (tensor<i1>) -> tensor<f32>
    %5 = "tf_device.cluster"() ({
      %6 = "tf.Square"(%3) {_replication_info = "inner", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
      tf_device.return %6 : tensor<f32>
    }) {_replication_info = "inner", device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> tensor<f32>
    tf_device.return %5 : tensor<f32>
  }) {_replication_info = "outer"} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Functions reachable through calls are cleaned, callees of callees too
// (recursion ends); the call ops themselves are ops of the cluster. Branch
// functions of tf.If are not calls: they keep their attributes, and so do
// functions called only from outside clusters.

// CHECK-LABEL: func.func @calls
// CHECK: "tf.StatefulPartitionedCall"(%arg0, %arg1) <{config = "", config_proto = "", executor_type = "", f = @callee}> : (tensor<f32>, tensor<i1>)
// CHECK-LABEL: func.func private @callee
// CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>)
// CHECK-NEXT: "tf.If"
// CHECK-NOT: device
// CHECK-SAME: (tensor<i1>, tensor<f32>)
// CHECK-NEXT: call @recursive
// CHECK-NOT: device
// CHECK-SAME: (tensor<f32>)
// CHECK-LABEL: func.func private @recursive
// CHECK-NEXT: "tf.Abs"(%arg0) : (tensor<f32>)
// CHECK-NEXT: call @recursive
// CHECK-NOT: device
// CHECK-SAME: (tensor<f32>)
// CHECK-LABEL: func.func private @branch
// CHECK-NEXT: "tf.Neg"(%arg0) {_replication_info = "c", device = "cpu"}
// CHECK-LABEL: func.func private @outside_only
// CHECK-NEXT: "tf.Neg"(%arg0) {_replication_info = "c", device = "cpu"}
func.func @calls(%arg0: tensor<f32>, %arg1: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.StatefulPartitionedCall"(%arg0, %arg1) {f = @callee, config = "", config_proto = "", executor_type = "", device = "cpu", _replication_info = "c"} : (tensor<f32>, tensor<i1>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {_replication_info = "c"} : () -> tensor<f32>
  %2 = "tf.PartitionedCall"(%arg0) {f = @outside_only, config = "", config_proto = "", executor_type = "", device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %0, %2 : tensor<f32>, tensor<f32>
}
func.func private @callee(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu", _replication_info = "c", _xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.If"(%arg1, %0) {then_branch = @branch, else_branch = @branch, is_stateless = true, device = "cpu"} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  %2 = func.call @recursive(%1) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %2 : tensor<f32>
}
func.func private @recursive(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Abs"(%arg0) {device = "cpu", _class = ["loc:@r"]} : (tensor<f32>) -> tensor<f32>
  %1 = func.call @recursive(%0) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
func.func private @branch(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu", _replication_info = "c"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @outside_only(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu", _replication_info = "c"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Every call op TF follows: tf.PartitionedCall, tf.LegacyCall,
// tf.TPUPartitionedCall, tf_device.cluster_func. A function reached from two
// clusters is cleaned once (TF reports an error diagnostic for it but
// succeeds). A tf_device.launch_func is not a call; it keeps a
// TPU_REPLICATED_CORE device.

// CHECK-LABEL: func.func @call_ops
// CHECK: "tf_device.launch_func"(%arg0) <{device = "/device:TPU_REPLICATED_CORE:0", func = @launched}>
// CHECK-LABEL: func.func private @partitioned
// CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>)
// CHECK-LABEL: func.func private @legacy
// CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>)
// CHECK-LABEL: func.func private @tpu_partitioned
// CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>)
// CHECK-LABEL: func.func private @cluster_function
// CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>)
// CHECK-LABEL: func.func private @launched
// CHECK-NEXT: "tf.Neg"(%arg0) {device = "cpu"}
func.func @call_ops(%arg0: tensor<f32>, %arg1: tensor<i32>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.PartitionedCall"(%arg0) {f = @partitioned, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
    %2 = "tf.LegacyCall"(%1) {f = @legacy} : (tensor<f32>) -> tensor<f32>
    %3 = "tf.TPUPartitionedCall"(%2, %arg1) {f = @tpu_partitioned, autotuner_thresh = 0 : i64} : (tensor<f32>, tensor<i32>) -> tensor<f32>
    %4 = "tf_device.cluster_func"(%3) {func = @cluster_function} : (tensor<f32>) -> tensor<f32>
    %5 = "tf_device.launch_func"(%arg0) {func = @launched, device = "/device:TPU_REPLICATED_CORE:0"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %4 : tensor<f32>
  }) : () -> tensor<f32>
  %6 = "tf_device.cluster"() ({
    %7 = "tf.PartitionedCall"(%arg0) {f = @partitioned, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
    tf_device.return %7 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0, %6 : tensor<f32>, tensor<f32>
}
func.func private @partitioned(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @legacy(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @tpu_partitioned(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @cluster_function(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @launched(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Callees are looked up from the call's module: a cluster in a nested module
// reaches the nested @f (the outer @f stays as it is), and a nested reference
// reaches into a nested module. tf.RemoteCall is a call too.

// CHECK-LABEL: func.func @outer
// CHECK-LABEL: func.func private @f
// CHECK-NEXT: "tf.Neg"(%arg0) {device = "outer"}
// CHECK-LABEL: module @inner
// CHECK-LABEL: func.func @g
// CHECK-LABEL: func.func private @f
// CHECK-NEXT: "tf.Neg"(%arg0) : (tensor<f32>)
// CHECK-LABEL: func.func @h
// CHECK-LABEL: func.func private @by_path
// CHECK-NEXT: "tf.Abs"(%arg0) : (tensor<f32>)
func.func @outer(%arg0: tensor<f32>, %arg1: tensor<!tf_type.string>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.RemoteCall"(%arg1, %arg0) {f = @inner::@by_path} : (tensor<!tf_type.string>, tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "outer"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
module @inner {
  func.func @g(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "tf_device.cluster"() ({
      %1 = func.call @f(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_device.return %1 : tensor<f32>
    }) : () -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "tf.Neg"(%arg0) {device = "inner"} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func @h(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
  func.func private @by_path(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "tf.Abs"(%arg0) {device = "inner", _class = ["loc:@p"]} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
}

// -----

// Without clusters nothing changes; a valid tf.devices dictionary is read
// like a list.

// CHECK-LABEL: func.func @no_cluster
// CHECK-NEXT: "tf.Neg"(%arg0) {_replication_info = "c", device = "cpu"}
module attributes {tf.devices = {"/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0"}} {
func.func @no_cluster(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) {device = "cpu", _replication_info = "c"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
}
