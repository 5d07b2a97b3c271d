// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-device-convert-launch-func-to-tf-call

// The function takes another number of arguments (TF's verifier message).

func.func @argument_count(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{argument count mismatch: 'args' has 1 arguments, but '@no_arguments' expects 0}}
  %0 = "tf_device.launch_func"(%x) {device = "d", func = @no_arguments} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
func.func private @no_arguments() -> tensor<i32> {
  %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// TF's process dies on the next three; nothing changes here.

func.func @missing_callee(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'func' attribute refers to an undefined function: @missing}}
  %0 = "tf_device.launch_func"(%x) {device = "d", func = @missing} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

func.func @callee_not_a_function(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'@not_a_function' does not reference a function}}
  %0 = "tf_device.launch_func"(%x) {device = "d", func = @not_a_function} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
module @not_a_function {
}

// -----

func.func @not_a_tensor(%x: i32) -> i32 {
  // expected-error @+1 {{operand #0 has type 'i32': tf.PartitionedCall takes and returns tensors only}}
  %0 = "tf_device.launch_func"(%x) {device = "d", func = @scalar} : (i32) -> i32
  func.return %0 : i32
}
func.func private @scalar(%a: i32) -> i32 {
  func.return %a : i32
}
