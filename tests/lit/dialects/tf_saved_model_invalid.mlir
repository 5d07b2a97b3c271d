// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics

// Verifier errors of tf_saved_model ops, one case per chunk.

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'type' and 'value' attributes should have compatible tensor types}}
  "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "v", type = f32, value = dense<1.0> : tensor<f32>}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'type' and 'value' attributes should have compatible tensor types}}
  "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "v", type = tensor<3xf32>, value = dense<1.0> : tensor<2xf32>}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'type' and 'value' attributes should have compatible tensor types}}
  "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "v", type = tensor<2x2xf32>, value = dense<1.0> : tensor<2xf32>}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // A constant (immutable) global tensor has a static type.
  // expected-error@+1 {{'type' attribute for immutable 'tf_saved_model.global_tensor' should have a static shape}}
  "tf_saved_model.global_tensor"() <{sym_name = "c", type = tensor<?xf32>, value = dense<1.0> : tensor<2xf32>}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.global_tensor' op requires attribute 'sym_name'}}
  "tf_saved_model.global_tensor"() <{type = tensor<f32>, value = dense<1.0> : tensor<f32>}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{Invalid attribute `value` in property conversion: 1.000000e+00 : f32}}
  "tf_saved_model.global_tensor"() <{sym_name = "v", type = tensor<f32>, value = 1.0 : f32}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.session_initializer' op requires attribute 'initializers'}}
  "tf_saved_model.session_initializer"() : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.session_initializer' op attribute 'initializers' failed to satisfy constraint: symbol ref array attribute}}
  "tf_saved_model.session_initializer"() <{initializers = ["init"]}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-error@+1 {{'tf_saved_model.asset' op requires attribute 'filename'}}
  "tf_saved_model.asset"() <{sym_name = "a"}> : () -> ()
}

// -----

module attributes {tf_saved_model.semantics} {
  // expected-note@+1 {{see existing symbol definition here}}
  "tf_saved_model.asset"() <{filename = "a.txt", sym_name = "a"}> : () -> ()
  // expected-error@+1 {{redefinition of symbol named 'a'}}
  "tf_saved_model.global_tensor"() <{sym_name = "a", type = tensor<f32>, value = dense<1.0> : tensor<f32>}> : () -> ()
}
