// RUN: tfmlir-opt %s -split-input-file -tf-outside-compiled-to-host-launch | FileCheck %s

// A non-replicated cluster on a TPU host: each outside-compiled op gets its own
// launch on the CPU:0 of the TPU's task; results flow through the launch, the
// op loses _xla_outside_compilation and device, other ops stay put.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0"]} {
  // CHECK-LABEL: func @per_op_launches
  func.func @per_op_launches(%arg0: tensor<i32>) -> tensor<i32> {
    // CHECK:      %[[N:.*]] = "tf.Neg"(%arg0)
    // CHECK-NEXT: %[[L1:.*]] = "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:   %[[A:.*]] = "tf.Abs"(%[[N]]) : (tensor<i32>) -> tensor<i32>
    // CHECK-NEXT:   tf_device.return %[[A]]
    // CHECK-NEXT: })
    // CHECK-NEXT: %[[L2:.*]] = "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:   %[[S:.*]] = "tf.Identity"(%[[L1]]) : (tensor<i32>) -> tensor<i32>
    // CHECK-NEXT:   tf_device.return %[[S]]
    // CHECK-NEXT: })
    // CHECK-NEXT: %[[Q:.*]] = "tf.Square"(%[[L2]])
    // CHECK-NEXT: tf_device.return %[[Q]]
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Abs"(%1) {_xla_outside_compilation = "oc0", device = "/device:CPU:0"} : (tensor<i32>) -> tensor<i32>
      %3 = "tf.Identity"(%2) {_xla_outside_compilation = "oc0"} : (tensor<i32>) -> tensor<i32>
      %4 = "tf.Square"(%3) : (tensor<i32>) -> tensor<i32>
      tf_device.return %4 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // Without outside compilation nothing changes; ops outside clusters are
  // never wrapped.
  // CHECK-LABEL: func @untouched
  // CHECK-NOT:   tf_device.launch
  // CHECK:       "tf.Abs"(%arg0) {_xla_outside_compilation = "outside"}
  // CHECK-NOT:   tf_device.launch
  // CHECK:       return
  func.func @untouched(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = "tf.Abs"(%arg0) {_xla_outside_compilation = "outside"} : (tensor<i32>) -> tensor<i32>
    %1 = "tf_device.cluster"() ({
      %2 = "tf.Neg"(%0) : (tensor<i32>) -> tensor<i32>
      tf_device.return %2 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %1 : tensor<i32>
  }

  // A non-string _xla_outside_compilation does not count.
  // CHECK-LABEL: func @non_string_marker
  // CHECK-NOT:   tf_device.launch
  // CHECK:       "tf.Abs"(%arg0) {_xla_outside_compilation = 1 : i32}
  func.func @non_string_marker(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = 1 : i32} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // Ops nested in control flow regions are wrapped where they are; a
  // side-effecting op without results gets a launch without results.
  // CHECK-LABEL: func @nested_regions
  // CHECK:      "tf.IfRegion"
  // CHECK:        %[[L:.*]] = "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT:     "tf.Abs"
  // CHECK-NEXT:     tf_device.return
  // CHECK:        "tf.Yield"(%[[L]])
  // CHECK:      "tf.WhileRegion"
  // CHECK:        "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT:     "tf.NoOp"()
  // CHECK-NEXT:     tf_device.return
  // CHECK-NEXT:   }) : () -> ()
  func.func @nested_regions(%arg0: tensor<i1>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.IfRegion"(%arg0) ({
        %2 = "tf.Abs"(%arg1) {_xla_outside_compilation = "oc1"} : (tensor<i32>) -> tensor<i32>
        "tf.Yield"(%2) : (tensor<i32>) -> ()
      }, {
        "tf.Yield"(%arg1) : (tensor<i32>) -> ()
      }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
      %3 = "tf.WhileRegion"(%1) ({
      ^bb0(%a: tensor<i32>):
        %c = "tf.Less"(%a, %a) : (tensor<i32>, tensor<i32>) -> tensor<i1>
        "tf.Yield"(%c) : (tensor<i1>) -> ()
      }, {
      ^bb0(%a: tensor<i32>):
        "tf.NoOp"() {_xla_outside_compilation = "oc2"} : () -> ()
        "tf.Yield"(%a) : (tensor<i32>) -> ()
      }) {is_stateless = false} : (tensor<i32>) -> tensor<i32>
      tf_device.return %3 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // Functions called from a cluster are walked too (the cluster's host).
  func.func @calls(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.StatefulPartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @callee} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
  // CHECK-LABEL: func @callee
  // CHECK:      "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT:   "tf.Abs"(%arg0) : (tensor<i32>) -> tensor<i32>
  func.func @callee(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc3"} : (tensor<i32>) -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

// A replicated cluster: the host of logical core 0, TPU_REPLICATED_HOST_0,
// whatever tf.devices says (here nothing).

// CHECK-LABEL: func @replicated
// CHECK:      tf_device.replicate
// CHECK:        "tf_device.cluster"
// CHECK-NEXT:     "tf.Neg"
// CHECK-NEXT:     "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
// CHECK-NEXT:       "tf.Abs"(%{{.*}}) : (tensor<i32>) -> tensor<i32>
func.func @replicated(%arg0: tensor<i32>, %arg1: tensor<i32>) {
  tf_device.replicate([%arg0, %arg1] as %ri: tensor<i32>) {n = 2 : i32} {
    "tf_device.cluster"() ({
      %0 = "tf.Neg"(%ri) : (tensor<i32>) -> tensor<i32>
      %1 = "tf.Abs"(%0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return
    }) {num_cores_per_replica = 2, topology = "", device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}

// -----

// No TPU device listed: the CPU:0 device (a chief job's one wins), also
// with several cores per replica.

module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:chief/replica:0/task:0/device:CPU:0", "/job:ps/replica:0/task:0/device:CPU:0"]} {
  // CHECK-LABEL: func @generic_host
  // CHECK: "tf_device.launch"() <{device = "/job:chief/replica:0/task:0/device:CPU:0"}>
  func.func @generic_host(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 2, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

// A device assignment over a topology (model parallelism: two cores, here on two hosts): the host
// of the TPU that logical core 0 is assigned to (coordinate (0, 0, 0, 1): task 1's TPU).

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:1/device:CPU:0", "/job:w/replica:0/task:1/device:TPU_SYSTEM:0", "/job:w/replica:0/task:1/device:TPU:0"]} {
  // CHECK-LABEL: func @topology_hosts
  // CHECK: "tf_device.launch"() <{device = "/job:w/replica:0/task:1/device:CPU:0"}>
  func.func @topology_hosts(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }) {num_cores_per_replica = 2, topology = "\0A\04\01\01\01\02\10\02\18\01\22\08\00\00\00\00\00\00\00\01", device_assignment = [0, 0, 0, 1, 0, 0, 0, 0]} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}

// -----

// Nested clusters: an op belongs to its innermost cluster (here replicated,
// inside a non-replicated one).

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0"]} {
  // CHECK-LABEL: func @nested_clusters
  // CHECK:      "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
  // CHECK-NEXT:   "tf.Abs"
  // CHECK:      "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT:   "tf.Neg"
  func.func @nested_clusters(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      tf_device.replicate([%arg0, %arg0] as %ri: tensor<i32>) {n = 2 : i32} {
        "tf_device.cluster"() ({
          %1 = "tf.Abs"(%ri) {_xla_outside_compilation = "inner"} : (tensor<i32>) -> tensor<i32>
          tf_device.return
        }) : () -> ()
        tf_device.return
      }
      %2 = "tf.Neg"(%arg0) {_xla_outside_compilation = "outer"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %2 : tensor<i32>
    }) : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }
}
