// RUN: tfmlir-opt %s -split-input-file -tf-tpu-rewrite=tpu-compile-metadata-debug | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-tpu-rewrite | FileCheck %s --check-prefix=BINARY

// One core, not replicated: the compile launch on the host of the first TPU system, the
// assert reading the status through an Identity per TPUCompilationResult, the execute on the
// assigned TPU; the callee and the functions it references become the serialized module.

// CHECK-LABEL: func.func @single
// CHECK:      %[[COMPILE:.*]]:2 = "tf_device.launch"() <{device = "/job:localhost/replica:0/task:0/device:CPU:0"}> ({
// CHECK-NEXT:   %{{.*}}, %{{.*}} = "tf._TPUCompileMlir"() <{metadata = "args {\0A  dtype: DT_INT32\0A  shape {\0A    dim {\0A      size: 8\0A    }\0A  }\0A  kind: PARAMETER\0A  sharding {\0A    type: MAXIMAL\0A    tile_assignment_dimensions: 1\0A    tile_assignment_devices: 0\0A  }\0A  is_bounded_dynamic_dim: false\0A}\0Aretvals {\0A  sharding {\0A    type: MAXIMAL\0A    tile_assignment_dimensions: 1\0A    tile_assignment_devices: 0\0A  }\0A}\0Anum_replicas: 1\0Anum_cores_per_replica: 1\0Amlir_fingerprint: {{[0-9]+}}\0A", mlir_module = "module @module_unknown_graph attributes {tf.versions = {producer = 888 : i32}} {\0A  func.func @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {\0A    %0 = call @helper(%arg0) : (tensor<8xi32>) -> tensor<8xi32>\0A    return %0 : tensor<8xi32>\0A  }\0A  func.func private @helper(%arg0: tensor<8xi32>) -> tensor<8xi32> {\0A    return %arg0 : tensor<8xi32>\0A  }\0A}"}>
// CHECK:      %[[STATUS:.*]] = "tf.Identity"(%[[COMPILE]]#0) {device = "/job:localhost/replica:0/task:0/device:CPU:0"}
// CHECK-NEXT: "tf_device.launch"() <{device = "/job:localhost/replica:0/task:0/device:CPU:0"}> ({
// CHECK-NEXT:   "tf.TPUCompileSucceededAssert"(%[[STATUS]])
// CHECK:      %[[EXECUTE:.*]] = "tf_device.launch"() <{device = "/job:localhost/replica:0/task:0/device:TPU:0"}> ({
// CHECK-NEXT:   %[[R:.*]] = "tf.TPUExecute"(%arg0, %[[COMPILE]]#1) {_producer_name = "test"}
// CHECK-NEXT:   tf_device.return %[[R]]
// CHECK:      "tf.Identity"(%[[COMPILE]]#0)
// CHECK-NOT:  tf.TPUCompilationResult
// CHECK:      return %[[EXECUTE]]
// BINARY-LABEL: func.func @single
// BINARY:       "tf._TPUCompileMlir"() <{metadata = "\0A\17\08\03\12\04\12\02\08\08{{[^"]*}}", mlir_module
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @single(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %status = "tf.TPUCompilationResult"() {_tpu_compilation_status = "c0", device = ""} : () -> tensor<!tf_type.string>
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c0", _xla_compile_device_type = "TPU", func = @tpu0, num_cores_per_replica = 1 : i64, step_marker_location = "", topology = "", device_assignment = [], input_sharding_configuration = ["\08\01\1A\01\01\22\01\00"], output_sharding_configuration = ["\08\01\1A\01\01\22\01\00"], use_spmd_for_xla_partitioning = false, _producer_name = "test"} : (tensor<8xi32>) -> tensor<8xi32>
    %1 = "tf.Identity"(%status) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
    func.return %0 : tensor<8xi32>
  }
  func.func private @tpu0(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = func.call @helper(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
    func.return %0 : tensor<8xi32>
  }
  func.func private @helper(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    func.return %arg0 : tensor<8xi32>
  }
}

// -----

// Two replicas: the replicate's devices, TPU_REPLICATED_CORE_0 for the execute, a tf.Shape of
// the dynamically shaped operand as a compile operand, VARIABLE kind for the resource, the
// host launch's program key placeholder replaced by the compiled program.

