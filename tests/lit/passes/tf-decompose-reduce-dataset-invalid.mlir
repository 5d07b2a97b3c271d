// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-decompose-reduce-dataset

// Every function needs exactly one block: a declaration has none.
// expected-error @+1 {{'func.func' op Expecting a single block function}}
func.func private @declaration(tensor<i64>) -> tensor<i64>

// -----

// The loop calls the reduce function with the wrong number of arguments: the
// result does not verify.
func.func @call_does_not_match(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [i32], Tstate = [i64], f = @three_args, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
func.func private @three_args(%a: tensor<i64>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<i64> {
  func.return %a : tensor<i64>
}

// -----

// Results replaced by values of the state operand's type no longer match the
// function's result type.
func.func @result_type_changes(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> tensor<*xi64> {
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @sum, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<*xi64>
  // expected-error @+1 {{type of return operand 0 ('tensor<i64>') doesn't match function result type ('tensor<*xi64>') in function @result_type_changes}}
  func.return %0 : tensor<*xi64>
}
func.func private @sum(%a: tensor<i64>, %x: tensor<i64>) -> tensor<i64> {
  func.return %a : tensor<i64>
}

// -----

// A reduce function without dataset arguments gives an iterator of no types,
// which TF's definition of tf.AnonymousIteratorV3 rejects.
func.func @no_dataset_arguments(%ds: tensor<!tf_type.variant>, %s: tensor<i64>, %c: tensor<f32>) -> tensor<i64> {
  // expected-error @+1 {{'tf.AnonymousIteratorV3' op attribute 'output_types' failed to satisfy constraint: type array attribute with at least 1 elements}}
  %0 = "tf.ReduceDataset"(%ds, %s, %c) {Targuments = [f32], Tstate = [i64], f = @state_and_capture, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>, tensor<f32>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
func.func private @state_and_capture(%a: tensor<i64>, %c: tensor<f32>) -> tensor<i64> {
  func.return %a : tensor<i64>
}

// -----

// A reduce function in a nested module is found, but the call names it by its
// own name, which does not resolve from the caller.
func.func @nested_reference(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'func.call' op 'sum' does not reference a valid function}}
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @inner::@sum, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
module @inner {
  func.func @sum(%a: tensor<i64>, %x: tensor<i64>) -> tensor<i64> {
    func.return %a : tensor<i64>
  }
}

// -----

// TF's process crashes on the following inputs.

func.func @tf_crash_missing_reduce_function(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'tf.ReduceDataset' op reduce function @missing: no such symbol}}
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @missing, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

func.func @tf_crash_element_not_shaped(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'tf.ReduceDataset' op cannot be decomposed: a dataset argument of the reduce function is not of a shaped type}}
  %0 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @scalar_element, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
func.func private @scalar_element(%a: tensor<i64>, %x: i64) -> tensor<i64> {
  func.return %a : tensor<i64>
}

// -----

func.func @tf_crash_missing_state_operand(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  // expected-error @+1 {{'tf.ReduceDataset' op cannot be decomposed: it has fewer operands than its dataset and 2 state values}}
  %0:2 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64, i64], f = @two_states, output_shapes = [#tf_type.shape<>, #tf_type.shape<>], output_types = [i64, i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  func.return %0#0, %0#1 : tensor<i64>, tensor<i64>
}
func.func private @two_states(%a: tensor<i64>, %b: tensor<i64>, %x: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  func.return %a, %b : tensor<i64>, tensor<i64>
}

// -----

func.func @tf_crash_missing_state_result(%ds: tensor<!tf_type.variant>, %s: tensor<i64>, %t: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'tf.ReduceDataset' op cannot be decomposed: it has fewer results than its 2 state values}}
  %0 = "tf.ReduceDataset"(%ds, %s, %t) {Targuments = [], Tstate = [i64, i64], f = @two_states, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
func.func private @two_states(%a: tensor<i64>, %b: tensor<i64>, %x: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  func.return %a, %b : tensor<i64>, tensor<i64>
}

// -----

func.func @tf_crash_extra_result_used(%ds: tensor<!tf_type.variant>, %s: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'tf.ReduceDataset' op cannot be decomposed: a result beyond the state values is used}}
  %0:2 = "tf.ReduceDataset"(%ds, %s) {Targuments = [], Tstate = [i64], f = @sum, output_shapes = [#tf_type.shape<>], output_types = [i64], _xla_compile_device_type = "TPU", device = ""} : (tensor<!tf_type.variant>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  func.return %0#1 : tensor<i64>
}
func.func private @sum(%a: tensor<i64>, %x: tensor<i64>) -> tensor<i64> {
  func.return %a : tensor<i64>
}
