// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-extract-head-tail-outside-compilation

// The module's tf.devices must list device names (TF's message).

// expected-error @+1 {{'builtin.module' op bad 'tf.devices' attribute, 'nonsense:0', not a valid device}}
module attributes {tf.devices = ["nonsense:0"]} {
}

// -----

// No CPU:0 device to host the head op.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:GPU:0"]} {
  func.func @no_host(%arg0: tensor<i32>) {
    // expected-error @+1 {{'tf_device.cluster' op cannot determine the host device for outside compilation: no CPU:0 device in the module's 'tf.devices'}}
    "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return
    }) : () -> ()
    func.return
  }
}

// -----

// With TPU devices, a non-replicated cluster needs one core per replica
// (TF's message); the error comes for the tail too, and leaves the module
// unchanged.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
  func.func @fine(%arg0: tensor<i32>) {
    "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    func.return
  }
  func.func @model_parallel(%arg0: tensor<i32>) {
    // expected-error @+1 {{error in fetching TPU compilation/execution devices: 'num_cores_per_replica' must be equal to 1, got 2}}
    "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Abs"(%1) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return
    }) {num_cores_per_replica = 2, topology = "", device_assignment = []} : () -> ()
    func.return
  }
}

// -----

// A tail region op whose nested ops use its own block arguments: TF makes
// the cluster return such a block argument and its output does not verify.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @tail_while(%arg0: tensor<i32>) {
    "tf_device.cluster"() ({
      %0 = "tf.Neg"(%arg0) : (tensor<i32>) -> tensor<i32>
      // expected-error @+1 {{'tf.WhileRegion' op moves to the tail of the cluster with ops that use a block argument of its own region}}
      %1 = "tf.WhileRegion"(%0) ({
      ^bb0(%a: tensor<i32>):
        %c = "tf.ToBool"(%a) : (tensor<i32>) -> tensor<i1>
        "tf.Yield"(%c) : (tensor<i1>) -> ()
      }, {
      ^bb0(%a: tensor<i32>):
        "tf.Yield"(%a) : (tensor<i32>) -> ()
      }) {is_stateless = true, _xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return
    }) : () -> ()
    func.return
  }
}

// -----

// TF's side-effect analysis is per function: a cluster with outside
// compilation outside a function is not handled.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  // expected-error @+1 {{'tf_device.cluster' op with outside-compiled ops is not in a 'func.func'}}
  "tf_device.cluster"() ({
    "tf.NoOp"() {_xla_outside_compilation = "oc"} : () -> ()
    tf_device.return
  }) : () -> ()
}
