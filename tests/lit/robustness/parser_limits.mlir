// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// Result counts written in the custom forms are bounded before anything is
// allocated: a huge count is a diagnostic, not an out-of-memory abort.

func.func @switchn_huge(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects fewer than 1048576 outputs, got 4294967296}}
    %0:3 = tf_executor._SwitchN %arg0, %arg1 of 4294967296 : tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

func.func @switchn_large(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects fewer than 1048576 outputs, got 2147483648}}
    %0:3 = tf_executor._SwitchN %arg0, %arg1 of 2147483648 : tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

func.func @replicate_huge_n(%arg0: tensor<f32>) {
  // expected-error@+1 {{expects fewer than 1048576 results (returned values times n), got n = 1000000000 times 1}}
  %0 = tf_device.replicate {n = 1000000000 : i32} {
    tf_device.return %arg0 : tensor<f32>
  }
  func.return
}

// -----

func.func @replicate_n_times_results(%arg0: tensor<f32>) {
  // expected-error@+1 {{got n = 600000 times 2}}
  %0:1200000 = tf_device.replicate {n = 600000 : i32} {
    tf_device.return %arg0, %arg0 : tensor<f32>, tensor<f32>
  }
  func.return
}

// -----

func.func @replicate_i64_overflow(%arg0: tensor<f32>) {
  // expected-error@+1 {{got n = 9223372036854775807 times 3}}
  %0:3 = tf_device.replicate {n = 9223372036854775807 : i64} {
    tf_device.return %arg0, %arg0, %arg0 : tensor<f32>, tensor<f32>, tensor<f32>
  }
  func.return
}
