// RUN: tfmlir-opt %s -split-input-file -tf-guarantee-all-funcs-one-use | FileCheck %s

// A function called twice: the first call keeps it, the second calls a private
// copy appended to the module (the original keeps its visibility).

// CHECK-LABEL: func.func @two_calls
// CHECK: "tf.PartitionedCall"(%arg0) <{{.*}}f = @square}>
// CHECK: "tf.StatefulPartitionedCall"(%{{.*}}) <{{.*}}f = @square_0}>
// CHECK: func.func @square(
// CHECK: func.func private @square_0(
// CHECK-NEXT: "tf.Square"
func.func @two_calls(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @square} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.StatefulPartitionedCall"(%0) {config = "", config_proto = "", executor_type = "", f = @square} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
func.func @square(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Square"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// Callees of callees: the first sweep copies @block and gives the second call
// in @block its own @conv; the next sweep copies @conv for both calls of the
// copy @block_0 (one name counter for the whole run).

// CHECK-LABEL: func.func @net
// CHECK: call @block(
// CHECK: call @block_0(
// CHECK: func.func private @block(
// CHECK: "tf.LegacyCall"(%arg0) <{f = @conv}>
// CHECK: "tf.LegacyCall"(%{{.*}}) <{f = @conv_1}>
// CHECK: func.func private @conv(
// CHECK: func.func private @block_0(
// CHECK: "tf.LegacyCall"(%arg0) <{f = @conv_2}>
// CHECK: "tf.LegacyCall"(%{{.*}}) <{f = @conv_3}>
// CHECK: func.func private @conv_1(
// CHECK: func.func private @conv_2(
// CHECK: func.func private @conv_3(
// CHECK-NOT: func.func
func.func @net(%x: tensor<f32>) -> tensor<f32> {
  %0 = func.call @block(%x) : (tensor<f32>) -> tensor<f32>
  %1 = func.call @block(%0) : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
func.func private @block(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.LegacyCall"(%x) {f = @conv} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.LegacyCall"(%0) {f = @conv} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
func.func private @conv(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Relu"(%x) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Names: taken names are skipped and the counter is shared by all names
// (@cell_0 and @cell_1 exist: the copies of @cell are @cell_2 and @cell_3, the
// copy of @gate is @gate_4). Copies are appended in the order they are made.

// CHECK-LABEL: func.func @names
// CHECK-NEXT: call @cell()
// CHECK-NEXT: call @gate()
// CHECK-NEXT: call @cell_2()
// CHECK-NEXT: call @cell_0()
// CHECK-NEXT: call @gate_4()
// CHECK-NEXT: call @cell_3()
// CHECK: func.func private @cell_1()
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @cell_2()
// CHECK: func.func private @cell_3()
// CHECK: func.func private @gate_4()
func.func @names() {
  func.call @cell() : () -> ()
  func.call @gate() : () -> ()
  func.call @cell() : () -> ()
  func.call @cell_0() : () -> ()
  func.call @gate() : () -> ()
  func.call @cell() : () -> ()
  func.return
}
func.func private @cell() {
  func.return
}
func.func private @cell_0() {
  func.return
}
func.func private @gate() {
  func.return
}
func.func private @cell_1() {
  func.return
}

// -----

// Functional control flow uses its branches and loop functions: every op is
// one user, whichever attributes name the function (the tf.Case naming @double
// twice gets one copy). Functions are visited in module order: all copies of
// @double are made before those of @negate.

// CHECK-LABEL: func.func @branches
// CHECK: "tf.If"({{.*}}) <{else_branch = @negate, is_stateless = true, then_branch = @double}>
// CHECK: "tf.If"({{.*}}) <{else_branch = @double_0, is_stateless = true, then_branch = @negate_3}>
// CHECK: "tf.Case"({{.*}}) <{branches = [@double_1, @negate_4, @double_1], is_stateless = true}>
// CHECK: "tf.While"({{.*}}) <{body = @double_2, cond = @positive, is_stateless = true}>
// CHECK: "tf.While"({{.*}}) <{body = @negate_5, cond = @positive_6, is_stateless = false}>
// CHECK: func.func private @positive_6(
// CHECK-NEXT: "tf.Const"
func.func @branches(%p: tensor<i1>, %x: tensor<f32>, %i: tensor<i32>) -> tensor<f32> {
  %0 = "tf.If"(%p, %x) {then_branch = @double, else_branch = @negate, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  %1 = "tf.If"(%p, %0) {then_branch = @negate, else_branch = @double, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  %2 = "tf.Case"(%i, %1) {branches = [@double, @negate, @double], is_stateless = true} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  %3 = "tf.While"(%2) {cond = @positive, body = @double, is_stateless = true} : (tensor<f32>) -> tensor<f32>
  %4 = "tf.While"(%3) {cond = @positive, body = @negate, is_stateless = false} : (tensor<f32>) -> tensor<f32>
  func.return %4 : tensor<f32>
}
func.func private @double(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.AddV2"(%x, %x) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @negate(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @positive(%x: tensor<f32>) -> tensor<i1> {
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Greater"(%x, %zero) : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return %0 : tensor<i1>
}

// -----

// Which user keeps the function is decided by MLIR's symbol-use walk: the ops
// of a region come before the regions nested in them, and nested regions are
// visited last first. So the last island keeps @ident, the call after the
// tf.IfRegion keeps @tanh and the else branch comes before the then branch.

// CHECK-LABEL: func.func @walk_order
// CHECK: tf_executor.island wraps "tf.PartitionedCall"(%arg0) <{{.*}}f = @ident_1}>
// CHECK: tf_executor.island wraps "tf.PartitionedCall"(%{{.*}}) <{{.*}}f = @ident_0}>
// CHECK: tf_executor.island wraps "tf.PartitionedCall"(%{{.*}}) <{{.*}}f = @ident}>
// CHECK: "tf.IfRegion"
// CHECK: func.call @tanh_3(
// CHECK: func.call @tanh_2(
// CHECK: call @tanh(
func.func @walk_order(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %a, %ca = tf_executor.island wraps "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @ident} : (tensor<f32>) -> tensor<f32>
    %b, %cb = tf_executor.island wraps "tf.PartitionedCall"(%a) {config = "", config_proto = "", executor_type = "", f = @ident} : (tensor<f32>) -> tensor<f32>
    %c, %cc = tf_executor.island wraps "tf.PartitionedCall"(%b) {config = "", config_proto = "", executor_type = "", f = @ident} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %c : tensor<f32>
  }
  %1 = "tf.IfRegion"(%p) ({
    %t = func.call @tanh(%0) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%t) : (tensor<f32>) -> ()
  }, {
    %e = func.call @tanh(%0) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%e) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  %2 = func.call @tanh(%1) : (tensor<f32>) -> tensor<f32>
  func.return %2 : tensor<f32>
}
func.func private @ident(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
func.func private @tanh(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Tanh"(%x) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Uses that are not calls count too: func.constant, references in arrays and
// dictionaries, in #tf_type.func, and @helper::@inner (a use of @helper).

// CHECK-LABEL: func.func @other_uses
// CHECK: constant @target
// CHECK: constant @helper
// CHECK: "tf.NoOp"() {_list = [@target_0, {key = @helper_2::@inner}]}
// CHECK: "tf.NoOp"() {_fn = #tf_type.func<@target_1, {other = @helper_3}>}
// CHECK: func.func private @target_0()
// CHECK: func.func private @target_1()
// CHECK: func.func private @helper_2()
// CHECK: func.func private @helper_3()
func.func @other_uses() {
  %0 = func.constant @target : () -> ()
  %1 = func.constant @helper : () -> ()
  "tf.NoOp"() {_list = [@target, {key = @helper::@inner}]} : () -> ()
  "tf.NoOp"() {_fn = #tf_type.func<@target, {other = @helper}>} : () -> ()
  func.call_indirect %0() : () -> ()
  func.return
}
func.func private @target() {
  func.return
}
func.func private @helper() {
  func.return
}

// -----

// A function naming @shared in an argument attribute is itself a user, before
// the call in its body. Its references move to a copy together (those in its
// body too): the call's own copy @shared_1 is left without a use, and the next
// sweep gives the call a copy of @shared_0.

// CHECK-LABEL: func.func @first
// CHECK: call @shared(
// CHECK: func.func @second(%arg0: tensor<f32> {tf._source = @shared_0})
// CHECK: call @shared_0_2(
// CHECK: func.func private @shared(
// CHECK: func.func private @shared_0(
// CHECK: func.func private @shared_1(
// CHECK: func.func private @shared_0_2(
func.func @first(%x: tensor<f32>) -> tensor<f32> {
  %0 = func.call @shared(%x) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func @second(%x: tensor<f32> {tf._source = @shared}) -> tensor<f32> {
  %0 = func.call @shared(%x) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @shared(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}

// -----

// Functions of nested modules are never copied, and uses inside a nested
// module are uses of its own symbols: @inner::@callee is called twice in
// @inner, and @inner::@... references use the module @inner.

// CHECK-LABEL: module @inner
// CHECK: func.func @caller()
// CHECK-NEXT: call @callee()
// CHECK-NEXT: call @callee()
// CHECK: func.func @outer()
// CHECK: f = @inner::@caller
// CHECK: f = @inner::@callee
// CHECK: call @callee()
// CHECK: func.func private @callee()
// CHECK-NOT: func.func
module {
  module @inner {
    func.func @callee() {
      func.return
    }
    func.func @caller() {
      func.call @callee() : () -> ()
      func.call @callee() : () -> ()
      func.return
    }
  }
  func.func @outer() {
    "tf.PartitionedCall"() {config = "", config_proto = "", executor_type = "", f = @inner::@caller} : () -> ()
    "tf.PartitionedCall"() {config = "", config_proto = "", executor_type = "", f = @inner::@callee} : () -> ()
    func.call @callee() : () -> ()
    func.return
  }
  func.func private @callee() {
    func.return
  }
}

// -----

// The attributes of a nested module are uses in the outer module (before the
// call here). Names needing quotes get their suffix inside the quotes; a
// "nested" function's copy is private too.

// CHECK-LABEL: module @holder attributes {tf._uses = [@nested_vis]}
// CHECK: func.func @quoted()
// CHECK-NEXT: call @nested_vis_0()
// CHECK-NEXT: call @"odd name"()
// CHECK-NEXT: call @"odd name_1"()
// CHECK: func.func nested @nested_vis()
// CHECK: func.func private @"odd name"()
// CHECK: func.func private @nested_vis_0()
// CHECK: func.func private @"odd name_1"()
module {
  module @holder attributes {tf._uses = [@nested_vis]} {
  }
  func.func @quoted() {
    func.call @nested_vis() : () -> ()
    func.call @"odd name"() : () -> ()
    func.call @"odd name"() : () -> ()
    func.return
  }
  func.func nested @nested_vis() {
    func.return
  }
  func.func private @"odd name"() {
    func.return
  }
}

// -----

// Declarations are copied like the others.

// CHECK-LABEL: func.func @declarations
// CHECK: call @external(
// CHECK: call @external_0(
// CHECK: func.func private @external(tensor<f32>) -> tensor<f32>
// CHECK: func.func private @external_0(tensor<f32>) -> tensor<f32>
func.func @declarations(%x: tensor<f32>) -> tensor<f32> {
  %0 = func.call @external(%x) : (tensor<f32>) -> tensor<f32>
  %1 = func.call @external(%0) : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
func.func private @external(tensor<f32>) -> tensor<f32>

// -----

// Functions used once or not at all stay as they are.

// CHECK-LABEL: func.func @single_uses
// CHECK: call @once(
// CHECK: func.func private @once(
// CHECK: func.func private @never(
// CHECK-NOT: func.func
func.func @single_uses(%x: tensor<f32>) -> tensor<f32> {
  %0 = func.call @once(%x) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @once(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
func.func private @never(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}

// -----

// A cycle of uses that are not calls (tf.If branches) where every function has
// one use: nothing to copy, the pass ends.

// CHECK-LABEL: func.func private @ping
// CHECK: then_branch = @pong
// CHECK: func.func private @pong
// CHECK: then_branch = @ping
// CHECK-NOT: @ping_
// CHECK-NOT: @pong_
func.func private @ping(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.If"(%p, %p, %x) {then_branch = @pong, else_branch = @stop_ping, is_stateless = true} : (tensor<i1>, tensor<i1>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @pong(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.If"(%p, %p, %x) {then_branch = @ping, else_branch = @stop_pong, is_stateless = true} : (tensor<i1>, tensor<i1>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @stop_ping(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
func.func private @stop_pong(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}

// -----

// A saved model: the session initializer is the first user of @init (kept);
// references to global tensors are uses of those, never copied. @setup is
// called from two exported functions.

// CHECK-LABEL: module attributes {tf_saved_model.semantics}
// CHECK: "tf_saved_model.session_initializer"() <{initializers = [@init]}>
// CHECK: func.func @init()
// CHECK-NEXT: call @setup()
// CHECK: func.func @serve(%arg0: tensor<f32> {tf_saved_model.index_path = [0]}, %arg1: tensor<!tf_type.resource<tensor<f32>>> {tf_saved_model.bound_input = @weight})
// CHECK: "tf.StatefulPartitionedCall"(%arg0, %arg1) <{{.*}}f = @scale}>
// CHECK: "tf.StatefulPartitionedCall"(%{{.*}}, %arg1) <{{.*}}f = @scale_0}>
// CHECK: call @setup_1()
// CHECK: func.func private @scale_0(
// CHECK: func.func private @setup_1()
module attributes {tf_saved_model.semantics} {
  "tf_saved_model.global_tensor"() {is_mutable, sym_name = "weight", type = tensor<f32>, value = dense<2.0> : tensor<f32>} : () -> ()
  "tf_saved_model.session_initializer"() {initializers = [@init]} : () -> ()
  func.func @init() attributes {tf_saved_model.exported_names = ["init"], tf_saved_model.initializer_type = "restore_op"} {
    func.call @setup() : () -> ()
    func.return
  }
  func.func @serve(%x: tensor<f32> {tf_saved_model.index_path = [0]}, %w: tensor<!tf_type.resource<tensor<f32>>> {tf_saved_model.bound_input = @weight}) -> (tensor<f32> {tf_saved_model.index_path = []}) attributes {tf_saved_model.exported_names = ["serve"]} {
    %0 = "tf.StatefulPartitionedCall"(%x, %w) {config = "", config_proto = "", executor_type = "", f = @scale} : (tensor<f32>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %1 = "tf.StatefulPartitionedCall"(%0, %w) {config = "", config_proto = "", executor_type = "", f = @scale} : (tensor<f32>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    func.call @setup() : () -> ()
    func.return %1 : tensor<f32>
  }
  func.func private @scale(%x: tensor<f32>, %w: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> {
    %0 = "tf.ReadVariableOp"(%w) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %1 = "tf.Mul"(%x, %0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    func.return %1 : tensor<f32>
  }
  func.func private @setup() {
    func.return
  }
}

// -----

// A module without functions.

// CHECK-LABEL: module {
// CHECK-NEXT: }
module {
}