// CHECK-LABEL: func.func @replicated
// CHECK:      tf_device.replicate
// CHECK-SAME: devices = {TPU_REPLICATED_CORE_0 = ["/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"], TPU_REPLICATED_HOST_0 = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0"]}
// CHECK:      %[[SHAPE:.*]] = "tf.Shape"(%[[RI:.*]]) : (tensor<?xf32>) -> tensor<?xi64>
// CHECK:      %[[COMPILE:.*]]:2 = "tf_device.launch"()
// CHECK-NEXT:   "tf._TPUCompileMlir"(%[[SHAPE]]) <{metadata = "args {\0A  dtype: DT_FLOAT\0A  shape {\0A    dim {\0A      size: -1\0A    }\0A  }\0A  kind: PARAMETER\0A  sharding {\0A  }\0A  is_bounded_dynamic_dim: true\0A}\0Aargs {\0A  dtype: DT_RESOURCE\0A  shape {\0A  }\0A  kind: VARIABLE\0A  sharding {\0A  }\0A  is_same_data_across_replicas: true\0A  is_bounded_dynamic_dim: false\0A}\0Aretvals {\0A  sharding {\0A  }\0A}\0Anum_replicas: 2\0Anum_cores_per_replica: 1\0Astep_marker_location: STEP_MARK_AT_TOP_LEVEL_WHILE_LOOP\0Ause_spmd_for_xla_partitioning: true\0Amlir_fingerprint:
// CHECK:      "tf.TPUCompileSucceededAssert"(%[[COMPILE]]#0)
// CHECK:      "tf_device.parallel_execute"() ({
// CHECK-NEXT:   "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
// CHECK-NEXT:     "tf._XlaRecvAtHost"(%[[COMPILE]]#1)
// CHECK:        "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
// CHECK-NEXT:     "tf.TPUExecute"(%[[RI]], %{{.*}}, %[[COMPILE]]#1)
// CHECK-NOT:  _XlaCompileMlirPlaceholderProgramKey
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @replicated(%arg0: tensor<?xf32>, %arg1: tensor<?xf32>, %arg2: tensor<!tf_type.resource<tensor<4xf32>>>) -> (tensor<?xf32>, tensor<?xf32>) {
    %0:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<?xf32>, %arg2 as %rv: tensor<!tf_type.resource<tensor<4xf32>>>) {n = 2 : i32} {
      %1 = "tf_device.parallel_execute"() ({
        "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
          %key = "tf._XlaCompileMlirPlaceholderProgramKey"() : () -> tensor<3x!tf_type.string>
          %r = "tf._XlaRecvAtHost"(%key) <{device_ordinal = 0 : i64, device_type = "TPU", key = "host_compute_channel_0_args"}> : (tensor<3x!tf_type.string>) -> tensor<?xf32>
          tf_device.return
        }) : () -> ()
        tf_device.return
      }, {
        %2 = "tf_device.cluster_func"(%ri, %rv) {_replication_info = "c1", _xla_compile_device_type = "TPU", func = @tpu1, num_cores_per_replica = 1 : i64, step_marker_location = "STEP_MARK_AT_TOP_LEVEL_WHILE_LOOP", topology = "", device_assignment = [], input_sharding_configuration = ["", ""], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = true, use_shardy_partitioner = false, _dynamic_arg_index = [0]} : (tensor<?xf32>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<?xf32>
        tf_device.return %2 : tensor<?xf32>
      }) : () -> tensor<?xf32>
      tf_device.return %1 : tensor<?xf32>
    }
    func.return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
  }
  func.func private @tpu1(%arg0: tensor<?xf32>, %arg1: tensor<!tf_type.resource<tensor<4xf32>>> {mhlo.is_same_data_across_replicas = true}) -> tensor<?xf32> {
    func.return %arg0 : tensor<?xf32>
  }
}

// -----

// Two logical cores placed by the topology and the device assignment (core 0 on TPU:1): each
// core gets the operands its sharding gives it and returns its results; the users read them
// back from the parallel_execute; the metadata holds XLA's device assignment.

