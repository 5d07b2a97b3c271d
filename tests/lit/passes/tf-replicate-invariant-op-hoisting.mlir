// RUN: tfmlir-opt %s -split-input-file -tf-replicate-invariant-op-hoisting | FileCheck %s

// A tf.Shape of a replicated block argument reads replica 0's operand and,
// being invariant now, leaves the replicate with what depends only on it.

// CHECK-LABEL: func @shape_of_replicated_arg
// CHECK-SAME: (%[[X0:[a-z0-9_]+]]: tensor<*xf32>, %[[X1:[a-z0-9_]+]]: tensor<*xf32>)
// CHECK:      %[[S:[a-z0-9_]+]] = "tf.Shape"(%[[X0]])
// CHECK-NEXT: %[[SIZE:[a-z0-9_]+]] = "tf.Size"(%[[S]])
// CHECK-NEXT: tf_device.replicate([%[[X0]], %[[X1]]] as %[[R:[a-z0-9_]+]]: tensor<*xf32>)
// CHECK-NEXT:   %[[NEG:[a-z0-9_]+]] = "tf.Neg"(%[[R]])
// CHECK-NEXT:   tf_device.return %[[S]], %[[SIZE]], %[[NEG]]
func.func @shape_of_replicated_arg(%x0: tensor<*xf32>, %x1: tensor<*xf32>) {
  %r:6 = tf_device.replicate([%x0, %x1] as %ri: tensor<*xf32>) {n = 2 : i32} {
    %s = "tf.Shape"(%ri) : (tensor<*xf32>) -> tensor<?xi32>
    %size = "tf.Size"(%s) : (tensor<?xi32>) -> tensor<i32>
    %neg = "tf.Neg"(%ri) : (tensor<*xf32>) -> tensor<*xf32>
    tf_device.return %s, %size, %neg : tensor<?xi32>, tensor<i32>, tensor<*xf32>
  }
  func.return
}

// -----

// Packed (non-replicated) arguments: the shape reads the packed operand; a
// shape of a variable read becomes a tf.VariableShape of replica 0's resource.

// CHECK-LABEL: func @packed_and_variable_shapes
// CHECK-SAME: (%[[V0:[a-z0-9_]+]]: tensor<*x!tf_type.resource>, %[[V1:[a-z0-9_]+]]: tensor<*x!tf_type.resource>, %[[P:[a-z0-9_]+]]: tensor<*xf32>)
// CHECK:      %[[VS:[a-z0-9_]+]] = "tf.VariableShape"(%[[V0]]) : (tensor<*x!tf_type.resource>) -> tensor<?xi32>
// CHECK-NEXT: %[[PS:[a-z0-9_]+]] = "tf.Shape"(%[[P]])
// CHECK-NEXT: tf_device.replicate([%[[V0]], %[[V1]]] as %[[RV:[a-z0-9_]+]]: tensor<*x!tf_type.resource>, %[[P]] as %{{.*}}: tensor<*xf32>)
// CHECK-NEXT:   %[[READ:[a-z0-9_]+]] = "tf.ReadVariableOp"(%[[RV]])
// CHECK-NEXT:   tf_device.return %[[READ]], %[[VS]], %[[PS]]
func.func @packed_and_variable_shapes(%v0: tensor<*x!tf_type.resource>, %v1: tensor<*x!tf_type.resource>, %p: tensor<*xf32>) {
  %r:6 = tf_device.replicate([%v0, %v1] as %rv: tensor<*x!tf_type.resource>, %p as %rp: tensor<*xf32>) {n = 2 : i32} {
    %read = "tf.ReadVariableOp"(%rv) : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
    %vs = "tf.Shape"(%read) : (tensor<*xf32>) -> tensor<?xi32>
    %ps = "tf.Shape"(%rp) : (tensor<*xf32>) -> tensor<?xi32>
    tf_device.return %read, %vs, %ps : tensor<*xf32>, tensor<?xi32>, tensor<?xi32>
  }
  func.return
}

// -----

// Ops with regions move when nothing inside uses a replicated value; the
// device ordinal placeholder differs per replica and stays.

