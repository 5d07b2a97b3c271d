// RUN: tfmlir-opt %s -split-input-file -tf-xla-broadcast | FileCheck %s

// Two hosts with two TPUs each; the device assignment puts replicas 0 and 1 on
// task 0 and replicas 2 and 3 on task 1 (topology: mesh 2x2x1x1, task 0 at
// (0,0,0,0) and (1,0,0,0), task 1 at (0,1,0,0) and (1,1,0,0)). Replicas 1..3
// get zeros from their own host: one dummy for task 0, one for task 1.
// Values of f32 and bf16 with static shapes move; i32, dynamic shapes and
// values defined inside the replicate do not. A value used twice moves once.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1", "/job:w/replica:0/task:1/device:CPU:0", "/job:w/replica:0/task:1/device:TPU_SYSTEM:0", "/job:w/replica:0/task:1/device:TPU:0", "/job:w/replica:0/task:1/device:TPU:1"]} {
// CHECK-LABEL: func.func @two_hosts
// CHECK-NEXT: %[[Z0:.*]] = "tf.TPUDummyInput"() <{shape = #tf_type.shape<>}> {_ici_weight_distribution_mlir_bridge_marker = true} : () -> tensor<f32>
// CHECK-NEXT: %[[Z1:.*]] = "tf.TPUDummyInput"() <{shape = #tf_type.shape<>}> {_ici_weight_distribution_mlir_bridge_marker = true} : () -> tensor<f32>
// CHECK-NEXT: %[[Z2:.*]] = "tf.TPUDummyInput"() <{shape = #tf_type.shape<3x2>}> {_ici_weight_distribution_mlir_bridge_marker = true} : () -> tensor<3x2xbf16>
// CHECK-NEXT: %[[Z3:.*]] = "tf.TPUDummyInput"() <{shape = #tf_type.shape<3x2>}> {_ici_weight_distribution_mlir_bridge_marker = true} : () -> tensor<3x2xbf16>
// CHECK-NEXT: tf_device.replicate([%arg0, %[[Z0]], %[[Z1]], %[[Z1]]] as %[[A:.*]]: tensor<f32>, [%arg1, %[[Z2]], %[[Z3]], %[[Z3]]] as %[[B:.*]]: tensor<3x2xbf16>) {n = 4 : i32} {
// CHECK-NEXT:   %[[C:.*]] = "tf.Const"
// CHECK-NEXT:   %[[LA:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
// CHECK-NEXT:     %[[IA:.*]] = "tf.Identity"(%[[A]]) {_ici_weight_distribution_mlir_bridge_marker = true} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:     tf_device.return %[[IA]]
// CHECK-NEXT:   }) {_ici_weight_distribution_mlir_bridge_marker = true} : () -> tensor<f32>
// CHECK-NEXT:   %[[LB:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
// CHECK-NEXT:     %[[IB:.*]] = "tf.Identity"(%[[B]])
// CHECK-NEXT:     tf_device.return %[[IB]]
// CHECK-NEXT:   })
// CHECK-NEXT:   "tf_device.cluster"() ({
// CHECK-NEXT:     %[[GA:.*]] = "tf.Const"() <{value = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi32>}>
// CHECK-NEXT:     %[[RA:.*]] = "tf.XlaAllReduce"(%[[LA]], %[[GA]]) <{mode = "CrossReplica", reduce_op = "Add"}> : (tensor<f32>, tensor<1x4xi32>) -> tensor<f32>
// CHECK-NEXT:     %[[GB:.*]] = "tf.Const"() <{value = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi32>}>
// CHECK-NEXT:     %[[RB:.*]] = "tf.XlaAllReduce"(%[[LB]], %[[GB]])
// CHECK-NEXT:     "tf.OpA"(%[[RA]], %[[RB]], %arg2, %arg3, %[[C]], %[[RA]])
func.func @two_hosts(%arg0: tensor<f32>, %arg1: tensor<3x2xbf16>, %arg2: tensor<i32>, %arg3: tensor<?xf32>) {
  tf_device.replicate {n = 4 : i32} {
    %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0, %arg1, %arg2, %arg3, %c, %arg0) : (tensor<f32>, tensor<3x2xbf16>, tensor<i32>, tensor<?xf32>, tensor<f32>, tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "\0A\04\02\02\01\01\10\02\18\02\22\10\00\00\00\00\01\00\00\00\00\01\00\00\01\01\00\00", device_assignment = [0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0]} : () -> ()
    tf_device.return
  }
  func.return
}
}

// -----

