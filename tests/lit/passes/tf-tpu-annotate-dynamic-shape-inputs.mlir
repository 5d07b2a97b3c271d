// RUN: tfmlir-opt %s -split-input-file -tf-tpu-annotate-dynamic-shape-inputs | FileCheck %s

// Operands 0 and 2 come from the annotation: their rank-1 arguments become
// bounded dynamic (an already dynamic size is bounded by ?); the rank-2 one
// and the plain operand keep their types. The emptied launch is erased.

// CHECK-LABEL: func @main
// CHECK-SAME: (%[[A:.*]]: tensor<8xi32>, %[[B:.*]]: tensor<?xf32>, %[[C:.*]]: tensor<2x2xf32>)
func.func @main(%a: tensor<8xi32>, %b: tensor<?xf32>, %c: tensor<2x2xf32>) -> tensor<8xi32> {
  // CHECK-NOT: tf_device.launch
  // CHECK-NOT: tf.TPUAnnotateTensorsWithDynamicShape
  // CHECK: "tf_device.cluster_func"(%[[A]], %[[A]], %[[B]], %[[C]]) <{func = @tpu}> {_dynamic_arg_index = [0 : i32, 2 : i32, 3 : i32], _replication_info = "cluster"}
  %0:3 = "tf_device.launch"() ({
    %1:3 = "tf.TPUAnnotateTensorsWithDynamicShape"(%a, %b, %c) : (tensor<8xi32>, tensor<?xf32>, tensor<2x2xf32>) -> (tensor<8xi32>, tensor<?xf32>, tensor<2x2xf32>)
    tf_device.return %1#0, %1#1, %1#2 : tensor<8xi32>, tensor<?xf32>, tensor<2x2xf32>
  }) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> (tensor<8xi32>, tensor<?xf32>, tensor<2x2xf32>)
  %2 = "tf_device.cluster_func"(%0#0, %a, %0#1, %0#2) {_replication_info = "cluster", func = @tpu} : (tensor<8xi32>, tensor<8xi32>, tensor<?xf32>, tensor<2x2xf32>) -> tensor<8xi32>
  func.return %2 : tensor<8xi32>
}

// The returned argument's new type becomes the result type; the ops of the
// body keep theirs.
// CHECK-LABEL: func @tpu
// CHECK-SAME: (%[[X:.*]]: tensor<?xi32, #mhlo.type_extensions<bounds = [8]>>, %{{.*}}: tensor<8xi32>, %{{.*}}: tensor<?xf32, #mhlo.type_extensions<bounds = [?]>>, %{{.*}}: tensor<2x2xf32>) -> tensor<?xi32, #mhlo.type_extensions<bounds = [8]>>
// CHECK: "tf.Neg"(%[[X]]) : (tensor<?xi32, #mhlo.type_extensions<bounds = [8]>>) -> tensor<8xi32>
func.func @tpu(%a: tensor<8xi32>, %b: tensor<8xi32>, %c: tensor<?xf32>, %d: tensor<2x2xf32>) -> tensor<8xi32> {
  %0 = "tf.Neg"(%a) : (tensor<8xi32>) -> tensor<8xi32>
  func.return %a : tensor<8xi32>
}

// -----

// A launch with other ops stays (returning the annotation's operand); a
// cluster_func without _replication_info is not annotated, one with it gets
// an empty _dynamic_arg_index when nothing is dynamic.

// CHECK-LABEL: func @kept_launch
func.func @kept_launch(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[L:.*]] = "tf_device.launch"
  // CHECK-NEXT: %[[N:.*]] = "tf.Neg"
  // CHECK-NEXT: tf_device.return %[[N]]
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "tf.TPUAnnotateTensorsWithDynamicShape"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.return %2 : tensor<4xf32>
  }) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> tensor<4xf32>
  // CHECK: "tf_device.cluster_func"(%[[L]]) <{func = @plain}> :
  %3 = "tf_device.cluster_func"(%0) {func = @plain} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "tf_device.cluster_func"(%arg0) <{func = @plain}> {_dynamic_arg_index = [], _replication_info = "c"}
  %4 = "tf_device.cluster_func"(%a) {_replication_info = "c", func = @plain} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %3, %4 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func @plain
// CHECK-SAME: (%arg0: tensor<4xf32>) -> tensor<4xf32>
func.func @plain(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.return %a : tensor<4xf32>
}

// -----

// A callee used by two TPU cluster_funcs is annotated twice: the second time
// its argument is already dynamic.

// CHECK-LABEL: func @shared_callee
func.func @shared_callee(%a: tensor<3xi64>) {
  %0 = "tf_device.launch"() ({
    %1 = "tf.TPUAnnotateTensorsWithDynamicShape"(%a) : (tensor<3xi64>) -> tensor<3xi64>
    tf_device.return %1 : tensor<3xi64>
  }) {device = ""} : () -> tensor<3xi64>
  // CHECK-COUNT-2: _dynamic_arg_index = [0 : i32]
  "tf_device.cluster_func"(%0) {_replication_info = "c", func = @callee} : (tensor<3xi64>) -> ()
  "tf_device.cluster_func"(%0) {_replication_info = "c", func = @callee} : (tensor<3xi64>) -> ()
  func.return
}

// CHECK-LABEL: func @callee
// CHECK-SAME: tensor<?xi64, #mhlo.type_extensions<bounds = [?]>>
func.func @callee(%a: tensor<3xi64>) {
  func.return
}

// -----

// Nested modules: the callee is looked up in the closest module.

module {
  // CHECK-LABEL: module @inner
  module @inner {
    func.func @main(%a: tensor<5xf32>) {
      %0 = "tf_device.launch"() ({
        %1 = "tf.TPUAnnotateTensorsWithDynamicShape"(%a) : (tensor<5xf32>) -> tensor<5xf32>
        tf_device.return %1 : tensor<5xf32>
      }) {device = ""} : () -> tensor<5xf32>
      "tf_device.cluster_func"(%0) {_replication_info = "c", func = @f} : (tensor<5xf32>) -> ()
      func.return
    }
    // CHECK: func.func @f(%arg0: tensor<?xf32, #mhlo.type_extensions<bounds = [5]>>)
    func.func @f(%a: tensor<5xf32>) {
      func.return
    }
  }
  // CHECK: func.func @f(%arg0: tensor<5xf32>)
  func.func @f(%a: tensor<5xf32>) {
    func.return
  }
}
