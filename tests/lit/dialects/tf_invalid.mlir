// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics

// Every verifier and symbol-use error of the hand-written tf ops, plus a few
// ODS-generated constraint failures, one case per chunk.

//===----------------------------------------------------------------------===//
// tf.Const / tf.Identity / tf.IdentityN / tf.NoOp
//===----------------------------------------------------------------------===//

func.func @const_type_mismatch() -> tensor<2xi32> {
  // expected-error@+2 {{'tf.Const' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<2xi32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @const_missing_value() -> tensor<i32> {
  // expected-error@+1 {{'tf.Const' op requires attribute 'value'}}
  %0 = "tf.Const"() : () -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @const_not_tensor() -> i32 {
  // expected-error@+1 {{'tf.Const' op result #0 must be tensor of tf.dtype values, but got 'i32'}}
  %0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> i32
  return %0 : i32
}

// -----

func.func @identity_incompatible(%arg0: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'tf.Identity' op requires the result type 'tensor<3xf32>' to be compatible with the operand type 'tensor<2xf32>'}}
  %0 = "tf.Identity"(%arg0) : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @identity_element_type(%arg0: tensor<f32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.Identity' op requires the result type 'tensor<i32>' to be compatible with the operand type 'tensor<f32>'}}
  %0 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @identity_not_tensor(%arg0: f32) -> f32 {
  // expected-error@+1 {{'tf.Identity' op operand #0 must be tensor of any type values, but got 'f32'}}
  %0 = "tf.Identity"(%arg0) : (f32) -> f32
  return %0 : f32
}

// -----

func.func @noop_with_result() {
  // expected-error@+1 {{'tf.NoOp' op requires zero results}}
  %0 = "tf.NoOp"() : () -> tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// tf.If
//===----------------------------------------------------------------------===//

// -----

func.func private @branch(%arg0: tensor<f32>) -> tensor<f32>

func.func @if_missing_then(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op expects 'then_branch' (@missing) to point to a defined function}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @branch, is_stateless = false, then_branch = @missing}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @branch(%arg0: tensor<f32>) -> tensor<f32>

func.func @if_missing_else(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op expects 'else_branch' (@missing) to point to a defined function}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @missing, is_stateless = false, then_branch = @branch}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

"tf_saved_model.global_tensor"() <{sym_name = "v", type = tensor<f32>, value = dense<1.0> : tensor<f32>}> : () -> ()
func.func private @branch(%arg0: tensor<f32>) -> tensor<f32>

func.func @if_branch_not_a_function(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op expects 'then_branch' (@v) to point to a defined function}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @branch, is_stateless = false, then_branch = @v}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @then(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32>
func.func private @else(%arg0: tensor<f32>) -> tensor<f32>

func.func @if_branch_arity(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op 'then_branch' inputs (size = 2) should have the same number of values as inputs (size = 1)}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @else, is_stateless = false, then_branch = @then}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @then(%arg0: tensor<f32>) -> tensor<f32>
func.func private @else(%arg0: tensor<i32>) -> tensor<f32>

func.func @if_branch_input_type(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op 'else_branch' input type tensor<i32> is incompatible with input type tensor<f32> at index 0}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @else, is_stateless = false, then_branch = @then}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @then(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>)
func.func private @else(%arg0: tensor<f32>) -> tensor<f32>

func.func @if_branch_result_count(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op 'then_branch' results (size = 2) should have the same number of values as results (size = 1)}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @else, is_stateless = false, then_branch = @then}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @then(%arg0: tensor<f32>) -> tensor<2xf32>
func.func private @else(%arg0: tensor<f32>) -> tensor<3xf32>

func.func @if_branch_result_type(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.If' op 'else_branch' result type tensor<3xf32> is incompatible with result type tensor<2xf32> at index 0}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @else, is_stateless = false, then_branch = @then}> : (tensor<i1>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func private @branch(%arg0: tensor<f32>) -> tensor<f32>

func.func @if_missing_is_stateless(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op requires attribute 'is_stateless'}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @branch, then_branch = @branch}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @branch(%arg0: tensor<f32>) -> tensor<f32>

