// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-rewrite

module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"]} {
  func.func @no_cores(%arg0: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{'tf_device.cluster_func' op requires attribute 'num_cores_per_replica'}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, step_marker_location = "", topology = "", device_assignment = [], input_sharding_configuration = [""], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = false} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
}

// -----

module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"]} {
  func.func @no_topology(%arg0: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{'tf_device.cluster_func' op requires attribute 'topology'}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 1 : i64, step_marker_location = "", device_assignment = [], input_sharding_configuration = [""], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = false} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
}

// -----

module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"]} {
  func.func @bad_step_marker(%arg0: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{'tf_device.cluster_func' op bad 'step_marker_location' attribute with value 'SOMEWHERE'}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 1 : i64, step_marker_location = "SOMEWHERE", topology = "", device_assignment = [], input_sharding_configuration = [""], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = false} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
}

// -----

module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"]} {
  func.func @sharding_count(%arg0: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{incorrect number of output sharding}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 1 : i64, step_marker_location = "", topology = "", device_assignment = [], input_sharding_configuration = [""], output_sharding_configuration = ["", ""], use_spmd_for_xla_partitioning = false} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
}

// -----

// Two replicas need two TPU devices (or a topology placing them).
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"]} {
  func.func @too_few_devices(%arg0: tensor<f32>, %arg1: tensor<f32>) {
    %0:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<f32>) {n = 2 : i32} {
      // expected-error @+1 {{error in fetching TPU compilation/execution devices: 'num_replicas' must be equal to 1 or 1, got 2}}
      %1 = "tf_device.cluster_func"(%ri) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 1 : i64, step_marker_location = "", topology = "", device_assignment = [], input_sharding_configuration = [""], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = false} : (tensor<f32>) -> tensor<f32>
      tf_device.return %1 : tensor<f32>
    }
    func.return
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
}

// -----

// No TPU system among the module's devices.
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0"]} {
  func.func @no_tpu_system(%arg0: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{error in fetching TPU compilation/execution devices: no TPU_SYSTEM devices found}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 1 : i64, step_marker_location = "", topology = "", device_assignment = [], input_sharding_configuration = [""], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = false} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    func.return %arg0 : tensor<f32>
  }
}

// -----

module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"]} {
  func.func @status_without_cluster(%arg0: tensor<f32>) {
    // expected-error @+1 {{'tf.TPUCompilationResult' op missing '_tpu_compilation_status'}}
    %0 = "tf.TPUCompilationResult"() : () -> tensor<!tf_type.string>
    func.return
  }
}

// -----

// A compilation result whose cluster was never rewritten keeps its users.
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"]} {
  func.func @status_still_used() -> tensor<!tf_type.string> {
    // expected-error @+1 {{uses remain post rewrite}}
    %0 = "tf.TPUCompilationResult"() {_tpu_compilation_status = "nowhere"} : () -> tensor<!tf_type.string>
    func.return %0 : tensor<!tf_type.string>
  }
}

// -----

// A tiled operand whose tiles do not make one per logical core.
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @tiles_for_four_cores(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{incorrect 0-th tiled input sharding received. Product of tile sharding splits(4) must be equal to number of logical devices : 2}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 2 : i64, step_marker_location = "", topology = "\0A\04\02\01\01\01\10\01\18\02\22\08\00\00\00\00\01\00\00\00", device_assignment = [0, 0, 0, 0, 1, 0, 0, 0], input_sharding_configuration = ["{devices=[4]0,1,0,1}"], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = false} : (tensor<8xf32>) -> tensor<8xf32>
    func.return %0 : tensor<8xf32>
  }
  func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    func.return %arg0 : tensor<8xf32>
  }
}

// -----

// A tiled dimension of unknown size elsewhere in the shape cannot be padded: 7 does not split
// in two.
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @uneven_without_padding(%arg0: tensor<7x?xf32>) -> tensor<7x?xf32> {
    // expected-error @+1 {{0-th dimension of the input must be evenly divisible by 2}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 2 : i64, step_marker_location = "", topology = "\0A\04\02\01\01\01\10\01\18\02\22\08\00\00\00\00\01\00\00\00", device_assignment = [0, 0, 0, 0, 1, 0, 0, 0], input_sharding_configuration = ["{devices=[2,1]0,1}"], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = false} : (tensor<7x?xf32>) -> tensor<7x?xf32>
    func.return %0 : tensor<7x?xf32>
  }
  func.func private @f(%arg0: tensor<7x?xf32>) -> tensor<7x?xf32> {
    func.return %arg0 : tensor<7x?xf32>
  }
}

// -----

// A tiled result whose tile assignment names a core outside the computation.
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @result_tiles_on_core_two(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{Number of tiled outputs(3) must match the number of logical devices(2)}}
    %0 = "tf_device.cluster_func"(%arg0) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @f, num_cores_per_replica = 2 : i64, step_marker_location = "", topology = "\0A\04\02\01\01\01\10\01\18\02\22\08\00\00\00\00\01\00\00\00", device_assignment = [0, 0, 0, 0, 1, 0, 0, 0], input_sharding_configuration = [""], output_sharding_configuration = ["{devices=[3]0,1,2}"], use_spmd_for_xla_partitioning = false} : (tensor<8xf32>) -> tensor<8xf32>
    func.return %0 : tensor<8xf32>
  }
  func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    func.return %arg0 : tensor<8xf32>
  }
}