// CHECK-LABEL: func @regions_and_ordinals
// CHECK:      %[[C:[a-z0-9_]+]] = "tf.Const"
// CHECK-NEXT: %[[L:[a-z0-9_]+]] = "tf_device.launch"
// CHECK-NEXT:   "tf.Square"(%[[C]])
// CHECK:      tf_device.replicate
// CHECK-NEXT:   "tf._TPUDeviceOrdinalPlaceholder"
// CHECK-NEXT:   "tf_device.launch"
// CHECK-NEXT:     "tf.AddV2"
func.func @regions_and_ordinals(%x0: tensor<f32>, %x1: tensor<f32>) {
  %r:6 = tf_device.replicate([%x0, %x1] as %ri: tensor<f32>) {n = 2 : i32} {
    %c = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    %l = "tf_device.launch"() ({
      %sq = "tf.Square"(%c) : (tensor<f32>) -> tensor<f32>
      tf_device.return %sq : tensor<f32>
    }) {device = "/device:CPU:0"} : () -> tensor<f32>
    %o = "tf._TPUDeviceOrdinalPlaceholder"() {logical_core = 0 : i64} : () -> tensor<i64>
    %la = "tf_device.launch"() ({
      %add = "tf.AddV2"(%l, %ri) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      tf_device.return %add : tensor<f32>
    }) {device = "/device:CPU:0"} : () -> tensor<f32>
    tf_device.return %l, %o, %la : tensor<f32>, tensor<i64>, tensor<f32>
  }
  func.return
}

// -----

// A device ordinal placeholder nested in an op keeps the op in the replicate
// (TF 2.21 only looks at the op itself and hoists the launch).

// CHECK-LABEL: func @nested_ordinal_placeholder_stays
// CHECK:      tf_device.replicate
// CHECK-NEXT:   "tf_device.launch"
// CHECK-NEXT:     "tf._TPUDeviceOrdinalPlaceholder"
func.func @nested_ordinal_placeholder_stays(%x0: tensor<f32>, %x1: tensor<f32>) {
  %r:2 = tf_device.replicate([%x0, %x1] as %ri: tensor<f32>) {n = 2 : i32} {
    %lo = "tf_device.launch"() ({
      %o = "tf._TPUDeviceOrdinalPlaceholder"() {logical_core = 0 : i64} : () -> tensor<i64>
      tf_device.return %o : tensor<i64>
    }) {device = "/device:CPU:0"} : () -> tensor<i64>
    tf_device.return %lo : tensor<i64>
  }
  func.return
}

// -----

// Ops placed on (or holding ops placed on) a virtual device of the replicate
// stay; so do shapes under such a launch.

// CHECK-LABEL: func @virtual_devices
// CHECK-SAME: (%[[X0:[a-z0-9_]+]]: tensor<*xf32>
// CHECK:      %[[S:[a-z0-9_]+]] = "tf.Shape"(%[[X0]])
// CHECK-NEXT: %[[OK:[a-z0-9_]+]] = "tf.Size"(%[[S]]) {device = "/device:CPU:0"}
// CHECK-NEXT: tf_device.replicate([%[[X0]], %{{.*}}] as %[[R:[a-z0-9_]+]]: tensor<*xf32>)
// CHECK-NEXT:   "tf.Rank"(%[[S]]) {device = "CORE_0"}
// CHECK-NEXT:   "tf_device.launch"
// CHECK-NEXT:     "tf.Neg"(%[[S]]) {device = "CORE_0"}
// CHECK:        "tf_device.launch"
// CHECK-NEXT:     "tf.Shape"(%[[R]])
func.func @virtual_devices(%x0: tensor<*xf32>, %x1: tensor<*xf32>) {
  %r:10 = tf_device.replicate([%x0, %x1] as %ri: tensor<*xf32>) {devices = {CORE_0 = ["/device:TPU:0", "/device:TPU:1"], HOST_0 = ["/device:CPU:0", "/device:CPU:1"]}, n = 2 : i32} {
    %s = "tf.Shape"(%ri) : (tensor<*xf32>) -> tensor<?xi32>
    %rank = "tf.Rank"(%s) {device = "CORE_0"} : (tensor<?xi32>) -> tensor<i32>
    %ok = "tf.Size"(%s) {device = "/device:CPU:0"} : (tensor<?xi32>) -> tensor<i32>
    %l = "tf_device.launch"() ({
      %neg = "tf.Neg"(%s) {device = "CORE_0"} : (tensor<?xi32>) -> tensor<?xi32>
      tf_device.return %neg : tensor<?xi32>
    }) {device = "/device:CPU:0"} : () -> tensor<?xi32>
    %h = "tf_device.launch"() ({
      %hs = "tf.Shape"(%ri) : (tensor<*xf32>) -> tensor<?xi32>
      tf_device.return %hs : tensor<?xi32>
    }) {device = "HOST_0"} : () -> tensor<?xi32>
    tf_device.return %rank, %ok, %l, %h, %s : tensor<i32>, tensor<i32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
  }
  func.return
}