// CHECK-LABEL: func.func @two_cores
// CHECK:      %[[COMPILE:.*]]:3 = "tf_device.launch"()
// CHECK-NEXT:   %{{.*}}, %{{.*}}:2 = "tf._TPUCompileMlir"() <{metadata = "{{.*}}num_replicas: 1\0Anum_cores_per_replica: 2\0Adevice_assignment {\0A  replica_count: 1\0A  computation_count: 2\0A  computation_devices {\0A    replica_device_ids: 1\0A  }\0A  computation_devices {\0A    replica_device_ids: 0\0A  }\0A}\0Amlir_fingerprint:
// CHECK:      %[[PE:.*]]:4 = "tf_device.parallel_execute"() ({
// CHECK-NEXT:   "tf_device.launch"() <{device = "/job:localhost/replica:0/task:0/device:TPU:1"}> ({
// CHECK-NEXT:     "tf.TPUExecute"(%arg1, %[[COMPILE]]#1) : (tensor<4xf32>, tensor<3x!tf_type.string>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:        "tf_device.launch"() <{device = "/job:localhost/replica:0/task:0/device:TPU:0"}> ({
// CHECK-NEXT:     "tf.TPUExecute"(%arg0, %arg1, %[[COMPILE]]#2) : (tensor<8xi32>, tensor<4xf32>, tensor<3x!tf_type.string>) -> (tensor<8xi32>, tensor<4xf32>)
// CHECK:      return %[[PE]]#2, %[[PE]]#0, %[[PE]]#1
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @two_cores(%arg0: tensor<8xi32>, %arg1: tensor<4xf32>) -> (tensor<8xi32>, tensor<4xf32>, tensor<4xf32>) {
    %0:3 = "tf_device.cluster_func"(%arg0, %arg1) {_replication_info = "c2", _xla_compile_device_type = "TPU", func = @tpu2, num_cores_per_replica = 2 : i64, step_marker_location = "", topology = "\0A\04\02\01\01\01\10\01\18\02\22\08\00\00\00\00\01\00\00\00", device_assignment = [1, 0, 0, 0, 0, 0, 0, 0], input_sharding_configuration = ["\08\01\1A\01\01\22\01\01", "{replicated}"], output_sharding_configuration = ["\08\01\1A\01\01\22\01\01", "{maximal device=0}", ""], use_spmd_for_xla_partitioning = false} : (tensor<8xi32>, tensor<4xf32>) -> (tensor<8xi32>, tensor<4xf32>, tensor<4xf32>)
    func.return %0#0, %0#1, %0#2 : tensor<8xi32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @tpu2(%arg0: tensor<8xi32>, %arg1: tensor<4xf32>) -> (tensor<8xi32>, tensor<4xf32>, tensor<4xf32>) {
    func.return %arg0, %arg1, %arg1 : tensor<8xi32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// A cluster_func without _replication_info is not a TPU computation: left alone.

// CHECK-LABEL: func.func @not_tpu
// CHECK:       "tf_device.cluster_func"
// CHECK-NOT:   tf._TPUCompileMlir
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0"]} {
  func.func @not_tpu(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "tf_device.cluster_func"(%arg0) {func = @f} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
}

// -----

// Tiled operands are split on the host and tiled results concatenated (TF's xla_sharding_util):
// tile i goes to core tile_assignment_devices[i]; a dimension that does not divide evenly is
// padded before the split, and the padding is sliced off after the concatenation. Results are
// merged right after the parallel_execute, the last result's ops first.

// CHECK-LABEL: func.func @tiled
// CHECK:      %[[COMPILE:.*]]:3 = "tf_device.launch"
// CHECK:      %[[PADS:.*]] = "tf.Const"() <{value = dense<{{\[\[}}0, 1], [0, 0]]> : tensor<2x2xi64>}>
// CHECK-NEXT: %[[PADDED:.*]] = "tf.Pad"(%arg0, %[[PADS]]) : (tensor<7x4xf32>, tensor<2x2xi64>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[DIM0:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[ROWS:.*]]:2 = "tf.Split"(%[[DIM0]], %[[PADDED]]) {num_split = 2 : i32} : (tensor<i32>, tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT: %[[DIM1:.*]] = "tf.Const"() <{value = dense<1> : tensor<i32>}>
// CHECK-NEXT: %[[COLS:.*]]:2 = "tf.Split"(%[[DIM1]], %arg1) {num_split = 2 : i32} : (tensor<i32>, tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT: %[[PE:.*]]:4 = "tf_device.parallel_execute"
// CHECK:        "tf.TPUExecute"(%[[ROWS]]#0, %[[COLS]]#1, %[[COMPILE]]#1) : (tensor<4x4xf32>, tensor<4x3xf32>, tensor<3x!tf_type.string>) -> (tensor<4x4xf32>, tensor<4x3xf32>)
// CHECK:        "tf.TPUExecute"(%[[ROWS]]#1, %[[COLS]]#0, %[[COMPILE]]#2) : (tensor<4x4xf32>, tensor<4x3xf32>, tensor<3x!tf_type.string>) -> (tensor<4x4xf32>, tensor<4x3xf32>)
// CHECK:      %[[AXIS1:.*]] = "tf.Const"() <{value = dense<1> : tensor<i32>}>
// CHECK-NEXT: %[[OUT1:.*]] = "tf.Concat"(%[[AXIS1]], %[[PE]]#3, %[[PE]]#1) : (tensor<i32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[AXIS0:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[MERGED:.*]] = "tf.Concat"(%[[AXIS0]], %[[PE]]#0, %[[PE]]#2) : (tensor<i32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[BEGIN:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi64>}>
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<[7, 4]> : tensor<2xi64>}>
// CHECK-NEXT: %[[OUT0:.*]] = "tf.Slice"(%[[MERGED]], %[[BEGIN]], %[[SIZE]]) : (tensor<8x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x4xf32>
// CHECK-NEXT: return %[[OUT0]], %[[OUT1]]
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @tiled(%arg0: tensor<7x4xf32>, %arg1: tensor<4x6xf32>) -> (tensor<7x4xf32>, tensor<4x6xf32>) {
    %0:2 = "tf_device.cluster_func"(%arg0, %arg1) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 2 : i64, step_marker_location = "", topology = "\0A\04\02\01\01\01\10\01\18\02\22\08\00\00\00\00\01\00\00\00", device_assignment = [0, 0, 0, 0, 1, 0, 0, 0], input_sharding_configuration = ["{devices=[2,1]0,1}", "{devices=[1,2]1,0}"], output_sharding_configuration = ["{devices=[2,1]0,1}", "{devices=[1,2]1,0}"], use_spmd_for_xla_partitioning = false} : (tensor<7x4xf32>, tensor<4x6xf32>) -> (tensor<7x4xf32>, tensor<4x6xf32>)
    func.return %0#0, %0#1 : tensor<7x4xf32>, tensor<4x6xf32>
  }
  func.func private @f(%arg0: tensor<7x4xf32>, %arg1: tensor<4x6xf32>) -> (tensor<7x4xf32>, tensor<4x6xf32>) {
    func.return %arg0, %arg1 : tensor<7x4xf32>, tensor<4x6xf32>
  }
}

