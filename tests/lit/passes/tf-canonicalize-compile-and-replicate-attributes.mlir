// RUN: tfmlir-opt %s -split-input-file -tf-canonicalize-compile-and-replicate-attributes | FileCheck %s

// _tpu_replicate becomes _replication_info with a TPU compile device type,
// also on ops nested in regions and in tf_executor islands.

// CHECK-LABEL: func @tpu_replicate
func.func @tpu_replicate(%arg0: tensor<f32>, %pred: tensor<i1>) -> tensor<f32> {
  // CHECK: "tf.TPUReplicateMetadata"()
  // CHECK-SAME: _replication_info = "computation"
  // CHECK-SAME: _xla_compile_device_type = "TPU"
  // CHECK-NOT: _tpu_replicate
  "tf.TPUReplicateMetadata"() {_tpu_replicate = "computation", num_replicas = 1 : i64} : () -> ()
  // CHECK: "tf.IfRegion"
  %0 = "tf.IfRegion"(%pred) ({
    // CHECK: "tf.Neg"
    // CHECK-SAME: _replication_info = "computation"
    // CHECK-SAME: _xla_compile_device_type = "TPU"
    %1 = "tf.Neg"(%arg0) {_tpu_replicate = "computation"} : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%arg0) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  // An existing compile device type is overwritten.
  // CHECK: "tf.Abs"
  // CHECK-SAME: _replication_info = "other"
  // CHECK-SAME: _xla_compile_device_type = "TPU"
  %2 = "tf.Abs"(%0) {_tpu_replicate = "other", _xla_compile_device_type = "CPU", _replication_info = "old"} : (tensor<f32>) -> tensor<f32>
  func.return %2 : tensor<f32>
}

// -----

// CHECK-LABEL: func @in_islands
func.func @in_islands(%arg0: tensor<f32>) {
  tf_executor.graph {
    // CHECK: "tf.Neg"
    // CHECK-SAME: _replication_info = "c"
    // CHECK-SAME: _xla_compile_device_type = "TPU"
    %0, %c = tf_executor.island wraps "tf.Neg"(%arg0) {_tpu_replicate = "c"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// _XlaMustCompile = true takes the device type of the op's device (full or
// local names), "" without a device; it never overrides an existing compile
// device type. _XlaMustCompile = false is only dropped.

// CHECK-LABEL: func @must_compile
func.func @must_compile(%arg0: tensor<f32>) {
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = "GPU"
  // CHECK-NOT: _XlaMustCompile
  %0 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, device = "/job:localhost/replica:0/task:0/device:GPU:0", f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = "CPU"
  %1 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, device = "CPU:0", f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = "CPU"
  %2 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, device = "/cpu:0", f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = ""
  %3 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = ""
  %4 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, device = "", f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = "TPU"
  %5 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, _xla_compile_device_type = "TPU", device = "/device:GPU:0", f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-NOT: _xla_compile_device_type
  // CHECK-NOT: _XlaMustCompile
  // CHECK-SAME: f = @callee
  %6 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = false, device = "/device:GPU:0", f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // A device that does not parse as a whole: the type TF's parser got to.
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = "TPU"
  %7 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, device = "/device:TPU:x", f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  // A device that is not a string counts as none.
  // CHECK: "tf.StatefulPartitionedCall"
  // CHECK-SAME: _xla_compile_device_type = ""
  %8 = "tf.StatefulPartitionedCall"(%arg0) {_XlaMustCompile = true, device = 0 : i32, f = @callee, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
  func.return
}
func.func private @callee(%arg0: tensor<f32>) -> tensor<f32> {
  func.return %arg0 : tensor<f32>
}