// -----

// Side effects: reads of an outer variable move unless a write to it (or to a
// block argument bound to it) inside the replicate must come first (TF 2.21
// hoists the second read of %v in front of the write).

// CHECK-LABEL: func @side_effect_order_kept
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: tensor<*x!tf_type.resource<tensor<f32>>>, %[[W:[a-z0-9_]+]]: tensor<*x!tf_type.resource<tensor<f32>>>
// CHECK:      %[[RW:[a-z0-9_]+]] = "tf.ReadVariableOp"(%[[W]])
// CHECK-NEXT: tf_device.replicate({{.*}}, %[[V]] as %[[RV:[a-z0-9_]+]]: tensor<*x!tf_type.resource<tensor<f32>>>)
// CHECK-NEXT:   "tf.ReadVariableOp"(%[[RV]])
// CHECK-NEXT:   "tf.AssignVariableOp"(%[[RV]]
// CHECK-NEXT:   "tf.ReadVariableOp"(%[[V]])
func.func @side_effect_order_kept(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %w: tensor<*x!tf_type.resource<tensor<f32>>>, %x0: tensor<f32>, %x1: tensor<f32>) {
  %r:6 = tf_device.replicate([%x0, %x1] as %ri: tensor<f32>, %v as %rv: tensor<*x!tf_type.resource<tensor<f32>>>) {n = 2 : i32} {
    %first = "tf.ReadVariableOp"(%rv) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    "tf.AssignVariableOp"(%rv, %ri) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    %after = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %other = "tf.ReadVariableOp"(%w) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_device.return %first, %after, %other : tensor<f32>, tensor<f32>, tensor<f32>
  }
  func.return
}

// -----

// Invariant side-effecting ops move together, in order, when nothing left in
// the replicate must precede them.

// CHECK-LABEL: func @invariant_writes_move_in_order
// CHECK:      "tf.AssignVariableOp"
// CHECK-NEXT: "tf.ReadVariableOp"
// CHECK-NEXT: tf_device.replicate
// CHECK-NEXT:   "tf.AddV2"
func.func @invariant_writes_move_in_order(%v: tensor<*x!tf_type.resource<tensor<f32>>>, %c: tensor<f32>, %x0: tensor<f32>, %x1: tensor<f32>) {
  %r:2 = tf_device.replicate([%x0, %x1] as %ri: tensor<f32>) {n = 2 : i32} {
    "tf.AssignVariableOp"(%v, %c) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    %read = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %add = "tf.AddV2"(%read, %ri) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tf_device.return %add : tensor<f32>
  }
  func.return
}

// -----

// Nothing to do without a replicate; replicates nested in other ops are found.

// CHECK-LABEL: func @nested_replicate
// CHECK:      tf_device.launch
// CHECK-NEXT:   "tf.Const"
// CHECK-NEXT:   tf_device.replicate
func.func @nested_replicate(%x0: tensor<f32>, %x1: tensor<f32>) {
  "tf_device.launch"() ({
    %r:2 = tf_device.replicate([%x0, %x1] as %ri: tensor<f32>) {n = 2 : i32} {
      %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
      %add = "tf.AddV2"(%c, %ri) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      tf_device.return %add : tensor<f32>
    }
    tf_device.return
  }) {device = "/device:CPU:0"} : () -> ()
  func.return
}
