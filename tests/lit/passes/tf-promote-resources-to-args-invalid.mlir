// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-promote-resources-to-args

// The function has two blocks.

// expected-error @+1 {{expects function 'main' to have 1 block, got 2}}
func.func @main(%arg0: i1) {
  cf.cond_br %arg0, ^bb1, ^bb1
^bb1:
  func.return
}

// -----

// The function is a declaration.

// expected-error @+1 {{expects function 'main' to have 1 block, got 0}}
func.func private @main(tensor<!tf_type.resource<tensor<f32>>>)

// -----

// A resource argument whose type has no subtype.

// expected-error @+1 {{expects resource type of argument 1 to have one subtype, got '!tf_type.resource'}}
func.func @main(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<*x!tf_type.resource>) {
  func.return
}

// -----

// A resource argument used by ops other than reads and writes (named once
// each, sorted).

// expected-error @+1 {{expects users of resource argument 0 to be 'tf.ReadVariableOp' or 'tf.AssignVariableOp', got [tf.AssignAddVariableOp, tf.DestroyResourceOp]}}
func.func @main(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<f32>) {
  "tf.DestroyResourceOp"(%arg0) {ignore_lookup_error = true} : (tensor<!tf_type.resource<tensor<f32>>>) -> ()
  "tf.AssignAddVariableOp"(%arg0, %arg1) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.DestroyResourceOp"(%arg0) {ignore_lookup_error = true} : (tensor<!tf_type.resource<tensor<f32>>>) -> ()
  func.return
}

// -----

// A variable handle used by another op.

func.func @main(%arg0: tensor<f32>) {
  // expected-error @+1 {{'tf.VarHandleOp' op expects users to be 'tf.ReadVariableOp' or 'tf.AssignVariableOp', got [tf.AssignSubVariableOp]}}
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  "tf.AssignSubVariableOp"(%0, %arg0) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}

// -----

// A read of a variable that is not initialized (so not promoted) while
// other resources are.

func.func @main(%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "later", _is_initialized = false} : () -> tensor<!tf_type.resource<tensor<f32>>>
  // expected-error @+1 {{'tf.ReadVariableOp' op expects resource to be a VarHandleOp or function argument}}
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

// A loop condition writing a variable.

func.func private @writing_cond(%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignVariableOp"(%arg0, %c) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %p = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  func.return %p : tensor<i1>
}

func.func private @plain_body(%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>> {
  func.return %arg0 : tensor<!tf_type.resource<tensor<f32>>>
}

func.func @main(%arg0: tensor<!tf_type.resource<tensor<f32>>>) {
  // expected-error @+1 {{'tf.While' op found resource write in loop condition.}}
  %0 = "tf.While"(%arg0) {body = @plain_body, cond = @writing_cond, is_stateless = false} : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>>
  func.return
}

// -----

// A resource result of a tf.If returning different arguments in its
// branches.

func.func private @first(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>> {
  func.return %arg0 : tensor<!tf_type.resource<tensor<f32>>>
}

func.func private @second(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>> {
  func.return %arg1 : tensor<!tf_type.resource<tensor<f32>>>
}

func.func @main(%arg0: tensor<i1>, %arg1: tensor<!tf_type.resource<tensor<f32>>>, %arg2: tensor<!tf_type.resource<tensor<f32>>>) {
  // expected-error @+1 {{result #0 is not tied to the same argument across all branches}}
  %0 = "tf.If"(%arg0, %arg1, %arg2) {then_branch = @first, else_branch = @second, is_stateless = false} : (tensor<i1>, tensor<!tf_type.resource<tensor<f32>>>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>>
  func.return
}

// -----

// A resource result of a tf.If made by a handle in a branch.

func.func private @fresh(%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>> {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "inner"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  func.return %0 : tensor<!tf_type.resource<tensor<f32>>>
}

func.func private @same(%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>> {
  func.return %arg0 : tensor<!tf_type.resource<tensor<f32>>>
}

func.func @main(%arg0: tensor<i1>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) {
  // expected-error @+1 {{'tf.If' op result #0 not tied to function argument for branch @fresh}}
  %0 = "tf.If"(%arg0, %arg1) {then_branch = @same, else_branch = @fresh, is_stateless = false} : (tensor<i1>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>>
  func.return
}

// -----

// A resource result of a tf.While that the body takes from another argument.

func.func private @swap_cond(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<i1> {
  %p = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  func.return %p : tensor<i1>
}

func.func private @swap_body(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<!tf_type.resource<tensor<f32>>>, tensor<!tf_type.resource<tensor<f32>>>) {
  func.return %arg0, %arg0 : tensor<!tf_type.resource<tensor<f32>>>, tensor<!tf_type.resource<tensor<f32>>>
}

func.func @main(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) {
  // expected-error @+1 {{'tf.While' op Result #1 is tied to argument #0}}
  %0:2 = "tf.While"(%arg0, %arg1) {body = @swap_body, cond = @swap_cond, is_stateless = false} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<!tf_type.resource<tensor<f32>>>, tensor<!tf_type.resource<tensor<f32>>>)
  func.return
}

// -----

// A called function returning a resource that is not one of its arguments.

// expected-error @+1 {{'func.func' op unsupported function call: resource return value does not alias an input.}}
func.func private @make_handle(%arg0: tensor<f32>) -> tensor<!tf_type.resource<tensor<f32>>> {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "made"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  "tf.AssignVariableOp"(%0, %arg0) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %0 : tensor<!tf_type.resource<tensor<f32>>>
}

func.func @main(%arg0: tensor<f32>) {
  %0 = "tf.PartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @make_handle} : (tensor<f32>) -> tensor<!tf_type.resource<tensor<f32>>>
  func.return
}

// -----

// The function does not end with func.return.

// expected-error @+1 {{expects function 'main' to have a MLIR ReturnOp}}
func.func @main() {
^bb0:
  tf_device.return
}

// -----

// A variable read only inside a region: its argument is removed (no read in
// the body) while the nested read still uses it (TensorFlow crashes here).

func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "read_in_cluster_only"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  "tf.AssignVariableOp"(%0, %arg0) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %1 = "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.ReadVariableOp' op uses variable 'read_in_cluster_only' in a nested region, whose argument is removed as the variable is not read in the function's body (TensorFlow crashes here)}}
    %2 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_device.return %2 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

// A tf.If with a resource result whose two branches are one function used
// nowhere else: MLIR counts one use, so it is not copied, and TF drops the
// result from its return twice (TensorFlow crashes here).

func.func private @both_ways(%arg0: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>> {
  func.return %arg0 : tensor<!tf_type.resource<tensor<f32>>>
}

func.func @main(%arg0: tensor<i1>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) {
  // expected-error @+1 {{'tf.If' op: a branch listed twice loses its return value #0 twice (TensorFlow crashes here)}}
  %0 = "tf.If"(%arg0, %arg1) {then_branch = @both_ways, else_branch = @both_ways, is_stateless = false} : (tensor<i1>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<!tf_type.resource<tensor<f32>>>
  func.return
}
