// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-cleanup-cluster-attributes

// The module's tf.devices must list device names (TF's messages); it is
// read before anything else, with or without clusters.

// expected-error @+1 {{'builtin.module' op bad 'tf.devices' attribute at index 1, not a string}}
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", 1]} {
}

// -----

// expected-error @+1 {{'builtin.module' op bad 'tf.devices' attribute, 'TPU:0', not a valid device}}
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "TPU:0"]} {
func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Neg"(%arg0) {device = "cpu"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
}

// -----

// expected-error @+1 {{'builtin.module' op bad 'tf.devices' attribute, '/job:worker/replica:x', not a valid device}}
module attributes {tf.devices = {"/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:x"}} {
}

// -----

// expected-error @+1 {{'builtin.module' op unsupported 'tf.devices' attribute}}
module attributes {tf.devices = "/job:worker/replica:0/task:0/device:CPU:0"} {
}

// -----

// A tf_device.launch_func reached whose device is not a TPU_REPLICATED_CORE
// device: TF removes the launch_func's required device and its output does
// not verify (TF's verifier message).

func.func @launch_func_device(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Neg"(%arg0) {device = "cpu", _replication_info = "c"} : (tensor<f32>) -> tensor<f32>
    // expected-error @+1 {{'tf_device.launch_func' op requires attribute 'device'}}
    %2 = "tf_device.launch_func"(%1) {func = @launched, device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %2 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @launched(%arg0: tensor<f32>) -> tensor<f32> {
  func.return %arg0 : tensor<f32>
}

// -----

// Calls whose callee cannot be walked (TF's process crashes on these): a
// declaration without a body, a symbol that is missing or not a function
// (tf.RemoteCall's callee is not checked by the verifier), an indirect call.

func.func @declaration(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Neg"(%arg0) {device = "cpu", _replication_info = "c"} : (tensor<f32>) -> tensor<f32>
    // expected-error @+1 {{cannot follow 'tf.StatefulPartitionedCall' from a tf_device.cluster into @external: a function declaration without a body}}
    %2 = "tf.StatefulPartitionedCall"(%1) {f = @external, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
    tf_device.return %2 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @external(%arg0: tensor<f32>) -> tensor<f32>

// -----

func.func @declaration_behind_a_call(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = func.call @reached(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @reached(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot follow 'func.call' from a tf_device.cluster into @external_too: a function declaration without a body}}
  %0 = func.call @external_too(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @external_too(%arg0: tensor<f32>) -> tensor<f32>

// -----

func.func @missing_remote_callee(%arg0: tensor<f32>, %arg1: tensor<!tf_type.string>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    // expected-error @+1 {{cannot follow 'tf.RemoteCall' from a tf_device.cluster into @missing: no such symbol}}
    %1 = "tf.RemoteCall"(%arg1, %arg0) {f = @missing} : (tensor<!tf_type.string>, tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @remote_callee_is_a_module(%arg0: tensor<f32>, %arg1: tensor<!tf_type.string>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    // expected-error @+1 {{cannot follow 'tf.RemoteCall' from a tf_device.cluster into @not_a_function: 'builtin.module' is not a func.func}}
    %1 = "tf.RemoteCall"(%arg1, %arg0) {f = @not_a_function} : (tensor<!tf_type.string>, tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
module @not_a_function {
}

// -----

func.func @remote_callee_path_through_a_function(%arg0: tensor<f32>, %arg1: tensor<!tf_type.string>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    // expected-error @+1 {{cannot follow 'tf.RemoteCall' from a tf_device.cluster into @g::@h: no such symbol}}
    %1 = "tf.RemoteCall"(%arg1, %arg0) {f = @g::@h} : (tensor<!tf_type.string>, tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @g(%arg0: tensor<f32>) -> tensor<f32> {
  func.return %arg0 : tensor<f32>
}

// -----

func.func @indirect(%arg0: tensor<f32>) -> tensor<f32> {
  %f = func.constant @g : (tensor<f32>) -> tensor<f32>
  %0 = "tf_device.cluster"() ({
    // expected-error @+1 {{cannot follow 'func.call_indirect' from a tf_device.cluster: its callee is a value, not a symbol}}
    %1 = func.call_indirect %f(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @g(%arg0: tensor<f32>) -> tensor<f32> {
  func.return %arg0 : tensor<f32>
}