// Without a topology the replicas cover the full mesh (one host here): one
// dummy for all. A use in a nested region of the cluster moves too; a value
// defined in a region enclosing the replicate is a broadcast as well. The new
// input's block argument goes after the existing replicated ones, before the
// packed ones.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
// CHECK-LABEL: func.func @full_mesh
// CHECK: "tf.IfRegion"
// CHECK-NEXT: %[[V:.*]] = "tf.Neg"(%arg0)
// CHECK-NEXT: %[[Z:.*]] = "tf.TPUDummyInput"() <{shape = #tf_type.shape<4>}> {{.*}} : () -> tensor<4xf32>
// CHECK-NEXT: tf_device.replicate([%arg1, %arg1] as %[[R:.*]]: tensor<i32>, [%[[V]], %[[Z]]] as %[[N:.*]]: tensor<4xf32>, %arg2 as %[[P:.*]]: tensor<i1>) {n = 2 : i32} {
// CHECK-NEXT:   %[[L:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}>
// CHECK-NEXT:     "tf.Identity"(%[[N]])
// CHECK:        "tf_device.cluster"
// CHECK-NEXT:     "tf.Const"() <{value = dense<{{\[\[}}0, 1]]> : tensor<1x2xi32>}>
// CHECK-NEXT:     %[[S:.*]] = "tf.XlaAllReduce"(%[[L]]
// CHECK-NEXT:     "tf.IfRegion"(%[[P]])
// CHECK-NEXT:       "tf.OpB"(%[[S]], %[[R]])
func.func @full_mesh(%arg0: tensor<4xf32>, %arg1: tensor<i32>, %arg2: tensor<i1>) {
  "tf.IfRegion"(%arg2) ({
    %v = "tf.Neg"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.replicate([%arg1, %arg1] as %r: tensor<i32>, %arg2 as %p: tensor<i1>) {n = 2 : i32} {
      "tf_device.cluster"() ({
        "tf.IfRegion"(%p) ({
          "tf.OpB"(%v, %r) : (tensor<4xf32>, tensor<i32>) -> ()
          "tf.Yield"() : () -> ()
        }, {
          "tf.Yield"() : () -> ()
        }) {is_stateless = false} : (tensor<i1>) -> ()
        tf_device.return
      }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> ()
      tf_device.return
    }
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  func.return
}
}

// -----

// Results of the rebuilt replicate keep their uses.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
// CHECK-LABEL: func.func @results
// CHECK: %[[R:.*]]:2 = tf_device.replicate([%arg0, %{{.*}}] as %{{.*}}: tensor<2xf32>) {n = 2 : i32} {
// CHECK:      return %[[R]]#0, %[[R]]#1
func.func @results(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0:2 = tf_device.replicate {n = 2 : i32} {
    %1 = "tf_device.cluster"() ({
      %2 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %2 : tensor<2xf32>
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> tensor<2xf32>
    tf_device.return %1 : tensor<2xf32>
  }
  func.return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}
}

// -----

// Left alone: clusters outside a replicate, clusters in a parallel_execute,
// and clusters with nothing to move (which need no devices, topology or
// device assignment).

// CHECK-LABEL: func.func @untouched
// CHECK-NOT: tf.TPUDummyInput
// CHECK-NOT: tf.XlaAllReduce
func.func @untouched(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  "tf_device.cluster"() ({
    "tf.OpA"(%arg0) : (tensor<f32>) -> ()
    tf_device.return
  }) {num_cores_per_replica = 1 : i64} : () -> ()
  tf_device.replicate {n = 2 : i32} {
    "tf_device.parallel_execute"() ({
      "tf_device.cluster"() ({
        "tf.OpA"(%arg0) : (tensor<f32>) -> ()
        tf_device.return
      }) : () -> ()
      tf_device.return
    }) : () -> ()
    "tf_device.cluster"() ({
      "tf.OpA"(%arg1) : (tensor<i32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64} : () -> ()
    tf_device.return
  }
  func.return
}

// -----

// Two clusters in one replicate: each gets its own input, launch and
// all-reduce, in cluster order.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
// CHECK-LABEL: func.func @two_clusters
// CHECK-NEXT: %[[Z0:.*]] = "tf.TPUDummyInput"
// CHECK-NEXT: %[[Z1:.*]] = "tf.TPUDummyInput"
// CHECK-NEXT: tf_device.replicate([%arg0, %[[Z0]]] as %[[A:.*]]: tensor<f32>, [%arg0, %[[Z1]]] as %[[B:.*]]: tensor<f32>)
// CHECK-NEXT: "tf_device.launch"
// CHECK-NEXT: "tf.Identity"(%[[A]])
// CHECK: "tf_device.cluster"
// CHECK: "tf_device.launch"
// CHECK-NEXT: "tf.Identity"(%[[B]])
// CHECK: "tf_device.cluster"
func.func @two_clusters(%arg0: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> ()
    "tf_device.cluster"() ({
      "tf.OpA"(%arg0) : (tensor<f32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> ()
    tf_device.return
  }
  func.return
}
}
