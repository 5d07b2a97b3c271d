// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(verify-clustering-pass))'

// A tf_executor graph left over: the first op found (post-order) is reported.

func.func @graph(%a: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1, %c = tf_executor.island {
      %2 = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
      // expected-error @+1 {{op is in dialect tf_executor not in tf functional dialect}}
      tf_executor.yield %2 : tensor<f32>
    }
    tf_executor.fetch %1 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

func.func @outside_compiled(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    // expected-error @+1 {{op has outside compilation attribute _xla_outside_compilation which is not allowed after clustering}}
    %1 = "tf.Neg"(%a) {_xla_outside_compilation = "0"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @upstream(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{op is in dialect arith not in tf functional dialect}}
  %0 = arith.addf %a, %a : tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Where TF's process crashes: an op of a dialect that is not loaded.

func.func @unregistered() -> () {
  // expected-error @+1 {{op is in dialect mystery not in tf functional dialect}}
  "mystery.op"() : () -> ()
  func.return
}

// -----

// The first failing function ends the pass.

func.func @first() -> () {
  // expected-error @+1 {{op has outside compilation attribute}}
  "tf.NoOp"() {_xla_outside_compilation = ""} : () -> ()
  func.return
}

func.func @second() -> () {
  "tf.NoOp"() {_xla_outside_compilation = ""} : () -> ()
  func.return
}
