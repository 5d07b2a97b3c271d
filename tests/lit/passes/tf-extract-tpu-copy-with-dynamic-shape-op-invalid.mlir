// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-extract-tpu-copy-with-dynamic-shape-op

// The launch of a copy must be on host 0: TPU_REPLICATED_HOST_0 or the CPU:0
// of the first TPU's host (here task 0, not task 1).

module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0", "/job:worker/replica:0/task:1/device:CPU:0"]} {
  func.func @other_host(%a: tensor<8xi32>, %n: tensor<i32>) -> tensor<8xi32> {
    %0 = "tf_device.launch"() ({
      // expected-error @+1 {{TPUCopyWithDynamicShapeOp's device is not a recognized host 0: /job:worker/replica:0/task:1/device:CPU:0}}
      %1 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      tf_device.return %1 : tensor<8xi32>
    }) {device = "/job:worker/replica:0/task:1/device:CPU:0"} : () -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}

// -----

// Every copy is checked, the ones that stay in their launch too.

module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0"]} {
  func.func @kept_copy_checked(%a: tensor<8xi32>, %n: tensor<i32>) -> tensor<8xi32> {
    %0 = "tf_device.launch"() ({
      // expected-error @+1 {{TPUCopyWithDynamicShapeOp's device is not a recognized host 0: TPU_REPLICATED_HOST_1}}
      %1 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      %2 = "tf.Neg"(%1) : (tensor<8xi32>) -> tensor<8xi32>
      tf_device.return %2 : tensor<8xi32>
    }) {device = "TPU_REPLICATED_HOST_1"} : () -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}

// -----

// The first TPU of the module's devices is needed, on the replicated host too.

// expected-error @+1 {{'builtin.module' op error in fetching TPU_SYSTEM devices: no TPU_SYSTEM devices found}}
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0"]} {
  func.func @no_tpu_system(%a: tensor<8xi32>, %n: tensor<i32>) -> tensor<8xi32> {
    %0 = "tf_device.launch"() ({
      %1 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      tf_device.return %1 : tensor<8xi32>
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}

// -----

// expected-error @+1 {{'builtin.module' op error in fetching TPU devices: expected the number of TPU devices per host to be 2, got 1}}
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU:1", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0", "/job:worker/replica:0/task:1/device:CPU:0", "/job:worker/replica:0/task:1/device:TPU:0", "/job:worker/replica:0/task:1/device:TPU_SYSTEM:0"]} {
  func.func @uneven_hosts(%a: tensor<8xi32>, %n: tensor<i32>) -> tensor<8xi32> {
    %0 = "tf_device.launch"() ({
      %1 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      tf_device.return %1 : tensor<8xi32>
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}

// -----

// A malformed tf.devices: its error, then TF's "No available devices.".

// expected-error @+2 {{'builtin.module' op bad 'tf.devices' attribute, 'TPU:0', not a valid device}}
// expected-error @+1 {{'builtin.module' op No available devices.}}
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "TPU:0"]} {
  func.func @bad_devices(%a: tensor<8xi32>, %n: tensor<i32>) -> tensor<8xi32> {
    %0 = "tf_device.launch"() ({
      %1 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      tf_device.return %1 : tensor<8xi32>
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}

// -----

// TF's process crashes on these two (it reports the first before it dies).

module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0"]} {
  func.func @tf_crash_not_in_launch(%a: tensor<8xi32>, %n: tensor<i32>) -> tensor<8xi32> {
    // expected-error @+1 {{TPUCopyWithDynamicShapeOp is not in a launch}}
    %0 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}

// -----

// expected-error @+1 {{'builtin.module' op error in fetching TPU devices: no TPU device on the first TPU_SYSTEM host}}
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0"]} {
  func.func @tf_crash_no_tpu(%a: tensor<8xi32>, %n: tensor<i32>) -> tensor<8xi32> {
    %0 = "tf_device.launch"() ({
      %1 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      tf_device.return %1 : tensor<8xi32>
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}
