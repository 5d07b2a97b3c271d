// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// The rules of a module with tf_saved_model.semantics (the dialect's
// attribute verifiers), one violation per chunk, with TF 2.21's wording.

// Attributes the dialect does not define.
module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{unknown tf_saved_model dialect arg attribute 'tf_saved_model.bogus'}}
  func.func private @helper(%x: tensor<i32> {tf_saved_model.bogus}) {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{unknown tf_saved_model dialect result attribute 'tf_saved_model.bogus'}}
  func.func private @helper() -> (tensor<i32> {tf_saved_model.bogus}) {
    %c = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    return %c : tensor<i32>
  }
}

// -----

// expected-error@+1 {{unknown tf_saved_model dialect attribute 'tf_saved_model.bogus'}}
module attributes {tf_saved_model.bogus} {
}

// -----

// expected-error@+1 {{'tf_saved_model.semantics' must be on a module op}}
"test.op"() {tf_saved_model.semantics} : () -> ()

// -----

// exported_names: where it may appear and what it holds.
module {
  // expected-error@+1 {{'tf_saved_model.exported_names' must be on an op whose immediate parent has attribute 'tf_saved_model.semantics'}}
  func.func @serve() attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.exported_names' must be on a 'func' or 'tf_saved_model.global_tensor' op}}
  "tf_saved_model.asset"() <{filename = "a.txt", sym_name = "a"}> {tf_saved_model.exported_names = ["a"]} : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.exported_names' must be an array of strings}}
  func.func @serve() attributes {tf_saved_model.exported_names = ["serve", 7]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-note@+1 {{previously seen here}}
  "tf_saved_model.global_tensor"() <{sym_name = "w", type = tensor<f32>, value = dense<1.0> : tensor<f32>}> {tf_saved_model.exported_names = ["w", "shared"]} : () -> ()
  // expected-error@+1 {{duplicate exported name 'shared'}}
  func.func @serve() attributes {tf_saved_model.exported_names = ["shared"]} {
    return
  }
}

// -----

// Exported functions are public, the others private.
module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{exported function @serve should be public}}
  func.func private @serve() attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{non-exported function @helper should be private}}
  func.func @helper() {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // An empty list of exported names does not export.
  // expected-error@+1 {{non-exported function @helper should be private}}
  func.func @helper() attributes {tf_saved_model.exported_names = []} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{can only apply 'tf_saved_model' argument attributes to exported functions}}
  func.func private @helper() -> (tensor<i32> {tf_saved_model.index_path = [0]}) {
    %c = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    return %c : tensor<i32>
  }
}

// -----

