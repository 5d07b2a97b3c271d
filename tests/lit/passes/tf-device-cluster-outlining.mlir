// RUN: tfmlir-opt %s -split-input-file -tf-device-cluster-outlining | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-device-cluster-outlining -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// A cluster in an island: the value it captures becomes the argument of a
// private @_func, the cluster a tf_device.cluster_func of it.

// CHECK-LABEL: func.func @in_island
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[N:.*]] = "tf.Neg"(%[[X]])
// CHECK: %[[CALL:.*]] = "tf_device.cluster_func"(%[[N]]) <{func = @_func}> : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: tf_executor.yield %[[CALL]]
// CHECK: func.func private @_func(%[[A:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = "tf.Sqrt"(%[[A]])
// CHECK-NEXT: return %[[S]]
func.func @in_island(%x: tensor<4xf32>) -> tensor<4xf32> {
  %g = tf_executor.graph {
    %o, %c = tf_executor.island {
      %n = "tf.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
      %r = "tf_device.cluster"() ({
        %s = "tf.Sqrt"(%n) : (tensor<4xf32>) -> tensor<4xf32>
        tf_device.return %s : tensor<4xf32>
      }) : () -> tensor<4xf32>
      tf_executor.yield %r : tensor<4xf32>
    }
    tf_executor.fetch %o : tensor<4xf32>
  }
  func.return %g : tensor<4xf32>
}

// -----

// Captures are ordered by first use in a post-order walk of the body (uses in
// nested regions come before the op holding them); a value used twice is one
// argument; a returned capture is returned from the function. Functions are
// appended in walk order with SymbolTable renaming (@_func exists already).
// Every attribute of the cluster moves to the call.

