// RUN: tfmlir-opt %s -split-input-file -tf-device-convert-launch-func-to-tf-call | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-device-convert-launch-func-to-tf-call -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// Each launch_func becomes a tf.PartitionedCall of the same function with the
// launch_func's device; its other attributes are dropped. The call is at the
// module's location (as TF).

// CHECK-LABEL: func.func @calls
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>)
// CHECK: %[[A:.*]] = "tf.PartitionedCall"(%[[X]]) <{config = "", config_proto = "", executor_type = "", f = @host}> {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<?xf32>) -> tensor<?xf32>
// CHECK: %[[B:.*]] = "tf.PartitionedCall"(%[[A]]) <{config = "", config_proto = "", executor_type = "", f = @host}> {device = "/device:CPU:1"} : (tensor<?xf32>) -> tensor<?xf32>
// CHECK: "tf.PartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @side_effect}> {device = ""} : () -> ()
// CHECK-NOT: launch_func
// CHECK: return %[[B]]
// LOC: "tf.PartitionedCall"{{.*}} loc(#[[MODULE_LOC:.*]])
// LOC: #[[MODULE_LOC]] = loc("the_module")
module {
  func.func @calls(%x: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "tf_device.launch_func"(%x) {device = "/job:localhost/replica:0/task:0/device:CPU:0", func = @host, _xla_outside_compilation = "0"} : (tensor<?xf32>) -> tensor<?xf32> loc("launch0")
    %1 = "tf_device.launch_func"(%0) {device = "/device:CPU:1", func = @host} : (tensor<?xf32>) -> tensor<?xf32>
    "tf_device.launch_func"() {device = "", func = @side_effect} : () -> ()
    func.return %1 : tensor<?xf32>
  }
  func.func private @host(%a: tensor<?xf32>) -> tensor<?xf32> {
    %n = "tf.Neg"(%a) : (tensor<?xf32>) -> tensor<?xf32>
    func.return %n : tensor<?xf32>
  }
  func.func private @side_effect() {
    func.return
  }
} loc("the_module")

// -----

// In an executor graph (the island no longer prints as `wraps`: the call's
// location is not the island's), and in a nested module whose own function
// is called.

// CHECK-LABEL: func.func @graph
// CHECK: tf_executor.island {
// CHECK-NEXT: "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @g}> {device = "d"}
// CHECK: module @inner
// CHECK: "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @g}> {device = "e"}
func.func @graph(%x: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    %o, %c = tf_executor.island wraps "tf_device.launch_func"(%x) {device = "d", func = @g} : (tensor<i32>) -> tensor<i32>
    tf_executor.fetch %o : tensor<i32>
  }
  func.return %0 : tensor<i32>
}
func.func private @g(%a: tensor<i32>) -> tensor<i32> {
  %n = "tf.Neg"(%a) : (tensor<i32>) -> tensor<i32>
  func.return %n : tensor<i32>
}
module @inner {
  func.func @nested(%x: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.launch_func"(%x) {device = "e", func = @g} : (tensor<i32>) -> tensor<i32>
    func.return %0 : tensor<i32>
  }
  func.func private @g(%a: tensor<i32>) -> tensor<i32> {
    func.return %a : tensor<i32>
  }
}
