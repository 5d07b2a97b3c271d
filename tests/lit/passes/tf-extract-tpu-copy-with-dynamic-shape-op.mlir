// RUN: tfmlir-opt %s -split-input-file -tf-extract-tpu-copy-with-dynamic-shape-op | FileCheck %s

// On the replicated host: the copy leaves the host launch for a launch on the
// first TPU core; the host launch now returns what the copy reads from it.

module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0"]} {
  // CHECK-LABEL: func @replicated_host
  // CHECK-SAME: (%[[A:.*]]: tensor<1024xi64>, %[[B:.*]]: tensor<1024xi32>, %[[N:.*]]: tensor<i32>)
  func.func @replicated_host(%a: tensor<1024xi64>, %b: tensor<1024xi32>, %n: tensor<i32>) -> (tensor<1024xi32>, tensor<1024xi32>, tensor<i32>) {
    // CHECK:      %[[HOST:.*]]:2 = "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
    // CHECK-NEXT:   %[[CAST:.*]] = "tf.Cast"(%[[A]])
    // CHECK-NEXT:   %[[SIZE:.*]] = "tf.Identity"(%[[N]])
    // CHECK-NEXT:   tf_device.return %[[SIZE]], %[[CAST]] : tensor<i32>, tensor<1024xi32>
    // CHECK-NEXT: }) : () -> (tensor<i32>, tensor<1024xi32>)
    // CHECK-NEXT: %[[DEVICE:.*]]:2 = "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:   %[[COPY:.*]]:2 = "tf.TPUCopyWithDynamicShape"(%[[HOST]]#1, %[[B]], %[[HOST]]#0, %[[HOST]]#0)
    // CHECK-NEXT:   tf_device.return %[[COPY]]#0, %[[COPY]]#1 : tensor<1024xi32>, tensor<1024xi32>
    // CHECK-NEXT: }) : () -> (tensor<1024xi32>, tensor<1024xi32>)
    // CHECK-NEXT: return %[[DEVICE]]#1, %[[DEVICE]]#0, %[[HOST]]#0
    %0:3 = "tf_device.launch"() ({
      %1 = "tf.Cast"(%a) {Truncate = false} : (tensor<1024xi64>) -> tensor<1024xi32>
      %2 = "tf.Identity"(%n) : (tensor<i32>) -> tensor<i32>
      %3:2 = "tf.TPUCopyWithDynamicShape"(%1, %b, %2, %2) {operandSegmentSizes = array<i32: 2, 2>} : (tensor<1024xi32>, tensor<1024xi32>, tensor<i32>, tensor<i32>) -> (tensor<1024xi32>, tensor<1024xi32>)
      tf_device.return %3#1, %3#0, %2 : tensor<1024xi32>, tensor<1024xi32>, tensor<i32>
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> (tensor<1024xi32>, tensor<1024xi32>, tensor<i32>)
    return %0#0, %0#1, %0#2 : tensor<1024xi32>, tensor<1024xi32>, tensor<i32>
  }
}

// -----

// Not replicated: the host launch must be on the CPU:0 of the first TPU's host
// and the copy goes to that TPU. Two copies in one launch leave it in turn; a
// copy used by another op in the launch stays.

module attributes {tf.devices = {"/job:worker/replica:0/task:1/device:CPU:0", "/job:worker/replica:0/task:1/device:TPU:1", "/job:worker/replica:0/task:1/device:TPU:0", "/job:worker/replica:0/task:1/device:TPU_SYSTEM:0"}} {
  // CHECK-LABEL: func @not_replicated
  // CHECK-SAME: (%[[A:.*]]: tensor<8xi32>, %[[N:.*]]: tensor<i32>)
  func.func @not_replicated(%a: tensor<8xi32>, %n: tensor<i32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) {
    // CHECK:      %[[HOST:.*]]:2 = "tf_device.launch"() <{device = "/job:worker/replica:0/task:1/device:CPU:0"}> ({
    // CHECK-NEXT:   %[[KEPT:.*]] = "tf.TPUCopyWithDynamicShape"(%[[A]], %[[N]])
    // CHECK-NEXT:   %[[NEG:.*]] = "tf.Neg"(%[[KEPT]])
    // CHECK-NEXT:   %[[ABS:.*]] = "tf.Abs"(%[[A]])
    // CHECK-NEXT:   tf_device.return %[[NEG]], %[[ABS]] : tensor<8xi32>, tensor<8xi32>
    // CHECK-NEXT: }) : () -> (tensor<8xi32>, tensor<8xi32>)
    // The last copy, extracted second, lands right after the host launch.
    // CHECK-NEXT: %[[D1:.*]] = "tf_device.launch"() <{device = "/job:worker/replica:0/task:1/device:TPU:0"}> ({
    // CHECK-NEXT:   "tf.TPUCopyWithDynamicShape"(%[[HOST]]#1, %[[N]])
    // CHECK:      %[[D0:.*]] = "tf_device.launch"() <{device = "/job:worker/replica:0/task:1/device:TPU:0"}> ({
    // CHECK-NEXT:   "tf.TPUCopyWithDynamicShape"(%[[A]], %[[N]])
    // CHECK:      return %[[D0]], %[[D1]], %[[HOST]]#0
    %0:3 = "tf_device.launch"() ({
      %1 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      %2 = "tf.TPUCopyWithDynamicShape"(%a, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      %3 = "tf.Neg"(%2) : (tensor<8xi32>) -> tensor<8xi32>
      %4 = "tf.Abs"(%a) : (tensor<8xi32>) -> tensor<8xi32>
      %5 = "tf.TPUCopyWithDynamicShape"(%4, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      tf_device.return %1, %5, %3 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
    }) {device = "/job:worker/replica:0/task:1/device:CPU:0"} : () -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>)
    return %0#0, %0#1, %0#2 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
  }
}

// -----

// Inside a replicate, and a copy whose results are not used at all.

module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU:1", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0"]} {
  // CHECK-LABEL: func @in_replicate
  func.func @in_replicate(%a0: tensor<8xi32>, %a1: tensor<8xi32>, %n: tensor<i32>) {
    // CHECK:      tf_device.replicate([%{{.*}}, %{{.*}}] as %[[RA:[a-z0-9]*]]: tensor<8xi32>)
    // CHECK-NEXT:   "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
    // CHECK-NEXT:     tf_device.return
    // CHECK-NEXT:   }) : () -> ()
    // CHECK-NEXT:   %[[D:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:     %[[C:.*]] = "tf.TPUCopyWithDynamicShape"(%[[RA]], %{{.*}})
    // CHECK-NEXT:     tf_device.return %[[C]]
    // CHECK-NEXT:   }) : () -> tensor<8xi32>
    // CHECK-NEXT:   "tf.Neg"(%[[D]])
    // CHECK-NEXT:   "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}> ({
    // CHECK-NEXT:     tf_device.return
    // CHECK-NEXT:   }) : () -> ()
    // CHECK-NEXT:   "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
    // CHECK-NEXT:     "tf.TPUCopyWithDynamicShape"(%[[RA]], %{{.*}})
    // CHECK-NEXT:     tf_device.return
    // CHECK-NEXT:   }) : () -> tensor<8xi32>
    tf_device.replicate([%a0, %a1] as %ra: tensor<8xi32>) {n = 2 : i32} {
      %0 = "tf_device.launch"() ({
        %1 = "tf.TPUCopyWithDynamicShape"(%ra, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
        tf_device.return %1 : tensor<8xi32>
      }) {device = "TPU_REPLICATED_HOST_0"} : () -> tensor<8xi32>
      %2 = "tf.Neg"(%0) : (tensor<8xi32>) -> tensor<8xi32>
      "tf_device.launch"() ({
        %3 = "tf.TPUCopyWithDynamicShape"(%ra, %n) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
        tf_device.return
      }) {device = "TPU_REPLICATED_HOST_0"} : () -> ()
      tf_device.return
    }
    return
  }
}

// -----

// Without copies nothing is checked: no tf.devices is needed.

// CHECK-LABEL: func @no_copy
func.func @no_copy(%a: tensor<8xi32>) -> tensor<8xi32> {
  // CHECK-NEXT: "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}>
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%a) : (tensor<8xi32>) -> tensor<8xi32>
    tf_device.return %1 : tensor<8xi32>
  }) {device = "TPU_REPLICATED_HOST_0"} : () -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
