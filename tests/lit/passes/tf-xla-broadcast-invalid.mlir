// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-xla-broadcast

// A replicated cluster needs num_cores_per_replica, with or without values
// to move.

func.func @no_num_cores(%arg0: tensor<i32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{'tf_device.cluster' op requires attribute 'num_cores_per_replica'}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<i32>) -> ()
      tf_device.return
    }) : () -> ()
    tf_device.return
  }
  func.return
}

// -----

// Moving a value needs the devices of the replicas: no TPU_SYSTEM device.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
func.func @no_tpu_system(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{error in fetching TPU compilation/execution devices: no TPU_SYSTEM devices found}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

// A tf.devices entry that is not a device name (at the module).

// expected-error@+1 {{bad 'tf.devices' attribute, 'nonsense', not a valid device}}
module attributes {tf.devices = ["nonsense"]} {
func.func @bad_devices(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
func.func @no_topology(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{'tf_device.cluster' op requires attribute 'topology'}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
func.func @no_device_assignment(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{'tf_device.cluster' op requires attribute 'device_assignment'}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = ""} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
func.func @bad_coordinate(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{error in fetching tpu device coordinates: bad 'device_assignment' attribute at index 1, not an int}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = [0, "x"]} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

// Without a topology: one replica or one per TPU, and no device assignment.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1", "/job:w/replica:0/task:0/device:TPU:2"]} {
func.func @full_mesh_replicas(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{error in fetching TPU compilation/execution devices: 'num_replicas' must be equal to 1 or 3, got 2}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
func.func @assignment_without_topology(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{error in fetching TPU compilation/execution devices: 'device_assignment' must not be set when 'topology' is not set}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = [0, 0, 0, 0]} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

// A topology that is not a TopologyProto.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
func.func @bad_topology(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{error in fetching TPU compilation/execution devices: failed to parse 'topology' attribute to TopologyProto}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "\0A\FF", device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

// A device assignment using one TPU twice (topology: mesh 2x1x1x1, one task
// with two TPUs).

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
func.func @duplicate_coordinate(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    // expected-error@+1 {{error in fetching TPU compilation/execution devices: 'device_assignment' has duplicate device coordinate (1, 0, 0, 0)}}
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "\0A\04\02\01\01\01\10\01\18\02\22\08\00\00\00\00\01\00\00\00", device_assignment = [1, 0, 0, 0, 1, 0, 0, 0]} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

// An f16 value gets tf.TPUDummyInput zeros, which only take f32 and bf16:
// the result does not verify (as in TF), and the function is left unchanged.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
// expected-error@+1 {{'tf.TPUDummyInput' op result #0 must be tensor of float, bfloat16 values, but got 'tensor<2xf16>'}}
func.func @half(%arg0: tensor<2xf16>) {
  tf_device.replicate {n = 2 : i32} {
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<2xf16>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}
}
