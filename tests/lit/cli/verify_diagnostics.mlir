// -verify-diagnostics: every diagnostic matches an expected-* comment and every
// comment is met, so the exit status is 0. Chunks that fail print nothing; the
// chunk without diagnostics is printed.
// RUN: tfmlir-opt -verify-diagnostics -split-input-file %s | FileCheck %s
// RUN: tfmlir-opt --verify-diagnostics=only-expected --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @no_diagnostics
// CHECK-NOT:   func.func

func.func @island_yield_operand_count() -> tensor<i32> {
  %0 = tf_executor.graph {
    %1:2 = "tf_executor.island"() ({
      // expected-error @+1 {{'tf_executor.yield' op has 0 operand, but island returns 1}}
      "tf_executor.yield"() : () -> ()
    }) : () -> (tensor<i32>, !tf_executor.control)
    tf_executor.fetch %1#0 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @non_executor_op_in_graph(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    %c = arith.constant 1 : i32  // expected-error {{unallowed inside a tf_executor.graph region}}
    tf_executor.fetch %arg0 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// @below applies to the next line without an expected-* comment; -re takes
// {{regex}} pieces.
func.func @below_and_regex(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    // expected-error-re @below {{'{{[a-z_.]+}}' op unallowed inside a {{.*}} region}}
    %c = arith.constant 1 : i32
    tf_executor.fetch %arg0 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// @above applies to the last line without an expected-* comment.
func.func @above(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    %c = arith.constant 1 : i32
    // expected-error @above {{'arith.constant' op unallowed}}
    tf_executor.fetch %arg0 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// A parse error of TensorFlow's custom syntax, on the line two below.
func.func @switch_without_predicate(%arg0: tensor<i32>) {
  tf_executor.graph {
    // expected-error @+1 {{expects a single data type and a predicate}}
    %0:3 = tf_executor.Switch %arg0 : tensor<i32>
    tf_executor.fetch
  }
  return
}

// -----

// Notes attached to a diagnostic are matched like diagnostics.
// expected-note @+1 {{prior use here}}
func.func @f(%a: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'tensor<f32>' vs 'tensor<i32>'}}
  return %a : tensor<f32>
}

// -----

// Two expectations in one comment line (a tfmlir-opt extension: mlir-opt reads
// one per line) ...
func.func @g(%a: i32) -> i64 { return %a : i64 } // expected-error {{expects different type}} // expected-note {{prior use here}}

// -----

// ... and two comment lines aimed at the same line.
// expected-error @+2 {{use of value '%a'}}
// expected-note @+1 {{prior use here}}
func.func @h(%a: i32) -> i64 { return %a : i64 }

// -----

// Diagnostics without a file location match @unknown.
func.func @unknown_location(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @unknown {{'arith.constant' op unallowed inside a tf_executor.graph region}}
  %0 = tf_executor.graph {
    %c = arith.constant 1 : i32 loc(unknown)
    tf_executor.fetch %arg0 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @no_diagnostics(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    tf_executor.fetch %arg0 : tensor<i32>
  }
  return %0 : tensor<i32>
}