// The arguments and results of exported functions.
module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{all arguments should have 'tf_saved_model.index_path', 'tf_saved_model.bound_input' or 'tf.resource_name' attributes}}
  func.func @serve(%x: tensor<i32> {tf_saved_model.index_path = ["x"]}, %y: tensor<i32>) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{all results should have 'tf_saved_model.index_path' attributes}}
  func.func @serve(%x: tensor<i32> {tf_saved_model.index_path = ["x"]}) -> tensor<i32> attributes {tf_saved_model.exported_names = ["serve"]} {
    return %x : tensor<i32>
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  "tf_saved_model.asset"() <{filename = "vocab.txt", sym_name = "vocab"}> : () -> ()
  // expected-error@+1 {{all 'tf_saved_model.index_path' arg attributes should precede all 'tf_saved_model.bound_input' arg attributes}}
  func.func @serve(%v: tensor<!tf_type.string> {tf_saved_model.bound_input = @vocab}, %x: tensor<i32> {tf_saved_model.index_path = ["x"]}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf.resource_name' attribute is not allowed unless it is being under construction}}
  func.func @serve(%r: tensor<!tf_type.resource> {tf.resource_name = "table"}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  "tf_saved_model.asset"() <{filename = "vocab.txt", sym_name = "vocab"}> : () -> ()
  // expected-error@+1 {{duplicate 'tf_saved_model.bound_input' binding}}
  func.func @serve(%a: tensor<!tf_type.string> {tf_saved_model.bound_input = @vocab}, %b: tensor<!tf_type.string> {tf_saved_model.bound_input = @vocab}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

// index_path values.
module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.index_path' attribute should be an ArrayAttr}}
  func.func @serve(%x: tensor<i32> {tf_saved_model.index_path = "x"}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // 32-bit integers are not index path elements.
  // expected-error@+1 {{'tf_saved_model.index_path' elements should be strings or 64-bit integers}}
  func.func @serve(%x: tensor<i32> {tf_saved_model.index_path = [0 : i32]}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

// bound_input: a symbol of the module, of the type the bound object gives.
module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.bound_input' attribute should be a FlatSymbolRefAttr}}
  func.func @serve(%v: tensor<!tf_type.string> {tf_saved_model.bound_input = "vocab"}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.bound_input' attribute must reference a valid symbol, got invalid symbol 'missing'}}
  func.func @serve(%v: tensor<!tf_type.string> {tf_saved_model.bound_input = @missing}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  "tf_saved_model.asset"() <{filename = "vocab.txt", sym_name = "vocab"}> : () -> ()
  // An asset binds a scalar string.
  // expected-error@+1 {{bound input with type 'tensor<1x!tf_type.string>' expected to have type 'tensor<!tf_type.string>'}}
  func.func @serve(%v: tensor<1x!tf_type.string> {tf_saved_model.bound_input = @vocab}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "w", type = tensor<2xf32>, value = dense<1.0> : tensor<2xf32>}> : () -> ()
  // A global tensor binds a scalar resource of the global's type.
  // expected-error@+1 {{bound input with type 'tensor<!tf_type.resource<tensor<?xf32>>>' expected to have type 'tensor<!tf_type.resource<tensor<2xf32>>>'}}
  func.func @serve(%w: tensor<!tf_type.resource<tensor<?xf32>>> {tf_saved_model.bound_input = @w}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{unknown symbol operation}}
  "test.symbol"() {sym_name = "thing"} : () -> ()
  func.func @serve(%t: tensor<!tf_type.string> {tf_saved_model.bound_input = @thing}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

// Exported functions are not called from inside the module.
module attributes {tf_saved_model.semantics} {
  func.func @serve() attributes {tf_saved_model.exported_names = ["serve"]} {
    // expected-error@+1 {{exported function cannot be internally referenced}}
    "tf.StatefulPartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @other}> : () -> ()
    return
  }
  // expected-note@+1 {{references this exported function}}
  func.func @other() attributes {tf_saved_model.exported_names = ["other"]} {
    return
  }
}

// -----

// expected-error@+1 {{modules with 'tf_saved_model.semantics' must have analyzable symbol uses}}
module attributes {tf_saved_model.semantics} {
  "test.unknown_with_region"() ({
    "test.inner"() : () -> ()
  }) : () -> ()
}

// -----

// The session initializer.
module attributes {tf_saved_model.semantics} {
  "tf_saved_model.session_initializer"() <{initializers = [@init]}> : () -> ()
  // expected-error@+1 {{there must be no more than one session_initializer op}}
  "tf_saved_model.session_initializer"() <{initializers = [@init]}> : () -> ()
  func.func @init() attributes {tf_saved_model.exported_names = ["init"]} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.session_initializer' op the initializer function does not exist}}
  "tf_saved_model.session_initializer"() <{initializers = [@nowhere]}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  "tf_saved_model.asset"() <{filename = "vocab.txt", sym_name = "vocab"}> : () -> ()
  // Not a function.
  // expected-error@+1 {{'tf_saved_model.session_initializer' op the initializer function does not exist}}
  "tf_saved_model.session_initializer"() <{initializers = [@vocab]}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.session_initializer' op the initializer function should have no output}}
  "tf_saved_model.session_initializer"() <{initializers = [@init]}> : () -> ()
  func.func @init() -> (tensor<i32> {tf_saved_model.index_path = []}) attributes {tf_saved_model.exported_names = ["init"]} {
    %c = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    return %c : tensor<i32>
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.session_initializer' op the initializer function should be exported}}
  "tf_saved_model.session_initializer"() <{initializers = [@init]}> : () -> ()
  func.func private @init() {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.session_initializer' op the initializer function should have only one exported names}}
  "tf_saved_model.session_initializer"() <{initializers = [@init]}> : () -> ()
  func.func @init() attributes {tf_saved_model.exported_names = ["init", "init_again"]} {
    return
  }
}

// -----

// initializer_type.
module attributes {tf_saved_model.semantics} {
  "tf_saved_model.session_initializer"() <{initializers = [@restore, @restore_again]}> : () -> ()
  func.func @restore() attributes {tf_saved_model.exported_names = ["restore"], tf_saved_model.initializer_type = "restore_op"} {
    return
  }
  // expected-error@+1 {{Attribute tf_saved_model.initializer_type should not have duplicate values. Found duplicate: "restore_op"}}
  func.func @restore_again() attributes {tf_saved_model.exported_names = ["restore_again"], tf_saved_model.initializer_type = "restore_op"} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{tf_saved_model.initializer_type should be one of 'restore_op' or 'init_op'. Got: setup_op}}
  func.func @init() attributes {tf_saved_model.exported_names = ["init"], tf_saved_model.initializer_type = "setup_op"} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{Attribute tf_saved_model.initializer_type should be a StringAttr.}}
  func.func @init() attributes {tf_saved_model.exported_names = ["init"], tf_saved_model.initializer_type = 0} {
    return
  }
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{Attribute tf_saved_model.initializer_type should be on a func::FuncOp.}}
  "tf_saved_model.asset"() <{filename = "vocab.txt", sym_name = "vocab"}> {tf_saved_model.initializer_type = "init_op"} : () -> ()
}
