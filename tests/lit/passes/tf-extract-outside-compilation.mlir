// RUN: tfmlir-opt %s -split-input-file -tf-extract-outside-compilation | FileCheck %s

// Non-replicated cluster, generic host (no TPU in tf.devices): the outside-compiled
// op moves to a launch on CPU:0 between a receive and a send; the device side
// gets one _XlaHostComputeMlir with channel 0's keys; `device` is dropped.

module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0"]} {
  // CHECK-LABEL: func @straight_line
  func.func @straight_line(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    // CHECK:      %[[PE:.*]] = "tf_device.parallel_execute"() ({
    // CHECK-NEXT:   "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:     %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"() : () -> tensor<3x!tf_type.string>
    // CHECK-NEXT:     %[[RECV:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) <{device_ordinal = 0 : i64, device_type = "TPU", key = "host_compute_channel_0_args"}> {_xla_has_host_transfer = true}
    // CHECK-NEXT:     %[[ABS:.*]] = "tf.Abs"(%[[RECV]]) : (tensor<2xf32>) -> tensor<2xf32>
    // CHECK-NEXT:     "tf._XlaSendFromHost"(%[[ABS]], %[[KEY]]) <{device_ordinal = 0 : i64, device_type = "TPU", key = "host_compute_channel_0_retvals"}> {_xla_has_host_transfer = true}
    // CHECK-NEXT:     tf_device.return
    // CHECK-NEXT:   }) : () -> ()
    // CHECK-NEXT:   tf_device.return
    // CHECK-NEXT: }, {
    // CHECK-NEXT:   %[[C:.*]] = "tf_device.cluster"() ({
    // CHECK-NEXT:     %[[NEG:.*]] = "tf.Neg"(%arg0)
    // CHECK-NEXT:     %[[HC:.*]] = "tf._XlaHostComputeMlir"(%[[NEG]]) <{host_mlir_module = "", recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args"}> : (tensor<2xf32>) -> tensor<2xf32>
    // CHECK-NEXT:     %[[EXP:.*]] = "tf.Exp"(%[[HC]])
    // CHECK-NEXT:     tf_device.return %[[EXP]]
    // CHECK-NEXT:   }) {_xla_compile_device_type = "TPU", device = "", num_cores_per_replica = 1 : i64} : () -> tensor<2xf32>
    // CHECK-NEXT:   tf_device.return %[[C]]
    // CHECK-NEXT: }) : () -> tensor<2xf32>
    // CHECK-NEXT: return %[[PE]]
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0", device = "/device:CPU:0"} : (tensor<2xf32>) -> tensor<2xf32>
      %3 = "tf.Exp"(%2) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %3 : tensor<2xf32>
    }) {_xla_compile_device_type = "TPU", device = "", num_cores_per_replica = 1} : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }

  // Every outside-compiled op with static shapes is its own host computation;
  // the channel counter counts those that transfer something. A string value
  // passed between host ops is not transferred; no device_type without the
  // cluster's _xla_compile_device_type.
  // CHECK-LABEL: func @one_host_compute_per_static_op
  func.func @one_host_compute_per_static_op(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    // CHECK:      %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT: %[[RECV:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) <{device_ordinal = 0 : i64, key = "host_compute_channel_0_args"}>
    // CHECK-NEXT: %[[STR:.*]] = "tf.AsString"(%[[RECV]])
    // CHECK-NEXT: %[[NUM:.*]] = "tf.StringToNumber"(%[[STR]])
    // CHECK-NEXT: "tf._XlaSendFromHost"(%[[NUM]], %[[KEY]]) <{device_ordinal = 0 : i64, key = "host_compute_channel_1_retvals"}>
    // CHECK-NEXT: tf_device.return
    // CHECK:      "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[NEG:.*]] = "tf.Neg"(%arg0)
    // CHECK-NEXT:   "tf._XlaHostComputeMlir"(%[[NEG]]) <{host_mlir_module = "", recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args"}> : (tensor<2xf32>) -> ()
    // CHECK-NEXT:   %[[HC:.*]] = "tf._XlaHostComputeMlir"() <{host_mlir_module = "", recv_key = "host_compute_channel_1_retvals", send_key = "host_compute_channel_1_args"}> : () -> tensor<2xf32>
    // CHECK-NEXT:   %[[EXP:.*]] = "tf.Exp"(%[[HC]])
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "tf.AsString"(%1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2x!tf_type.string>
      %3 = "tf.StringToNumber"(%2) {_xla_outside_compilation = "0", out_type = f32} : (tensor<2x!tf_type.string>) -> tensor<2xf32>
      %4 = "tf.Exp"(%3) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %4 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }

  // An outside-compiled op without transfers: no host compute, no placeholders.
  // CHECK-LABEL: func @no_transfer
  func.func @no_transfer(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    // CHECK:      "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:   "tf.NoOp"() : () -> ()
    // CHECK-NEXT:   tf_device.return
    // CHECK:      "tf_device.cluster"() ({
    // CHECK-NEXT:   "tf.Neg"
    // CHECK-NEXT:   tf_device.return
    // CHECK-NOT:  _XlaHostComputeMlir
    %0 = "tf_device.cluster"() ({
      "tf.NoOp"() {_xla_outside_compilation = "0"} : () -> ()
      %1 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }

  // A cluster result computed on the host with a non-XLA type is returned by the
  // host launch: parallel_execute results are the host ones, then the device ones.
  // CHECK-LABEL: func @host_result
  func.func @host_result(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x!tf_type.string>) {
    // CHECK:      %[[PE:.*]]:2 = "tf_device.parallel_execute"() ({
    // CHECK-NEXT:   %[[L:.*]] = "tf_device.launch"()
    // CHECK-NEXT:     "tf._XlaCompileMlirPlaceholderProgramKey"
    // CHECK-NEXT:     "tf._XlaRecvAtHost"
    // CHECK-NEXT:     %[[STR:.*]] = "tf.AsString"
    // CHECK-NEXT:     tf_device.return %[[STR]] : tensor<2x!tf_type.string>
    // CHECK-NEXT:   }) : () -> tensor<2x!tf_type.string>
    // CHECK-NEXT:   tf_device.return %[[L]]
    // CHECK-NEXT: }, {
    // CHECK-NEXT:   %[[C:.*]] = "tf_device.cluster"()
    // CHECK:        }) : () -> tensor<2xf32>
    // CHECK-NEXT:   tf_device.return %[[C]]
    // CHECK-NEXT: }) : () -> (tensor<2x!tf_type.string>, tensor<2xf32>)
    // CHECK-NEXT: return %[[PE]]#1, %[[PE]]#0
    %0:2 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "tf.AsString"(%1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2x!tf_type.string>
      tf_device.return %1, %2 : tensor<2xf32>, tensor<2x!tf_type.string>
    }) : () -> (tensor<2xf32>, tensor<2x!tf_type.string>)
    func.return %0#0, %0#1 : tensor<2xf32>, tensor<2x!tf_type.string>
  }

  // Dynamic shapes: ops are grouped while the transferred values are dynamic; the
  // host compute carries the printed @host_func module for shape inference (with
  // locations: TF serializes debug info by default).
  // CHECK-LABEL: func @dynamic_group
  func.func @dynamic_group(%arg0: tensor<2xf32>) -> tensor<?xf32> {
    // CHECK:      %[[RECV:.*]] = "tf._XlaRecvAtHost"({{.*}} key = "host_compute_channel_0_args"
    // CHECK-NEXT: %[[A:.*]] = "tf.Abs"(%[[RECV]])
    // CHECK-NEXT: %[[E:.*]] = "tf.Exp"(%[[A]])
    // CHECK-NEXT: "tf._XlaSendFromHost"(%[[E]], {{.*}} key = "host_compute_channel_0_retvals"
    // CHECK:      "tf._XlaHostComputeMlir"(%{{.*}}) <{host_mlir_module = "{{.*}}module {\0A  func.func @host_func(%arg0: tensor<2xf32> loc({{.*}})) -> tensor<?xf32> {\0A    %0 = \22tf.Abs\22(%arg0) {_xla_outside_compilation = \220\22} : (tensor<2xf32>) -> tensor<?xf32> loc(#loc1)\0A    %1 = \22tf.Exp\22(%0) {_xla_outside_compilation = \220\22} : (tensor<?xf32>) -> tensor<?xf32> loc(#loc2)\0A    return %1 : tensor<?xf32> loc(#loc1)\0A  } loc(#loc1)\0A} loc(#loc)\0A{{.*}}", recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args"}> : (tensor<2xf32>) -> tensor<?xf32>
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<?xf32>
      %3 = "tf.Exp"(%2) {_xla_outside_compilation = "0"} : (tensor<?xf32>) -> tensor<?xf32>
      %4 = "tf.Neg"(%3) : (tensor<?xf32>) -> tensor<?xf32>
      tf_device.return %4 : tensor<?xf32>
    }) : () -> tensor<?xf32>
    func.return %0 : tensor<?xf32>
  }

  // Clusters without outside compilation are left alone; marks outside clusters
  // and in called functions are dropped (TF does not follow calls).
  // CHECK-LABEL: func @untouched
  func.func @untouched(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    // CHECK-NOT:  parallel_execute
    // CHECK:      "tf.Abs"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    // CHECK:      "tf_device.cluster"() ({
    // CHECK-NEXT:   "tf.PartitionedCall"
    %0 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "tf_device.cluster"() ({
      %2 = "tf.PartitionedCall"(%0) <{config = "", config_proto = "", executor_type = "", f = @callee}> : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %2 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %1 : tensor<2xf32>
  }
  // CHECK-LABEL: func private @callee
  // CHECK-NEXT: "tf.Abs"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  func.func private @callee(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0", _xla_map_outside_compilation} : (tensor<2xf32>) -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

// With TPUs in tf.devices the host is the CPU:0 of the first TPU's task; the
// channel counter starts from 0 in every cluster.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0"]} {
  // CHECK-LABEL: func @tpu_host
  func.func @tpu_host(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    // CHECK:     "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}>
    // CHECK-NOT: _TPUDeviceOrdinalPlaceholder
    // CHECK:     key = "host_compute_channel_0_args"
    // CHECK:     "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}>
    // CHECK:     key = "host_compute_channel_0_args"
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "tf.Neg"(%1) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %2 : tensor<2xf32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<2xf32>
    %3 = "tf_device.cluster"() ({
      %4 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
      %5 = "tf.Neg"(%4) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %5 : tensor<2xf32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<2xf32>
    func.return %0, %3 : tensor<2xf32>, tensor<2xf32>
  }
}

// -----

// Replicated: the host is TPU_REPLICATED_HOST_0, the transfers are the V2 ops
// taking the core's _TPUDeviceOrdinalPlaceholder.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
  // CHECK-LABEL: func @replicated
  func.func @replicated(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) {
    // CHECK:      tf_device.replicate
    // CHECK-NEXT:   %[[PE:.*]] = "tf_device.parallel_execute"() ({
    // CHECK-NEXT:     "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
    // CHECK-NEXT:       %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT:       %[[ORD:.*]] = "tf._TPUDeviceOrdinalPlaceholder"() <{logical_core = 0 : i64}> : () -> tensor<i64>
    // CHECK-NEXT:       %[[RECV:.*]] = "tf._XlaRecvAtHostV2"(%[[KEY]], %[[ORD]]) <{device_type = "TPU", key = "host_compute_channel_0_args"}> {_xla_has_host_transfer = true}
    // CHECK-NEXT:       %[[ABS:.*]] = "tf.Abs"(%[[RECV]])
    // CHECK-NEXT:       "tf._XlaSendFromHostV2"(%[[ABS]], %[[KEY]], %[[ORD]]) <{device_type = "TPU", key = "host_compute_channel_0_retvals"}> {_xla_has_host_transfer = true}
    // CHECK-NEXT:       tf_device.return
    // CHECK:          "tf_device.cluster"() ({
    // CHECK-NEXT:       %[[NEG:.*]] = "tf.Neg"
    // CHECK-NEXT:       "tf._XlaHostComputeMlir"(%[[NEG]])
    %r:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<2xf32>) {n = 2 : i32} {
      %0 = "tf_device.cluster"() ({
        %1 = "tf.Neg"(%ri) : (tensor<2xf32>) -> tensor<2xf32>
        %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
        %3 = "tf.Exp"(%2) : (tensor<2xf32>) -> tensor<2xf32>
        tf_device.return %3 : tensor<2xf32>
      }) {_xla_compile_device_type = "TPU", num_cores_per_replica = 1} : () -> tensor<2xf32>
      tf_device.return %0 : tensor<2xf32>
    }
    func.return
  }
}

// -----

// Replicated without TPU devices: the ordinal is a constant 0. Two cores per
// replica: one host launch per core, only core 0's receives the host ops.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  // CHECK-LABEL: func @replicated_two_cores
  func.func @replicated_two_cores(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) {
    // CHECK:      "tf_device.parallel_execute"() ({
    // CHECK-NEXT:   "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
    // CHECK-NEXT:     %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT:     %[[ORD:.*]] = "tf.Const"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    // CHECK-NEXT:     "tf._XlaRecvAtHostV2"(%[[KEY]], %[[ORD]])
    // CHECK-NEXT:     "tf.Abs"
    // CHECK-NEXT:     "tf._XlaSendFromHostV2"
    // CHECK-NEXT:     tf_device.return
    // CHECK-NEXT:   }) : () -> ()
    // CHECK-NEXT:   tf_device.return
    // CHECK-NEXT: }, {
    // CHECK-NEXT:   "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_1"}> ({
    // CHECK-NEXT:     "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT:     "tf.Const"() <{value = dense<0> : tensor<i64>}>
    // CHECK-NEXT:     tf_device.return
    // CHECK-NEXT:   }) : () -> ()
    // CHECK-NEXT:   tf_device.return
    // CHECK-NEXT: }, {
    // CHECK-NEXT:   "tf_device.cluster"
    %r:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<2xf32>) {n = 2 : i32} {
      %0 = "tf_device.cluster"() ({
        %1 = "tf.Neg"(%ri) : (tensor<2xf32>) -> tensor<2xf32>
        %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
        %3 = "tf.Exp"(%2) : (tensor<2xf32>) -> tensor<2xf32>
        tf_device.return %3 : tensor<2xf32>
      }) {num_cores_per_replica = 2} : () -> tensor<2xf32>
      tf_device.return %0 : tensor<2xf32>
    }
    func.return
  }
}