func.func @if_branch_string(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{Invalid attribute `then_branch` in property conversion: "branch"}}
  %0 = "tf.If"(%arg0, %arg1) <{else_branch = @branch, is_stateless = false, then_branch = "branch"}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// tf.While
//===----------------------------------------------------------------------===//

// -----

func.func private @cond(%arg0: tensor<i32>) -> tensor<i1>

func.func @while_missing_body(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op requires attribute 'body'}}
  %0 = "tf.While"(%arg0) <{cond = @cond, is_stateless = true}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @cond(%arg0: tensor<i32>) -> tensor<i1>
func.func private @body(%arg0: tensor<i32>) -> tensor<i32>

func.func @while_result_count(%arg0: tensor<i32>) {
  // expected-error@+1 {{'tf.While' op inputs (size = 1) should have the same number of values as results (size = 2)}}
  %0:2 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  return
}

// -----

func.func private @cond(%arg0: tensor<i32>) -> tensor<i1>
func.func private @body(%arg0: tensor<i32>) -> tensor<i32>

func.func @while_parallel_iterations(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op attribute 'parallel_iterations' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  %0 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true, parallel_iterations = 0 : i64}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @body(%arg0: tensor<i32>) -> tensor<i32>

func.func @while_missing_cond_function(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op cond refers to an undefined function : cond}}
  %0 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @cond(%arg0: tensor<i32>) -> tensor<i1>
func.func private @body(%arg0: tensor<i32>, %arg1: tensor<i32>) -> (tensor<i32>, tensor<i32>)

func.func @while_body_arity(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op inputs (size = 1) should have the same number of values as body inputs (size = 2)}}
  %0 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @cond(%arg0: tensor<i32>) -> tensor<i1>
func.func private @body(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>)

func.func @while_body_result_count(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op results (size = 1) should have the same number of values as body results (size = 2)}}
  %0 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @cond(%arg0: tensor<i32>) -> tensor<i1>
func.func private @body(%arg0: tensor<i32>) -> tensor<f32>

func.func @while_body_result_type(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op result type tensor<i32> is incompatible with body result type tensor<f32> at index 0}}
  %0 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @cond(%arg0: tensor<2xi32>) -> tensor<i1>
func.func private @body(%arg0: tensor<i32>) -> tensor<i32>

func.func @while_cond_input_type(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op input type tensor<i32> is incompatible with condition input type tensor<2xi32> at index 0}}
  %0 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @cond(%arg0: tensor<i32>) -> (tensor<i1>, tensor<i1>)
func.func private @body(%arg0: tensor<i32>) -> tensor<i32>

func.func @while_cond_two_results(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op requires cond function to have exactly one result}}
  %0 = "tf.While"(%arg0) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

//===----------------------------------------------------------------------===//
// tf.Case
//===----------------------------------------------------------------------===//

// -----

func.func private @b0(%arg0: tensor<f32>) -> tensor<f32>

