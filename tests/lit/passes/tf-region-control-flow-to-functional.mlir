// RUN: tfmlir-opt %s -split-input-file -tf-region-control-flow-to-functional | FileCheck %s

// IfRegion outlined: the values both regions use from outside become the
// functions' arguments (first use in post order, then region first) and the
// If's inputs; a constant is cloned into the region instead. Names come from
// the op's location name; functions go to the start of the module.

// CHECK-LABEL: module
// CHECK-NEXT: func.func private @choose_else(%[[E0:.*]]: tensor<f32>, %[[E1:.*]]: tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %[[S:.*]] = "tf.Sub"(%[[E1]], %[[E0]])
// CHECK-NEXT:   return %[[S]]
// CHECK: func.func private @choose_then(%[[T0:.*]]: tensor<f32>, %[[T1:.*]]: tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %[[K:.*]] = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}>
// CHECK-NEXT:   %[[M:.*]] = "tf.Mul"(%[[T0]], %[[K]])
// CHECK-NEXT:   return %[[M]]
// CHECK-LABEL: func.func @if_outlined
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>)
// CHECK: %[[R:.*]] = "tf.If"(%[[P]], %[[X]], %[[Y]]) <{else_branch = @choose_else, is_stateless = true, then_branch = @choose_then}> {_xla_propagate_compile_time_consts = true, device = "/device:CPU:0"} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %[[R]]
func.func @if_outlined(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.IfRegion"(%p) ({
    %1 = "tf.Mul"(%x, %two) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    %1 = "tf.Sub"(%y, %x) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }) {is_stateless = true, device = "/device:CPU:0", other = 1 : i64} : (tensor<i1>) -> tensor<f32> loc("choose")
  func.return %0 : tensor<f32>
}

// -----

// Without a location name the op name is the prefix, numbered per op
// (tf.IfRegion, tf.IfRegion1): nested ops first. Given _then_func_name /
// _else_func_name are used (and kept on the If). The If condition looks
// through tf.ToBool (erased once unused).

// CHECK-LABEL: module
// CHECK-NEXT: func.func private @red
// CHECK-NEXT: "tf.Cos"
// CHECK: func.func private @green
// CHECK-NEXT: "tf.Sin"
// CHECK: func.func private @tf.IfRegion1_else(%{{.*}}: tensor<i32>, %[[X:.*]]: tensor<f32>)
// CHECK-NEXT: "tf.Neg"(%[[X]])
// CHECK: func.func private @tf.IfRegion1_then(%[[P:.*]]: tensor<i32>, %[[X:.*]]: tensor<f32>)
// CHECK-NEXT: "tf.If"(%[[P]], %[[X]]) <{else_branch = @tf.IfRegion_else, is_stateless = false, then_branch = @tf.IfRegion_then}>
// CHECK: func.func private @tf.IfRegion_else
// CHECK: func.func private @tf.IfRegion_then
// CHECK-NEXT: "tf.Abs"
// CHECK-LABEL: func.func @nested_and_named
// CHECK-NOT: tf.ToBool
// CHECK: "tf.If"(%arg0, %arg0, %arg1) <{else_branch = @tf.IfRegion1_else, is_stateless = false, then_branch = @tf.IfRegion1_then}>
// CHECK-NEXT: "tf.If"(%arg2, %arg1) <{else_branch = @red, is_stateless = false, then_branch = @green}> {_else_func_name = "red", _then_func_name = "green", _xla_propagate_compile_time_consts = true}
func.func @nested_and_named(%p: tensor<i32>, %x: tensor<f32>, %q: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %b = "tf.ToBool"(%p) : (tensor<i32>) -> tensor<i1>
  %0 = "tf.IfRegion"(%b) ({
    %1 = "tf.IfRegion"(%b) ({
      %2 = "tf.Abs"(%x) : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%2) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%x) : (tensor<f32>) -> ()
    }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    %1 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
  %3 = "tf.IfRegion"(%q) ({
    %4 = "tf.Sin"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%4) : (tensor<f32>) -> ()
  }, {
    %4 = "tf.Cos"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%4) : (tensor<f32>) -> ()
  }) {is_stateless = false, _then_func_name = "green", _else_func_name = "red"} : (tensor<i1>) -> tensor<f32>
  func.return %0, %3 : tensor<f32>, tensor<f32>
}

// -----

// Trivial IfRegion: both regions only call a function (after casts that keep
// the element type) with the same values: the functions are reused, nothing
// is outlined, the If takes the uncast values.

