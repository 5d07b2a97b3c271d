// RUN: tfmlir-opt %s -split-input-file -tf-device-decompose-resource-ops-in-cluster | FileCheck %s

!r = tensor<!tf_type.resource<tensor<4xf32>>>

// Inside a cluster: decomposed; the same op outside stays.
func.func @assign_add(%v: !r, %x: tensor<4xf32>) {
  "tf.AssignAddVariableOp"(%v, %x) : (!r, tensor<4xf32>) -> ()
  "tf_device.cluster"() ({
    "tf.AssignAddVariableOp"(%v, %x) : (!r, tensor<4xf32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// CHECK-LABEL: func @assign_add
// CHECK: "tf.AssignAddVariableOp"(%arg0, %arg1)
// CHECK: tf_device.cluster
// CHECK-NEXT: %[[READ:.*]] = "tf.ReadVariableOp"(%arg0) {{.*}} -> tensor<4xf32>
// CHECK-NEXT: %[[SUM:.*]] = "tf.AddV2"(%[[READ]], %arg1)
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0, %[[SUM]]) <{validate_shape = false}>
// CHECK-NEXT: tf_device.return

// -----

!r = tensor<!tf_type.resource<tensor<4xf32>>>

// Folded constants stay in the cluster, right before their user; nothing is hoisted.
func.func @fold_in_place(%v: !r, %m: !r, %g: tensor<4xf32>, %lr: tensor<f32>) {
  "tf_device.cluster"() ({
    %momentum = "tf.Const"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
    %unused = "tf.Const"() <{value = dense<7.0> : tensor<f32>}> : () -> tensor<f32>
    "tf.ResourceApplyMomentum"(%v, %m, %momentum, %g, %momentum) <{use_nesterov = true}> : (!r, !r, tensor<f32>, tensor<4xf32>, tensor<f32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// CHECK-LABEL: func @fold_in_place
// CHECK: tf_device.cluster
// CHECK-NEXT: %[[HALF:.*]] = "tf.Const"() <{value = dense<5.000000e-01>
// CHECK-NEXT: %[[ACC:.*]] = "tf.ReadVariableOp"(%arg1)
// CHECK-NEXT: %[[SCALED:.*]] = "tf.Mul"(%[[ACC]], %[[HALF]])
// CHECK-NEXT: %[[NEW:.*]] = "tf.AddV2"(%[[SCALED]], %arg2)
// CHECK-NEXT: "tf.AssignVariableOp"(%arg1, %[[NEW]])
// CHECK-NEXT: %[[GLR:.*]] = "tf.Mul"(%arg2, %[[HALF]])
// CHECK-NEXT: %[[QUARTER:.*]] = "tf.Const"() <{value = dense<2.500000e-01>
// CHECK-NEXT: %[[M:.*]] = "tf.Mul"(%[[NEW]], %[[QUARTER]])
// CHECK-NEXT: %[[STEP:.*]] = "tf.AddV2"(%[[GLR]], %[[M]])
// CHECK-NEXT: %[[VAR:.*]] = "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: %[[DIFF:.*]] = "tf.Sub"(%[[VAR]], %[[STEP]])
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0, %[[DIFF]])
// CHECK-NEXT: tf_device.return

// -----

!r = tensor<!tf_type.resource<tensor<4xf32>>>

// A function called from a cluster is decomposed as a whole (constants hoisted);
// so is the function it calls. @other is not reachable from a cluster.
func.func @main(%v: !r, %x: tensor<4xf32>) {
  "tf_device.cluster"() ({
    "tf.StatefulPartitionedCall"(%v, %x) <{config = "", config_proto = "", executor_type = "", f = @callee}> : (!r, tensor<4xf32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

func.func private @callee(%v: !r, %x: tensor<4xf32>) {
  %c = "tf.Const"() <{value = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %y = "tf.Mul"(%c, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "tf.AssignSubVariableOp"(%v, %y) : (!r, tensor<4xf32>) -> ()
  "tf.PartitionedCall"(%v, %x) <{config = "", config_proto = "", executor_type = "", f = @nested}> : (!r, tensor<4xf32>) -> ()
  func.return
}

func.func private @nested(%v: !r, %x: tensor<4xf32>) {
  "tf.AssignAddVariableOp"(%v, %x) : (!r, tensor<4xf32>) -> ()
  func.return
}

func.func @other(%v: !r, %x: tensor<4xf32>) {
  "tf.AssignAddVariableOp"(%v, %x) : (!r, tensor<4xf32>) -> ()
  func.return
}

// CHECK-LABEL: func @main
// CHECK: "tf.StatefulPartitionedCall"
// CHECK-LABEL: func private @callee
// CHECK-NEXT: %[[TWO:.*]] = "tf.Const"() <{value = dense<2.000000e+00>
// CHECK-NEXT: %[[Y:.*]] = "tf.Mul"(%arg1, %[[TWO]])
// CHECK-NEXT: %[[READ:.*]] = "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: %[[DIFF:.*]] = "tf.Sub"(%[[READ]], %[[Y]])
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0, %[[DIFF]])
// CHECK-NOT: tf.PartitionedCall
// CHECK-LABEL: func private @nested
// CHECK-NEXT: "tf.ReadVariableOp"
// CHECK-NEXT: "tf.AddV2"
// CHECK-NEXT: "tf.AssignVariableOp"
// CHECK-LABEL: func @other
// CHECK-NEXT: "tf.AssignAddVariableOp"

// -----

// Ops TF leaves alone: AdagradV2 without update_slots, VariableShape of a resource
// without a subtype, CollectiveReduceV2 with two ordering tokens, RngReadAndSkip of an
// algorithm that is not a constant.
func.func @left_alone(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %u: tensor<*x!tf_type.resource>, %lr: tensor<f32>, %g: tensor<4xf32>, %t: tensor<!tf_type.resource>, %i: tensor<i32>, %rng: tensor<!tf_type.resource<tensor<3xi64>>>, %alg: tensor<i32>, %d: tensor<ui64>) -> (tensor<?xi32>, tensor<4xf32>, tensor<3xi64>) {
  %r:3 = "tf_device.cluster"() ({
    "tf.ResourceApplyAdagradV2"(%v, %v, %lr, %lr, %g) <{update_slots = false}> : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
    %s = "tf.VariableShape"(%u) : (tensor<*x!tf_type.resource>) -> tensor<?xi32>
    %c = "tf.CollectiveReduceV2"(%g, %i, %i, %i, %t, %t) <{final_op = "Id", merge_op = "Add"}> : (tensor<4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource>) -> tensor<4xf32>
    %n = "tf.RngReadAndSkip"(%rng, %alg, %d) : (tensor<!tf_type.resource<tensor<3xi64>>>, tensor<i32>, tensor<ui64>) -> tensor<3xi64>
    tf_device.return %s, %c, %n : tensor<?xi32>, tensor<4xf32>, tensor<3xi64>
  }) : () -> (tensor<?xi32>, tensor<4xf32>, tensor<3xi64>)
  func.return %r#0, %r#1, %r#2 : tensor<?xi32>, tensor<4xf32>, tensor<3xi64>
}

// CHECK-LABEL: func @left_alone
// CHECK: "tf.ResourceApplyAdagradV2"(%arg0, %arg0, %arg2, %arg2, %arg3) <{update_slots = false}>
// CHECK-NEXT: "tf.VariableShape"(%arg1)
// CHECK-NEXT: "tf.CollectiveReduceV2"(%arg3, %arg5, %arg5, %arg5, %arg4, %arg4)
// CHECK-NEXT: "tf.RngReadAndSkip"(%arg6, %arg7, %arg8)

// -----

// A single ordering token is dropped; Adagrad becomes AdagradV2 (kept without update_slots).
func.func @token_and_adagrad(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %lr: tensor<f32>, %g: tensor<4xf32>, %t: tensor<!tf_type.resource>, %i: tensor<i32>) -> tensor<4xf32> {
  %r = "tf_device.cluster"() ({
    "tf.ResourceApplyAdagrad"(%v, %v, %lr, %g) <{update_slots = false}> : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<!tf_type.resource<tensor<4xf32>>>, tensor<f32>, tensor<4xf32>) -> ()
    %c = "tf.CollectiveReduceV2"(%g, %i, %i, %i, %t) <{final_op = "Id", merge_op = "Add", device = "/device:TPU:0"}> : (tensor<4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.resource>) -> tensor<4xf32>
    tf_device.return %c : tensor<4xf32>
  }) : () -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// CHECK-LABEL: func @token_and_adagrad
// CHECK: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK-NEXT: "tf.ResourceApplyAdagradV2"(%arg0, %arg0, %arg1, %[[ZERO]], %arg2) <{update_slots = false, use_locking = false}>
// CHECK-NEXT: "tf.CollectiveReduceV2"(%arg2, %arg4, %arg4, %arg4) <{communication_hint = "auto", final_op = "Id", is_stateless = false, max_subdivs_per_device = -1 : i64, merge_op = "Add", timeout_seconds = 0.000000e+00 : f32}> :

// -----

// Gather, scatter and shape of a variable (unknown subtype: reads of the updates' type).
func.func @gather_scatter(%v: tensor<!tf_type.resource<tensor<8x3xf32>>>, %u: tensor<*x!tf_type.resource>, %idx: tensor<2xi32>, %upd: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xi64>) {
  %r:2 = "tf_device.cluster"() ({
    %g = "tf.ResourceGather"(%v, %idx) <{batch_dims = 0 : i64}> {_xla_outside_compilation = "auto0"} : (tensor<!tf_type.resource<tensor<8x3xf32>>>, tensor<2xi32>) -> tensor<2x3xf32>
    "tf.ResourceScatterAdd"(%u, %idx, %upd) : (tensor<*x!tf_type.resource>, tensor<2xi32>, tensor<2x3xf32>) -> ()
    "tf.ResourceScatterUpdate"(%v, %idx, %upd) : (tensor<!tf_type.resource<tensor<8x3xf32>>>, tensor<2xi32>, tensor<2x3xf32>) -> ()
    %s = "tf.VariableShape"(%v) : (tensor<!tf_type.resource<tensor<8x3xf32>>>) -> tensor<2xi64>
    tf_device.return %g, %s : tensor<2x3xf32>, tensor<2xi64>
  }) : () -> (tensor<2x3xf32>, tensor<2xi64>)
  func.return %r#0, %r#1 : tensor<2x3xf32>, tensor<2xi64>
}

// CHECK-LABEL: func @gather_scatter
// CHECK: %[[V:.*]] = "tf.ReadVariableOp"(%arg0) {{.*}} -> tensor<8x3xf32>
// CHECK-NEXT: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i64>}>
// CHECK-NEXT: %[[G:.*]] = "tf.GatherV2"(%[[V]], %arg2, %[[AXIS]]) <{batch_dims = 0 : i64}> {_xla_outside_compilation = "auto0"}
// CHECK-NEXT: %[[U:.*]] = "tf.ReadVariableOp"(%arg1) {{.*}} -> tensor<*xf32>
// CHECK-NEXT: %[[M1:.*]] = "tf.Const"() <{value = dense<-1> : tensor<i32>}>
// CHECK-NEXT: %[[I:.*]] = "tf.ExpandDims"(%arg2, %[[M1]]) {{.*}} -> tensor<2x1xi32>
// CHECK-NEXT: %[[ADD:.*]] = "tf.TensorScatterAdd"(%[[U]], %[[I]], %arg3) <{bad_indices_policy = ""}> {{.*}} -> tensor<*xf32>
// CHECK-NEXT: "tf.AssignVariableOp"(%arg1, %[[ADD]])
// CHECK: "tf.TensorScatterUpdate"
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0
// CHECK-NEXT: %[[SHAPE:.*]] = "tf.Const"() <{value = dense<[8, 3]> : tensor<2xi64>}>
// CHECK-NEXT: tf_device.return %[[G]], %[[SHAPE]]

// -----

// Every op TF decomposes, in one cluster (the hyperparameters are arguments).
!r = tensor<!tf_type.resource<tensor<4xf32>>>
func.func @every_op(%v: !r, %m: !r, %s: !r, %u: tensor<*x!tf_type.resource>, %g: tensor<4xf32>, %lr: tensor<f32>, %b1: tensor<f32>, %b2: tensor<f32>, %eps: tensor<f32>, %idx: tensor<2xi32>, %upd: tensor<2xf32>, %rng: tensor<!tf_type.resource<tensor<3xi64>>>, %rng2: tensor<!tf_type.resource<tensor<2xi64>>>, %d: tensor<ui64>) -> (tensor<2xf32>, tensor<?xi32>, tensor<3xi64>, tensor<3xi64>) {
  %r:4 = "tf_device.cluster"() ({
    "tf.AssignAddVariableOp"(%v, %g) : (!r, tensor<4xf32>) -> ()
    "tf.AssignSubVariableOp"(%u, %g) : (tensor<*x!tf_type.resource>, tensor<4xf32>) -> ()
    "tf.ResourceApplyGradientDescent"(%v, %lr, %g) <{use_locking = true}> : (!r, tensor<f32>, tensor<4xf32>) -> ()
    "tf.ResourceApplyMomentum"(%v, %m, %lr, %g, %b1) : (!r, !r, tensor<f32>, tensor<4xf32>, tensor<f32>) -> ()
    "tf.ResourceApplyMomentum"(%v, %m, %lr, %g, %b1) <{use_nesterov = true}> : (!r, !r, tensor<f32>, tensor<4xf32>, tensor<f32>) -> ()
    "tf.ResourceApplyKerasMomentum"(%v, %m, %lr, %g, %b1) : (!r, !r, tensor<f32>, tensor<4xf32>, tensor<f32>) -> ()
    "tf.ResourceApplyKerasMomentum"(%v, %m, %lr, %g, %b1) <{use_nesterov = true}> : (!r, !r, tensor<f32>, tensor<4xf32>, tensor<f32>) -> ()
    "tf.ResourceApplyAdagrad"(%v, %m, %lr, %g) : (!r, !r, tensor<f32>, tensor<4xf32>) -> ()
    "tf.ResourceApplyAdagrad"(%v, %m, %lr, %g) <{update_slots = false}> : (!r, !r, tensor<f32>, tensor<4xf32>) -> ()
    "tf.ResourceApplyAdagradV2"(%v, %m, %lr, %eps, %g) : (!r, !r, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
    "tf.ResourceApplyAdam"(%v, %m, %s, %b1, %b2, %lr, %b1, %b2, %eps, %g) : (!r, !r, !r, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
    "tf.ResourceApplyAdam"(%v, %m, %s, %b1, %b2, %lr, %b1, %b2, %eps, %g) <{use_nesterov = true}> : (!r, !r, !r, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
    %ga = "tf.ResourceGather"(%v, %idx) <{batch_dims = 0 : i64}> {_xla_outside_compilation = "0", device = "x"} : (!r, tensor<2xi32>) -> tensor<2xf32>
    "tf.ResourceScatterAdd"(%v, %idx, %upd) : (!r, tensor<2xi32>, tensor<2xf32>) -> ()
    "tf.ResourceScatterUpdate"(%v, %idx, %upd) : (!r, tensor<2xi32>, tensor<2xf32>) -> ()
    %sh = "tf.VariableShape"(%v) : (!r) -> tensor<?xi32>
    %sh2 = "tf.VariableShape"(%u) : (tensor<*x!tf_type.resource>) -> tensor<?xi32>
    "tf.ResourceApplyCenteredRMSProp"(%v, %m, %s, %v, %lr, %b1, %b2, %eps, %g) : (!r, !r, !r, !r, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
    "tf.ResourceApplyRMSProp"(%v, %m, %s, %lr, %b1, %b2, %eps, %g) : (!r, !r, !r, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
    "tf.ResourceApplyFtrl"(%v, %m, %s, %g, %lr, %b1, %b2, %eps) : (!r, !r, !r, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> ()
    "tf.ResourceApplyFtrlV2"(%v, %m, %s, %g, %lr, %b1, %b2, %b2, %eps) <{multiply_linear_by_lr = true}> : (!r, !r, !r, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> ()
    "tf.ResourceApplyProximalAdagrad"(%v, %m, %lr, %b1, %b2, %g) : (!r, !r, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
    %alg = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %alg2 = "tf.Const"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %rr = "tf.RngReadAndSkip"(%rng, %alg, %d) : (tensor<!tf_type.resource<tensor<3xi64>>>, tensor<i32>, tensor<ui64>) -> tensor<3xi64>
    %rr2 = "tf.RngReadAndSkip"(%rng2, %alg2, %d) : (tensor<!tf_type.resource<tensor<2xi64>>>, tensor<i32>, tensor<ui64>) -> tensor<3xi64>
    tf_device.return %ga, %sh2, %rr, %rr2 : tensor<2xf32>, tensor<?xi32>, tensor<3xi64>, tensor<3xi64>
  }) : () -> (tensor<2xf32>, tensor<?xi32>, tensor<3xi64>, tensor<3xi64>)
  func.return %r#0, %r#1, %r#2, %r#3 : tensor<2xf32>, tensor<?xi32>, tensor<3xi64>, tensor<3xi64>
}

// CHECK-LABEL: func @every_op
// CHECK-NOT: tf.AssignAddVariableOp
// CHECK-NOT: tf.AssignSubVariableOp
// CHECK-NOT: tf.ResourceApply
// Adagrad without update_slots becomes an AdagradV2 that TF keeps.
// CHECK: "tf.ResourceApplyAdagradV2"({{.*}}) <{update_slots = false, use_locking = false}>
// CHECK-NOT: tf.ResourceApply
// CHECK-NOT: tf.ResourceGather
// CHECK-NOT: tf.ResourceScatter
// CHECK-NOT: tf.RngReadAndSkip
// CHECK: tf_device.return