// CHECK-LABEL: func.func @capture_order
// CHECK-SAME: (%[[A:[^:]*]]: tensor<i1>, %[[B:[^:]*]]: tensor<f32>, %[[C:[^:]*]]: tensor<f32>)
// CHECK: %[[R0:.*]]:2 = "tf_device.cluster_func"(%[[C]], %[[B]], %[[A]]) <{func = @_func_0}>
// CHECK-SAME: {_replication_info = "cluster", _xla_compile_device_type = "TPU", device = "", num_cores_per_replica = 1 : i64, policy = "p"}
// CHECK: %[[R1:.*]] = "tf_device.cluster_func"(%[[R0]]#0, %[[C]]) <{func = @_func_1}> : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: return %[[R1]], %[[R0]]#1
// CHECK: func.func private @_func()
// CHECK: func.func private @_func_0(%[[Q:[^:]*]]: tensor<f32>, %[[S:[^:]*]]: tensor<f32>, %[[P:[^:]*]]: tensor<i1>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[IF:.*]] = "tf.IfRegion"(%[[P]])
// CHECK-NEXT: %[[M:.*]] = "tf.Mul"(%[[Q]], %[[Q]])
// CHECK-NEXT: "tf.Yield"(%[[M]])
// CHECK: "tf.Yield"(%[[S]])
// CHECK: return %[[IF]], %[[S]]
// CHECK: func.func private @_func_1(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "tf.AddV2"
func.func @capture_order(%p: tensor<i1>, %b: tensor<f32>, %c: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r:2 = "tf_device.cluster"() ({
    %i = "tf.IfRegion"(%p) ({
      %m = "tf.Mul"(%c, %c) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "tf.Yield"(%m) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%b) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    tf_device.return %i, %b : tensor<f32>, tensor<f32>
  }) {_replication_info = "cluster", _xla_compile_device_type = "TPU", device = "", num_cores_per_replica = 1 : i64, policy = "p"} : () -> (tensor<f32>, tensor<f32>)
  %s = "tf_device.cluster"() ({
    %a = "tf.AddV2"(%r#0, %c) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tf_device.return %a : tensor<f32>
  }) : () -> tensor<f32>
  func.return %s, %r#1 : tensor<f32>, tensor<f32>
}
func.func private @_func() {
  func.return
}

// -----

// _cluster_outlined_function_name names the function (and is removed); a
// taken name is renamed with the counter the whole run shares (f_0, then
// _func_1). A name that is not a string is ignored and stays on the call. A
// cluster without results or captures gives a function without either.

// CHECK-LABEL: func.func @f
// CHECK: "tf_device.cluster_func"() <{func = @_func}> {_cluster_outlined_function_name = 7 : i64} : () -> tensor<i32>
// CHECK: "tf_device.cluster_func"() <{func = @f_0}> : () -> tensor<i32>
// CHECK: "tf_device.cluster_func"() <{func = @_func_1}> : () -> ()
// CHECK: "tf_device.cluster_func"() <{func = @fresh}> : () -> ()
// CHECK: func.func private @_func() -> tensor<i32>
// CHECK: func.func private @f_0() -> tensor<i32>
// CHECK: func.func private @_func_1() {
// CHECK-NEXT: "tf.NoOp"
// CHECK-NEXT: return
// CHECK: func.func private @fresh()
func.func @f() -> (tensor<i32>, tensor<i32>) {
  %0 = "tf_device.cluster"() ({
    %k = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    tf_device.return %k : tensor<i32>
  }) {_cluster_outlined_function_name = 7} : () -> tensor<i32>
  %1 = "tf_device.cluster"() ({
    %k = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    tf_device.return %k : tensor<i32>
  }) {_cluster_outlined_function_name = "f"} : () -> tensor<i32>
  "tf_device.cluster"() ({
    "tf.NoOp"() : () -> ()
    tf_device.return
  }) {_cluster_outlined_function_name = "_func"} : () -> ()
  "tf_device.cluster"() ({
    tf_device.return
  }) {_cluster_outlined_function_name = "fresh"} : () -> ()
  func.return %0, %1 : tensor<i32>, tensor<i32>
}

// -----

// Nested clusters: the inner one is outlined first (@_func), then the outer
// one (@_func_0), whose function holds the inner call. Launches stay.

// CHECK-LABEL: func.func @nested
// CHECK: %[[C:.*]] = "tf.Const"
// CHECK: "tf_device.cluster_func"(%arg0, %[[C]]) <{func = @_func_0}>
// CHECK: func.func private @_func(%{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>) -> tensor<i32>
// CHECK: func.func private @_func_0(%[[X:.*]]: tensor<i32>, %[[K:.*]]: tensor<i32>) -> tensor<i32>
// CHECK: %[[I:.*]] = "tf.Identity"(%[[X]])
// CHECK: "tf_device.launch"() <{device = "/device:CPU:0"}>
// CHECK: "tf_device.cluster_func"(%[[I]], %[[X]], %[[K]]) <{func = @_func}>
func.func @nested(%arg0: tensor<i32>) -> tensor<i32> {
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Identity"(%arg0) : (tensor<i32>) -> tensor<i32>
    %2 = "tf_device.launch"() ({
      %5 = "tf_device.cluster"() ({
        %3 = "tf.AddV2"(%1, %arg0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        %6 = "tf.AddV2"(%3, %c) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        tf_device.return %6 : tensor<i32>
      }) : () -> tensor<i32>
      tf_device.return %5 : tensor<i32>
    }) {device = "/device:CPU:0"} : () -> tensor<i32>
    %7 = "tf.AddV2"(%2, %c) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tf_device.return %7 : tensor<i32>
  }) : () -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// A replicated cluster: replicate block arguments and packed inputs are
// captured like any value.

// CHECK-LABEL: func.func @replicated
// CHECK: tf_device.replicate
// CHECK: "tf_device.cluster_func"(%{{.*}}, %{{.*}}) <{func = @_func}> {_replication_info = "r", _xla_compile_device_type = "TPU"}
// CHECK: func.func private @_func(%{{.*}}: tensor<*x!tf_type.resource<tensor<f32>>>, %{{.*}}: tensor<f32>) -> tensor<f32>
func.func @replicated(%v0: tensor<*x!tf_type.resource<tensor<f32>>>, %v1: tensor<*x!tf_type.resource<tensor<f32>>>, %x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r:2 = tf_device.replicate([%v0, %v1] as %v: tensor<*x!tf_type.resource<tensor<f32>>>, %x as %p: tensor<f32>) {n = 2 : i32} {
    %c = "tf_device.cluster"() ({
      %read = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
      %sum = "tf.AddV2"(%read, %p) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      tf_device.return %sum : tensor<f32>
    }) {_replication_info = "r", _xla_compile_device_type = "TPU"} : () -> tensor<f32>
    tf_device.return %c : tensor<f32>
  }
  func.return %r#0, %r#1 : tensor<f32>, tensor<f32>
}

// -----

// Locations: the call, the function and its arguments are at the cluster's
// location, the func.return at the tf_device.return's (location aliases are
// printed before the module: only their use is checked here).

// LOC-LABEL: func.func @locations
// LOC: "tf_device.cluster_func"{{.*}} loc(#[[CLUSTER:loc[0-9]*]])
// LOC: func.func private @_func(%arg0: tensor<4xf32> loc("the_cluster"))
// LOC: return %{{.*}} loc(#[[RETURN:loc[0-9]*]])
// LOC-NEXT: } loc(#[[CLUSTER]])
func.func @locations(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "tf_device.cluster"() ({
    %s = "tf.Sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    tf_device.return %s : tensor<4xf32> loc("the_return")
  }) : () -> tensor<4xf32> loc("the_cluster")
  func.return %r : tensor<4xf32>
}

// -----

// No cluster: nothing changes.

// CHECK-LABEL: func.func @none
// CHECK-NEXT: "tf.Neg"
// CHECK-NEXT: return
// CHECK-NOT: func.func
func.func @none(%x: tensor<f32>) -> tensor<f32> {
  %n = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
  func.return %n : tensor<f32>
}
