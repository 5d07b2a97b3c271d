// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect -tf-executor-graph-pruning
// RUN: not tfmlir-opt %s -split-input-file --allow-unregistered-dialect -tf-executor-island-coarsening 2>&1 | FileCheck %s --check-prefix=COARSEN
// Names that are not UTF-8 parse and verify, but Python passes read names as
// str: they are refused with a diagnostic before the pass runs (and printing
// the diagnostic never aborts, whatever its location holds).

// COARSEN: error: tf-executor-island-coarsening (a Python pass) needs UTF-8 names: the operation name of 'tf.\FF\FE'
func.func @op_name(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      // expected-error@+1 {{needs UTF-8 names: the operation name of 'tf.\FF\FE'}}
      %2 = "tf.\FF\FE"(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %2 : tensor<f32>
    }
    tf_executor.fetch %1#0 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

func.func @attr_name(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{an attribute name of 'tf_executor.island'}}
    %1:2 = tf_executor.island {
      tf_executor.yield %arg0 : tensor<f32>
    } {"\FE" = 1 : i64}
    tf_executor.fetch %1#0 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// expected-error@+1 {{the symbol name of 'func.func'}}
func.func @"\FF"(%arg0: tensor<f32>) -> tensor<f32> {
  func.return %arg0 : tensor<f32>
}

// -----

func.func @symbol_ref(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{a symbol reference in attribute 'refs' of 'tf.Identity'}}
  %0 = "tf.Identity"(%arg0) {refs = [{k = @"\FF"}]} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
