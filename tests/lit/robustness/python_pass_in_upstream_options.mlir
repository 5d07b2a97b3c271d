// RUN: not tfmlir-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=func.func(tf-executor-island-coarsening)})' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not tfmlir-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=no-such-pass})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tfmlir-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=canonicalize},func.func(tf-executor-island-coarsening))' | FileCheck %s --check-prefix=OK
// The inliner runs the pipeline of its default-pipeline option itself, in
// C++: a Python pass there is unknown to it, and it only printed the parse
// error and went on without running anything. Both are refused up front.

// NESTED: error: Python pass 'tf-executor-island-coarsening' cannot be nested in the options of upstream pass 'inline'
// UNKNOWN: error: invalid pipeline in option 'default-pipeline' of pass 'inline': {{.*}}'no-such-pass' does not refer to a registered pass
// OK: tf_executor.island {
// OK-NEXT: "tf.Neg"
// OK-NEXT: "tf.Abs"
func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %a, %ca = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %b, %cb = tf_executor.island wraps "tf.Abs"(%a) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %b : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
