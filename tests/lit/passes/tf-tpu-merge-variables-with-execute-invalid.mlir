// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-merge-variables-with-execute

// TF's error: once the read of %v merges, the execute's first operand is a
// resource that is neither merged read nor update.

func.func @resource_operand_not_hoisted(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %w: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %key: tensor<3x!tf_type.string>) -> tensor<f32> {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e = "tf_device.launch"() ({
    // expected-error @+1 {{'tf.TPUExecute' op operand #0 is a resource that was neither read nor written to; this resource potentially failed to be hoisted}}
    %0 = "tf.TPUExecute"(%w, %r, %key) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  func.return %e : tensor<f32>
}

// -----

// Each function is reported (as TF, which goes on with the next function);
// the first function's merge is undone with the rest.

func.func @merges(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %key: tensor<3x!tf_type.string>) {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%r, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}

func.func @first_error(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %w: tensor<*x!tf_type.resource<tensor<f32>>>,
    %key: tensor<3x!tf_type.string>) {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf_device.launch"() ({
    // expected-error @+1 {{operand #1 is a resource that was neither read nor written to}}
    "tf.TPUExecute"(%r, %w, %key) : (tensor<f32>, tensor<*x!tf_type.resource<tensor<f32>>>, tensor<3x!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> ()
  // Not looked at: the function's first error stops it.
  %r2 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf_device.launch"() ({
    "tf.TPUExecute"(%r2, %w, %key) : (tensor<f32>, tensor<*x!tf_type.resource<tensor<f32>>>, tensor<3x!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> ()
  func.return
}

func.func @second_error(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %w: tensor<*x!tf_type.resource<tensor<f32>>>,
    %key: tensor<3x!tf_type.string>) {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf_device.launch"() ({
    // expected-error @+1 {{operand #0 is a resource that was neither read nor written to}}
    "tf.TPUExecute"(%w, %r, %key) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>, tensor<3x!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> ()
  func.return
}

// -----

// TF's check compares operand numbers with the update indices too: operand
// #1, a resource nobody reads, passes it because output #1 updates operand #0;
// the merged op would then not verify (TF's pipeline fails verifying it).

func.func @update_index_hides_an_operand(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %w: tensor<*x!tf_type.resource<tensor<f32>>>,
    %key: tensor<3x!tf_type.string>) -> tensor<f32> {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  // expected-error @+1 {{'tf.TPUExecuteAndUpdateVariables' op requires 'device_var_reads_indices' to be the same size as number of resource handles in 'args' (2), but got 1}}
  %e:2 = "tf_device.launch"() ({
    %0:2 = "tf.TPUExecute"(%r, %w, %key) : (tensor<f32>, tensor<*x!tf_type.resource<tensor<f32>>>, tensor<3x!tf_type.string>) -> (tensor<f32>, tensor<f32>)
    tf_device.return %0#0, %0#1 : tensor<f32>, tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> (tensor<f32>, tensor<f32>)
  "tf.AssignVariableOp"(%v, %e#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return %e#0 : tensor<f32>
}

// -----

// TF's process crashes (or loops) when a read to merge is in another block
// than the execute's launch: here the launch is in a tf.IfRegion branch.

func.func @read_in_an_outer_block(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %p: tensor<i1>, %key: tensor<3x!tf_type.string>) {
  // expected-error @+1 {{'tf.ReadVariableOp' feeding operand #0 of 'tf.TPUExecute' is not in the block of the 'tf_device.launch' holding the execute; TF's process crashes here}}
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf.IfRegion"(%p) ({
    "tf_device.launch"() ({
      "tf.TPUExecute"(%r, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> ()
      tf_device.return
    }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  func.return
}

// -----

// The same for an assign to merge that is nested in another op.

func.func @assign_in_an_inner_block(
    %v: tensor<*x!tf_type.resource<tensor<f32>>> {tf.device = "/job:worker/replica:0/task:0/device:TPU:0"},
    %p: tensor<i1>, %key: tensor<3x!tf_type.string>) {
  %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %e = "tf_device.launch"() ({
    %0 = "tf.TPUExecute"(%r, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> tensor<f32>
  "tf.IfRegion"(%p) ({
    // expected-error @+1 {{'tf.AssignVariableOp' of output #0 of 'tf.TPUExecute' is not in the block of the 'tf_device.launch' holding the execute}}
    "tf.AssignVariableOp"(%v, %e) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  func.return
}

// -----

// TF's process crashes on a resource whose op has a device attribute that is
// not a string (and not the launch's).

func.func @device_attribute_not_a_string(%key: tensor<3x!tf_type.string>) {
  // expected-error @+1 {{'tf.VarHandleOp' op has a 'device' attribute that is not a string (1 : i64); TF's process crashes here}}
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", device = 1 : i64} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %r = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf_device.launch"() ({
    "tf.TPUExecute"(%r, %key) : (tensor<f32>, tensor<3x!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : () -> ()
  func.return
}