// -----

// Outside compilation in a tf.IfRegion: a host IfRegion on the predicate
// (received on its own channel once the branches are done) gets the branch's
// host ops; both IfRegions are stateful.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  // CHECK-LABEL: func @if_region
  func.func @if_region(%arg0: tensor<i1>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
    // CHECK:      "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:   %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT:   %[[PRED:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) <{device_ordinal = 0 : i64, key = "if_predicate_channel_2"}> {_xla_has_host_transfer = true} : (tensor<3x!tf_type.string>) -> tensor<i1>
    // CHECK-NEXT:   "tf.IfRegion"(%[[PRED]]) <{_else_func_name = "else", _then_func_name = "then", is_stateless = false}> ({
    // CHECK-NEXT:     %[[RECV:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) <{device_ordinal = 0 : i64, key = "host_compute_channel_0_args"}>
    // CHECK-NEXT:     %[[STR:.*]] = "tf.AsString"(%[[RECV]])
    // CHECK-NEXT:     %[[NUM:.*]] = "tf.StringToNumber"(%[[STR]])
    // CHECK-NEXT:     "tf._XlaSendFromHost"(%[[NUM]], %[[KEY]]) <{device_ordinal = 0 : i64, key = "host_compute_channel_1_retvals"}>
    // CHECK-NEXT:     "tf.Yield"() : () -> ()
    // CHECK-NEXT:   }, {
    // CHECK-NEXT:     "tf.Yield"() : () -> ()
    // CHECK-NEXT:   }) : (tensor<i1>) -> ()
    // CHECK-NEXT:   tf_device.return
    // CHECK:      "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[NOT:.*]] = "tf.LogicalNot"(%arg0)
    // CHECK-NEXT:   %[[NEG:.*]] = "tf.Neg"(%arg1)
    // CHECK-NEXT:   "tf._XlaHostComputeMlir"(%[[NOT]]) <{host_mlir_module = "", recv_key = "host_compute_channel_2_retvals", send_key = "if_predicate_channel_2"}> : (tensor<i1>) -> ()
    // CHECK-NEXT:   %[[IF:.*]] = "tf.IfRegion"(%[[NOT]]) <{_else_func_name = "else", _then_func_name = "then", is_stateless = false}> ({
    // CHECK-NEXT:     "tf._XlaHostComputeMlir"(%[[NEG]]) <{host_mlir_module = "", recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args"}>
    // CHECK-NEXT:     %[[HC:.*]] = "tf._XlaHostComputeMlir"() <{host_mlir_module = "", recv_key = "host_compute_channel_1_retvals", send_key = "host_compute_channel_1_args"}>
    // CHECK-NEXT:     %[[ADD:.*]] = "tf.AddV2"(%[[HC]], %[[NEG]])
    // CHECK-NEXT:     "tf.Yield"(%[[ADD]])
    // CHECK-NEXT:   }, {
    // CHECK-NEXT:     "tf.Yield"(%[[NEG]])
    // CHECK-NEXT:   }) : (tensor<i1>) -> tensor<2xf32>
    %0 = "tf_device.cluster"() ({
      %p = "tf.LogicalNot"(%arg0) : (tensor<i1>) -> tensor<i1>
      %1 = "tf.Neg"(%arg1) : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "tf.IfRegion"(%p) <{_else_func_name = "else", _then_func_name = "then", is_stateless = true}> ({
        %3 = "tf.AsString"(%1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2x!tf_type.string>
        %4 = "tf.StringToNumber"(%3) {_xla_outside_compilation = "0", out_type = f32} : (tensor<2x!tf_type.string>) -> tensor<2xf32>
        %5 = "tf.AddV2"(%4, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
        "tf.Yield"(%5) : (tensor<2xf32>) -> ()
      }, {
        "tf.Yield"(%1) : (tensor<2xf32>) -> ()
      }) : (tensor<i1>) -> tensor<2xf32>
      tf_device.return %2 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }

  // Outside compilation in a tf.WhileRegion body: the device condition is sent
  // with XlaSendToHost on while_condition_channel_<n> (taken before the body's
  // channels) and received by the host WhileRegion's condition.
  // CHECK-LABEL: func @while_region
  func.func @while_region(%arg0: tensor<i32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
    // CHECK:      %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT: "tf.WhileRegion"() <{is_stateless = false, parallel_iterations = 4 : i64}> ({
    // CHECK-NEXT:   %[[C:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) <{device_ordinal = 0 : i64, key = "while_condition_channel_0"}> {_xla_has_host_transfer = true} : (tensor<3x!tf_type.string>) -> tensor<i1>
    // CHECK-NEXT:   "tf.Yield"(%[[C]]) : (tensor<i1>) -> ()
    // CHECK-NEXT: }, {
    // CHECK-NEXT:   %[[RECV:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) <{device_ordinal = 0 : i64, key = "host_compute_channel_1_args"}>
    // CHECK-NEXT:   %[[ABS:.*]] = "tf.Abs"(%[[RECV]])
    // CHECK-NEXT:   "tf._XlaSendFromHost"(%[[ABS]], %[[KEY]]) <{device_ordinal = 0 : i64, key = "host_compute_channel_1_retvals"}>
    // CHECK-NEXT:   "tf.Yield"() : () -> ()
    // CHECK-NEXT: }) : () -> ()
    // CHECK:      "tf.WhileRegion"(%arg0, %arg1) <{is_stateless = false, parallel_iterations = 4 : i64}> ({
    // CHECK-NEXT: ^bb0(%[[I:.*]]: tensor<i32>, %[[X:.*]]: tensor<2xf32>):
    // CHECK-NEXT:   %[[LESS:.*]] = "tf.Less"
    // CHECK-NEXT:   "tf.XlaSendToHost"(%[[LESS]]) <{key = "while_condition_channel_0"}> : (tensor<i1>) -> ()
    // CHECK-NEXT:   "tf.Yield"(%[[LESS]])
    // CHECK-NEXT: }, {
    // CHECK-NEXT: ^bb0(%[[I2:.*]]: tensor<i32>, %[[X2:.*]]: tensor<2xf32>):
    // CHECK-NEXT:   %[[HC:.*]] = "tf._XlaHostComputeMlir"(%[[X2]]) <{host_mlir_module = "", recv_key = "host_compute_channel_1_retvals", send_key = "host_compute_channel_1_args"}>
    // CHECK-NEXT:   "tf.Yield"(%[[I2]], %[[HC]])
    %0 = "tf_device.cluster"() ({
      %1:2 = "tf.WhileRegion"(%arg0, %arg1) <{is_stateless = true, parallel_iterations = 4 : i64}> ({
      ^bb0(%i: tensor<i32>, %x: tensor<2xf32>):
        %2 = "tf.Less"(%i, %i) : (tensor<i32>, tensor<i32>) -> tensor<i1>
        "tf.Yield"(%2) : (tensor<i1>) -> ()
      }, {
      ^bb0(%i: tensor<i32>, %x: tensor<2xf32>):
        %3 = "tf.Abs"(%x) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
        "tf.Yield"(%i, %3) : (tensor<i32>, tensor<2xf32>) -> ()
      }) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
      tf_device.return %1#1 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }

  // Nested control flow: the inner host IfRegion goes into the outer one's
  // branch; the inner predicate is a device value received in that branch
  // (predicates defined outside the cluster are used on the host directly).
  // CHECK-LABEL: func @nested_if
  func.func @nested_if(%arg0: tensor<i1>, %arg1: tensor<i1>, %arg2: tensor<2xf32>) -> tensor<2xf32> {
    // CHECK:      %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT: %[[P0:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) {{.*}}key = "if_predicate_channel_2"
    // CHECK-NEXT: "tf.IfRegion"(%[[P0]])
    // CHECK-NEXT:   %[[P1:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) {{.*}}key = "if_predicate_channel_1"
    // CHECK-NEXT:   "tf.IfRegion"(%[[P1]])
    // CHECK-NEXT:     "tf._XlaRecvAtHost"(%[[KEY]]) {{.*}}key = "host_compute_channel_0_args"
    // CHECK-NEXT:     "tf.Abs"
    // CHECK-NEXT:     "tf._XlaSendFromHost"({{.*}}key = "host_compute_channel_0_retvals"
    %0 = "tf_device.cluster"() ({
      %x = "tf.Neg"(%arg2) : (tensor<2xf32>) -> tensor<2xf32>
      %p0 = "tf.LogicalNot"(%arg0) : (tensor<i1>) -> tensor<i1>
      %1 = "tf.IfRegion"(%p0) <{is_stateless = true}> ({
        %p1 = "tf.LogicalNot"(%arg1) : (tensor<i1>) -> tensor<i1>
        %2 = "tf.IfRegion"(%p1) <{is_stateless = true}> ({
          %3 = "tf.Abs"(%x) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
          "tf.Yield"(%3) : (tensor<2xf32>) -> ()
        }, {
          "tf.Yield"(%arg2) : (tensor<2xf32>) -> ()
        }) : (tensor<i1>) -> tensor<2xf32>
        "tf.Yield"(%2) : (tensor<2xf32>) -> ()
      }, {
        "tf.Yield"(%arg2) : (tensor<2xf32>) -> ()
      }) : (tensor<i1>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

// Map outside compilation on two cores: the device side sends and receives
// per-core shards between SPMD conversions with the inputs' common sharding;
// core 0's host ops are cloned for core 1 with its own key and ordinal.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
  // CHECK-LABEL: func @map_outside_compilation
  func.func @map_outside_compilation(%arg0: tensor<4x2xf32>, %arg1: tensor<4x2xf32>) {
    // CHECK:      "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
    // CHECK-NEXT:   %[[K0:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT:   %[[O0:.*]] = "tf._TPUDeviceOrdinalPlaceholder"() <{logical_core = 0 : i64}>
    // CHECK-NEXT:   %[[R0:.*]] = "tf._XlaRecvAtHostV2"(%[[K0]], %[[O0]]) <{device_type = "TPU", key = "host_compute_channel_0_args"}> {{.*}} -> tensor<4x2xf32>
    // CHECK-NEXT:   %[[A0:.*]] = "tf.Abs"(%[[R0]])
    // CHECK-NEXT:   "tf._XlaSendFromHostV2"(%[[A0]], %[[K0]], %[[O0]]) <{device_type = "TPU", key = "host_compute_channel_0_retvals"}>
    // CHECK:      "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_1"}> ({
    // CHECK-NEXT:   %[[K1:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"()
    // CHECK-NEXT:   %[[O1:.*]] = "tf._TPUDeviceOrdinalPlaceholder"() <{logical_core = 1 : i64}>
    // CHECK-NEXT:   %[[R1:.*]] = "tf._XlaRecvAtHostV2"(%[[K1]], %[[O1]]) <{device_type = "TPU", key = "host_compute_channel_0_args"}>
    // CHECK-NEXT:   %[[A1:.*]] = "tf.Abs"(%[[R1]])
    // CHECK-NEXT:   "tf._XlaSendFromHostV2"(%[[A1]], %[[K1]], %[[O1]]) <{device_type = "TPU", key = "host_compute_channel_0_retvals"}>
    // CHECK:      "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[NEG:.*]] = "tf.Neg"
    // CHECK-NEXT:   %[[SHARD:.*]] = "tf.XlaSpmdFullToShardShape"(%[[NEG]]) <{dim = -1 : i64, manual_sharding = "split", unspecified_dims = []}> : (tensor<4x2xf32>) -> tensor<2x2xf32>
    // CHECK-NEXT:   %[[HC:.*]] = "tf._XlaHostComputeMlir"(%[[SHARD]]) <{host_mlir_module = "", manual_sharding = true, recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args"}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
    // CHECK-NEXT:   %[[FULL:.*]] = "tf.XlaSpmdShardToFullShape"(%[[HC]]) <{dim = -1 : i64, full_shape = #tf_type.shape<4x2>, manual_sharding = "split", unspecified_dims = []}> : (tensor<2x2xf32>) -> tensor<4x2xf32>
    // CHECK-NEXT:   "tf.Exp"(%[[FULL]])
    %r:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<4x2xf32>) {n = 2 : i32} {
      %0 = "tf_device.cluster"() ({
        %1 = "tf.Neg"(%ri) {_XlaSharding = "split"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
        %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0", _xla_map_outside_compilation} : (tensor<4x2xf32>) -> tensor<4x2xf32>
        %3 = "tf.Exp"(%2) : (tensor<4x2xf32>) -> tensor<4x2xf32>
        tf_device.return %3 : tensor<4x2xf32>
      }) {_xla_compile_device_type = "TPU", num_cores_per_replica = 2} : () -> tensor<4x2xf32>
      tf_device.return %0 : tensor<4x2xf32>
    }
    func.return
  }
}
