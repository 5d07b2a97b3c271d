// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-stack-ops-decomposition

!stack = tensor<!tf_type.resource>

// The maximum size is not a tf.Const.

func.func @main(%arg0: tensor<i32>) -> () {
  // expected-error @+1 {{'tf.StackV2' op unknown max element count}}
  %s = "tf.StackV2"(%arg0) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %elem = "tf._SomeOp"() : () -> tensor<2xf32>
  %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

!stack = tensor<!tf_type.resource>

// No push at all: no element type.

func.func @main() -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.StackV2' op cannot infer element shape of stack}}
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  "tf.StackCloseV2"(%s) : (!stack) -> ()
  func.return
}

// -----

!stack = tensor<!tf_type.resource>

// The element type is the first static one found at the uses: the push after
// the loop is found after the one in the body, whose element has an unknown
// dimension.

func.func @main() -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.StackV2' op cannot infer element shape of stack}}
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %loop = "tf.While"(%s) {body = @body, cond = @cond, is_stateless = false} : (!stack) -> !stack
  %elem = "tf._SomeOp"() : () -> tensor<*xf32>
  %pushed = "tf.StackPushV2"(%loop, %elem) {swap_memory = false} : (!stack, tensor<*xf32>) -> tensor<*xf32>
  func.return
}
func.func @body(%arg0: !stack) -> !stack {
  %elem = "tf._SomeOp"() : () -> tensor<?xf32>
  %pushed = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<?xf32>) -> tensor<?xf32>
  func.return %arg0 : !stack
}
func.func @cond(%arg0: !stack) -> tensor<i1> {
  %pred = "tf._SomeOp"() : () -> tensor<i1>
  func.return %pred : tensor<i1>
}

// -----

!stack = tensor<!tf_type.resource>

// A stack @main takes as an argument is not known.

func.func @main(%arg0: !stack) -> tensor<f32> {
  // expected-error @+1 {{'tf.StackPopV2' op unknown stack}}
  %popped = "tf.StackPopV2"(%arg0) : (!stack) -> tensor<f32>
  func.return %popped : tensor<f32>
}

// -----

!stack = tensor<!tf_type.resource>

// A closed stack is not known any more.

func.func @main() -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  "tf.StackCloseV2"(%s) : (!stack) -> ()
  // expected-error @+1 {{'tf.StackPushV2' op unknown stack}}
  %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

!stack = tensor<!tf_type.resource>

// Regions share the enclosing function's stacks: a close in a branch closes it
// after the IfRegion too.

func.func @main(%arg0: tensor<i1>) -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  "tf.IfRegion"(%arg0) ({
    %elem = "tf._SomeOp"() : () -> tensor<f32>
    %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
    "tf.StackCloseV2"(%s) : (!stack) -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  // expected-error @+1 {{'tf.StackPopV2' op unknown stack}}
  %popped = "tf.StackPopV2"(%s) : (!stack) -> tensor<f32>
  func.return
}

// -----

!stack = tensor<!tf_type.resource>

// No stack is known in a loop condition.

func.func @main() -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %loop:2 = "tf.While"(%s, %max) {body = @body, cond = @cond, is_stateless = false} : (!stack, tensor<i32>) -> (!stack, tensor<i32>)
  func.return
}
func.func @body(%arg0: !stack, %arg1: tensor<i32>) -> (!stack, tensor<i32>) {
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %pushed = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return %arg0, %arg1 : !stack, tensor<i32>
}
func.func @cond(%arg0: !stack, %arg1: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{'tf.StackPopV2' op unknown stack}}
  %popped = "tf.StackPopV2"(%arg0) : (!stack) -> tensor<f32>
  %pred = "tf._SomeOp"(%popped) : (tensor<f32>) -> tensor<i1>
  func.return %pred : tensor<i1>
}

// -----

!stack = tensor<!tf_type.resource>

// A loop result its body does not forward at its own index is not a known
// stack.

func.func @main() -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %t = "tf.StackV2"(%max) {elem_type = f32, stack_name = "t"} : (tensor<i32>) -> !stack
  %loop:2 = "tf.While"(%s, %t) {body = @swap, cond = @cond, is_stateless = false} : (!stack, !stack) -> (!stack, !stack)
  // expected-error @+1 {{'tf.StackPopV2' op unknown stack}}
  %popped = "tf.StackPopV2"(%loop#0) : (!stack) -> tensor<f32>
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

// Branches forwarding different arguments: the If's result is not a known
// stack.

func.func @main(%arg0: tensor<i1>) -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %t = "tf.StackV2"(%max) {elem_type = f32, stack_name = "t"} : (tensor<i32>) -> !stack
  %if = "tf.If"(%arg0, %s, %t) {then_branch = @first, else_branch = @second, is_stateless = false} : (tensor<i1>, !stack, !stack) -> !stack
  // expected-error @+1 {{'tf.StackPushV2' op unknown stack}}
  %pushed = "tf.StackPushV2"(%if, %max) {swap_memory = false} : (!stack, tensor<i32>) -> tensor<i32>
  func.return
}
func.func @first(%arg0: !stack, %arg1: !stack) -> !stack {
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %p = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  %q = "tf.StackPushV2"(%arg1, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return %arg0 : !stack
}
func.func @second(%arg0: !stack, %arg1: !stack) -> !stack {
  func.return %arg1 : !stack
}

// -----

!stack = tensor<!tf_type.resource>

// A callee decomposed with a stack argument: a later call must pass a known
// stack there too.

func.func @main(%arg0: !stack) -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %c = "tf.StatefulPartitionedCall"(%s) {f = @push, config = "", config_proto = "", executor_type = ""} : (!stack) -> !stack
  // expected-error @+1 {{'tf.StatefulPartitionedCall' op unknown stack}}
  %d = "tf.StatefulPartitionedCall"(%arg0) {f = @push, config = "", config_proto = "", executor_type = ""} : (!stack) -> !stack
  func.return
}
func.func @push(%arg0: !stack) -> !stack {
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %pushed = "tf.StackPushV2"(%arg0, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  func.return %arg0 : !stack
}

// -----

!stack = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<i32>) -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  %elem = "tf._SomeOp"() : () -> tensor<f32>
  %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.WhileRegion' op found unexpected type 'tensor<!tf_type.resource<tensor<5xf32>>>' of operand #1, resource type operands are expected to have been canonicalized away for region based control flow ops}}
  %loop:2 = "tf.WhileRegion"(%arg0, %s) ({
  ^bb0(%a: tensor<i32>, %b: !stack):
    %pred = "tf._SomeOp"(%a) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%pred) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>, %b: !stack):
    %inner = "tf.StackPushV2"(%b, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%a, %b) : (tensor<i32>, !stack) -> ()
  }) {is_stateless = false} : (tensor<i32>, !stack) -> (tensor<i32>, !stack)
  func.return
}

// -----

!stack = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<i32>) -> () {
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%max) {elem_type = f32, stack_name = "s"} : (tensor<i32>) -> !stack
  // expected-error @+1 {{'tf.CaseRegion' op found unexpected type 'tensor<!tf_type.resource>' of result #0, resource type results are expected to have been canonicalized away for region based control flow ops}}
  %r = "tf.CaseRegion"(%arg0) ({
    %elem = "tf._SomeOp"() : () -> tensor<f32>
    %pushed = "tf.StackPushV2"(%s, %elem) {swap_memory = false} : (!stack, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%s) : (!stack) -> ()
  }) {is_stateless = false} : (tensor<i32>) -> !stack
  func.return
}
