// RUN: not tfmlir-opt %s --allow-unregistered-dialect -inline 2>&1 | FileCheck %s
// RUN: not tfmlir-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(canonicalize),inline{default-pipeline=canonicalize})' 2>&1 | FileCheck %s
// RUN: tfmlir-opt %s --allow-unregistered-dialect -canonicalize | FileCheck %s --check-prefix=CANON
// The upstream inliner asserts on an op with a region from an unregistered
// dialect (it may be a symbol table whose uses it cannot see); tfmlir refuses
// the combination with a diagnostic instead. Other passes still run.

// CHECK: error: 'inline' needs every symbol use, but 'foo.bar' has a region and its dialect is not registered
// CANON: "foo.bar"
func.func @g(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "foo.bar"(%arg0) ({
    "foo.yield"(%arg0) : (tensor<f32>) -> ()
  }) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = func.call @g(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
