// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// TensorFlow 2.21's verifier rejects these (checked with
// scripts/tf_testsuite_yardstick.py --extra), and so does tfmlir, with TF's
// message.

func.func @const_value_not_broadcastable() -> tensor<3xi32> {
  // expected-error@+2 {{'tf.Const' op inferred type(s) 'tensor<2xi32>' are incompatible with return type(s) of operation 'tensor<3xi32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @const_element_type(%a: tensor<f32>) -> tensor<f32> {
  // expected-error@+2 {{'tf.Const' op inferred type(s) 'tensor<i32>' are incompatible with return type(s) of operation 'tensor<f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @reshape_not_a_multiple(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  %shape = "tf.Const"() {value = dense<[4, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error@+1 {{requires 'tensor' number of elements be a multiple of 4, but got 6}}
  %0 = "tf.Reshape"(%a, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// -----

func.func @reshape_result_not_expected(%a: tensor<2x3xf32>) -> tensor<2x?xf32> {
  %shape = "tf.Const"() {value = dense<[3, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error@+1 {{requires 'output' type 'tensor<2x?xf32>' to be cast compatible with expected type 'tensor<3x2xf32>'}}
  %0 = "tf.Reshape"(%a, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}

// -----

func.func @bias_add_nchw_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{requires value operand to have rank at least three with `NCHW` data format}}
  %0 = "tf.BiasAdd"(%a, %b) {data_format = "NCHW"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_matmul_output(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x6xf32> {
  // expected-error@+1 {{found invalid output dimension on col, expected 5 but got 6}}
  %0 = "tf.BatchMatMulV2"(%a, %b) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x6xf32>
  func.return %0 : tensor<2x3x6xf32>
}

// -----

func.func @slice_output_rank(%a: tensor<4x4xf32>, %b: tensor<2xi32>) -> tensor<4xf32> {
  // expected-error@+1 {{requires output to have the same rank as input, but got input rank 2 and output rank 1}}
  %0 = "tf.Slice"(%a, %b, %b) : (tensor<4x4xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @add_element_type(%a: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error@+1 {{'tf.AddV2' op requires compatible element types for all operands and results}}
  %0 = "tf.AddV2"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

func.func @add_result_not_broadcast(%a: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'tf.AddV2' op result type '3' not broadcast compatible with broadcasted operands's shapes '2'}}
  %0 = "tf.AddV2"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>
func.func @call_argument_count(%a: tensor<f32>) {
  // expected-error@+1 {{argument count mismatch: 'args' has 2 arguments, but '@callee' expects 1}}
  %0 = "tf.StatefulPartitionedCall"(%a, %a) {config = "", config_proto = "", executor_type = "", f = @callee} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @tpu_execute_indices(%r: tensor<!tf_type.resource>, %key: tensor<3x!tf_type.string>) {
  // expected-error@+1 {{requires 'device_var_reads_indices' to be the same size as number of resource handles in 'args' (1), but got 2}}
  "tf.TPUExecuteAndUpdateVariables"(%r, %key) {device_var_reads_indices = [0, 1], device_var_updates_indices = [0]} : (tensor<!tf_type.resource>, tensor<3x!tf_type.string>) -> ()
  func.return
}

// -----

// TF 2.21 divides by the filter's input channels (0) here and crashes; tfmlir
// reports it.
func.func @conv2d_zero_filter_channels(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x0x4xf32>) -> tensor<*xf32> {
  // expected-error@+1 {{requires the filter's input channels to be non-zero}}
  %0 = "tf.Conv2D"(%x, %f) {data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x0x4xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
