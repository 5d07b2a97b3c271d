// RUN: tfmlir-opt %s -split-input-file -tf-shape-inference | FileCheck %s

// Each case was checked against TensorFlow 2.21's own tf-shape-inference (same output).

// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<?x4xf32>) -> (tensor<2x4xf32>, tensor<8xf32>, tensor<2xi32>, tensor<2x4xf32>)
// CHECK: "tf.MatMul"{{.*}} -> tensor<2x4xf32>
// CHECK: "tf.AddV2"{{.*}} -> tensor<2x4xf32>
// CHECK: "tf.Shape"{{.*}} -> tensor<2xi32>
// CHECK: "tf.Pack"{{.*}} -> tensor<1xi32>
// CHECK: "tf.Reshape"{{.*}} -> tensor<8xf32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
// Elementwise, matmul, broadcasting, reshape through Shape/Pack constants; results
// feeding func.return refine main's signature.
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<?x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>) {
  %0 = "tf.MatMul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  %1 = "tf.AddV2"(%0, %c) : (tensor<*xf32>, tensor<?x4xf32>) -> tensor<*xf32>
  %2 = "tf.Relu"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Shape"(%2) : (tensor<*xf32>) -> tensor<*xi32>
  %k = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %p = "tf.Pack"(%k) {axis = 0 : i64} : (tensor<i32>) -> tensor<*xi32>
  %4 = "tf.Reshape"(%2, %p) : (tensor<*xf32>, tensor<*xi32>) -> tensor<*xf32>
  func.return %2, %4, %3, %1 : tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>
}
}

// -----

// A refined result used by an op outside the tf dialect that is not refinable gets a tf.Cast back.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xf32>) -> tensor<*xf32>
// CHECK: %[[SUM:.*]] = "tf.Sum"{{.*}} -> tensor<2xf32>
// CHECK: %[[CAST:.*]] = "tf.Cast"(%[[SUM]]) <{Truncate = false}> : (tensor<2xf32>) -> tensor<*xf32>
// CHECK: call @callee(%[[CAST]])
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%a) : (tensor<2x3xf32>) -> tensor<*xf32>
  %c = "tf.Const"() {value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %1 = "tf.Sum"(%0, %c) {keep_dims = false} : (tensor<*xf32>, tensor<1xi32>) -> tensor<*xf32>
  %2 = func.call @callee(%1) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %2 : tensor<*xf32>
}
func.func private @callee(%x: tensor<*xf32>) -> tensor<*xf32> {
  func.return %x : tensor<*xf32>
}
}

// -----

// Functional control flow: If branches and While cond/body get the operand types.
// CHECK-LABEL: func.func @main(%arg0: tensor<i1>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: "tf.If"{{.*}} -> tensor<4xf32>
// CHECK: "tf.While"{{.*}} -> tensor<4xf32>
// CHECK: func.func private @then(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK: func.func private @cond(%arg0: tensor<4xf32>) -> tensor<i1>
// CHECK: "tf.Sum"{{.*}} -> tensor<f32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%p: tensor<i1>, %x: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.If"(%p, %x) {then_branch = @then, else_branch = @else, is_stateless = true} : (tensor<i1>, tensor<4xf32>) -> tensor<*xf32>
  %1 = "tf.While"(%x) {cond = @cond, body = @body, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<4xf32>) -> tensor<*xf32>
  func.return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
func.func private @then(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.Square"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @else(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @cond(%x: tensor<*xf32>) -> tensor<*xi1> {
  %c = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = "tf.Sum"(%x, %c) {keep_dims = false} : (tensor<*xf32>, tensor<1xi32>) -> tensor<*xf32>
  %z = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %1 = "tf.Less"(%0, %z) : (tensor<*xf32>, tensor<f32>) -> tensor<*xi1>
  func.return %1 : tensor<*xi1>
}
func.func private @body(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.Mul"(%x, %x) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
}

// -----

