// RUN: tfmlir-opt %s | FileCheck %s
// RUN: tfmlir-opt %s | tfmlir-opt | FileCheck %s

// Round trips of the hand-written tf ops and of an unknown op of the open
// tf dialect. TF prints every tf op in generic form: OpDef attributes as
// properties in <{...}>, the rest (device, _class, ...) as discardable ones.

func.func private @then_branch(%arg0: tensor<f32>) -> tensor<f32>
func.func private @else_branch(%arg0: tensor<*xf32>) -> tensor<*xf32>
func.func private @while_cond(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<i1>
func.func private @while_body(%arg0: tensor<i32>, %arg1: tensor<f32>) -> (tensor<i32>, tensor<f32>)
func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>

// Const results are named %cst like TF's printer does; Identity may refine
// or relax the shape.
// CHECK-LABEL: func.func @const_identity_noop(%arg0: tensor<f32>, %arg1: tensor<i32>) {
// CHECK-NEXT:   %cst = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
// CHECK-NEXT:   %cst_0 = "tf.Const"() <{value = dense<"hello"> : tensor<!tf_type.string>}> {device = ""} : () -> tensor<!tf_type.string>
// CHECK-NEXT:   %cst_1 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<2x2xbf16>}> : () -> tensor<2x2xbf16>
// CHECK-NEXT:   %0 = "tf.Identity"(%arg0) {device = ""} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %1 = "tf.Identity"(%arg0) {device = ""} : (tensor<f32>) -> tensor<*xf32>
// CHECK-NEXT:   %2 = "tf.Identity"(%cst_0) : (tensor<!tf_type.string>) -> tensor<*x!tf_type.string>
// CHECK-NEXT:   %3:2 = "tf.IdentityN"(%arg0, %arg1) {device = ""} : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<*xi32>)
// CHECK-NEXT:   "tf.NoOp"() {device = ""} : () -> ()
// CHECK-NEXT:   return
// CHECK-NEXT: }
func.func @const_identity_noop(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  %cst = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
  %cst_0 = "tf.Const"() <{value = dense<"hello"> : tensor<!tf_type.string>}> {device = ""} : () -> tensor<!tf_type.string>
  %cst_1 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<2x2xbf16>}> : () -> tensor<2x2xbf16>
  %0 = "tf.Identity"(%arg0) {device = ""} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Identity"(%arg0) {device = ""} : (tensor<f32>) -> tensor<*xf32>
  %2 = "tf.Identity"(%cst_0) : (tensor<!tf_type.string>) -> tensor<*x!tf_type.string>
  %3:2 = "tf.IdentityN"(%arg0, %arg1) {device = ""} : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<*xi32>)
  "tf.NoOp"() {device = ""} : () -> ()
  return
}

// Branch functions are checked for cast-compatible signatures (an unranked
// result accepts a ranked branch result). The derived attributes (Tin, Tout,
// T, output_shapes) are computed from types and never added; the ones TF
// stores as discardable attributes stay as written.
// CHECK-LABEL: func.func @functional_control_flow(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> (tensor<*xf32>, tensor<f32>, tensor<f32>) {
// CHECK-NEXT:   %0 = "tf.If"(%arg0, %arg1) <{else_branch = @else_branch, is_stateless = false, then_branch = @then_branch}> {_lower_using_switch_merge = true, _read_only_resource_inputs = [], device = ""} : (tensor<i1>, tensor<f32>) -> tensor<*xf32>
// CHECK-NEXT:   %1:2 = "tf.While"(%arg2, %arg1) <{body = @while_body, cond = @while_cond, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant}> {T = [i32, f32], _num_original_outputs = 2 : i64, device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>]} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
// CHECK-NEXT:   %2:2 = "tf.While"(%arg2, %arg1) <{body = @while_body, cond = @while_cond, is_stateless = false}> : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
// CHECK-NEXT:   %3 = "tf.Case"(%arg2, %arg1) <{branches = [@then_branch, @else_branch, @then_branch], is_stateless = false}> {device = ""} : (tensor<i32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   return %0, %1#1, %3 : tensor<*xf32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
func.func @functional_control_flow(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> (tensor<*xf32>, tensor<f32>, tensor<f32>) {
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @else_branch, is_stateless = false, then_branch = @then_branch}> {_lower_using_switch_merge = true, _read_only_resource_inputs = [], device = ""} : (tensor<i1>, tensor<f32>) -> tensor<*xf32>
  %1:2 = "tf.While"(%arg2, %arg1) <{body = @while_body, cond = @while_cond, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant}> {T = [i32, f32], _num_original_outputs = 2 : i64, device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>]} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  %2:2 = "tf.While"(%arg2, %arg1) <{body = @while_body, cond = @while_cond, is_stateless = false}> : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  %3 = "tf.Case"(%arg2, %arg1) <{branches = [@then_branch, @else_branch, @then_branch], is_stateless = false}> {device = ""} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0, %1#1, %3 : tensor<*xf32>, tensor<f32>, tensor<f32>
}

