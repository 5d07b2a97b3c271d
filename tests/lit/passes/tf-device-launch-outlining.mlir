// RUN: tfmlir-opt %s -split-input-file -tf-device-launch-outlining | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-device-launch-outlining=globally-unique-func-names=false | FileCheck %s

// A launch in an island becomes a tf_device.launch_func of a private @_func;
// the device and every other attribute stay on the call.

// CHECK-LABEL: func.func @in_island
// CHECK-SAME: (%[[X:.*]]: tensor<2xi32>)
// CHECK: %[[N:.*]] = "tf.Neg"(%[[X]])
// CHECK: %[[CALL:.*]] = "tf_device.launch_func"(%[[N]]) <{device = "/job:localhost/replica:0/task:0/device:CPU:0", func = @_func}> {_xla_outside_compilation = "0"} : (tensor<2xi32>) -> tensor<2xi32>
// CHECK: tf_executor.yield %[[CALL]]
// CHECK: func.func private @_func(%[[A:.*]]: tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT: %[[S:.*]] = "tf.Square"(%[[A]])
// CHECK-NEXT: return %[[S]]
func.func @in_island(%x: tensor<2xi32>) -> tensor<2xi32> {
  %g = tf_executor.graph {
    %o, %c = tf_executor.island {
      %n = "tf.Neg"(%x) : (tensor<2xi32>) -> tensor<2xi32>
      %r = "tf_device.launch"() ({
        %s = "tf.Square"(%n) : (tensor<2xi32>) -> tensor<2xi32>
        tf_device.return %s : tensor<2xi32>
      }) {device = "/job:localhost/replica:0/task:0/device:CPU:0", _xla_outside_compilation = "0"} : () -> tensor<2xi32>
      tf_executor.yield %r : tensor<2xi32>
    }
    tf_executor.fetch %o : tensor<2xi32>
  }
  func.return %g : tensor<2xi32>
}

// -----

// The host side of a parallel_execute: each launch is outlined in walk order;
// a launch without results or captures gives a function without either; the
// names are made unique as by one SymbolTable (@_func exists, then the
// counter goes on: _func_0, f_1, _func_2). Clusters stay.

// CHECK-LABEL: func.func @f
// CHECK: "tf_device.parallel_execute"
// CHECK: "tf_device.launch_func"() <{device = "/device:CPU:0", func = @_func_0}> : () -> ()
// CHECK: tf_device.return
// CHECK: %[[L:.*]] = "tf_device.launch_func"(%arg0) <{device = "/device:CPU:0", func = @f_1}> : (tensor<f32>) -> tensor<f32>
// CHECK: tf_device.return %[[L]]
// CHECK: "tf_device.cluster"
// CHECK: "tf_device.launch_func"(%arg0, %{{.*}}) <{device = "", func = @_func_2}>
// CHECK: func.func private @_func()
// CHECK: func.func private @_func_0() {
// CHECK-NEXT: "tf.NoOp"
// CHECK: func.func private @f_1(%{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK: func.func private @_func_2(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>) -> tensor<f32>
func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.parallel_execute"() ({
    "tf_device.launch"() ({
      "tf.NoOp"() : () -> ()
      tf_device.return
    }) {device = "/device:CPU:0"} : () -> ()
    tf_device.return
  }, {
    %1 = "tf_device.launch"() ({
      %2 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_device.return %2 : tensor<f32>
    }) {device = "/device:CPU:0", _cluster_outlined_function_name = "f"} : () -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  %3 = "tf_device.cluster"() ({
    %4 = "tf_device.launch"() ({
      %5 = "tf.AddV2"(%arg0, %0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      tf_device.return %5 : tensor<f32>
    }) {device = ""} : () -> tensor<f32>
    tf_device.return %4 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %3 : tensor<f32>
}
func.func private @_func() {
  func.return
}

// -----

// Nested launches: the inner one first.

// CHECK-LABEL: func.func @nested
// CHECK: "tf_device.launch_func"(%arg0) <{device = "outer", func = @_func_0}>
// CHECK: func.func private @_func(%{{.*}}: tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "tf.Abs"
// CHECK: func.func private @_func_0(%[[A:.*]]: tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "tf_device.launch_func"(%[[A]]) <{device = "inner", func = @_func}>
func.func @nested(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = "tf_device.launch"() ({
    %1 = "tf_device.launch"() ({
      %2 = "tf.Abs"(%arg0) : (tensor<i32>) -> tensor<i32>
      tf_device.return %2 : tensor<i32>
    }) {device = "inner"} : () -> tensor<i32>
    tf_device.return %1 : tensor<i32>
  }) {device = "outer"} : () -> tensor<i32>
  func.return %0 : tensor<i32>
}
