// RUN: tfmlir-opt %s -split-input-file | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file | tfmlir-opt -split-input-file | FileCheck %s

// SavedModel modules TF 2.21 accepts (and tfmlir must too): the limits of
// the tf_saved_model verifiers from the accepting side.

// A global tensor needs no value; a mutable one may have any type; the value's
// element type is not compared with the declared one (only the shapes are).
// Exported global tensors and functions share one namespace of names, and an
// exported function may bind globals and assets after its index-path args.
// CHECK-LABEL: module attributes {tf_saved_model.semantics}
// CHECK: "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "no_value", type = tensor<?xf32>}> : () -> ()
// CHECK: "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "not_a_tensor", type = f32}> : () -> ()
// CHECK: "tf_saved_model.global_tensor"() <{sym_name = "other_element", type = tensor<2xi32>, value = dense<1.000000e+00> : tensor<2xf32>}>
// CHECK: func.func @serve(%arg0: tensor<i32> {tf_saved_model.index_path = [0, "x"]}
module attributes {tf_saved_model.semantics} {
  "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "no_value", type = tensor<?xf32>}> : () -> ()
  "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "not_a_tensor", type = f32}> : () -> ()
  "tf_saved_model.global_tensor"() <{sym_name = "other_element", type = tensor<2xi32>, value = dense<1.0> : tensor<2xf32>}> {tf_saved_model.exported_names = ["other_element"]} : () -> ()
  "tf_saved_model.asset"() <{filename = "vocab.txt", sym_name = "vocab"}> : () -> ()
  func.func @serve(%x: tensor<i32> {tf_saved_model.index_path = [0, "x"]}, %w: tensor<!tf_type.resource<tensor<?xf32>>> {tf_saved_model.bound_input = @no_value}, %v: tensor<!tf_type.string> {tf_saved_model.bound_input = @vocab}) -> (tensor<i32> {tf_saved_model.index_path = []}) attributes {tf_saved_model.exported_names = ["serve", "signatures.serve"]} {
    %0 = "tf.StatefulPartitionedCall"(%x) <{config = "", config_proto = "", executor_type = "", f = @helper}> : (tensor<i32>) -> tensor<i32>
    return %0 : tensor<i32>
  }
  // Private functions may be referenced; declarations need nothing.
  func.func private @helper(%x: tensor<i32>) -> tensor<i32> {
    return %x : tensor<i32>
  }
  func.func private @declared(tensor<i32>) -> tensor<i32>
}

// -----

// The session initializer may name several functions (of distinct types),
// and may be empty; initializer functions may bind inputs.
// CHECK-LABEL: module attributes {tf_saved_model.semantics}
// CHECK: "tf_saved_model.session_initializer"() <{initializers = [@restore, @init]}> : () -> ()
module attributes {tf_saved_model.semantics} {
  "tf_saved_model.asset"() <{filename = "vocab.txt", sym_name = "vocab"}> : () -> ()
  "tf_saved_model.session_initializer"() <{initializers = [@restore, @init]}> : () -> ()
  func.func @restore() attributes {tf_saved_model.exported_names = ["restore"], tf_saved_model.initializer_type = "restore_op"} {
    return
  }
  func.func @init(%v: tensor<!tf_type.string> {tf_saved_model.bound_input = @vocab}) attributes {tf_saved_model.exported_names = ["init"], tf_saved_model.initializer_type = "init_op"} {
    return
  }
}

// -----

// While under construction, arguments may carry tf.resource_name and a
// global may be bound twice.
// CHECK-LABEL: module attributes {tf_saved_model.semantics, tf_saved_model.under_construction}
module attributes {tf_saved_model.semantics, tf_saved_model.under_construction} {
  "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "w", type = tensor<f32>, value = dense<0.0> : tensor<f32>}> : () -> ()
  func.func @serve(%a: tensor<!tf_type.resource<tensor<f32>>> {tf_saved_model.bound_input = @w}, %b: tensor<!tf_type.resource<tensor<f32>>> {tf_saved_model.bound_input = @w}, %r: tensor<!tf_type.resource> {tf.resource_name = "table"}) attributes {tf_saved_model.exported_names = ["serve"]} {
    return
  }
}

// -----

// Without tf_saved_model.semantics the module rules do not apply.
// CHECK-LABEL: module {
// CHECK: func.func @public_helper(
module {
  func.func @public_helper(%x: tensor<i32>) -> tensor<i32> {
    return %x : tensor<i32>
  }
}
