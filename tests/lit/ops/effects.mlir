// RUN: tfmlir-opt %s -split-input-file -canonicalize | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -cse | FileCheck %s --check-prefix=CSE

// Ops whose registry entry is not stateful but which TF's ODS gives effects
// stay when their results are unused.
// CHECK-LABEL: func @effectful_unused
func.func @effectful_unused(%ref: tensor<2xf32>, %v: tensor<2xf32>) {
  // CHECK: "tf.Assign"
  %0 = "tf.Assign"(%ref, %v) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: "tf.TPUReplicateMetadata"
  "tf.TPUReplicateMetadata"() <{num_replicas = 1 : i64}> {_tpu_replicate = "c"} : () -> ()
  // CHECK: "tf.TPUCompilationResult"
  %1 = "tf.TPUCompilationResult"() : () -> tensor<!tf_type.string>
  // CHECK: "tf.CheckNumerics"
  %2 = "tf.CheckNumerics"(%v) <{message = "m"}> : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// Reads and allocations of their own results are dead when unused (as in TF).
// CHECK-LABEL: func @dead_reads
func.func @dead_reads(%r: tensor<!tf_type.resource<tensor<f32>>>) {
  // CHECK-NOT: tf.ReadVariableOp
  // CHECK-NOT: tf.VarHandleOp
  %0 = "tf.ReadVariableOp"(%r) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %1 = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> : () -> tensor<!tf_type.resource<tensor<f32>>>
  // CHECK: return
  return
}

// -----

// Writes are never merged by CSE.
// CSE-LABEL: func @writes
func.func @writes(%r: tensor<!tf_type.resource<tensor<f32>>>, %v: tensor<f32>) {
  // CSE-COUNT-2: "tf.AssignVariableOp"
  "tf.AssignVariableOp"(%r, %v) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%r, %v) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  return
}

// -----

// A resource without subtype: the shape of the variable is unknown (this
// used to crash the verifier).
// CHECK-LABEL: func @variable_shape_unknown
func.func @variable_shape_unknown(%r: tensor<*x!tf_type.resource>) -> tensor<?xi32> {
  // CHECK: "tf.VariableShape"
  %0 = "tf.VariableShape"(%r) : (tensor<*x!tf_type.resource>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
