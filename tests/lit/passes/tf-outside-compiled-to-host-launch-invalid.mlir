// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-outside-compiled-to-host-launch

// The module's tf.devices must list device names (TF's message).

// expected-error @+1 {{'builtin.module' op bad 'tf.devices' attribute at index 0, not a string}}
module attributes {tf.devices = [7]} {
}

// -----

// No host can be determined: no TPU device and no CPU:0 device.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:GPU:0"]} {
  func.func @no_host(%arg0: tensor<i32>) -> tensor<i32> {
    // expected-error @+1 {{'tf_device.cluster' op cannot determine the host device for outside compilation: no CPU:0 device in the module's 'tf.devices'}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

// With TPU devices, a non-replicated cluster uses TF's full-mesh assignment,
// which takes one core per replica.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
  func.func @model_parallel(%arg0: tensor<i32>) -> tensor<i32> {
    // expected-error @+1 {{'num_cores_per_replica' must be equal to 1, got 2}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 2, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU:0"]} {
  func.func @no_tpu_system(%arg0: tensor<i32>) -> tensor<i32> {
    // expected-error @+1 {{error in fetching TPU compilation/execution devices: no TPU_SYSTEM devices found}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0"]} {
  func.func @missing_topology(%arg0: tensor<i32>) -> tensor<i32> {
    // expected-error @+1 {{'tf_device.cluster' op requires attribute 'topology'}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 1} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

// A topology that does not describe the module's devices (no tasks): TF's device assignment error.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0"]} {
  func.func @topology(%arg0: tensor<i32>) -> tensor<i32> {
    // expected-error @+1 {{error in fetching TPU compilation/execution devices: number of tasks from available TPU devices must be 'num_tasks' in 'topology' (0), got 1}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "\0A\04\01\01\01\01", device_assignment = [0, 0, 0, 0]} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

// A function with outside-compiled ops reached from two clusters (TF's message).

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @two_clusters(%arg0: tensor<i32>) {
    "tf_device.cluster"() ({
      "tf.StatefulPartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @shared} : (tensor<i32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    "tf_device.cluster"() ({
      "tf.StatefulPartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @shared} : (tensor<i32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    func.return
  }
  // expected-error @+1 {{'func.func' op The same function is reachable from multiple TPU Clusters.}}
  func.func private @shared(%arg0: tensor<i32>) {
    %0 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
    func.return
  }
}

// -----

// A call from a cluster whose callee cannot be walked.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @declaration(%arg0: tensor<i32>) {
    "tf_device.cluster"() ({
      // expected-error @+1 {{cannot follow 'func.call' from a tf_device.cluster into @decl: a function declaration without a body}}
      func.call @decl(%arg0) : (tensor<i32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    func.return
  }
  func.func private @decl(tensor<i32>)
}

// -----

// A block terminator cannot be wrapped in a launch.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @terminator(%arg0: tensor<i1>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.IfRegion"(%arg0) ({
        // expected-error @+1 {{cannot wrap the block terminator 'tf.Yield' carrying '_xla_outside_compilation' in a 'tf_device.launch'}}
        "tf.Yield"(%arg1) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> ()
      }, {
        "tf.Yield"(%arg1) : (tensor<i32>) -> ()
      }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

// An outside-compiled cluster cannot be wrapped in a launch.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @oc_cluster(%arg0: tensor<i32>) -> tensor<i32> {
    // expected-error @+1 {{cannot wrap a 'tf_device.cluster' carrying '_xla_outside_compilation' in a 'tf_device.launch'}}
    %0 = "tf_device.cluster"() ({
      tf_device.return %arg0 : tensor<i32>
    }) {_xla_outside_compilation = "oc"} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}
