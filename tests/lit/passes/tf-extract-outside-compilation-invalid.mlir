// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-extract-outside-compilation

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @nested_marks(%arg0: tensor<i1>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.IfRegion"(%arg0) <{is_stateless = false}> ({
        // expected-error @+1 {{'tf.Abs' op An op marked for outside compilation (having attribute _xla_outside_compilation) has an ancestor marked for outside compilation.}}
        %2 = "tf.Abs"(%arg1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
        "tf.Yield"(%2) : (tensor<2xf32>) -> ()
      }, {
        "tf.Yield"(%arg1) : (tensor<2xf32>) -> ()
      }) {_xla_outside_compilation = "0"} : (tensor<i1>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

// expected-error @+1 {{'builtin.module' op bad 'tf.devices' attribute at index 0, not a string}}
module attributes {tf.devices = [1]} {
  func.func @bad_devices(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:GPU:0"]} {
  func.func @no_host(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    // expected-error @+1 {{cannot determine the host device for outside compilation: no CPU:0 device}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0"]} {
  func.func @full_mesh_two_cores(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    // expected-error @+1 {{error in fetching TPU compilation/execution devices: 'num_cores_per_replica' must be equal to 1, got 2}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) {num_cores_per_replica = 2, topology = "", device_assignment = []} : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @mixed_map(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2xf32>
      // expected-error @+1 {{'tf.Neg' op Cannot mix map_outside_compilation with ordinary outside_compilation in the same graph.}}
      %2 = "tf.Neg"(%1) {_xla_outside_compilation = "1", _xla_map_outside_compilation} : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %2 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @map_in_control_flow(%arg0: tensor<i1>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.IfRegion"(%arg0) <{is_stateless = false}> ({
        // expected-error @+1 {{'tf.Abs' op map_outside_compilation inside control flow is not implemented.}}
        %2 = "tf.Abs"(%arg1) {_xla_outside_compilation = "0", _xla_map_outside_compilation} : (tensor<2xf32>) -> tensor<2xf32>
        "tf.Yield"(%2) : (tensor<2xf32>) -> ()
      }, {
        "tf.Yield"(%arg1) : (tensor<2xf32>) -> ()
      }) : (tensor<i1>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @map_without_sharding(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      // expected-error @+1 {{'tf.Abs' op A map_outside_compilation op's input should have an explicit sharding. There is no _XlaSharding attribute on the input op.}}
      %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0", _xla_map_outside_compilation} : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %2 : tensor<2xf32>
    }) : () -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @map_not_divisible(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) {
    %r:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<3xf32>) {n = 2 : i32} {
      %0 = "tf_device.cluster"() ({
        %1 = "tf.Neg"(%ri) {_XlaSharding = "s"} : (tensor<3xf32>) -> tensor<3xf32>
        // expected-error @+1 {{'tf.Abs' op A map_outside_compilation op's input and output shapes must be divisible by num_cores_per_replica=2}}
        %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0", _xla_map_outside_compilation} : (tensor<3xf32>) -> tensor<3xf32>
        tf_device.return %2 : tensor<3xf32>
      }) {num_cores_per_replica = 2} : () -> tensor<3xf32>
      tf_device.return %0 : tensor<3xf32>
    }
    func.return
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @map_unranked(%arg0: tensor<*xf32>) -> tensor<*xf32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) {_XlaSharding = "s"} : (tensor<*xf32>) -> tensor<*xf32>
      // expected-error @+1 {{'tf.Abs' op A map_outside_compilation op's input and output types must be ranked tensors.}}
      %2 = "tf.Abs"(%1) {_xla_outside_compilation = "0", _xla_map_outside_compilation} : (tensor<*xf32>) -> tensor<*xf32>
      tf_device.return %2 : tensor<*xf32>
    }) : () -> tensor<*xf32>
    func.return %0 : tensor<*xf32>
  }
}

// -----

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @host_result_two_cores(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) {
    %r:2 = tf_device.replicate([%arg0, %arg1] as %ri: tensor<2xf32>) {n = 2 : i32} {
      // expected-error @+1 {{cannot return values computed on the host from a cluster with 2 host cores}}
      %0:2 = "tf_device.cluster"() ({
        %1 = "tf.Neg"(%ri) : (tensor<2xf32>) -> tensor<2xf32>
        %2 = "tf.AsString"(%1) {_xla_outside_compilation = "0"} : (tensor<2xf32>) -> tensor<2x!tf_type.string>
        tf_device.return %1, %2 : tensor<2xf32>, tensor<2x!tf_type.string>
      }) {num_cores_per_replica = 2} : () -> (tensor<2xf32>, tensor<2x!tf_type.string>)
      tf_device.return %0#0 : tensor<2xf32>
    }
    func.return
  }
}

// -----

// Every cluster is checked after the extraction, with or without outside compilation.
module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  func.func @non_xla_result(%arg0: tensor<2xf32>) -> tensor<2x!tf_type.string> {
    // expected-error @+1 {{The ExtractHeadTailOutsideCompilation pass produced a Device cluster with a result with a non-XLA type: tensor<2x!tf_type.string>}}
    %0 = "tf_device.cluster"() ({
      %1 = "tf.AsString"(%arg0) : (tensor<2xf32>) -> tensor<2x!tf_type.string>
      tf_device.return %1 : tensor<2x!tf_type.string>
    }) : () -> tensor<2x!tf_type.string>
    func.return %0 : tensor<2x!tf_type.string>
  }
}
