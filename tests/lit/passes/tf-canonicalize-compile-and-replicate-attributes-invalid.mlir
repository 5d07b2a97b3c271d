// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-canonicalize-compile-and-replicate-attributes

func.func @contradiction(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.Neg' op has both '_XlaMustCompile = false' and '_xla_compile_device_type' attribute which contradicts each other}}
  %0 = "tf.Neg"(%arg0) {_XlaMustCompile = false, _xla_compile_device_type = "CPU"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// The attributes converted before the failure are restored too (the module is
// left unchanged).
func.func @invalid_device(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Abs"(%arg0) {_tpu_replicate = "c"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.Neg' op 'device' has invalid value}}
  %1 = "tf.Neg"(%0) {_XlaMustCompile = true, device = "/device:XPU:0"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

// TF's process crashes on this.
func.func @not_a_bool(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.Neg' op has a '_XlaMustCompile' attribute that is not a bool (1 : i32)}}
  %0 = "tf.Neg"(%arg0) {_XlaMustCompile = 1 : i32} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

