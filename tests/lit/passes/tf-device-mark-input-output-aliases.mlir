// RUN: tfmlir-opt %s -split-input-file -tf-device-mark-input-output-aliases | FileCheck %s

// Inputs read from a variable that an output is written back to alias it.

// CHECK-LABEL: func @pairs
func.func @pairs(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %w: tensor<*x!tf_type.resource<tensor<i32>>>, %x: tensor<f32>) {
  %rv = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %rw = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<i32>>>) -> tensor<i32>
  %out:3 = "tf_device.cluster_func"(%x, %rw, %rv) {func = @device_pairs} : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<i32>)
  "tf.AssignVariableOp"(%v, %out#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%w, %out#2) : (tensor<*x!tf_type.resource<tensor<i32>>>, tensor<i32>) -> ()
  func.return
}
// CHECK-LABEL: func private @device_pairs
// CHECK-SAME: (%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32> {tf.aliasing_output = 2 : i64}, %{{.*}}: tensor<f32> {tf.aliasing_output = 1 : i64, tf.other = 1 : i32})
func.func private @device_pairs(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32> {tf.other = 1 : i32}) -> (tensor<f32>, tensor<f32>, tensor<i32>) {
  func.return %a, %c, %b : tensor<f32>, tensor<f32>, tensor<i32>
}

// -----

// Not marked: an output or a read with another use, two writes to one
// variable, two reads of one variable.

// CHECK-LABEL: func @skipped
func.func @skipped(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %w: tensor<*x!tf_type.resource<tensor<f32>>>) {
  %r0 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %o0 = "tf_device.cluster_func"(%r0) {func = @device_other_use} : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%v, %o0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.Use"(%o0) : (tensor<f32>) -> ()
  %r1 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %o1 = "tf_device.cluster_func"(%r1) {func = @device_read_used} : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%v, %o1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.Use"(%r1) : (tensor<f32>) -> ()
  %r2 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %o2:2 = "tf_device.cluster_func"(%r2) {func = @device_two_writes} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  "tf.AssignVariableOp"(%v, %o2#0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%v, %o2#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %r3 = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %r4 = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %o3 = "tf_device.cluster_func"(%r3, %r4) {func = @device_two_reads} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%w, %o3) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}
// CHECK-NOT: tf.aliasing_output
func.func private @device_other_use(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
func.func private @device_read_used(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
func.func private @device_two_writes(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  func.return %a, %a : tensor<f32>, tensor<f32>
}
func.func private @device_two_reads(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

// -----

// Outputs returned from a parallel_execute region are followed to the
// parallel_execute's results (regions' results are concatenated in order).

// CHECK-LABEL: func @parallel_execute
func.func @parallel_execute(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %w: tensor<*x!tf_type.resource<tensor<f32>>>) {
  %rv = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %rw = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %pe:3 = "tf_device.parallel_execute"() ({
    %h = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    tf_device.return %h : tensor<f32>
  }, {
    %d:2 = "tf_device.cluster_func"(%rv, %rw) {func = @device_pe} : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    tf_device.return %d#1, %d#0 : tensor<f32>, tensor<f32>
  }) : () -> (tensor<f32>, tensor<f32>, tensor<f32>)
  "tf.AssignVariableOp"(%v, %pe#1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%w, %pe#2) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.Use"(%pe#0) : (tensor<f32>) -> ()
  func.return
}
// CHECK-LABEL: func private @device_pe
// CHECK-SAME: (%{{.*}}: tensor<f32> {tf.aliasing_output = 1 : i64}, %{{.*}}: tensor<f32> {tf.aliasing_output = 0 : i64})
func.func private @device_pe(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  func.return %a, %b : tensor<f32>, tensor<f32>
}

// -----

// An existing alias of the same pair is kept; two cluster_funcs of one
// function agreeing on the pair are fine.

// CHECK-LABEL: func @existing
func.func @existing(%v: tensor<*x!tf_type.resource<tensor<f32>>>) {
  %r0 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %o0 = "tf_device.cluster_func"(%r0) {func = @device_existing} : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%v, %o0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %r1 = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %o1 = "tf_device.cluster_func"(%r1) {func = @device_existing} : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%v, %o1) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}
// CHECK-LABEL: func private @device_existing
// CHECK-SAME: (%{{.*}}: tensor<f32> {tf.aliasing_output = 0 : i64})
func.func private @device_existing(%a: tensor<f32> {tf.aliasing_output = 0 : i64}) -> tensor<f32> {
  func.return %a : tensor<f32>
}
