// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-stack-ops-decomposition | FileCheck %s

!stack = tensor<!tf_type.resource>

// A stack of 2x3 float elements (the zero cast to f32): a buffer variable and
// a size variable, the size assigned 0 first; a push (through an IdentityN,
// which is removed) writes at the size and returns its element; a pop shrinks
// the size and reads the element there; close is removed.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[ELEM:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: "tf.Const"() <{value = dense<4> : tensor<i32>}>
// CHECK-NEXT: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[FZERO:.*]] = "tf.Cast"(%[[ZERO]]) : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT: %[[BSHAPE:.*]] = "tf.Const"() <{value = dense<[4, 2, 3]> : tensor<3xi32>}>
// CHECK-NEXT: %[[INIT:.*]] = "tf.BroadcastTo"(%[[FZERO]], %[[BSHAPE]]) : (tensor<f32>, tensor<3xi32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %[[BUFVAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<4x2x3xf32>>>
// CHECK-NEXT: %[[SIZEVAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<1xi32>>>
// CHECK-NEXT: %[[SIZE0:.*]] = "tf.Const"() <{value = dense<0> : tensor<1xi32>}>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[SIZEVAR]], %[[SIZE0]])
// CHECK-NEXT: "tf.AssignVariableOp"(%[[BUFVAR]], %[[INIT]])
// CHECK-NEXT: %[[BUF:.*]] = "tf.ReadVariableOp"(%[[BUFVAR]]) : (tensor<!tf_type.resource<tensor<4x2x3xf32>>>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %[[SIZE:.*]] = "tf.ReadVariableOp"(%[[SIZEVAR]]) : (tensor<!tf_type.resource<tensor<1xi32>>>) -> tensor<1xi32>
// CHECK-NEXT: %[[USHAPE:.*]] = "tf.Const"() <{value = dense<[1, 2, 3]> : tensor<3xi32>}>
// CHECK-NEXT: %[[UPD:.*]] = "tf.Reshape"(%[[ELEM]], %[[USHAPE]]) : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<1x2x3xf32>
// CHECK-NEXT: %[[ZEROS:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi32>}>
// CHECK-NEXT: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[START:.*]] = "tf.ConcatV2"(%[[SIZE]], %[[ZEROS]], %[[AXIS]])
// CHECK-NEXT: %[[NEWBUF:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BUF]], %[[UPD]], %[[START]])
// CHECK-NEXT: "tf.AssignVariableOp"(%[[BUFVAR]], %[[NEWBUF]])
// CHECK-NEXT: %[[ONE:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK-NEXT: %[[GROWN:.*]] = "tf.AddV2"(%[[SIZE]], %[[ONE]]) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[SIZEVAR]], %[[GROWN]])
// CHECK-NEXT: %[[BUF2:.*]] = "tf.ReadVariableOp"(%[[BUFVAR]])
// CHECK-NEXT: %[[SIZE2:.*]] = "tf.ReadVariableOp"(%[[SIZEVAR]])
// CHECK-NEXT: %[[ONE2:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK-NEXT: %[[SHRUNK:.*]] = "tf.Sub"(%[[SIZE2]], %[[ONE2]]) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT: %[[SSIZE:.*]] = "tf.Const"() <{value = dense<[1, 2, 3]> : tensor<3xi32>}>
// CHECK-NEXT: %[[ZEROS2:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi32>}>
// CHECK-NEXT: %[[AXIS2:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[AT:.*]] = "tf.ConcatV2"(%[[SHRUNK]], %[[ZEROS2]], %[[AXIS2]])
// CHECK-NEXT: %[[SLICE:.*]] = "tf.Slice"(%[[BUF2]], %[[AT]], %[[SSIZE]]) : (tensor<4x2x3xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2x3xf32>
// CHECK-NEXT: %[[ESHAPE:.*]] = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}>
// CHECK-NEXT: %[[POPPED:.*]] = "tf.Reshape"(%[[SLICE]], %[[ESHAPE]]) : (tensor<1x2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[SIZEVAR]], %[[SHRUNK]])
// CHECK-NEXT: return %[[ELEM]], %[[POPPED]]
// CHECK-NOT: tf.Stack
func.func @main(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %max = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %same:2 = "tf.IdentityN"(%s, %arg0) : (!stack, tensor<2x3xf32>) -> (!stack, tensor<2x3xf32>)
  %pushed = "tf.StackPushV2"(%same#0, %same#1) {swap_memory = false} : (!stack, tensor<2x3xf32>) -> tensor<2x3xf32>
  %popped = "tf.StackPopV2"(%s) : (!stack) -> tensor<2x3xf32>
  "tf.StackCloseV2"(%s) : (!stack) -> ()
  func.return %pushed, %popped : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

!stack = tensor<!tf_type.resource>

// The element type is the one pushed in a loop body (i32: no cast), whatever
// elem_type says. The body and the condition take the buffer variable type
// and a size variable argument; the body returns it; the loop's forwarded
// stack result is the stack itself, so the pop after the loop is known.

// CHECK-LABEL: func.func @main
// CHECK: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[BSHAPE:.*]] = "tf.Const"() <{value = dense<[5, 3]> : tensor<2xi32>}>
// CHECK-NEXT: "tf.BroadcastTo"(%[[ZERO]], %[[BSHAPE]]) : (tensor<i32>, tensor<2xi32>) -> tensor<5x3xi32>
// CHECK-NEXT: %[[BUFVAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<5x3xi32>>>
// CHECK-NEXT: %[[SIZEVAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<1xi32>>>
// CHECK: %[[LOOP:.*]]:3 = "tf.While"(%[[BUFVAR]], %{{.*}}, %[[SIZEVAR]]) <{body = @body, cond = @cond, is_stateless = false}> : (tensor<!tf_type.resource<tensor<5x3xi32>>>, tensor<i32>, tensor<!tf_type.resource<tensor<1xi32>>>) -> (tensor<!tf_type.resource<tensor<5x3xi32>>>, tensor<i32>, tensor<!tf_type.resource<tensor<1xi32>>>)
// CHECK-NEXT: "tf.ReadVariableOp"(%[[BUFVAR]])
// CHECK-NEXT: "tf.ReadVariableOp"(%[[SIZEVAR]])
// CHECK: "tf.Slice"
// CHECK: return %{{.*}}, %[[LOOP]]#1

// CHECK-LABEL: func.func @body
// CHECK-SAME: (%[[B0:.*]]: tensor<!tf_type.resource<tensor<5x3xi32>>>, %[[B1:.*]]: tensor<i32>, %[[B2:.*]]: tensor<!tf_type.resource<tensor<1xi32>>>)
// CHECK-SAME: -> (tensor<!tf_type.resource<tensor<5x3xi32>>>, tensor<i32>, tensor<!tf_type.resource<tensor<1xi32>>>)
// CHECK: "tf.ReadVariableOp"(%[[B0]])
// CHECK: "tf.ReadVariableOp"(%[[B2]])
// CHECK: "tf.XlaDynamicUpdateSlice"
// CHECK: "tf.AssignVariableOp"(%[[B0]],
// CHECK: "tf.AssignVariableOp"(%[[B2]],
// CHECK-NEXT: return %[[B0]], %[[B1]], %[[B2]]

// CHECK-LABEL: func.func @cond
// CHECK-SAME: (%{{.*}}: tensor<!tf_type.resource<tensor<5x3xi32>>>, %[[C1:.*]]: tensor<i32>, %{{.*}}: tensor<!tf_type.resource<tensor<1xi32>>>) -> tensor<i1>
func.func @main() -> (tensor<3xi32>, tensor<i32>) {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %loop:2 = "tf.While"(%s, %max) {body = @body, cond = @cond, is_stateless = false} : (!stack, tensor<i32>) -> (!stack, tensor<i32>)
  %popped = "tf.StackPopV2"(%loop#0) : (!stack) -> tensor<3xi32>
  func.return %popped, %loop#1 : tensor<3xi32>, tensor<i32>
}
func.func @body(%arg0: !stack, %arg1: tensor<i32>) -> (!stack, tensor<i32>) {
  %elem = "tf._SomeOp"(%arg1) : (tensor<i32>) -> tensor<3xi32>
  %pushed = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<3xi32>) -> tensor<3xi32>
  func.return %arg0, %arg1 : !stack, tensor<i32>
}
func.func @cond(%arg0: !stack, %arg1: tensor<i32>) -> tensor<i1> {
  %pred = "tf._SomeOp"(%arg1) : (tensor<i32>) -> tensor<i1>
  func.return %pred : tensor<i1>
}

// -----

!stack = tensor<!tf_type.resource>

// A loop body that swaps two stacks: the loop is rebuilt, its results (not
// forwarded at their own index) are the new loop's.

// CHECK-LABEL: func.func @main
// CHECK: %[[LOOP:.*]]:4 = "tf.While"
// CHECK-NEXT: "tf._SomeOp"(%[[LOOP]]#0, %[[LOOP]]#1)
// CHECK-LABEL: func.func @swap
// CHECK-SAME: (%[[B0:.*]]: tensor<!tf_type.resource<tensor<5xf32>>>, %[[B1:.*]]: tensor<!tf_type.resource<tensor<5xf32>>>, %[[S0:.*]]: tensor<!tf_type.resource<tensor<1xi32>>>, %[[S1:.*]]: tensor<!tf_type.resource<tensor<1xi32>>>)
// CHECK: return %[[B1]], %[[B0]], %[[S0]], %[[S1]]
func.func @main() -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %t = "tf.StackV2"(%max) {elem_type = f32, stack_name = "t"} : (tensor<i32>) -> !stack
  %loop:2 = "tf.While"(%s, %t) {body = @swap, cond = @cond, is_stateless = false} : (!stack, !stack) -> (!stack, !stack)
  "tf._SomeOp"(%loop#0, %loop#1) : (!stack, !stack) -> ()
  func.return
}
func.func @swap(%arg0: !stack, %arg1: !stack) -> (!stack, !stack) {
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %p = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  %q = "tf.StackPushV2"(%arg1, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return %arg1, %arg0 : !stack, !stack
}
func.func @cond(%arg0: !stack, %arg1: !stack) -> tensor<i1> {
  %pred = "tf._SomeOp"() : () -> tensor<i1>
  func.return %pred : tensor<i1>
}

// -----

!stack = tensor<!tf_type.resource>

// tf.If: both branches take the size variable (no return change); the stack
// result both branches forward is the If's stack operand.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[PRED:.*]]: tensor<i1>)
// CHECK: %[[BUFVAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<5xf32>>>
// CHECK-NEXT: %[[SIZEVAR:.*]] = "tf.MlirLocalVarOp"()
// CHECK: %[[IF:.*]]:2 = "tf.If"(%[[PRED]], %[[BUFVAR]], %{{.*}}, %[[SIZEVAR]]) <{else_branch = @else, is_stateless = false, then_branch = @then}> : (tensor<i1>, tensor<!tf_type.resource<tensor<5xf32>>>, tensor<i32>, tensor<!tf_type.resource<tensor<1xi32>>>) -> (tensor<!tf_type.resource<tensor<5xf32>>>, tensor<f32>)
// CHECK-NEXT: "tf.ReadVariableOp"(%[[BUFVAR]])
// CHECK: return %{{.*}}, %[[IF]]#1
// CHECK-LABEL: func.func @then
// CHECK-SAME: (%[[T0:.*]]: tensor<!tf_type.resource<tensor<5xf32>>>, %{{.*}}: tensor<i32>, %[[T2:.*]]: tensor<!tf_type.resource<tensor<1xi32>>>) -> (tensor<!tf_type.resource<tensor<5xf32>>>, tensor<f32>)
// CHECK: "tf.AssignVariableOp"(%[[T0]],
// CHECK: "tf.AssignVariableOp"(%[[T2]],
// CHECK-NEXT: return %[[T0]], %{{.*}} :
// CHECK-LABEL: func.func @else
// CHECK-SAME: (%[[E0:.*]]: tensor<!tf_type.resource<tensor<5xf32>>>, %{{.*}}: tensor<i32>, %[[E2:.*]]: tensor<!tf_type.resource<tensor<1xi32>>>)
// CHECK: "tf.Sub"
// CHECK: "tf.AssignVariableOp"(%[[E2]],
// CHECK-NEXT: return %[[E0]], %{{.*}} :
func.func @main(%arg0: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %if:2 = "tf.If"(%arg0, %s, %max) {then_branch = @then, else_branch = @else, is_stateless = false} : (tensor<i1>, !stack, tensor<i32>) -> (!stack, tensor<f32>)
  %popped = "tf.StackPopV2"(%if#0) : (!stack) -> tensor<f32>
  func.return %popped, %if#1 : tensor<f32>, tensor<f32>
}
func.func @then(%arg0: !stack, %arg1: tensor<i32>) -> (!stack, tensor<f32>) {
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %pushed = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return %arg0, %pushed : !stack, tensor<f32>
}
func.func @else(%arg0: !stack, %arg1: tensor<i32>) -> (!stack, tensor<f32>) {
  %popped = "tf.StackPopV2"(%arg0) : (!stack) -> tensor<f32>
  func.return %arg0, %popped : !stack, tensor<f32>
}

// -----

!stack = tensor<!tf_type.resource>

// Calls: a public callee is decomposed in a private copy named
// <callee>_stack_decomposed (renamed as MLIR's symbol table does when the
// name is taken), added at the end of the module; a second call reuses it; a
// private callee is changed in place; a stack result the callee forwards is
// the call's operand.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[PRED:.*]]: tensor<i1>)
// CHECK: %[[BUFVAR:.*]] = "tf.MlirLocalVarOp"()
// CHECK-NEXT: %[[SIZEVAR:.*]] = "tf.MlirLocalVarOp"()
// CHECK: "tf.StatefulPartitionedCall"(%[[BUFVAR]], %[[SIZEVAR]]) <{config = "", config_proto = "", executor_type = "", f = @push_stack_decomposed_0}> : (tensor<!tf_type.resource<tensor<5xf32>>>, tensor<!tf_type.resource<tensor<1xi32>>>) -> tensor<!tf_type.resource<tensor<5xf32>>>
// CHECK-NEXT: "tf.PartitionedCall"(%[[PRED]], %[[BUFVAR]], %[[SIZEVAR]]) <{config = "", config_proto = "", executor_type = "", f = @pop}> : (tensor<i1>, tensor<!tf_type.resource<tensor<5xf32>>>, tensor<!tf_type.resource<tensor<1xi32>>>) -> tensor<f32>
// CHECK-NEXT: "tf.StatefulPartitionedCall"(%[[BUFVAR]], %[[SIZEVAR]]) <{config = "", config_proto = "", executor_type = "", f = @push_stack_decomposed_0}>
// CHECK-NEXT: "tf.ReadVariableOp"(%[[BUFVAR]])
// CHECK: func.func @push_stack_decomposed()
// CHECK: func.func @push(%[[ARG:.*]]: tensor<!tf_type.resource>) -> tensor<!tf_type.resource>
// CHECK-NEXT: "tf._SomeOp"
// CHECK-NEXT: "tf.StackPushV2"(%[[ARG]],
// CHECK: func.func private @pop(%{{.*}}: tensor<i1>, %[[P1:.*]]: tensor<!tf_type.resource<tensor<5xf32>>>, %[[P2:.*]]: tensor<!tf_type.resource<tensor<1xi32>>>) -> tensor<f32>
// CHECK-NEXT: "tf.ReadVariableOp"(%[[P1]])
// CHECK-NEXT: "tf.ReadVariableOp"(%[[P2]])
// CHECK: func.func private @push_stack_decomposed_0(%[[Q1:.*]]: tensor<!tf_type.resource<tensor<5xf32>>>, %[[Q2:.*]]: tensor<!tf_type.resource<tensor<1xi32>>>) -> tensor<!tf_type.resource<tensor<5xf32>>>
// CHECK: "tf.XlaDynamicUpdateSlice"
// CHECK: return %[[Q1]]
// CHECK-NOT: tf.Stack
func.func @main(%arg0: tensor<i1>) -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %c = "tf.StatefulPartitionedCall"(%s) {f = @push, config = "", config_proto = "", executor_type = ""} : (!stack) -> !stack
  %d = "tf.PartitionedCall"(%arg0, %c) {f = @pop, config = "", config_proto = "", executor_type = ""} : (tensor<i1>, !stack) -> tensor<f32>
  %e = "tf.StatefulPartitionedCall"(%s) {f = @push, config = "", config_proto = "", executor_type = ""} : (!stack) -> !stack
  %popped = "tf.StackPopV2"(%e) : (!stack) -> tensor<f32>
  func.return
}
func.func @push_stack_decomposed() -> () {
  func.return
}
func.func @push(%arg0: !stack) -> !stack {
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %pushed = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return %arg0 : !stack
}
func.func private @pop(%arg0: tensor<i1>, %arg1: !stack) -> tensor<f32> {
  %popped = "tf.StackPopV2"(%arg1) : (!stack) -> tensor<f32>
  func.return %popped : tensor<f32>
}

// -----

!stack = tensor<!tf_type.resource>

// Stacks of their own in a loop body and in a public callee (no stack crosses
// the op): decomposed in place, the functions keep their signature and place.

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[MAX:.*]] = "tf.Const"
// CHECK-NEXT: "tf.While"(%[[MAX]]) <{body = @body, cond = @cond, is_stateless = false}> : (tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "tf.PartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @own}> : () -> ()
// CHECK-LABEL: func.func @body
// CHECK-SAME: (%{{.*}}: tensor<i32>) -> tensor<i32>
// CHECK: "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<3xf32>>>
// CHECK: "tf.XlaDynamicUpdateSlice"
// CHECK-LABEL: func.func @cond
// CHECK-LABEL: func.func @own()
// CHECK: "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<2x2xf32>>>
// CHECK: "tf.XlaDynamicUpdateSlice"
// CHECK-NOT: tf.Stack
// CHECK-NOT: func.func
func.func @main() -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %loop = "tf.While"(%max) {body = @body, cond = @cond, is_stateless = false} : (tensor<i32>) -> tensor<i32>
  "tf.PartitionedCall"() {f = @own, config = "", config_proto = "", executor_type = ""} : () -> ()
  func.return
}
func.func @body(%arg0: tensor<i32>) -> tensor<i32> {
  %max = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return %arg0 : tensor<i32>
}
func.func @cond(%arg0: tensor<i32>) -> tensor<i1> {
  %pred = "tf._SomeOp"() : () -> tensor<i1>
  func.return %pred : tensor<i1>
}
func.func @own() -> () {
  %max = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %elem = "tf._SomeOp"() : () -> tensor<2xf32>
  %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

!stack = tensor<!tf_type.resource>

// Region control flow is decomposed in place, nested regions too: the stack
// of the enclosing function is known there.

// CHECK-LABEL: func.func @main
// CHECK: %[[BUFVAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<5xf32>>>
// CHECK-NEXT: %[[SIZEVAR:.*]] = "tf.MlirLocalVarOp"()
// CHECK: "tf.IfRegion"
// CHECK: "tf.XlaDynamicUpdateSlice"
// CHECK: "tf.AssignVariableOp"(%[[SIZEVAR]],
// CHECK: "tf.WhileRegion"
// CHECK: "tf.ReadVariableOp"(%[[BUFVAR]])
// CHECK: "tf.Sub"
// CHECK: "tf.AssignVariableOp"(%[[SIZEVAR]],
// CHECK: "tf.CaseRegion"
// CHECK: "tf.ReadVariableOp"(%[[SIZEVAR]])
// CHECK: "tf.AddV2"
// CHECK-NOT: tf.Stack
func.func @main(%arg0: tensor<i1>, %arg1: tensor<i32>) -> tensor<f32> {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %r = "tf.IfRegion"(%arg0) ({
    %elem = "tf._SomeOp"() : () -> tensor<f32>
    %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%pushed) : (tensor<f32>) -> ()
  }, {
    %w = "tf.WhileRegion"(%arg1) ({
    ^bb0(%a: tensor<i32>):
      %pred = "tf._SomeOp"(%a) : (tensor<i32>) -> tensor<i1>
      "tf.Yield"(%pred) : (tensor<i1>) -> ()
    }, {
    ^bb0(%a: tensor<i32>):
      %popped = "tf.StackPopV2"(%s) : (!stack) -> tensor<f32>
      "tf.Yield"(%a) : (tensor<i32>) -> ()
    }) {is_stateless = false} : (tensor<i32>) -> tensor<i32>
    %elem = "tf._SomeOp"() : () -> tensor<f32>
    "tf.Yield"(%elem) : (tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
  "tf.CaseRegion"(%arg1) ({
    %pushed = "tf.StackPushV2"(%s, %r) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i32>) -> ()
  %last = "tf.StackPopV2"(%s) : (!stack) -> tensor<f32>
  func.return %last : tensor<f32>
}

// -----

// Without @main nothing changes.

// CHECK-LABEL: func.func @not_main
// CHECK-NEXT: "tf.Const"
// CHECK-NEXT: "tf.StackV2"
// CHECK-NEXT: "tf._SomeOp"
// CHECK-NEXT: "tf.StackPushV2"
func.func @not_main() -> () {
  %max = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> tensor<!tf_type.resource>
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (tensor<!tf_type.resource>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

!stack = tensor<!tf_type.resource>

// A nested reference names a function of a nested module (MLIR's lookup): a
// public one with a stack argument is copied to the end of the top module;
// one without is decomposed in place.

// CHECK-LABEL: func.func @main
// CHECK: %[[BUFVAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<5xf32>>>
// CHECK-NEXT: %[[SIZEVAR:.*]] = "tf.MlirLocalVarOp"()
// CHECK: "tf.PartitionedCall"(%[[BUFVAR]], %[[SIZEVAR]]) <{config = "", config_proto = "", executor_type = "", f = @push_stack_decomposed}>
// CHECK-NEXT: "tf.PartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @inner::@own}>
// CHECK-NEXT: "tf.ReadVariableOp"(%[[BUFVAR]])
// CHECK: module @inner
// CHECK: func.func @push(%{{.*}}: tensor<!tf_type.resource>) -> tensor<!tf_type.resource>
// CHECK-NEXT: "tf._SomeOp"
// CHECK-NEXT: "tf.StackPushV2"
// CHECK: func.func @own()
// CHECK: "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<7xi32>>>
// CHECK: func.func private @push_stack_decomposed(%{{.*}}: tensor<!tf_type.resource<tensor<5xf32>>>, %{{.*}}: tensor<!tf_type.resource<tensor<1xi32>>>) -> tensor<!tf_type.resource<tensor<5xf32>>>
// CHECK: "tf.XlaDynamicUpdateSlice"
module {
  func.func @main() -> () {
    %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
    %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
    %c = "tf.PartitionedCall"(%s) {f = @inner::@push, config = "", config_proto = "", executor_type = ""} : (!stack) -> !stack
    "tf.PartitionedCall"() {f = @inner::@own, config = "", config_proto = "", executor_type = ""} : () -> ()
    %popped = "tf.StackPopV2"(%c) : (!stack) -> tensor<f32>
    func.return
  }
  module @inner {
    func.func @push(%arg0: !stack) -> !stack {
      %elem = "tf._SomeOp"() : () -> tensor<f32>
      %pushed = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
      func.return %arg0 : !stack
    }
    func.func @own() -> () {
      %max = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
      %s = "tf.StackV2"(%max) {elem_type = i32, stack_name = "s"} : (tensor<i32>) -> !stack
      %elem = "tf._SomeOp"() : () -> tensor<i32>
      %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<i32>) -> tensor<i32>
      func.return
    }
  }
}
