// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-guarantee-all-funcs-one-use

// A function calling itself: TF's message at the module, naming the location
// of every function in the cycle.

// expected-error @+1 {{A recursive call graph cannot be transformed to one use for all functions. Functions in the recursive cycle are: loc("countdown")}}
module {
  func.func private @countdown(%x: tensor<i32>) -> tensor<i32> {
    %0 = func.call @countdown(%x) : (tensor<i32>) -> tensor<i32>
    func.return %0 : tensor<i32>
  } loc("countdown")
}

// -----

// Calls in nested modules count, in the order of LLVM's SCC iterator.

// expected-error @+1 {{Functions in the recursive cycle are: loc("odd"), loc("even")}}
module {
  func.func @main() {
    "tf.PartitionedCall"() {config = "", config_proto = "", executor_type = "", f = @inner::@even} : () -> ()
    func.return
  }
  module @inner {
    func.func @even() {
      "tf.StatefulPartitionedCall"() {config = "", config_proto = "", executor_type = "", f = @odd} : () -> ()
      func.return
    } loc("even")
    func.func @odd() {
      "tf.StatefulPartitionedCall"() {config = "", config_proto = "", executor_type = "", f = @even} : () -> ()
      func.return
    } loc("odd")
  }
}

// -----

// tf_device.cluster_func and tf.LegacyCall are calls.

// expected-error @+1 {{Functions in the recursive cycle are: loc("device"), loc("host")}}
module {
  func.func @host(%x: tensor<f32>) -> tensor<f32> {
    %0 = "tf_device.cluster_func"(%x) {func = @device} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  } loc("host")
  func.func private @device(%x: tensor<f32>) -> tensor<f32> {
    %0 = "tf.LegacyCall"(%x) {f = @host} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  } loc("device")
}

// -----

// Two cycles: the one reached first from the module's first function is named.

// expected-error @+1 {{Functions in the recursive cycle are: loc("b3"), loc("b2"), loc("b1")}}
module {
  func.func @entry() {
    func.call @b1() : () -> ()
    func.return
  } loc("entry")
  func.func private @a1() {
    func.call @a2() : () -> ()
    func.return
  } loc("a1")
  func.func private @a2() {
    func.call @a3() : () -> ()
    func.return
  } loc("a2")
  func.func private @a3() {
    %ordinal = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    "tf.TPUPartitionedCall"(%ordinal) {f = @a1} : (tensor<i32>) -> ()
    func.return
  } loc("a3")
  func.func private @b1() {
    func.call @b2() : () -> ()
    func.call @b3() : () -> ()
    func.return
  } loc("b1")
  func.func private @b2() {
    func.call @b3() : () -> ()
    func.return
  } loc("b2")
  func.func private @b3() {
    func.call @b1() : () -> ()
    func.return
  } loc("b3")
}

// -----

// expected-error @+1 {{Functions in the recursive cycle are: loc("remote")}}
module {
  func.func @remote(%t: tensor<!tf_type.string>) {
    "tf.RemoteCall"(%t) {f = @remote} : (tensor<!tf_type.string>) -> ()
    func.return
  } loc("remote")
}

// -----

// A loop body running the same loop: not a call, so TF's recursion check lets
// it through, and with two uses TF's pass copies it forever (it never returns).
// tfmlir fails instead.

func.func @loop_user(%x: tensor<i32>) -> tensor<i32> {
  %0 = "tf.While"(%x) {cond = @never_ends_cond, body = @never_ends_body, is_stateless = true} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
// expected-error @+1 {{'@never_ends_body' has 2 uses and is in a cycle of symbol uses that are not all calls (@never_ends_body): cloning functions until each has one use would never end (TensorFlow's pass does not terminate)}}
func.func private @never_ends_body(%x: tensor<i32>) -> tensor<i32> {
  %0 = "tf.While"(%x) {cond = @never_ends_cond, body = @never_ends_body, is_stateless = true} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
func.func private @never_ends_cond(%x: tensor<i32>) -> tensor<i1> {
  %0 = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  func.return %0 : tensor<i1>
}

// -----

// The same with a function naming itself in an attribute.

func.func @self_user() {
  func.call @self_named_leaf() : () -> ()
  func.call @self_named_leaf() : () -> ()
  func.return
}
// expected-error @+1 {{'@self_named_leaf' has 3 uses and is in a cycle of symbol uses that are not all calls (@self_named_leaf)}}
func.func private @self_named_leaf() {
  "tf.NoOp"() {_self = @self_named_leaf} : () -> ()
  func.return
}

// -----

// An op of another dialect referencing a symbol may be a call.

func.func @foreign_use() {
  // expected-error @+1 {{'memref.get_global' op references @foreign_global: the pass cannot tell whether it is a call}}
  %0 = memref.get_global @foreign_global : memref<f32>
  func.return
}
memref.global "private" @foreign_global : memref<f32>

// -----

// A symbol with a region of another dialect may be a function.

// expected-error @+1 {{'llvm.func' op is a symbol with a region: the pass cannot tell whether it is a function of the call graph}}
llvm.func @foreign_function() {
  llvm.return
}

// -----

// A reference inside a type (a tensor encoding) is a use MLIR sees, but Python
// cannot rebuild the type.

func.func @encoded() {
  // expected-error @+1 {{attribute '_type' (tensor<2xf32, @encoded_helper>) may hold symbol references, but its kind cannot be taken apart from Python}}
  "tf.NoOp"() {_type = tensor<2xf32, @encoded_helper>} : () -> ()
  func.return
}
func.func private @encoded_helper() {
  func.return
}

// -----

// A copy of an exported function would be a private function with exported
// names: TF's tf_saved_model verifier refuses any use of an exported function
// but the session initializer's (TF's message, at the first such use).

module attributes {tf_saved_model.semantics} {
  func.func @serve(%x: tensor<f32> {tf_saved_model.index_path = [0]}) -> (tensor<f32> {tf_saved_model.index_path = []}) attributes {tf_saved_model.exported_names = ["serve"]} {
    // expected-error @+1 {{exported function cannot be internally referenced}}
    %0 = "tf.StatefulPartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @exported_helper} : (tensor<f32>) -> tensor<f32>
    %1 = "tf.StatefulPartitionedCall"(%0) {config = "", config_proto = "", executor_type = "", f = @exported_helper} : (tensor<f32>) -> tensor<f32>
    func.return %1 : tensor<f32>
  }
  // expected-note @+1 {{references this exported function}}
  func.func @exported_helper(%x: tensor<f32> {tf_saved_model.index_path = [0]}) -> (tensor<f32> {tf_saved_model.index_path = []}) attributes {tf_saved_model.exported_names = ["helper"]} {
    func.return %x : tensor<f32>
  }
}
