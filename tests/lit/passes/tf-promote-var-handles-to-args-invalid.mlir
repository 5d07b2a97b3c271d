// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-promote-var-handles-to-args

// A function with two blocks.

func.func @single() {
  func.return
}

// expected-error @+1 {{expects function 'jumps' to have 1 block, got 2}}
func.func @jumps() {
  cf.br ^bb1
^bb1:
  func.return
}

// -----

// A function declaration (no block).

// expected-error @+1 {{expects function 'external' to have 1 block, got 0}}
func.func private @external(tensor<f32>) -> tensor<f32>
