// RUN: tfmlir-opt %s -split-input-file -tf-hoist-replicate-invariant-resource-writes | FileCheck %s

// The last write to an outer variable leaves the replicate and writes replica
// 0's value, which the replicate now returns (n more results per write).

// CHECK-LABEL: func @tail_write
// CHECK-SAME: (%[[V:[a-z0-9]+]]: tensor<*x!tf_type.resource<tensor<f32>>>
// CHECK:      %[[R:[0-9]+]]:4 = tf_device.replicate
// CHECK:        %[[NEG:[0-9]+]] = "tf.Neg"
// CHECK-NEXT:   %[[ABS:[0-9]+]] = "tf.Abs"
// CHECK-NEXT:   tf_device.return %[[ABS]], %[[NEG]] : tensor<f32>, tensor<f32>
// CHECK:      "tf.AssignVariableOp"(%[[V]], %[[R]]#2) <{validate_shape = true}> {device = "d"}
// CHECK-NEXT: "tf.Use"(%[[R]]#0, %[[R]]#1)
func.func @tail_write(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %x0: tensor<f32>, %x1: tensor<f32>) {
  %r:2 = tf_device.replicate([%x0, %x1] as %ri: tensor<f32>) {n = 2 : i32} {
    %neg = "tf.Neg"(%ri) : (tensor<f32>) -> tensor<f32>
    %abs = "tf.Abs"(%ri) : (tensor<f32>) -> tensor<f32>
    "tf.AssignVariableOp"(%v, %neg) {validate_shape = true, device = "d"} : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    tf_device.return %abs : tensor<f32>
  }
  "tf.Use"(%r#0, %r#1) : (tensor<f32>, tensor<f32>) -> ()
  func.return
}

// -----

// Several tail writes: returned last write first, written after the replicate
// in their original order; an earlier write to the same variable stays, and
// a write followed by another access of its variable stays.

// CHECK-LABEL: func @several_writes
// CHECK-SAME: (%[[V:[a-z0-9]+]]: {{.*}}, %[[W:[a-z0-9]+]]: {{.*}}, %[[U:[a-z0-9]+]]: {{.*}}, %[[A:[a-z0-9]+]]: tensor<f32>, %[[B:[a-z0-9]+]]: tensor<f32>)
// CHECK:      %[[R:[0-9]+]]:4 = tf_device.replicate {n = 2 : i32}
// CHECK-NEXT:   "tf.AssignVariableOp"(%[[U]], %[[A]])
// CHECK-NEXT:   "tf.ReadVariableOp"(%[[U]])
// CHECK-NEXT:   "tf.AssignVariableOp"(%[[V]], %[[A]])
// CHECK-NEXT:   tf_device.return %[[A]], %[[B]] : tensor<f32>, tensor<f32>
// CHECK:      "tf.AssignVariableOp"(%[[V]], %[[R]]#2)
// CHECK-NEXT: "tf.AssignVariableOp"(%[[W]], %[[R]]#0)
func.func @several_writes(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %w: tensor<*x!tf_type.resource<tensor<f32>>>, %u: tensor<*x!tf_type.resource<tensor<f32>>>, %a: tensor<f32>, %b: tensor<f32>) {
  tf_device.replicate {n = 2 : i32} {
    "tf.AssignVariableOp"(%u, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    %read = "tf.ReadVariableOp"(%u) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    "tf.AssignVariableOp"(%v, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.AssignVariableOp"(%v, %b) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.AssignVariableOp"(%w, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    tf_device.return
  }
  func.return
}

// -----

// Writes to replicated or packed block arguments, and to variables created in
// the replicate, stay; ops nested in others are not scanned.

// CHECK-LABEL: func @not_invariant
// CHECK:      tf_device.replicate
// CHECK:        "tf.AssignVariableOp"(%{{.*}}, %{{.*}})
// CHECK:        "tf.AssignVariableOp"(%{{.*}}, %{{.*}})
// CHECK:        "tf.AssignVariableOp"(%{{.*}}, %{{.*}})
// CHECK:        tf_device.launch
// CHECK-NEXT:     "tf.AssignVariableOp"
// CHECK:        tf_device.return
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @not_invariant(%v0: tensor<*x!tf_type.resource<tensor<f32>>>, %v1: tensor<*x!tf_type.resource<tensor<f32>>>, %p: tensor<*x!tf_type.resource<tensor<f32>>>, %w: tensor<*x!tf_type.resource<tensor<f32>>>, %a: tensor<f32>) {
  tf_device.replicate([%v0, %v1] as %rv: tensor<*x!tf_type.resource<tensor<f32>>>, %p as %rp: tensor<*x!tf_type.resource<tensor<f32>>>) {n = 2 : i32} {
    %h = "tf.VarHandleOp"() {container = "", shared_name = "x"} : () -> tensor<*x!tf_type.resource<tensor<f32>>>
    "tf.AssignVariableOp"(%rv, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.AssignVariableOp"(%rp, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.AssignVariableOp"(%h, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf_device.launch"() ({
      "tf.AssignVariableOp"(%w, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
      tf_device.return
    }) {device = "d"} : () -> ()
    tf_device.return
  }
  func.return
}

// -----

// A replicate nested in another op is handled too.

// CHECK-LABEL: func @nested
// CHECK:      "tf_device.launch"
// CHECK-NEXT:   %[[R:[0-9]+]]:2 = tf_device.replicate
// CHECK:        "tf.AssignVariableOp"(%{{.*}}, %[[R]]#0)
func.func @nested(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %a: tensor<f32>) {
  "tf_device.launch"() ({
    tf_device.replicate {n = 2 : i32} {
      "tf.AssignVariableOp"(%v, %a) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
      tf_device.return
    }
    tf_device.return
  }) {device = "d"} : () -> ()
  func.return
}