func.func @case_missing_branch(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op expects branch #1 (@b1) to point to a defined function}}
  %0 = "tf.Case"(%arg0, %arg1) <{branches = [@b0, @b1], is_stateless = false}> : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @b0(%arg0: tensor<f32>) -> tensor<f32>
func.func private @b1(%arg0: tensor<f32>) -> tensor<i32>

func.func @case_branch_result_type(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op branch #1 result type tensor<i32> is incompatible with result type tensor<f32> at index 0}}
  %0 = "tf.Case"(%arg0, %arg1) <{branches = [@b0, @b1], is_stateless = false}> : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_no_branches(%arg0: tensor<i32>, %arg1: tensor<f32>) {
  // expected-error@+1 {{'tf.Case' op attribute 'branches' failed to satisfy constraint: symbol ref array attribute with at least 1 elements}}
  "tf.Case"(%arg0, %arg1) <{branches = [], is_stateless = false}> : (tensor<i32>, tensor<f32>) -> ()
  return
}

// -----

func.func private @b0(%arg0: tensor<f32>) -> tensor<f32>

func.func @case_branch_not_symbol(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op attribute 'branches' failed to satisfy constraint: symbol ref array attribute with at least 1 elements}}
  %0 = "tf.Case"(%arg0, %arg1) <{branches = [@b0, "b1"], is_stateless = false}> : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @b0(%arg0: tensor<f32>) -> tensor<f32>

func.func @case_index_type(%arg0: tensor<i64>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op operand #0 must be tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = "tf.Case"(%arg0, %arg1) <{branches = [@b0], is_stateless = false}> : (tensor<i64>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// tf.IfRegion / tf.CaseRegion / tf.WhileRegion / tf.Yield
//===----------------------------------------------------------------------===//

// -----

func.func @if_region_no_yield(%arg0: tensor<i1>) {
  // expected-error@+2 {{block with no terminator, has "tf.NoOp"() : () -> ()}}
  "tf.IfRegion"(%arg0) <{is_stateless = true}> ({
    "tf.NoOp"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) : (tensor<i1>) -> ()
  return
}

// -----

func.func @if_region_yield_count(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.IfRegion' op along control flow edge from Operation tf.Yield to parent: region branch point has 2 operands, but region successor needs 1 inputs}}
  %0 = "tf.IfRegion"(%arg0) <{is_stateless = true}> ({
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%arg1, %arg1) : (tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @if_region_yield_type(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.IfRegion' op then result type tensor<f32> is incompatible with result type tensor<i32> at index 0}}
  %0 = "tf.IfRegion"(%arg0) <{is_stateless = true}> ({
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @if_region_cond_type(%arg0: tensor<i32>) {
  // expected-error@+1 {{'tf.IfRegion' op operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<i32>'}}
  "tf.IfRegion"(%arg0) <{is_stateless = true}> ({
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) : (tensor<i32>) -> ()
  return
}

// -----

func.func @if_region_block_argument(%arg0: tensor<i1>) {
  // expected-error@+1 {{'tf.IfRegion' op region #0 should have no arguments}}
  "tf.IfRegion"(%arg0) <{is_stateless = true}> ({
  ^bb0(%x: tensor<f32>):
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) : (tensor<i1>) -> ()
  return
}

// -----

func.func @case_region_no_branches(%arg0: tensor<i32>) {
  // expected-error@+1 {{'tf.CaseRegion' op expects to have at least 1 region}}
  "tf.CaseRegion"(%arg0) <{is_stateless = true}> : (tensor<i32>) -> ()
  return
}

// -----

func.func @case_region_yield_count(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.CaseRegion' op branch #1 results (size = 0) should have the same number of values as results (size = 1)}}
  %0 = "tf.CaseRegion"(%arg0) <{is_stateless = true}> ({
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_region_yield_type(%arg0: tensor<i32>, %arg1: tensor<f32>, %arg2: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'tf.CaseRegion' op branch #0 result type tensor<2xf32> is incompatible with result type tensor<3xf32> at index 0}}
  %0 = "tf.CaseRegion"(%arg0) <{is_stateless = true}> ({
    "tf.Yield"(%arg2) : (tensor<2xf32>) -> ()
  }) : (tensor<i32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @case_region_no_yield(%arg0: tensor<i32>) {
  // expected-error@+2 {{block with no terminator, has "tf.NoOp"() : () -> ()}}
  "tf.CaseRegion"(%arg0) <{is_stateless = true}> ({
    "tf.NoOp"() : () -> ()
  }) : (tensor<i32>) -> ()
  return
}

// -----

func.func @while_region_result_count(%arg0: tensor<i32>) {
  // expected-error@+1 {{'tf.WhileRegion' op inputs (size = 1) should have the same number of values as results (size = 0)}}
  "tf.WhileRegion"(%arg0) <{is_stateless = true}> ({
  ^bb0(%a: tensor<i32>):
    %c = "tf.SomeCond"(%a) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> ()
  return
}

// -----

func.func @while_region_cond_arguments(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.WhileRegion' op inputs (size = 1) should have the same number of values as condition inputs (size = 0)}}
  %0 = "tf.WhileRegion"(%arg0) <{is_stateless = true}> ({
    %c = "tf.SomeCond"() : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_region_body_argument_type(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.WhileRegion' op input type tensor<i32> is incompatible with body input type tensor<f32> at index 0}}
  %0 = "tf.WhileRegion"(%arg0) <{is_stateless = true}> ({
  ^bb0(%a: tensor<i32>):
    %c = "tf.SomeCond"(%a) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>):
    "tf.Yield"(%arg0) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_region_cond_yields_nothing(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.WhileRegion' op condition should yield a tensor<i1> and forward the arguments}}
  %0 = "tf.WhileRegion"(%arg0) <{is_stateless = true}> ({
  ^bb0(%a: tensor<i32>):
    "tf.Yield"() : () -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_region_cond_not_bool(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.WhileRegion' op condition should have a single tensor<i1> result}}
  %0 = "tf.WhileRegion"(%arg0) <{is_stateless = true}> ({
  ^bb0(%a: tensor<i32>):
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_region_body_yield_type(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.WhileRegion' op result type tensor<i32> is incompatible with body result type tensor<f32> at index 0}}
  %0 = "tf.WhileRegion"(%arg0) <{is_stateless = true}> ({
  ^bb0(%a: tensor<i32>):
    %c = "tf.SomeCond"(%a) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_region_missing_is_stateless(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.WhileRegion' op requires attribute 'is_stateless'}}
  %0 = "tf.WhileRegion"(%arg0) ({
  ^bb0(%a: tensor<i32>):
    %c = "tf.SomeCond"(%a) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @yield_outside_region_op(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Yield' op expects parent op to be one of 'tf.CaseRegion, tf.IfRegion, tf.WhileRegion, tf.GeneratorDatasetRegion'}}
  "tf.Yield"(%arg0) : (tensor<f32>) -> ()
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

// -----

func.func @partitioned_call_undefined(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'f' attribute refers to an undefined function: @missing}}
  %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @missing}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>

func.func @partitioned_call_arity(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{argument count mismatch: 'args' has 2 arguments, but '@callee' expects 1}}
  %0 = "tf.PartitionedCall"(%arg0, %arg0) <{config = "", config_proto = "", executor_type = "", f = @callee}> : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>

func.func @partitioned_call_missing_config(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.PartitionedCall' op requires attribute 'config'}}
  %0 = "tf.PartitionedCall"(%arg0) <{config_proto = "", executor_type = "", f = @callee}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @stateful_partitioned_call_undefined(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'f' attribute refers to an undefined function: @missing}}
  %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @missing}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @legacy_call_undefined(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'f' attribute refers to an undefined function: missing}}
  %0 = "tf.LegacyCall"(%arg0) <{f = @missing}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Resource variables
//===----------------------------------------------------------------------===//

// -----

func.func @var_handle_not_resource() -> tensor<f32> {
  // expected-error@+1 {{'tf.VarHandleOp' op result #0 must be tensor of resource values, but got 'tensor<f32>'}}
  %0 = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @read_variable_not_resource(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.ReadVariableOp' op operand #0 must be tensor of resource values, but got 'tensor<f32>'}}
  %0 = "tf.ReadVariableOp"(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @assign_variable_not_resource(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf.AssignVariableOp' op operand #0 must be tensor of resource values, but got 'tensor<f32>'}}
  "tf.AssignVariableOp"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> ()
  return
}

// -----

func.func @assign_add_variable_operand_count(%arg0: tensor<!tf_type.resource>) {
  // expected-error@+1 {{'tf.AssignAddVariableOp' op expected 2 operands, but found 1}}
  "tf.AssignAddVariableOp"(%arg0) : (tensor<!tf_type.resource>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// tf.Shape / tf.VariableShape
//===----------------------------------------------------------------------===//

// -----

func.func @shape_not_1d(%arg0: tensor<2x3xf32>) -> tensor<2x1xi32> {
  // expected-error@+1 {{'tf.Shape' op requires 1D type for result}}
  %0 = "tf.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

// -----

func.func @shape_wrong_length(%arg0: tensor<2x3xf32>) -> tensor<3xi32> {
  // expected-error@+1 {{'tf.Shape' op requires dimension size of result to match rank of operand}}
  %0 = "tf.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @shape_result_type(%arg0: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Shape' op result #0 must be tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = "tf.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @variable_shape_not_1d(%arg0: tensor<!tf_type.resource<tensor<2x3xf32>>>) -> tensor<i64> {
  // expected-error@+1 {{'tf.VariableShape' op requires 1D type for result}}
  %0 = "tf.VariableShape"(%arg0) : (tensor<!tf_type.resource<tensor<2x3xf32>>>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @variable_shape_wrong_length(%arg0: tensor<!tf_type.resource<tensor<2x3xf32>>>) -> tensor<3xi64> {
  // expected-error@+1 {{'tf.VariableShape' op requires dimension size of result to match rank of operand}}
  %0 = "tf.VariableShape"(%arg0) : (tensor<!tf_type.resource<tensor<2x3xf32>>>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

//===----------------------------------------------------------------------===//
// Send / Recv and the TPU ops
//===----------------------------------------------------------------------===//

// -----

func.func @send_missing_incarnation(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf._Send' op requires attribute 'send_device_incarnation'}}
  "tf._Send"(%arg0) <{recv_device = "/device:CPU:1", send_device = "/device:CPU:0", tensor_name = "t"}> : (tensor<f32>) -> ()
  return
}

// -----

func.func @recv_missing_tensor_name() -> tensor<f32> {
  // expected-error@+1 {{'tf._Recv' op requires attribute 'tensor_name'}}
  %0 = "tf._Recv"() <{recv_device = "/device:CPU:1", send_device = "/device:CPU:0", send_device_incarnation = 1 : i64}> : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @tpu_replicate_metadata_negative() {
  // expected-error@+1 {{'tf.TPUReplicateMetadata' op attribute 'num_replicas' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
  "tf.TPUReplicateMetadata"() <{num_replicas = -1 : i64}> : () -> ()
  return
}

// -----

func.func @tpu_replicate_metadata_missing_num_replicas() {
  // expected-error@+1 {{'tf.TPUReplicateMetadata' op requires attribute 'num_replicas'}}
  "tf.TPUReplicateMetadata"() : () -> ()
  return
}

// -----

func.func @tpu_partitioned_input_v2_missing_dims(%arg0: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tf.TPUPartitionedInputV2' op requires attribute 'partition_dims'}}
  %0 = "tf.TPUPartitionedInputV2"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tpu_compile_status_type() {
  // expected-error@+1 {{'tf._TPUCompileMlir' op result #0 must be tensor of string values, but got 'tensor<i32>'}}
  %0:2 = "tf._TPUCompileMlir"() <{metadata = ""}> : () -> (tensor<i32>, tensor<3x!tf_type.string>)
  return
}

// -----

func.func @tpu_compile_succeeded_assert_type(%arg0: tensor<i32>) {
  // expected-error@+1 {{'tf.TPUCompileSucceededAssert' op operand #0 must be tensor of string values, but got 'tensor<i32>'}}
  "tf.TPUCompileSucceededAssert"(%arg0) : (tensor<i32>) -> ()
  return
}

// -----

func.func @tpu_execute_key_type(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf.TPUExecute' op operand #1 must be tensor of string values, but got 'tensor<f32>'}}
  "tf.TPUExecute"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> ()
  return
}

// -----

func.func @xla_recv_at_host_missing_key(%arg0: tensor<3x!tf_type.string>) {
  // expected-error@+1 {{'tf._XlaRecvAtHost' op requires attribute 'key'}}
  %0 = "tf._XlaRecvAtHost"(%arg0) <{device_ordinal = 0 : i64}> : (tensor<3x!tf_type.string>) -> tensor<f32>
  return
}

// -----

func.func @xla_host_compute_missing_send_key(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf._XlaHostComputeMlir' op requires attribute 'send_key'}}
  %0 = "tf._XlaHostComputeMlir"(%arg0) <{recv_key = "r"}> : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @xla_send_from_host_key_type(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf._XlaSendFromHost' op operand #1 must be tensor of string values, but got 'tensor<f32>'}}
  "tf._XlaSendFromHost"(%arg0, %arg0) <{device_ordinal = 0 : i64, key = "k"}> : (tensor<f32>, tensor<f32>) -> ()
  return
}