// CHECK-LABEL: func.func @if_trivial
// CHECK-NEXT: %[[R:.*]] = "tf.If"(%arg0, %arg1) <{else_branch = @g, is_stateless = true, then_branch = @f}> {_xla_propagate_compile_time_consts = true} : (tensor<i1>, tensor<2xf32>) -> tensor<*xf32>
// CHECK-NEXT: return %[[R]]
func.func @if_trivial(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<*xf32> {
  %0 = "tf.IfRegion"(%p) ({
    %c = "tf.Cast"(%x) {Truncate = false} : (tensor<2xf32>) -> tensor<*xf32>
    %1 = func.call @f(%c) : (tensor<*xf32>) -> tensor<*xf32>
    "tf.Yield"(%1) : (tensor<*xf32>) -> ()
  }, {
    %1 = func.call @g(%x) : (tensor<2xf32>) -> tensor<*xf32>
    "tf.Yield"(%1) : (tensor<*xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @f(%a: tensor<*xf32>) -> tensor<*xf32> {
  func.return %a : tensor<*xf32>
}
func.func private @g(%a: tensor<2xf32>) -> tensor<*xf32> {
  %0 = "tf.Cast"(%a) {Truncate = false} : (tensor<2xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// -----

// Not trivial: a truncating cast before the call, and a cast that changes the
// element type: both are outlined.

// CHECK-LABEL: module
// CHECK: func.func private @tf.IfRegion1_else(%{{.*}}: tensor<2xi32>)
// CHECK: func.func private @tf.IfRegion1_then(%{{.*}}: tensor<2xi32>)
// CHECK-NEXT: "tf.Cast"
// CHECK-NEXT: call @h
// CHECK: func.func private @tf.IfRegion_else
// CHECK: func.func private @tf.IfRegion_then
// CHECK-LABEL: func.func @if_not_trivial
func.func @if_not_trivial(%p: tensor<i1>, %x: tensor<2xf32>, %n: tensor<2xi32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.IfRegion"(%p) ({
    %c = "tf.Cast"(%x) {Truncate = true} : (tensor<2xf32>) -> tensor<*xf32>
    %1 = func.call @h(%c) : (tensor<*xf32>) -> tensor<*xf32>
    "tf.Yield"(%1) : (tensor<*xf32>) -> ()
  }, {
    %c = "tf.Cast"(%x) {Truncate = true} : (tensor<2xf32>) -> tensor<*xf32>
    %1 = func.call @h(%c) : (tensor<*xf32>) -> tensor<*xf32>
    "tf.Yield"(%1) : (tensor<*xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<*xf32>
  %2 = "tf.IfRegion"(%p) ({
    %c = "tf.Cast"(%n) : (tensor<2xi32>) -> tensor<*xf32>
    %1 = func.call @h(%c) : (tensor<*xf32>) -> tensor<*xf32>
    "tf.Yield"(%1) : (tensor<*xf32>) -> ()
  }, {
    %c = "tf.Cast"(%n) : (tensor<2xi32>) -> tensor<*xf32>
    %1 = func.call @h(%c) : (tensor<*xf32>) -> tensor<*xf32>
    "tf.Yield"(%1) : (tensor<*xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<*xf32>
  func.return %0, %2 : tensor<*xf32>, tensor<*xf32>
}
func.func private @h(%a: tensor<*xf32>) -> tensor<*xf32> {
  func.return %a : tensor<*xf32>
}

// -----

// CaseRegion: always outlined, branch<i> names, shared extern values. The
// name of a fused location joins its parts' names with ";".

// CHECK-LABEL: module
// CHECK-NEXT: func.func private @"switch;other_branch1"(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %[[B]]
// CHECK: func.func private @"switch;other_branch0"(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %[[A]]
// CHECK-LABEL: func.func @case
// CHECK: "tf.Case"(%arg0, %arg1, %arg2) <{branches = [@"switch;other_branch0", @"switch;other_branch1"], is_stateless = false}> {_xla_propagate_compile_time_consts = true}
func.func @case(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = "tf.CaseRegion"(%i) ({
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%y) : (tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i32>) -> tensor<f32> loc(fused["switch"("a.py":1:2), "other"])
  func.return %0 : tensor<f32>
}

// -----

// WhileRegion outlined: block arguments first, then the extern values (the
// body returns them unchanged, the While gets them as extra operands and
// results); the cond returns only its first yielded value (passthrough
// arguments dropped). Constants are cloned into each region using them.

// CHECK-LABEL: module
// CHECK-NEXT: func.func private @loop_body(%[[B0:.*]]: tensor<i32>, %[[B1:.*]]: tensor<i32>, %[[B2:.*]]: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
// CHECK-NEXT: %[[ONE:.*]] = "tf.Const"() <{value = dense<1> : tensor<i32>}>
// CHECK-NEXT: %[[S:.*]] = "tf.AddV2"(%[[B0]], %[[B2]])
// CHECK-NEXT: %[[T:.*]] = "tf.AddV2"(%[[S]], %[[ONE]])
// CHECK-NEXT: return %[[T]], %[[B1]], %[[B2]]
// CHECK: func.func private @loop_cond(%[[C0:.*]]: tensor<i32>, %[[C1:.*]]: tensor<i32>, %[[C2:.*]]: tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %[[L:.*]] = "tf.Less"(%[[C0]], %[[C1]])
// CHECK-NEXT: return %[[L]] : tensor<i1>
// CHECK-LABEL: func.func @while_outlined
// CHECK: %[[W:.*]]:3 = "tf.While"(%arg0, %[[LIM:.*]], %[[STEP:.*]]) <{body = @loop_body, cond = @loop_cond, is_stateless = true, parallel_iterations = 3 : i64, shape_invariant}> {_xla_propagate_compile_time_consts = true}
// CHECK: return %[[W]]#0
func.func @while_outlined(%n: tensor<i32>, %m: tensor<i32>) -> tensor<i32> {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %limit = "tf.Mul"(%m, %m) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %step = "tf.Neg"(%m) : (tensor<i32>) -> tensor<i32>
  %0 = "tf.WhileRegion"(%n) ({
  ^bb0(%i: tensor<i32>):
    %1 = "tf.Less"(%i, %limit) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%1, %i) : (tensor<i1>, tensor<i32>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    %1 = "tf.AddV2"(%i, %step) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "tf.AddV2"(%1, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%2) : (tensor<i32>) -> ()
  }) {is_stateless = true, parallel_iterations = 3 : i64, shape_invariant} : (tensor<i32>) -> tensor<i32> loc("loop")
  func.return %0 : tensor<i32>
}

// -----

// Trivial WhileRegion: the cond calls a function (result through tf.ToBool,
// or followed by the block arguments) and the body calls one with the same
// argument numbers: the functions are reused.

// CHECK-LABEL: func.func @while_trivial
// CHECK-NEXT: "tf.While"(%arg0, %arg1) <{body = @wbody, cond = @wcond_int, is_stateless = false, parallel_iterations = 10 : i64}> {_xla_propagate_compile_time_consts = true}
// CHECK-NEXT: "tf.While"(%arg0, %arg1) <{body = @wbody, cond = @wcond, is_stateless = false, parallel_iterations = 10 : i64}>
func.func @while_trivial(%a: tensor<i32>, %b: tensor<f32>) -> (tensor<i32>, tensor<i32>) {
  %0:2 = "tf.WhileRegion"(%a, %b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<f32>):
    %c = func.call @wcond_int(%x, %y) : (tensor<i32>, tensor<f32>) -> tensor<i32>
    %t = "tf.ToBool"(%c) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%t) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<i32>, %y: tensor<f32>):
    %r:2 = func.call @wbody(%x, %y) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
    "tf.Yield"(%r#0, %r#1) : (tensor<i32>, tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  %1:2 = "tf.WhileRegion"(%a, %b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<f32>):
    %c = func.call @wcond(%x, %y) : (tensor<i32>, tensor<f32>) -> tensor<i1>
    "tf.Yield"(%c, %x, %y) : (tensor<i1>, tensor<i32>, tensor<f32>) -> ()
  }, {
  ^bb0(%x: tensor<i32>, %y: tensor<f32>):
    %r:2 = func.call @wbody(%x, %y) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
    "tf.Yield"(%r#0, %r#1) : (tensor<i32>, tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  func.return %0#0, %1#0 : tensor<i32>, tensor<i32>
}
func.func private @wcond_int(%x: tensor<i32>, %y: tensor<f32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func private @wcond(%x: tensor<i32>, %y: tensor<f32>) -> tensor<i1> {
  %0 = "tf.ToBool"(%x) : (tensor<i32>) -> tensor<i1>
  func.return %0 : tensor<i1>
}
func.func private @wbody(%x: tensor<i32>, %y: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  func.return %x, %y : tensor<i32>, tensor<f32>
}

// -----

// Names already in the module are renamed with one counter for the module
// (cond_0, then body_1); functions are converted last to first.

// CHECK-LABEL: module
// CHECK-NEXT: func.func private @second_else
// CHECK: func.func private @second_then
// CHECK: func.func private @w_body_1
// CHECK-NEXT: "tf.Neg"
// CHECK: func.func private @w_cond_0
// CHECK: func.func private @w_cond
// CHECK: func.func private @w_body
// CHECK: "tf.If"{{.*}}<{else_branch = @second_else, is_stateless = true, then_branch = @second_then}>
// CHECK: "tf.While"{{.*}}<{body = @w_body_1, cond = @w_cond_0
func.func private @w_cond(%x: tensor<f32>) -> tensor<i1> {
  %0 = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  func.return %0 : tensor<i1>
}
func.func private @w_body(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
func.func @second(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.IfRegion"(%p) ({
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32> loc("second")
  func.return %0 : tensor<f32>
}
func.func @first(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.WhileRegion"(%x) ({
  ^bb0(%y: tensor<f32>):
    %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%y: tensor<f32>):
    %z = "tf.Neg"(%y) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%z) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<f32>) -> tensor<f32> loc("w")
  func.return %0 : tensor<f32>
}