// Region-based control flow with tf.Yield terminators; inherent attributes
// given in the discardable dictionary print as properties.
// CHECK-LABEL: func.func @region_control_flow(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
// CHECK-NEXT:   %0 = "tf.IfRegion"(%arg0) <{_else_func_name = "cond_false", _then_func_name = "cond_true", is_stateless = true}> ({
// CHECK-NEXT:     "tf.Yield"(%arg1) : (tensor<f32>) -> ()
// CHECK-NEXT:   }, {
// CHECK-NEXT:     %3 = "tf.Neg"(%arg1) {device = ""} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:     "tf.Yield"(%3) : (tensor<f32>) -> ()
// CHECK-NEXT:   }) {device = ""} : (tensor<i1>) -> tensor<f32>
// CHECK-NEXT:   %1:2 = "tf.WhileRegion"(%arg2, %arg1) <{is_stateless = false, parallel_iterations = 4 : i64, shape_invariant}> ({
// CHECK-NEXT:   ^bb0(%arg3: tensor<i32>, %arg4: tensor<f32>):
// CHECK-NEXT:     %3 = "tf.Less"(%arg3, %arg2) : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:     "tf.Yield"(%3) : (tensor<i1>) -> ()
// CHECK-NEXT:   }, {
// CHECK-NEXT:   ^bb0(%arg3: tensor<i32>, %arg4: tensor<f32>):
// CHECK-NEXT:     "tf.Yield"(%arg3, %arg4) : (tensor<i32>, tensor<f32>) -> ()
// CHECK-NEXT:   }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
// CHECK-NEXT:   %2 = "tf.CaseRegion"(%arg2) <{is_stateless = true}> ({
// CHECK-NEXT:     "tf.Yield"(%arg1) : (tensor<f32>) -> ()
// CHECK-NEXT:   }, {
// CHECK-NEXT:     "tf.Yield"(%0) : (tensor<f32>) -> ()
// CHECK-NEXT:   }) : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT:   "tf.IfRegion"(%arg0) <{is_stateless = false}> ({
// CHECK-NEXT:     "tf.NoOp"() : () -> ()
// CHECK-NEXT:     "tf.Yield"() : () -> ()
// CHECK-NEXT:   }, {
// CHECK-NEXT:     "tf.Yield"() : () -> ()
// CHECK-NEXT:   }) : (tensor<i1>) -> ()
// CHECK-NEXT:   return %0, %1#1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
func.func @region_control_flow(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = "tf.IfRegion"(%arg0) <{is_stateless = true}> ({
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }, {
    %4 = "tf.Neg"(%arg1) {device = ""} : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%4) : (tensor<f32>) -> ()
  }) {_else_func_name = "cond_false", _then_func_name = "cond_true", device = ""} : (tensor<i1>) -> tensor<f32>
  %1:2 = "tf.WhileRegion"(%arg2, %arg1) <{is_stateless = false, parallel_iterations = 4 : i64, shape_invariant}> ({
  ^bb0(%arg3: tensor<i32>, %arg4: tensor<f32>):
    %4 = "tf.Less"(%arg3, %arg2) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%4) : (tensor<i1>) -> ()
  }, {
  ^bb0(%arg3: tensor<i32>, %arg4: tensor<f32>):
    "tf.Yield"(%arg3, %arg4) : (tensor<i32>, tensor<f32>) -> ()
  }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  %2 = "tf.CaseRegion"(%arg2) <{is_stateless = true}> ({
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%0) : (tensor<f32>) -> ()
  }) : (tensor<i32>) -> tensor<f32>
  "tf.IfRegion"(%arg0) <{is_stateless = false}> ({
    "tf.NoOp"() : () -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) : (tensor<i1>) -> ()
  return %0, %1#1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @calls(%arg0: tensor<f32>) -> (tensor<f32>, tensor<*xf32>, tensor<f32>) {
// CHECK-NEXT:   %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01", executor_type = "", f = @callee}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %1 = "tf.StatefulPartitionedCall"(%0) <{config = "", config_proto = "", executor_type = "", f = @callee}> {device = ""} : (tensor<f32>) -> tensor<*xf32>
// CHECK-NEXT:   %2 = "tf.LegacyCall"(%arg0) <{_disable_call_shape_inference = true, f = @callee}> {device = ""} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %3 = "tf.LegacyCall"(%arg0) <{f = @callee}> : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   return %0, %1, %2 : tensor<f32>, tensor<*xf32>, tensor<f32>
// CHECK-NEXT: }
func.func @calls(%arg0: tensor<f32>) -> (tensor<f32>, tensor<*xf32>, tensor<f32>) {
  %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01", executor_type = "", f = @callee}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.StatefulPartitionedCall"(%0) <{config = "", config_proto = "", executor_type = "", f = @callee}> {device = ""} : (tensor<f32>) -> tensor<*xf32>
  %2 = "tf.LegacyCall"(%arg0) <{_disable_call_shape_inference = true, f = @callee}> {device = ""} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.LegacyCall"(%arg0) <{f = @callee}> : (tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<*xf32>, tensor<f32>
}

// Resource variables, with a static and an unranked resource subtype (a
// VarHandleOp's handle has exactly one, as in TF); default-valued attributes
// that are absent stay absent.
// CHECK-LABEL: func.func @variables(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<1xi32>, tensor<1xi64>) {
// CHECK-NEXT:   %0 = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> {_class = ["loc:@v"], allowed_devices = [], debug_name = "v/", device = ""} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
// CHECK-NEXT:   %1 = "tf.VarHandleOp"() : () -> tensor<*x!tf_type.resource<tensor<*xf32>>>
// CHECK-NEXT:   %2 = "tf.ReadVariableOp"(%0) {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
// CHECK-NEXT:   "tf.AssignVariableOp"(%0, %arg0) <{validate_shape = true}> {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
// CHECK-NEXT:   "tf.AssignVariableOp"(%1, %arg0) : (tensor<*x!tf_type.resource<tensor<*xf32>>>, tensor<2xf32>) -> ()
// CHECK-NEXT:   "tf.AssignAddVariableOp"(%0, %2) {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
// CHECK-NEXT:   %3 = "tf.Shape"(%2) {device = ""} : (tensor<2xf32>) -> tensor<1xi32>
// CHECK-NEXT:   %4 = "tf.Shape"(%1) : (tensor<*x!tf_type.resource<tensor<*xf32>>>) -> tensor<?xi64>
// CHECK-NEXT:   %5 = "tf.VariableShape"(%0) {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<1xi64>
// CHECK-NEXT:   return %2, %3, %5 : tensor<2xf32>, tensor<1xi32>, tensor<1xi64>
// CHECK-NEXT: }
func.func @variables(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<1xi32>, tensor<1xi64>) {
  %0 = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> {_class = ["loc:@v"], allowed_devices = [], debug_name = "v/", device = ""} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %1 = "tf.VarHandleOp"() : () -> tensor<*x!tf_type.resource<tensor<*xf32>>>
  %2 = "tf.ReadVariableOp"(%0) {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  "tf.AssignVariableOp"(%0, %arg0) <{validate_shape = true}> {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  "tf.AssignVariableOp"(%1, %arg0) : (tensor<*x!tf_type.resource<tensor<*xf32>>>, tensor<2xf32>) -> ()
  "tf.AssignAddVariableOp"(%0, %2) {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %3 = "tf.Shape"(%2) {device = ""} : (tensor<2xf32>) -> tensor<1xi32>
  %4 = "tf.Shape"(%1) : (tensor<*x!tf_type.resource<tensor<*xf32>>>) -> tensor<?xi64>
  %5 = "tf.VariableShape"(%0) {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<1xi64>
  return %2, %3, %5 : tensor<2xf32>, tensor<1xi32>, tensor<1xi64>
}

// CHECK-LABEL: func.func @send_recv(%arg0: tensor<2xf32>) -> tensor<*xf32> {
// CHECK-NEXT:   "tf._Send"(%arg0) <{client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_1"}> {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<2xf32>) -> ()
// CHECK-NEXT:   %0 = "tf._Recv"() <{recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = -1 : i64, tensor_name = "edge_1"}> {device = "/job:localhost/replica:0/task:0/device:CPU:1"} : () -> tensor<*xf32>
// CHECK-NEXT:   return %0 : tensor<*xf32>
// CHECK-NEXT: }
func.func @send_recv(%arg0: tensor<2xf32>) -> tensor<*xf32> {
  "tf._Send"(%arg0) <{client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_1"}> {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<2xf32>) -> ()
  %0 = "tf._Recv"() <{recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = -1 : i64, tensor_name = "edge_1"}> {device = "/job:localhost/replica:0/task:0/device:CPU:1"} : () -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// The TPU bridge ops; _TPUCompileMlir's results are named
// %compilation_status and %program like in TF.
// CHECK-LABEL: func.func @tpu(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<!tf_type.resource<tensor<2xf32>>>, %arg3: tensor<2xi64>) {
// CHECK-NEXT:   "tf.TPUReplicateMetadata"() <{allow_soft_placement = false, computation_shape = [], device_assignment = [], host_compute_core = [], num_cores_per_replica = 1 : i64, num_replicas = 2 : i64, padding_map = [], step_marker_location = "STEP_MARK_AT_ENTRY", topology = "", tpu_compile_options_proto = "", use_shardy_partitioner = false, use_spmd_for_xla_partitioning = false, use_tpu = true}> {_tpu_replicate = "cluster", device = ""} : () -> ()
// CHECK-NEXT:   "tf.TPUReplicateMetadata"() <{num_replicas = 1 : i64}> : () -> ()
// CHECK-NEXT:   %0 = "tf.TPUReplicatedInput"(%arg0, %arg1) <{index = -1 : i64, is_mirrored_variable = false, is_packed = false}> {device = ""} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %1 = "tf.TPUReplicatedInput"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
// CHECK-NEXT:   %2:2 = "tf.TPUReplicatedOutput"(%0) {device = ""} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT:   %3 = "tf.TPUPartitionedInput"(%arg0, %arg1) <{_XlaSharding = "\08\03", partition_dim = 0 : i64}> {device = ""} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %4 = "tf.TPUPartitionedInputV2"(%arg0, %arg1) <{_XlaSharding = "", is_packed = false, partition_dims = [2]}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %5:2 = "tf.TPUPartitionedOutput"(%3) <{partition_dim = 0 : i64}> : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT:   %6:2 = "tf.TPUPartitionedOutputV2"(%4) <{_XlaShardingV2 = "", partition_dims = [2]}> : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT:   %compilation_status, %program = "tf._TPUCompileMlir"() <{metadata = "\0A\09\08\01", mlir_module = "module {}"}> {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
// CHECK-NEXT:   %compilation_status_0, %program_1:2 = "tf._TPUCompileMlir"(%arg3) <{metadata = ""}> : (tensor<2xi64>) -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>, tensor<3x!tf_type.string>)
// CHECK-NEXT:   %compilation_status_2 = "tf._TPUCompileMlir"() <{metadata = ""}> : () -> tensor<!tf_type.string>
// CHECK-NEXT:   %program_3 = "tf._TPUCompileMlirPlaceholderProgramKey"() {device = ""} : () -> tensor<3x!tf_type.string>
// CHECK-NEXT:   "tf.TPUCompileSucceededAssert"(%compilation_status) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.string>) -> ()
// CHECK-NEXT:   %7 = "tf.TPUExecute"(%arg0, %program) {device = "/job:localhost/replica:0/task:0/device:TPU:0"} : (tensor<2xf32>, tensor<3x!tf_type.string>) -> tensor<2xf32>
// CHECK-NEXT:   "tf.TPUExecute"(%program) : (tensor<3x!tf_type.string>) -> ()
// CHECK-NEXT:   %8 = "tf.TPUExecuteAndUpdateVariables"(%arg2, %arg0, %program) <{device_var_reads_indices = [0], device_var_updates_indices = [0]}> {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>, tensor<3x!tf_type.string>) -> tensor<2xf32>
// CHECK-NEXT:   %9:2 = "tf._XlaHostComputeMlir"(%arg0) <{host_mlir_module = "", manual_sharding = false, recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args"}> : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
// CHECK-NEXT:   %10:2 = "tf._XlaRecvAtHost"(%program_3) <{device_ordinal = 0 : i64, device_type = "TPU", key = "host_compute_channel_0_args"}> : (tensor<3x!tf_type.string>) -> (tensor<2xf32>, tensor<i32>)
// CHECK-NEXT:   "tf._XlaSendFromHost"(%10#0, %10#1, %program_3) <{device_ordinal = 0 : i64, key = "host_compute_channel_0_retvals"}> : (tensor<2xf32>, tensor<i32>, tensor<3x!tf_type.string>) -> ()
// CHECK-NEXT:   return
// CHECK-NEXT: }
func.func @tpu(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<!tf_type.resource<tensor<2xf32>>>, %arg3: tensor<2xi64>) {
  "tf.TPUReplicateMetadata"() <{allow_soft_placement = false, computation_shape = [], device_assignment = [], host_compute_core = [], num_cores_per_replica = 1 : i64, num_replicas = 2 : i64, padding_map = [], step_marker_location = "STEP_MARK_AT_ENTRY", topology = "", tpu_compile_options_proto = "", use_shardy_partitioner = false, use_spmd_for_xla_partitioning = false, use_tpu = true}> {_tpu_replicate = "cluster", device = ""} : () -> ()
  "tf.TPUReplicateMetadata"() <{num_replicas = 1 : i64}> : () -> ()
  %0 = "tf.TPUReplicatedInput"(%arg0, %arg1) <{index = -1 : i64, is_mirrored_variable = false, is_packed = false}> {device = ""} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.TPUReplicatedInput"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2:2 = "tf.TPUReplicatedOutput"(%0) {device = ""} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %3 = "tf.TPUPartitionedInput"(%arg0, %arg1) <{partition_dim = 0 : i64}> {_XlaSharding = "\08\03", device = ""} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %4 = "tf.TPUPartitionedInputV2"(%arg0, %arg1) <{_XlaSharding = "", is_packed = false, partition_dims = [2]}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %5:2 = "tf.TPUPartitionedOutput"(%3) <{partition_dim = 0 : i64}> : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %6:2 = "tf.TPUPartitionedOutputV2"(%4) <{_XlaShardingV2 = "", partition_dims = [2]}> : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %compilation_status, %program = "tf._TPUCompileMlir"() <{metadata = "\0A\09\08\01", mlir_module = "module {}"}> {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  %compilation_status_0, %program_1:2 = "tf._TPUCompileMlir"(%arg3) <{metadata = ""}> : (tensor<2xi64>) -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>, tensor<3x!tf_type.string>)
  %compilation_status_2 = "tf._TPUCompileMlir"() <{metadata = ""}> : () -> tensor<!tf_type.string>
  %program_3 = "tf._TPUCompileMlirPlaceholderProgramKey"() {device = ""} : () -> tensor<3x!tf_type.string>
  "tf.TPUCompileSucceededAssert"(%compilation_status) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.string>) -> ()
  %8 = "tf.TPUExecute"(%arg0, %program) {device = "/job:localhost/replica:0/task:0/device:TPU:0"} : (tensor<2xf32>, tensor<3x!tf_type.string>) -> tensor<2xf32>
  "tf.TPUExecute"(%program) : (tensor<3x!tf_type.string>) -> ()
  %9 = "tf.TPUExecuteAndUpdateVariables"(%arg2, %arg0, %program) <{device_var_reads_indices = [0], device_var_updates_indices = [0]}> {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>, tensor<3x!tf_type.string>) -> tensor<2xf32>
  %10:2 = "tf._XlaHostComputeMlir"(%arg0) <{host_mlir_module = "", manual_sharding = false, recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args"}> : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
  %11:2 = "tf._XlaRecvAtHost"(%program_3) <{device_ordinal = 0 : i64, device_type = "TPU", key = "host_compute_channel_0_args"}> : (tensor<3x!tf_type.string>) -> (tensor<2xf32>, tensor<i32>)
  "tf._XlaSendFromHost"(%11#0, %11#1, %program_3) <{device_ordinal = 0 : i64, key = "host_compute_channel_0_retvals"}> : (tensor<2xf32>, tensor<i32>, tensor<3x!tf_type.string>) -> ()
  return
}

// The tf dialect is open: an unregistered tf.* op round trips in generic form
// with its attributes, properties and regions.
// CHECK-LABEL: func.func @unknown_op(%arg0: tensor<f32>, %arg1: tensor<!tf_type.string>) -> tensor<*x!tf_type.variant> {
// CHECK-NEXT:   %0 = "tf.SomethingUnknown"(%arg0, %arg1) {T = f32, _class = ["loc:@x"], device = "", f = @callee, shape = #tf_type.shape<2>} : (tensor<f32>, tensor<!tf_type.string>) -> tensor<*x!tf_type.variant>
// CHECK-NEXT:   %1:2 = "tf.AnotherUnknown"() <{value = 3 : i64}> : () -> (tensor<i32>, tensor<*x!tf_type.resource>)
// CHECK-NEXT:   "tf.UnknownWithRegion"(%0) ({
// CHECK-NEXT:   ^bb0(%arg2: tensor<i32>):
// CHECK-NEXT:     "tf.Yield2"(%arg2) : (tensor<i32>) -> ()
// CHECK-NEXT:   }) : (tensor<*x!tf_type.variant>) -> ()
// CHECK-NEXT:   return %0 : tensor<*x!tf_type.variant>
// CHECK-NEXT: }
func.func @unknown_op(%arg0: tensor<f32>, %arg1: tensor<!tf_type.string>) -> tensor<*x!tf_type.variant> {
  %0 = "tf.SomethingUnknown"(%arg0, %arg1) {T = f32, _class = ["loc:@x"], device = "", f = @callee, shape = #tf_type.shape<2>} : (tensor<f32>, tensor<!tf_type.string>) -> tensor<*x!tf_type.variant>
  %1:2 = "tf.AnotherUnknown"() <{value = 3 : i64}> : () -> (tensor<i32>, tensor<*x!tf_type.resource>)
  "tf.UnknownWithRegion"(%0) ({
  ^bb0(%arg2: tensor<i32>):
    "tf.Yield2"(%arg2) : (tensor<i32>) -> ()
  }) : (tensor<*x!tf_type.variant>) -> ()
  return %0 : tensor<*x!tf_type.variant>
}
