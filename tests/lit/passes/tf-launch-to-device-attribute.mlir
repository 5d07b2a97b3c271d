// RUN: tfmlir-opt %s -split-input-file -tf-launch-to-device-attribute | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-launch-to-device-attribute=legacy-graph-export=false | FileCheck %s --check-prefix=SPLIT

// The launch's body is hoisted; TF ops without a device (or with an empty
// one), nested ones included, get the launch's device; users take the
// returned values.

// CHECK-LABEL: func @hoist
func.func @hoist(%arg0: tensor<i1>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK-NOT: tf_device.launch
  // CHECK: %[[NEG:.*]] = "tf.Neg"(%arg1) {device = "/job:a/replica:0/task:0/device:CPU:0"}
  // CHECK: %[[ABS:.*]] = "tf.Abs"(%[[NEG]]) {device = "/job:a/replica:0/task:0/device:CPU:0"}
  // CHECK: "tf.IfRegion"(%arg0) <{is_stateless = true}>
  // CHECK-NEXT: "tf.Sqrt"
  // CHECK-SAME: device = "/job:a/replica:0/task:0/device:CPU:0"
  // CHECK-NEXT: "tf.Yield"
  // CHECK-SAME: device = "/job:a/replica:0/task:0/device:CPU:0"
  // CHECK: "tf.Yield"
  // CHECK-SAME: device = "/job:a/replica:0/task:0/device:CPU:0"
  // CHECK-NEXT: }) {device = "/job:a/replica:0/task:0/device:CPU:0"} : (tensor<i1>) -> tensor<f32>
  // CHECK: %[[ADD:.*]] = "tf.AddV2"(%[[ABS]], %[[NEG]])
  // CHECK: return %[[ABS]], %[[ADD]]
  %0:2 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%arg1) : (tensor<f32>) -> tensor<f32>
    %2 = "tf.Abs"(%1) {device = ""} : (tensor<f32>) -> tensor<f32>
    %3 = "tf.IfRegion"(%arg0) ({
      %4 = "tf.Sqrt"(%2) : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%4) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%2) {device = ""} : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    tf_device.return %2, %1 : tensor<f32>, tensor<f32>
  }) {device = "/job:a/replica:0/task:0/device:CPU:0"} : () -> (tensor<f32>, tensor<f32>)
  %5 = "tf.AddV2"(%0#0, %0#1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %0#0, %5 : tensor<f32>, tensor<f32>
}

// -----

// The launch's parallel group goes onto every TF op; a nested launch is
// hoisted first (its ops keep its device, which must then equal the outer one).

// CHECK-LABEL: func @nested_and_parallel_group
func.func @nested_and_parallel_group(%arg0: tensor<f32>) -> tensor<f32> {
  // CHECK-NEXT: "tf.Neg"(%arg0) {_parallel_execution_ids = "r0:0", device = "TPU:0"}
  // CHECK-NEXT: "tf.Abs"
  // CHECK-SAME: {_parallel_execution_ids = "r0:0", device = "TPU:0"}
  // CHECK-NEXT: return
  %0 = "tf_device.launch"() ({
    %1 = "tf_device.launch"() ({
      %2 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_device.return %2 : tensor<f32>
    }) {device = "TPU:0"} : () -> tensor<f32>
    %3 = "tf.Abs"(%1) : (tensor<f32>) -> tensor<f32>
    tf_device.return %3 : tensor<f32>
  }) {device = "TPU:0", _parallel_execution_ids = "r0:0"} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Islands: kept as they are by default; with legacy-graph-export=false every
// island is split into one island per op, and empty islands get an op.

// CHECK-LABEL: func @islands
// SPLIT-LABEL: func @islands
func.func @islands(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = tf_executor.graph {
    // CHECK: tf_executor.island {
    // CHECK-NEXT: "tf.Neg"(%arg0) {device = "CPU:0"}
    // CHECK-NEXT: "tf.Abs"
    // CHECK-SAME: device = "CPU:0"
    // SPLIT: %[[NEG:.*]], %{{.*}} = tf_executor.island wraps "tf.Neg"(%arg0) {device = "CPU:0"}
    // SPLIT-NEXT: %[[ABS:.*]], %{{.*}} = tf_executor.island wraps "tf.Abs"(%[[NEG]]) {device = "CPU:0"}
    // SPLIT-NEXT: tf_executor.island {
    // SPLIT-NEXT: %[[ID:.*]] = "tf.Identity"(%[[ABS]])
    // SPLIT-NEXT: tf_executor.yield %[[ID]]
    // SPLIT-NEXT: }
    // SPLIT-NEXT: tf_executor.island {
    // SPLIT-NEXT: "tf.NoOp"()
    // SPLIT-NEXT: tf_executor.yield
    // SPLIT-NEXT: }
    // SPLIT-NEXT: tf_executor.fetch %[[NEG]], %[[ABS]] : tensor<f32>, tensor<f32>
    %1:2, %c = tf_executor.island {
      %2 = "tf_device.launch"() ({
        %3 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
        tf_device.return %3 : tensor<f32>
      }) {device = "CPU:0"} : () -> tensor<f32>
      %4 = "tf.Abs"(%2) {device = "CPU:0"} : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %2, %4 : tensor<f32>, tensor<f32>
    }
    %5, %c2 = tf_executor.island {
      tf_executor.yield %1#1 : tensor<f32>
    }
    %c3 = tf_executor.island {
      tf_executor.yield
    }
    tf_executor.fetch %1#0, %1#1, %c : tensor<f32>, tensor<f32>, !tf_executor.control
  }
  func.return %0#0, %0#1 : tensor<f32>, tensor<f32>
}
