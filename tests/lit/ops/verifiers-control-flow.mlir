// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// Verifiers of the functional and region control flow ops, calls, variables
// and host computations (cpp/lib/Tf.cpp, cpp/lib/TfVerifiersCalls.cpp): what
// TF 2.21 accepts verifies, what it rejects fails with its message.

// Branches may be more or less refined than the operands and results, and
// than each other, as long as one type refines them all; the condition may
// be any tensor; resource subtypes refine, a missing subtype matches any.
func.func private @then_ranked(tensor<2x?xf32>, tensor<!tf_type.resource>) -> tensor<?xi32>
func.func private @else_unranked(tensor<*xf32>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<*xi32>

func.func @if_valid(%c: tensor<2xi32>, %x: tensor<?x3xf32>, %r: tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<5xi32> {
  %0 = "tf.If"(%c, %x, %r) <{else_branch = @else_unranked, is_stateless = true, then_branch = @then_ranked}> : (tensor<2xi32>, tensor<?x3xf32>, tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

func.func private @then_f(tensor<f32>) -> tensor<f32>
func.func private @else_f(tensor<f32>) -> tensor<f32>

func.func @if_operand_not_tensor(%c: tensor<i1>, %x: f32) {
  // expected-error@+1 {{'tf.If' op operand #1 must be variadic of tensor of tf.dtype values, but got 'f32'}}
  "tf.If"(%c, %x) <{else_branch = @else_f, is_stateless = true, then_branch = @then_f}> : (tensor<i1>, f32) -> ()
  return
}

// -----

func.func private @f(tensor<f32>) -> tensor<f32>

func.func @if_branch_undefined(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op expects 'else_branch' (@nowhere) to point to a defined function}}
  %0 = "tf.If"(%c, %x) <{else_branch = @nowhere, is_stateless = true, then_branch = @f}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @then_f(tensor<f32>, tensor<f32>) -> tensor<f32>
func.func private @else_f(tensor<f32>) -> tensor<f32>

func.func @if_branch_arity(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op 'then_branch' inputs (size = 2) should have the same number of values as inputs (size = 1)}}
  %0 = "tf.If"(%c, %x) <{else_branch = @else_f, is_stateless = true, then_branch = @then_f}> : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Ref types are not dropped: a ref operand does not match a plain argument.
func.func private @then_f(tensor<f32>) -> tensor<f32>
func.func private @else_f(tensor<f32>) -> tensor<f32>

func.func @if_ref_operand(%c: tensor<i1>, %x: tensor<!tf_type.f32ref>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op 'then_branch' input type tensor<f32> is incompatible with input type tensor<!tf_type.f32ref> at index 0}}
  %0 = "tf.If"(%c, %x) <{else_branch = @else_f, is_stateless = true, then_branch = @then_f}> : (tensor<i1>, tensor<!tf_type.f32ref>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @then_f(tensor<*x!tf_type.resource<tensor<2xf32>>>) -> tensor<f32>
func.func private @else_f(tensor<*x!tf_type.resource>) -> tensor<f32>

func.func @if_resource_subtype(%c: tensor<i1>, %r: tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<f32> {
  // expected-error@+1 {{'tf.If' op 'then_branch' input type tensor<*x!tf_type.resource<tensor<2xf32>>> is incompatible with input type tensor<!tf_type.resource<tensor<3xf32>>> at index 0}}
  %0 = "tf.If"(%c, %r) <{else_branch = @else_f, is_stateless = true, then_branch = @then_f}> : (tensor<i1>, tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @then_f(tensor<f32>) -> tensor<2xf32>
func.func private @else_f(tensor<f32>) -> tensor<?xi32>

func.func @if_result_type(%c: tensor<i1>, %x: tensor<f32>) -> tensor<*xf32> {
  // expected-error@+1 {{'tf.If' op 'else_branch' result type tensor<?xi32> is incompatible with result type tensor<*xf32> at index 0}}
  %0 = "tf.If"(%c, %x) <{else_branch = @else_f, is_stateless = true, then_branch = @then_f}> : (tensor<i1>, tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Variants are compatible whatever their subtypes.
func.func private @b0(tensor<!tf_type.variant<tensor<2xf32>>>) -> tensor<*xf32>
func.func private @b1(tensor<!tf_type.variant<tensor<3xi32>>>) -> tensor<*xf32>
func.func private @b2(tensor<*x!tf_type.variant>) -> tensor<2xf32>

func.func @case_valid(%i: tensor<*xi32>, %v: tensor<!tf_type.variant>) -> tensor<?xf32> {
  %0 = "tf.Case"(%i, %v) <{branches = [@b0, @b1, @b2], is_stateless = false}> : (tensor<*xi32>, tensor<!tf_type.variant>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func private @b(tensor<f32>) -> tensor<f32>

func.func @case_index_not_scalar(%i: tensor<1xi32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op expects 'branch_index' to be a scalar, but got 'tensor<1xi32>'}}
  %0 = "tf.Case"(%i, %x) <{branches = [@b], is_stateless = false}> : (tensor<1xi32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @b0(tensor<?x2xf32>) -> tensor<f32>
func.func private @b1(tensor<3x?xf32>) -> tensor<f32>
func.func private @b2(tensor<4x2xf32>) -> tensor<f32>

func.func @case_branch_arguments_disagree(%i: tensor<i32>, %x: tensor<*xf32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op expects all branch input type(s) (tensor<?x2xf32>, tensor<3x?xf32>, tensor<4x2xf32>) at index 0 to be cast compatible}}
  %0 = "tf.Case"(%i, %x) <{branches = [@b0, @b1, @b2], is_stateless = false}> : (tensor<i32>, tensor<*xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @b0(tensor<f32>) -> tensor<f32>
func.func private @b1(tensor<f32>) -> (tensor<f32>, tensor<f32>)

func.func @case_branch_results(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op branch #1 results (size = 2) should have the same number of values as results (size = 1)}}
  %0 = "tf.Case"(%i, %x) <{branches = [@b0, @b1], is_stateless = false}> : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// The operands and the body's results are never converted into each other:
// only their agreement with the results and the arguments is checked; a
// shape-invariant loop's results need not match its operands.
func.func private @cond(tensor<?xf32>) -> tensor<i1>
func.func private @body(tensor<?xf32>) -> tensor<3xf32>
func.func private @cond_any(tensor<*xf32>) -> tensor<*xi1>
func.func private @body_any(tensor<*xf32>) -> tensor<*xf32>

func.func @while_valid(%x: tensor<2xf32>) -> (tensor<?xf32>, tensor<5xf32>) {
  %0 = "tf.While"(%x) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<2xf32>) -> tensor<?xf32>
  %1 = "tf.While"(%x) <{body = @body_any, cond = @cond_any, is_stateless = true, shape_invariant}> : (tensor<2xf32>) -> tensor<5xf32>
  return %0, %1 : tensor<?xf32>, tensor<5xf32>
}

// -----

func.func private @cond(tensor<*xf32>) -> tensor<i1>
func.func private @body(tensor<*xf32>) -> tensor<*xf32>

func.func @while_operands_results(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'tf.While' op input type tensor<2xf32> is incompatible with result type tensor<3xf32> at index 0}}
  %0 = "tf.While"(%x) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func private @cond(tensor<*xf32>) -> tensor<i1>
func.func private @body(tensor<*xf32>) -> tensor<*xf32>

func.func @while_result_count(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // expected-error@+1 {{'tf.While' op inputs (size = 1) should have the same number of values as results (size = 2)}}
  %0:2 = "tf.While"(%x) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

func.func private @cond(tensor<f32>) -> tensor<i1>

func.func @while_body_undefined(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.While' op body refers to an undefined function : nowhere}}
  %0 = "tf.While"(%x) <{body = @nowhere, cond = @cond, is_stateless = true}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @cond(tensor<f32>) -> (tensor<i1>, tensor<i1>)
func.func private @body(tensor<f32>) -> tensor<f32>

func.func @while_cond_results(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.While' op requires cond function to have exactly one result}}
  %0 = "tf.While"(%x) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @cond(tensor<2xf32>) -> tensor<i1>
func.func private @body(tensor<?xf32>) -> tensor<3xf32>

func.func @while_body_result_vs_cond(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{'tf.While' op body result type tensor<3xf32> is incompatible with condition input type tensor<2xf32> at index 0}}
  %0 = "tf.While"(%x) <{body = @body, cond = @cond, is_stateless = true}> : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Region forms: yields may refine or generalize the results; the condition
// may forward its arguments.
func.func @regions_valid(%p: tensor<i1>, %i: tensor<*xi32>, %x: tensor<2xf32>) -> (tensor<?xf32>, tensor<*xf32>, tensor<2xf32>) {
  %0 = "tf.IfRegion"(%p) <{is_stateless = true}> ({
    "tf.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    %u = "tf.Unknown"() : () -> tensor<*xf32>
    "tf.Yield"(%u) : (tensor<*xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  %1 = "tf.CaseRegion"(%i) <{is_stateless = true}> ({
    "tf.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    %u = "tf.Unknown"() : () -> tensor<?xf32>
    "tf.Yield"(%u) : (tensor<?xf32>) -> ()
  }) : (tensor<*xi32>) -> tensor<*xf32>
  %2 = "tf.WhileRegion"(%x) <{is_stateless = true}> ({
  ^bb0(%a: tensor<?xf32>):
    %c = "tf.SomeCond"(%a) : (tensor<?xf32>) -> tensor<i1>
    "tf.Yield"(%c, %a) : (tensor<i1>, tensor<?xf32>) -> ()
  }, {
  ^bb0(%a: tensor<*xf32>):
    "tf.Yield"(%a) : (tensor<*xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<*xf32>, tensor<2xf32>
}

// -----

func.func @if_region_cond_not_scalar(%p: tensor<1xi1>) {
  // expected-error@+1 {{'tf.IfRegion' op operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<1xi1>'}}
  "tf.IfRegion"(%p) <{is_stateless = true}> ({
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) : (tensor<1xi1>) -> ()
  return
}

// -----

func.func @if_region_yield_count(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.IfRegion' op along control flow edge from Operation tf.Yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = "tf.IfRegion"(%p) <{is_stateless = true}> ({
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @if_region_else_type(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<2xf32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.IfRegion' op else result type tensor<2xf32> is incompatible with result type tensor<f32> at index 0}}
  %0 = "tf.IfRegion"(%p) <{is_stateless = true}> ({
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%y) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A region without terminator is reported as such, before the op's rules.
func.func @if_region_no_terminator(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.IfRegion"(%p) <{is_stateless = true}> ({
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }, {
    // expected-error@+1 {{block with no terminator}}
    %y = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_region_index_not_scalar(%i: tensor<2xi32>) {
  // expected-error@+1 {{'tf.CaseRegion' op expects 'branch_index' to be a scalar, but got 'tensor<2xi32>'}}
  "tf.CaseRegion"(%i) <{is_stateless = true}> ({
    "tf.Yield"() : () -> ()
  }) : (tensor<2xi32>) -> ()
  return
}

// -----

func.func @case_region_yield_count(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.CaseRegion' op branch #1 results (size = 2) should have the same number of values as results (size = 1)}}
  %0 = "tf.CaseRegion"(%i) <{is_stateless = true}> ({
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%x, %x) : (tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @while_region_cond_unranked(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.WhileRegion' op condition should have a single tensor<i1> result}}
  %0 = "tf.WhileRegion"(%x) <{is_stateless = true}> ({
  ^bb0(%a: tensor<f32>):
    %c = "tf.SomeCond"(%a) : (tensor<f32>) -> tensor<*xi1>
    "tf.Yield"(%c) : (tensor<*xi1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>):
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @while_region_cond_forwards_other(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.WhileRegion' op arguments on condition block aren't forwarded to yield}}
  %0 = "tf.WhileRegion"(%x) <{is_stateless = true}> ({
  ^bb0(%a: tensor<f32>):
    %c = "tf.SomeCond"(%a) : (tensor<f32>) -> tensor<i1>
    "tf.Yield"(%c, %y) : (tensor<i1>, tensor<f32>) -> ()
  }, {
  ^bb0(%a: tensor<f32>):
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @while_region_body_arguments(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.WhileRegion' op inputs (size = 1) should have the same number of values as body inputs (size = 0)}}
  %0 = "tf.WhileRegion"(%x) <{is_stateless = true}> ({
  ^bb0(%a: tensor<f32>):
    %c = "tf.SomeCond"(%a) : (tensor<f32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @yield_in_function(%x: tensor<f32>) {
  // expected-error@+1 {{'tf.Yield' op expects parent op to be one of 'tf.CaseRegion, tf.IfRegion, tf.WhileRegion, tf.GeneratorDatasetRegion'}}
  "tf.Yield"(%x) : (tensor<f32>) -> ()
}

// -----

// Calls: only the callee's existence and argument count are checked.
func.func private @callee(tensor<i32>) -> tensor<i32>

func.func @legacy_call_valid(%x: tensor<f32>) -> tensor<*xf32> {
  %0 = "tf.LegacyCall"(%x) <{f = @callee}> : (tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func private @callee(tensor<f32>) -> tensor<f32>

func.func @legacy_call_arity(%x: tensor<f32>) {
  // expected-error@+1 {{argument count mismatch: 'args' has 2 argument(s), but 'callee' expects 1}}
  "tf.LegacyCall"(%x, %x) <{f = @callee}> : (tensor<f32>, tensor<f32>) -> ()
  return
}

// -----

func.func @legacy_call_undefined(%x: tensor<f32>) {
  // expected-error@+1 {{'f' attribute refers to an undefined function: nowhere}}
  "tf.LegacyCall"(%x) <{f = @nowhere}> : (tensor<f32>) -> ()
  return
}

// -----

func.func private @batched(tensor<1xf32>) -> tensor<1xf32>
func.func private @host_callback(tensor<f32>) -> tensor<f32>

func.func @batch_function_and_call_module_valid(%x: tensor<1xf32>) -> tensor<*xf32> {
  %0 = "tf.BatchFunction"(%x) <{batch_timeout_micros = 10 : i64, f = @batched, max_batch_size = 4 : i64, num_batch_threads = 1 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (tensor<1xf32>) -> tensor<*xf32>
  "tf.XlaCallModule"() <{Sout = [], function_list = [@host_callback], module = "", version = 9 : i64}> : () -> ()
  return %0 : tensor<*xf32>
}

// -----

func.func @batch_function_undefined(%x: tensor<1xf32>) {
  // expected-error@+1 {{'f' attribute refers to an undefined function: nowhere}}
  %0 = "tf.BatchFunction"(%x) <{batch_timeout_micros = 10 : i64, f = @nowhere, max_batch_size = 4 : i64, num_batch_threads = 1 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (tensor<1xf32>) -> tensor<*xf32>
  return
}

// -----

func.func private @host_callback(tensor<f32>) -> tensor<f32>

func.func @xla_call_module_undefined() {
  // expected-error@+1 {{'tf.XlaCallModule' op refers to an undefined function: @nowhere}}
  "tf.XlaCallModule"() <{Sout = [], function_list = [@host_callback, @nowhere], module = "", version = 9 : i64}> : () -> ()
  return
}

// -----

func.func @var_handle_valid() -> tensor<!tf_type.resource<tensor<*xf32>>> {
  %0 = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> : () -> tensor<!tf_type.resource<tensor<*xf32>>>
  return %0 : tensor<!tf_type.resource<tensor<*xf32>>>
}

// -----

func.func @var_handle_no_subtype() -> tensor<!tf_type.resource> {
  // expected-error@+1 {{'tf.VarHandleOp' op must have exactly one subtype in the result resource type}}
  %0 = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> : () -> tensor<!tf_type.resource>
  return %0 : tensor<!tf_type.resource>
}

// -----

// An empty host module is not checked; a host_func of the op's arity is
// accepted whatever its types.
func.func @host_compute_valid(%x: tensor<2xf32>) -> tensor<2xi32> {
  "tf._XlaHostComputeMlir"(%x) <{recv_key = "r", send_key = "s"}> : (tensor<2xf32>) -> ()
  %0 = "tf._XlaHostComputeMlir"(%x) <{host_mlir_module = "module {\0A  func.func @host_func(%a: tensor<i1>) -> tensor<f64> {\0A    %b = \22tf.Cast\22(%a) : (tensor<i1>) -> tensor<f64>\0A    func.return %b : tensor<f64>\0A  }\0A}\0A", recv_key = "r", send_key = "s"}> : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @host_compute_unparsable(%x: tensor<2xf32>) {
  // expected-error@+1 {{attribute 'host_mlir_module' can not be deserialized. could not parse MLIR module-:1:7: error: expected '{' to begin a region}}
  "tf._XlaHostComputeMlir"(%x) <{host_mlir_module = "module }", recv_key = "r", send_key = "s"}> : (tensor<2xf32>) -> ()
  return
}

// -----

func.func @host_compute_no_host_func(%x: tensor<2xf32>) {
  // expected-error@+1 {{serialized module in attribute 'host_mlir_module' does not contain 'host_func' function.}}
  "tf._XlaHostComputeMlir"(%x) <{host_mlir_module = "module {\0A  func.func private @other(tensor<f32>)\0A}\0A", recv_key = "r", send_key = "s"}> : (tensor<2xf32>) -> ()
  return
}

// -----

func.func @host_compute_results(%x: tensor<2xf32>) {
  // expected-error@+1 {{'host_func' has 1 results and '_XlaHostComputeMlir' has 0 results.  Number of results should be the same.}}
  "tf._XlaHostComputeMlir"(%x) <{host_mlir_module = "module {\0A  func.func private @host_func(tensor<f32>) -> tensor<f32>\0A}\0A", recv_key = "r", send_key = "s"}> : (tensor<2xf32>) -> ()
  return
}
