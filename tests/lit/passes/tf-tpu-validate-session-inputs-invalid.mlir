// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-validate-session-inputs

// Where TF's process crashes: an infeed whose device is not a string.

func.func @device_not_a_string() -> () {
  // expected-error @+1 {{'tf.InfeedDequeueTuple' op attribute 'device' is not a string attribute}}
  %0 = "tf.InfeedDequeueTuple"() {device = 0 : i32} : () -> tensor<f32>
  func.return
}