// -----

// Two tiled dimensions over four cores: a tree of splits (rows, then each half's columns) and of
// concatenations (columns first, then rows), the tiles in the sharding's device order.

// CHECK-LABEL: func.func @tiled_2x2
// CHECK:      %[[COMPILE:.*]]:5 = "tf_device.launch"
// CHECK:      %[[ROWS:.*]]:2 = "tf.Split"(%{{.*}}, %arg0) {num_split = 2 : i32} : (tensor<i32>, tensor<4x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xf32>)
// CHECK:      %[[TOP:.*]]:2 = "tf.Split"(%{{.*}}, %[[ROWS]]#0) {num_split = 2 : i32} : (tensor<i32>, tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:      %[[BOTTOM:.*]]:2 = "tf.Split"(%{{.*}}, %[[ROWS]]#1) {num_split = 2 : i32}
// CHECK:      %[[PE:.*]]:4 = "tf_device.parallel_execute"
// CHECK:        "tf.TPUExecute"(%[[TOP]]#0, %[[COMPILE]]#1)
// CHECK:        "tf.TPUExecute"(%[[TOP]]#1, %[[COMPILE]]#2)
// CHECK:        "tf.TPUExecute"(%[[BOTTOM]]#0, %[[COMPILE]]#3)
// CHECK:        "tf.TPUExecute"(%[[BOTTOM]]#1, %[[COMPILE]]#4)
// CHECK:      %[[UPPER:.*]] = "tf.Concat"(%{{.*}}, %[[PE]]#3, %[[PE]]#2) : (tensor<i32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
// CHECK:      %[[LOWER:.*]] = "tf.Concat"(%{{.*}}, %[[PE]]#1, %[[PE]]#0) : (tensor<i32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
// CHECK:      %[[ALL:.*]] = "tf.Concat"(%{{.*}}, %[[UPPER]], %[[LOWER]]) : (tensor<i32>, tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[ALL]]
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1", "/job:localhost/replica:0/task:0/device:TPU:2", "/job:localhost/replica:0/task:0/device:TPU:3"]} {
  func.func @tiled_2x2(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 4 : i64, step_marker_location = "", topology = "\0A\04\02\02\01\01\10\01\18\04\22\10\00\00\00\00\01\00\00\00\00\01\00\00\01\01\00\00", device_assignment = [0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0], input_sharding_configuration = ["{devices=[2,2]0,1,2,3}"], output_sharding_configuration = ["{devices=[2,2]3,2,1,0}"], use_spmd_for_xla_partitioning = false} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    func.return %0 : tensor<4x6xf32>
  }
  func.func private @f(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
    func.return %arg0 : tensor<4x6xf32>
  }
}
