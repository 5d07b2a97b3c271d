// RUN: not tfmlir-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not tfmlir-opt %s -split-input-file -tf-executor-graph-pruning 2>&1 | FileCheck %s --check-prefix=PASS
// A location whose file name is not UTF-8 is printed the way MLIR escapes it;
// reading it never aborts the process.

// CHECK: \FF:1:2: error: 'tf.Identity' op requires the result type 'tensor<i32>' to be compatible with the operand type 'tensor<f32>'
// PASS: \FF:1:2: error: 'tf.Identity' op requires the result type
func.func @verifier_error(%arg0: tensor<f32>) -> tensor<i32> {
  %0 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<i32> loc("\FF":1:2)
  func.return %0 : tensor<i32>
}

// -----

// PASS: \FE\FF:3:4: error: tf-executor-graph-pruning (a Python pass) needs UTF-8 names: a location's file name of 'tf.Identity'
func.func @pass_input(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      %2 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32> loc("\FE\FF":3:4)
      tf_executor.yield %2 : tensor<f32>
    }
    tf_executor.fetch %1#0 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// PASS: error: tf-executor-graph-pruning (a Python pass) needs UTF-8 names: a location's name of 'tf.Identity'
func.func @name_loc(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      %2 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32> loc("\FE\FF"("a.py":3:4))
      tf_executor.yield %2 : tensor<f32>
    }
    tf_executor.fetch %1#0 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
