// RUN: tfmlir-opt %s -split-input-file -tf-functional-control-flow-to-regions | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-functional-control-flow-to-regions=allow-passthrough-args | FileCheck %s --check-prefix=PASS

// tf.If with a tensor<i1> condition: both regions call their function with the
// If's inputs; device and "_" attributes are kept, others dropped.

// CHECK-LABEL: func.func @if_simple
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "tf.IfRegion"(%[[P]]) <{_else_func_name = "neg", _then_func_name = "abs", is_stateless = true}> ({
// CHECK-NEXT: %[[T:.*]] = func.call @abs(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "tf.Yield"(%[[T]])
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[E:.*]] = func.call @neg(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "tf.Yield"(%[[E]])
// CHECK-NEXT: }) {_note = "kept", device = "/device:CPU:0"} : (tensor<i1>) -> tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @if_simple(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.If"(%p, %x) {then_branch = @abs, else_branch = @neg, is_stateless = true, device = "/device:CPU:0", _note = "kept", Tcond = i1, output_shapes = [#tf_type.shape<4>]} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @abs(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Abs"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @neg(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A condition that is not tensor<i1> goes through tf.ToBool (which gets the
// If's device and "_" attributes); inputs whose type is not the function's
// are cast (Truncate = false) in each region; no inputs, no results.

// CHECK-LABEL: func.func @if_int_cond_and_casts
// CHECK: %[[B:.*]] = "tf.ToBool"(%arg0) {_xla_outside_compilation = "0", device = "/device:TPU:0"} : (tensor<2xi32>) -> tensor<i1>
// CHECK-NEXT: %[[R:.*]] = "tf.IfRegion"(%[[B]])
// CHECK-NEXT: %[[C:.*]] = "tf.Cast"(%arg1) <{Truncate = false}> : (tensor<3xf32>) -> tensor<*xf32>
// CHECK-NEXT: func.call @then(%[[C]])
// CHECK: "tf.Cast"(%arg1) <{Truncate = false}> : (tensor<3xf32>) -> tensor<*xf32>
// CHECK-NEXT: func.call @else
// CHECK: {_xla_outside_compilation = "0", device = "/device:TPU:0"}
// CHECK: "tf.IfRegion"(%{{.*}}) <{_else_func_name = "nothing", _then_func_name = "nothing", is_stateless = false}> ({
// CHECK-NEXT: func.call @nothing() : () -> ()
// CHECK-NEXT: "tf.Yield"() : () -> ()
func.func @if_int_cond_and_casts(%p: tensor<2xi32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "tf.If"(%p, %x) {then_branch = @then, else_branch = @else, is_stateless = false, device = "/device:TPU:0", _xla_outside_compilation = "0"} : (tensor<2xi32>, tensor<3xf32>) -> tensor<3xf32>
  %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  "tf.If"(%c) {then_branch = @nothing, else_branch = @nothing, is_stateless = false} : (tensor<i1>) -> ()
  func.return %0 : tensor<3xf32>
}
func.func private @then(%a: tensor<*xf32>) -> tensor<*xf32> {
  func.return %a : tensor<*xf32>
}
func.func private @else(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @nothing() {
  func.return
}

// -----

// tf.Case: one region per branch, in order.

// CHECK-LABEL: func.func @case
// CHECK: %[[R:.*]]:2 = "tf.CaseRegion"(%arg0) <{is_stateless = true}> ({
// CHECK-NEXT: %[[A:.*]]:2 = func.call @first(%arg1) : (tensor<f32>) -> (tensor<f32>, tensor<i32>)
// CHECK-NEXT: "tf.Yield"(%[[A]]#0, %[[A]]#1)
// CHECK-NEXT: }, {
// CHECK-NEXT: func.call @second(%arg1)
// CHECK: }, {
// CHECK-NEXT: func.call @first(%arg1)
// CHECK: }) {_class = "x"} : (tensor<i32>) -> (tensor<f32>, tensor<i32>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @case(%i: tensor<i32>, %x: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  %0:2 = "tf.Case"(%i, %x) {branches = [@first, @second, @first], is_stateless = true, _class = "x"} : (tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<f32>, tensor<i32>
}
func.func private @first(%a: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  func.return %a, %c : tensor<f32>, tensor<i32>
}
func.func private @second(%a: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  %c = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  func.return %a, %c : tensor<f32>, tensor<i32>
}

// -----

// tf.While: the regions take the functions' argument types as block
// arguments; parallel_iterations, is_stateless and shape_invariant are kept.
// With allow-passthrough-args, the cond region yields its arguments after the
// condition.

// CHECK-LABEL: func.func @while_loop
// CHECK: %[[R:.*]]:2 = "tf.WhileRegion"(%arg0, %arg1) <{is_stateless = false, parallel_iterations = 4 : i64, shape_invariant}> ({
// CHECK-NEXT: ^bb0(%[[C0:.*]]: tensor<i32>, %[[C1:.*]]: tensor<*xf32>):
// CHECK-NEXT: %[[P:.*]] = func.call @cond(%[[C0]], %[[C1]])
// CHECK-NEXT: "tf.Yield"(%[[P]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[B0:.*]]: tensor<i32>, %[[B1:.*]]: tensor<*xf32>):
// CHECK-NEXT: %[[N:.*]]:2 = func.call @body(%[[B0]], %[[B1]])
// CHECK-NEXT: "tf.Yield"(%[[N]]#0, %[[N]]#1)
// CHECK-NEXT: }) {_tpu_replicate = "c"} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
// PASS-LABEL: func.func @while_loop
// PASS: ^bb0(%[[C0:.*]]: tensor<i32>, %[[C1:.*]]: tensor<*xf32>):
// PASS-NEXT: %[[P:.*]] = func.call @cond(%[[C0]], %[[C1]])
// PASS-NEXT: "tf.Yield"(%[[P]], %[[C0]], %[[C1]]) : (tensor<i1>, tensor<i32>, tensor<*xf32>) -> ()
func.func @while_loop(%n: tensor<i32>, %x: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %0:2 = "tf.While"(%n, %x) {cond = @cond, body = @body, is_stateless = false, parallel_iterations = 4 : i64, shape_invariant, _tpu_replicate = "c", T = [i32, f32]} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  func.return %0#0, %0#1 : tensor<i32>, tensor<2xf32>
}
func.func private @cond(%i: tensor<i32>, %x: tensor<*xf32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Greater"(%i, %c) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %0 : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %x: tensor<*xf32>) -> (tensor<i32>, tensor<*xf32>) {
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Sub"(%i, %c) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  func.return %0, %x : tensor<i32>, tensor<*xf32>
}

// -----

// A While condition that is not tensor<i1> is converted by tf.ToBool in the
// cond region; parallel_iterations defaults to 10.

// CHECK-LABEL: func.func @while_float_cond
// CHECK: "tf.WhileRegion"(%arg0) <{is_stateless = true, parallel_iterations = 10 : i64}> ({
// CHECK-NEXT: ^bb0(%[[C:.*]]: tensor<f32>):
// CHECK-NEXT: %[[V:.*]] = func.call @fcond(%[[C]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[B:.*]] = "tf.ToBool"(%[[V]]) : (tensor<f32>) -> tensor<i1>
// CHECK-NEXT: "tf.Yield"(%[[B]])
// PASS-LABEL: func.func @while_float_cond
// PASS: %[[B:.*]] = "tf.ToBool"
// PASS-NEXT: "tf.Yield"(%[[B]], %{{.*}}) : (tensor<i1>, tensor<f32>) -> ()
func.func @while_float_cond(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.While"(%x) {cond = @fcond, body = @fbody, is_stateless = true} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @fcond(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
func.func private @fbody(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Floor"(%x) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Ops nested in regions (a cluster, a converted region of another op) and in
// nested modules are converted too.

// CHECK-LABEL: func.func @nested
// CHECK: "tf_device.cluster"
// CHECK-NEXT: "tf.IfRegion"
// CHECK: func.call @id
// CHECK: module @inner
// CHECK: "tf.WhileRegion"
// CHECK: func.call @inner_cond
// CHECK-NOT: "tf.If"(
// CHECK-NOT: "tf.While"(
func.func @nested(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.If"(%p, %x) {then_branch = @id, else_branch = @id, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @id(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
module @inner {
  func.func @inner_main(%x: tensor<f32>) -> tensor<f32> {
    %0 = "tf.While"(%x) {cond = @inner_cond, body = @inner_body, is_stateless = true} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func private @inner_cond(%x: tensor<f32>) -> tensor<i1> {
    %0 = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    func.return %0 : tensor<i1>
  }
  func.func private @inner_body(%x: tensor<f32>) -> tensor<f32> {
    func.return %x : tensor<f32>
  }
}