// Region control flow and shape_invariant while.
// CHECK-LABEL: func.func @main(%arg0: tensor<i1>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<*xf32>)
// CHECK: "tf.Exp"{{.*}} -> tensor<4xf32>
// CHECK: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK: ^bb0(%{{.*}}: tensor<4xf32>):
// CHECK: }) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: shape_invariant
// CHECK: ^bb0(%{{.*}}: tensor<*xf32>):
// CHECK: "tf.ConcatV2"{{.*}} -> tensor<*xf32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%p: tensor<i1>, %x: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.IfRegion"(%p) ({
    %a = "tf.Exp"(%x) : (tensor<4xf32>) -> tensor<*xf32>
    "tf.Yield"(%a) : (tensor<*xf32>) -> ()
  }, {
    %b = "tf.Log"(%x) : (tensor<4xf32>) -> tensor<*xf32>
    "tf.Yield"(%b) : (tensor<*xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<*xf32>
  %1 = "tf.WhileRegion"(%x) ({
  ^bb0(%a: tensor<*xf32>):
    %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<*xf32>):
    %n = "tf.Sigmoid"(%a) : (tensor<*xf32>) -> tensor<*xf32>
    "tf.Yield"(%n) : (tensor<*xf32>) -> ()
  }) {is_stateless = true, parallel_iterations = 10 : i64} : (tensor<4xf32>) -> tensor<*xf32>
  %2 = "tf.WhileRegion"(%x) ({
  ^bb0(%a: tensor<*xf32>):
    %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<*xf32>):
    %z = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %cc = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %n = "tf.ConcatV2"(%a, %a, %cc) : (tensor<*xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
    "tf.Yield"(%n) : (tensor<*xf32>) -> ()
  }) {is_stateless = true, parallel_iterations = 10 : i64, shape_invariant} : (tensor<4xf32>) -> tensor<*xf32>
  func.return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}
}

// -----

// Calls: argument types flow into the callee, its result types back to the call.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x2xi32>) -> tensor<2x2xi32>
// CHECK: "tf.StatefulPartitionedCall"{{.*}} -> tensor<2x2xi32>
// CHECK: func.func private @fn(%arg0: tensor<2x2xi32>) -> tensor<2x2xi32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%x: tensor<2x2xi32>) -> tensor<*xi32> {
  %0 = "tf.StatefulPartitionedCall"(%x) {f = @fn, config = "", config_proto = "", executor_type = ""} : (tensor<2x2xi32>) -> tensor<*xi32>
  func.return %0 : tensor<*xi32>
}
func.func private @fn(%x: tensor<*xi32>) -> tensor<*xi32> {
  %c = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Transpose"(%x, %c) : (tensor<*xi32>, tensor<2xi32>) -> tensor<*xi32>
  func.return %0 : tensor<*xi32>
}
}

// -----

// tf_executor: islands and the graph follow their terminators; resources take
// subtypes from the values assigned.
// CHECK-LABEL: func.func @main(%arg0: tensor<3xf32>) -> tensor<*xf32>
// CHECK: tf_executor.island wraps "tf.Tanh"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: "tf.ReadVariableOp"{{.*}} -> tensor<*xf32>
// CHECK: "tf.Mul"{{.*}} : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%x: tensor<3xf32>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %v, %vc = tf_executor.island wraps "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<*>} : () -> tensor<*x!tf_type.resource<tensor<*xf32>>>
    %a, %ac = tf_executor.island wraps "tf.Tanh"(%x) : (tensor<3xf32>) -> tensor<*xf32>
    %s = tf_executor.island wraps "tf.AssignVariableOp"(%v, %a) : (tensor<*x!tf_type.resource<tensor<*xf32>>>, tensor<*xf32>) -> ()
    %r, %rc = tf_executor.island(%s) wraps "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<*xf32>>>) -> tensor<*xf32>
    %i, %ic = tf_executor.island {
      %n = "tf.Abs"(%r) : (tensor<*xf32>) -> tensor<*xf32>
      %m = "tf.Mul"(%n, %a) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      tf_executor.yield %m : tensor<*xf32>
    }
    tf_executor.fetch %i : tensor<*xf32>
  }
  func.return %g : tensor<*xf32>
}
}

