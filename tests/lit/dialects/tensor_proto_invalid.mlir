// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// Malformed #tf_type<tensor_proto : "0x..."> attributes: a diagnostic at the
// attribute, never an abort.

func.func @no_0x_prefix() {
  // expected-error@+1 {{tensor_proto value must be a hex string starting with `0x`}}
  "tf.Const"() <{value = #tf_type<tensor_proto : "74667465"> : tensor<!tf_type.qint8>}> : () -> tensor<!tf_type.qint8>
  return
}

// -----

func.func @not_hex() {
  // expected-error@+1 {{tensor_proto value is not an even number of hex digits after `0x`}}
  "tf.Const"() <{value = #tf_type<tensor_proto : "0x74ZZ"> : tensor<!tf_type.qint8>}> : () -> tensor<!tf_type.qint8>
  return
}

// -----

func.func @odd_digit_count() {
  // expected-error@+1 {{tensor_proto value is not an even number of hex digits after `0x`}}
  "tf.Const"() <{value = #tf_type<tensor_proto : "0x746"> : tensor<!tf_type.qint8>}> : () -> tensor<!tf_type.qint8>
  return
}

// -----

func.func @no_type() {
  // expected-error@+1 {{#tf_type tensor_proto needs a shaped type (`: tensor<...>`)}}
  "tf.Const"() <{value = #tf_type<tensor_proto : "0x74">}> : () -> tensor<!tf_type.qint8>
  return
}

// -----

func.func @not_a_shaped_type() {
  // expected-error@+1 {{#tf_type tensor_proto needs a shaped type (`: tensor<...>`), got 'i32'}}
  "tf.Const"() <{value = #tf_type<tensor_proto : "0x74"> : i32}> : () -> tensor<!tf_type.qint8>
  return
}

// -----

func.func @dynamic_shape() {
  // expected-error@+1 {{#tf_type tensor_proto needs a statically shaped type, got 'tensor<?x!tf_type.qint8>'}}
  "tf.Const"() <{value = #tf_type<tensor_proto : "0x74"> : tensor<?x!tf_type.qint8>}> : () -> tensor<?x!tf_type.qint8>
  return
}

// -----

func.func @no_colon() {
  // expected-error@+1 {{expected ':'}}
  "tf.Const"() <{value = #tf_type<tensor_proto "0x74"> : tensor<!tf_type.qint8>}> : () -> tensor<!tf_type.qint8>
  return
}

// -----

func.func @not_a_string() {
  // expected-error@+1 {{expected string}}
  "tf.Const"() <{value = #tf_type<tensor_proto : 0x74> : tensor<!tf_type.qint8>}> : () -> tensor<!tf_type.qint8>
  return
}

// -----

// TF 2.21 rejects a result type its value's type is not compatible with
// (it accepts a scalar result for a tensor<2x...> value, checked with TF).
func.func @const_type_mismatch() {
  // expected-error@+2 {{'tf.Const' op inferred type(s) 'tensor<2x!tf_type.qint8>' are incompatible with return type(s) of operation 'tensor<3x!tf_type.qint8>'}}
  // expected-error@+1 {{'tf.Const' op failed to infer returned types}}
  "tf.Const"() <{value = #tf_type<tensor_proto : "0x74"> : tensor<2x!tf_type.qint8>}> : () -> tensor<3x!tf_type.qint8>
  return
}

