// RUN: tfmlir-opt %s -split-input-file -tf-decompose-reduce-dataset | FileCheck %s

// Two state values, elements of unknown and partly known shape, one captured
// argument: the complete structure.
// CHECK-LABEL: func @two_states_one_capture
// CHECK-SAME: (%[[DS:.*]]: tensor<!tf_type.variant>, %[[S0:.*]]: tensor<f32>, %[[S1:.*]]: tensor<i32>, %[[CAP:.*]]: tensor<!tf_type.resource<tensor<f32>>>)
func.func @two_states_one_capture(%ds: tensor<!tf_type.variant>, %s0: tensor<f32>, %s1: tensor<i32>, %cap: tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<f32>, tensor<i32>) {
  // CHECK-NEXT: %[[IT:.*]] = "tf.AnonymousIteratorV3"() <{output_shapes = [#tf_type.shape<*>, #tf_type.shape<?x3>], output_types = [f32, i64]}> : () -> tensor<!tf_type.resource>
  // CHECK-NEXT: "tf.MakeIterator"(%[[DS]], %[[IT]]) : (tensor<!tf_type.variant>, tensor<!tf_type.resource>) -> ()
  // CHECK-NEXT: %[[TRUE:.*]] = "tf.Const"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  // CHECK-NEXT: %[[LOOP:.*]]:4 = "tf.WhileRegion"(%[[TRUE]], %[[S0]], %[[S1]], %[[CAP]]) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  // CHECK-NEXT: ^bb0(%[[C0:.*]]: tensor<i1>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<!tf_type.resource<tensor<f32>>>):
  // CHECK-NEXT:   "tf.Yield"(%[[C0]]) : (tensor<i1>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<i1>, %[[B1:.*]]: tensor<f32>, %[[B2:.*]]: tensor<i32>, %[[B3:.*]]: tensor<!tf_type.resource<tensor<f32>>>):
  // CHECK-NEXT:   %[[NEXT:.*]] = "tf.IteratorGetNextAsOptional"(%[[IT]]) <{output_shapes = [#tf_type.shape<*>, #tf_type.shape<?x3>], output_types = [f32, i64]}> : (tensor<!tf_type.resource>) -> tensor<!tf_type.variant>
  // CHECK-NEXT:   %[[HAS:.*]] = "tf.OptionalHasValue"(%[[NEXT]]) : (tensor<!tf_type.variant>) -> tensor<i1>
  // CHECK-NEXT:   %[[IF:.*]]:2 = "tf.IfRegion"(%[[HAS]]) <{is_stateless = false}> ({
  // CHECK-NEXT:     %[[VALUE:.*]]:2 = "tf.OptionalGetValue"(%[[NEXT]]) : (tensor<!tf_type.variant>) -> (tensor<*xf32>, tensor<?x3xi64>)
  // CHECK-NEXT:     %[[CALL:.*]]:2 = func.call @reduce_fn(%[[B1]], %[[B2]], %[[VALUE]]#0, %[[VALUE]]#1, %[[B3]]) {_xla_compile_device_type = "TPU", device = "/job:worker/replica:0/task:0/device:TPU:0"}
  // CHECK-NEXT:     "tf.Yield"(%[[CALL]]#0, %[[CALL]]#1) : (tensor<f32>, tensor<i32>) -> ()
  // CHECK-NEXT:   }, {
  // CHECK-NEXT:     "tf.Yield"(%[[B1]], %[[B2]]) : (tensor<f32>, tensor<i32>) -> ()
  // CHECK-NEXT:   }) {_lower_using_switch_merge = true} : (tensor<i1>) -> (tensor<f32>, tensor<i32>)
  // CHECK-NEXT:   "tf.Yield"(%[[HAS]], %[[IF]]#0, %[[IF]]#1, %[[B3]])
  // CHECK-NEXT: }) {_lower_using_switch_merge = true} : (tensor<i1>, tensor<f32>, tensor<i32>, tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<i1>, tensor<f32>, tensor<i32>, tensor<!tf_type.resource<tensor<f32>>>)
  // CHECK-NEXT: return %[[LOOP]]#1, %[[LOOP]]#2
  %0:2 = "tf.ReduceDataset"(%ds, %s0, %s1, %cap) {Targuments = [!tf_type.resource], Tstate = [f32, i32], f = @reduce_fn, output_shapes = [#tf_type.shape<>, #tf_type.shape<>], output_types = [f32, i32], _xla_compile_device_type = "TPU", device = "/job:worker/replica:0/task:0/device:TPU:0"} : (tensor<!tf_type.variant>, tensor<f32>, tensor<i32>, tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<f32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<f32>, tensor<i32>
}
func.func private @reduce_fn(%a: tensor<f32>, %b: tensor<i32>, %x: tensor<*xf32>, %y: tensor<?x3xi64>, %v: tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<f32>, tensor<i32>) {
  func.return %a, %b : tensor<f32>, tensor<i32>
}

// -----

// No device attribute: the call has none. Results of an unranked type become
// values of the state operand's type (tf.Identity takes either).
// CHECK-LABEL: func @no_device
func.func @no_device(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> tensor<*xi64> {
  // CHECK:      %[[LOOP:.*]]:2 = "tf.WhileRegion"
  // CHECK:      func.call @sum(%{{.*}}, %{{.*}}) {_xla_compile_device_type = "CPU"} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // CHECK:      "tf.Identity"(%[[LOOP]]#1) : (tensor<i64>) -> tensor<*xi64>
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @sum, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "CPU"} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<*xi64>
  %1 = "tf.Identity"(%0) : (tensor<*xi64>) -> tensor<*xi64>
  func.return %1 : tensor<*xi64>
}
func.func private @sum(%a: tensor<i64>, %x: tensor<i64>) -> tensor<i64> {
  %0 = "tf.AddV2"(%a, %x) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// Without a string _xla_compile_device_type nothing happens.
// CHECK-LABEL: func @not_compiled
func.func @not_compiled(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  // CHECK-NOT: tf.WhileRegion
  // CHECK: "tf.ReduceDataset"
  // CHECK: "tf.ReduceDataset"
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @sum, output_shapes = [#tf_type.shape<>], output_types = [i64], device = "/device:TPU:0"} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<i64>
  %1 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @sum, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = true} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<i64>
  func.return %0, %1 : tensor<i64>, tensor<i64>
}
func.func private @sum(%a: tensor<i64>, %x: tensor<i64>) -> tensor<i64> {
  func.return %a : tensor<i64>
}

// -----

// Chained reductions, the second inside a branch; each becomes its own loop
// right where it was.
// CHECK-LABEL: func @chained_and_nested
func.func @chained_and_nested(%p: tensor<i1>, %ds: tensor<!tf_type.variant>, %s: tensor<f32>) -> tensor<f32> {
  // CHECK:      "tf.AnonymousIteratorV3"
  // CHECK:      %[[FIRST:.*]]:2 = "tf.WhileRegion"
  // CHECK:      func.call @add
  // CHECK:      "tf.IfRegion"(%arg0)
  // CHECK-NEXT:   "tf.AnonymousIteratorV3"
  // CHECK-NEXT:   "tf.MakeIterator"(%arg1
  // CHECK-NEXT:   "tf.Const"
  // CHECK-NEXT:   %[[SECOND:.*]]:2 = "tf.WhileRegion"(%{{.*}}, %[[FIRST]]#1)
  // CHECK:          func.call @mul
  // CHECK:        "tf.Yield"(%[[SECOND]]#1)
  // CHECK-NOT: tf.ReduceDataset
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [f32], f = @add, output_shapes = [#tf_type.shape<>], output_types = [f32], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<f32>) -> tensor<f32>
  %1 = "tf.IfRegion"(%p) ({
    %2 = "tf.ReduceDataset"(%ds, %0) {Targuments = [], Tstate = [f32], f = @mul, output_shapes = [#tf_type.shape<>], output_types = [f32], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%2) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%0) : (tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
func.func private @add(%a: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
func.func private @mul(%a: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

// -----

// Inside an island of a graph.
// CHECK-LABEL: func @in_island
func.func @in_island(%ds: tensor<!tf_type.variant>, %s: tensor<i32>) -> tensor<i32> {
  // CHECK:      tf_executor.island {
  // CHECK-NEXT:   "tf.AnonymousIteratorV3"() <{output_shapes = [#tf_type.shape<2>], output_types = [i32]}>
  // CHECK:        %[[LOOP:.*]]:2 = "tf.WhileRegion"
  // CHECK:        tf_executor.yield %[[LOOP]]#1 : tensor<i32>
  %0 = tf_executor.graph {
    %r, %c = tf_executor.island wraps "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i32], f = @max, output_shapes = [#tf_type.shape<>], output_types = [i32], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i32>) -> tensor<i32>
    tf_executor.fetch %r : tensor<i32>
  }
  func.return %0 : tensor<i32>
}
func.func private @max(%a: tensor<i32>, %x: tensor<2xi32>) -> tensor<i32> {
  func.return %a : tensor<i32>
}

// -----

// Results beyond the state values may be there if nothing uses them.
// CHECK-LABEL: func @unused_extra_result
func.func @unused_extra_result(%ds: tensor<!tf_type.variant>, %s: tensor<i32>) -> tensor<i32> {
  // CHECK:     %[[LOOP:.*]]:2 = "tf.WhileRegion"
  // CHECK:     return %[[LOOP]]#1
  %0:2 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i32], f = @max, output_shapes = [#tf_type.shape<>], output_types = [i32], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i32>) -> (tensor<i32>, tensor<f32>)
  func.return %0#0 : tensor<i32>
}
func.func private @max(%a: tensor<i32>, %x: tensor<2xi32>) -> tensor<i32> {
  func.return %a : tensor<i32>
}