// -----

// tf_device cluster and launch results follow their terminators.
// CHECK-LABEL: func.func @main(%arg0: tensor<8x2xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>)
// CHECK: "tf.Transpose"{{.*}} -> tensor<2x8xf32>
// CHECK: }) {_xla_compile_device_type = "TPU"} : () -> tensor<2x8xf32>
// CHECK: "tf.Softmax"{{.*}} -> tensor<2x8xf32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%x: tensor<8x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %perm = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf_device.cluster"() ({
    %a = "tf.Transpose"(%x, %perm) : (tensor<8x2xf32>, tensor<2xi32>) -> tensor<*xf32>
    tf_device.return %a : tensor<*xf32>
  }) {_xla_compile_device_type = "TPU"} : () -> tensor<*xf32>
  %1 = "tf_device.launch"() ({
    %b = "tf.Softmax"(%0) : (tensor<*xf32>) -> tensor<*xf32>
    tf_device.return %b : tensor<*xf32>
  }) {device = "/device:CPU:0"} : () -> tensor<*xf32>
  func.return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
}

// -----

// TensorLists: the element shape all writes agree on.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<i32>) -> (tensor<2x3xf32>, tensor<5x2x3xf32>)
// CHECK: "tf.TensorListReserve"{{.*}} -> tensor<!tf_type.variant<tensor<2x3xf32>>>
// CHECK: "tf.TensorListStack"{{.*}} -> tensor<5x2x3xf32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1987 : i32}} {
func.func @main(%x: tensor<2x3xf32>, %i: tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %shape = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %l = "tf.TensorListReserve"(%shape, %n) : (tensor<i32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
  %l2 = "tf.TensorListSetItem"(%l, %i, %x) : (tensor<!tf_type.variant<tensor<*xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
  %item = "tf.TensorListGetItem"(%l2, %i, %shape) : (tensor<!tf_type.variant<tensor<*xf32>>>, tensor<i32>, tensor<i32>) -> tensor<*xf32>
  %all = "tf.TensorListStack"(%l2, %shape) {num_elements = 5 : i64} : (tensor<!tf_type.variant<tensor<*xf32>>>, tensor<i32>) -> tensor<*xf32>
  func.return %item, %all : tensor<*xf32>, tensor<*xf32>
}
}

// -----

// No tf.versions: TensorFlow infers nothing.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xf32>) -> tensor<*xf32>
// CHECK: "tf.Neg"{{.*}} -> tensor<*xf32>
module {
func.func @main(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%a) : (tensor<2x3xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
}

// -----

// QuantizeV2 keeps its input's shape (min/max: input_max's shape, scalar
// without an axis) and TensorArrayGatherV3 gives [number of indices] + its
// element_shape attribute (checked against TensorFlow 2.21).
// CHECK-LABEL: func.func @main
// CHECK: "tf.QuantizeV2"{{.*}} -> (tensor<4x2x!tf_type.qint8>, tensor<f32>, tensor<f32>)
// CHECK: "tf.QuantizeV2"{{.*}} -> (tensor<4x2x!tf_type.qint8>, tensor<?xf32>, tensor<?xf32>)
// CHECK: "tf.TensorArrayGatherV3"{{.*}} -> tensor<3x7x1xf32>
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 1700 : i32}} {
  func.func @main(%x: tensor<4x2xf32>, %lo: tensor<f32>, %hi: tensor<f32>, %lo2: tensor<?xf32>, %hi2: tensor<?xf32>, %ta: tensor<2x!tf_type.resource>, %idx: tensor<3xi32>, %flow: tensor<f32>) -> (tensor<*x!tf_type.qint8>, tensor<*xf32>, tensor<*x!tf_type.qint8>, tensor<*xf32>, tensor<*xf32>) {
    %0:3 = "tf.QuantizeV2"(%x, %lo, %hi) {T = !tf_type.qint8, axis = -1 : i64, mode = "SCALED", narrow_range = true, round_mode = "HALF_TO_EVEN", ensure_minimum_range = 0.01 : f32} : (tensor<4x2xf32>, tensor<f32>, tensor<f32>) -> (tensor<*x!tf_type.qint8>, tensor<*xf32>, tensor<*xf32>)
    %1:3 = "tf.QuantizeV2"(%x, %lo2, %hi2) {T = !tf_type.qint8, axis = 1 : i64, mode = "SCALED", narrow_range = true, round_mode = "HALF_TO_EVEN", ensure_minimum_range = 0.01 : f32} : (tensor<4x2xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<*x!tf_type.qint8>, tensor<*xf32>, tensor<*xf32>)
    %2 = "tf.TensorArrayGatherV3"(%ta, %idx, %flow) {dtype = f32, element_shape = #tf_type.shape<7x1>} : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<f32>) -> tensor<*xf32>
    return %0#0, %0#1, %1#0, %1#1, %2 : tensor<*x!tf_type.qint8>, tensor<*xf32>, tensor<*x!tf_type.qint8>, tensor<*xf32>, tensor<*xf32>
  }
}

// -----

// XlaConvV2 with constant strides, padding and dilations: XLA's convolution
// shape (the wider of the input's and the result's element types).

// CHECK-LABEL: func.func @main
// CHECK: "tf.XlaConvV2"
// CHECK-SAME: -> tensor<2x3x3x4xf32>
// CHECK: "tf.XlaConvV2"
// CHECK-SAME: -> tensor<2x?x?x4xf32>
module attributes {tf.versions = {producer = 888 : i32}} {
func.func @main(%lhs: tensor<2x5x5x2xf32>, %rhs: tensor<3x3x2x4xf32>, %strides: tensor<2xi32>) -> (tensor<?x?x?x?xf32>, tensor<2x?x?x4xf32>) {
  %s = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %p = "tf.Const"() {value = dense<1> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %d = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %g = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.XlaConvV2"(%lhs, %rhs, %s, %p, %d, %d, %g) {batch_group_count = 1 : i64, dimension_numbers = "\18\02 \032\02\00\01@\03P\03Z\02\01\02b\02\01\02", precision_config = ""} : (tensor<2x5x5x2xf32>, tensor<3x3x2x4xf32>, tensor<2xi32>, tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<?x?x?x?xf32>
  %1 = "tf.XlaConvV2"(%lhs, %rhs, %strides, %p, %d, %d, %g) {batch_group_count = 1 : i64, dimension_numbers = "\18\02 \032\02\00\01@\03P\03Z\02\01\02b\02\01\02", precision_config = ""} : (tensor<2x5x5x2xf32>, tensor<3x3x2x4xf32>, tensor<2xi32>, tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<2x?x?x4xf32>
  func.return %0, %1 : tensor<?x?x?x?xf32>, tensor<2x?x?x4xf32>
}
}

// -----

// XlaReduceWindow and XlaSelectAndScatter with constant windows: XLA's window
// shape (the init value's element type) and the operand's type.

// CHECK-LABEL: func.func @main
// CHECK: "tf.XlaReduceWindow"
// CHECK-SAME: -> tensor<2x3xf32>
// CHECK: "tf.XlaSelectAndScatter"
// CHECK-SAME: -> tensor<4x6xf32>
module attributes {tf.versions = {producer = 888 : i32}} {
func.func private @sum(%a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.AddV2"(%a, %b) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @ge(%a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xi1> {
  %0 = "tf.GreaterEqual"(%a, %b) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xi1>
  func.return %0 : tensor<*xi1>
}
func.func @main(%x: tensor<4x6xf32>, %init: tensor<f32>, %src: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %dims = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %ones = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %pad = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.XlaReduceWindow"(%x, %init, %dims, %strides, %ones, %ones, %pad) {computation = @sum} : (tensor<4x6xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<*xf32>
  %1 = "tf.XlaSelectAndScatter"(%x, %dims, %strides, %pad, %src, %init) {scatter = @sum, select = @ge} : (tensor<4x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>, tensor<2x3xf32>, tensor<f32>) -> tensor<*xf32>
  func.return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
}
