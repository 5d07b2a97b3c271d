// RUN: tfmlir-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tf-device-decompose-resource-ops))" | FileCheck %s

!r = tensor<!tf_type.resource<tensor<4xf32>>>

// Everywhere in the function (no cluster needed); constants are hoisted and deduplicated.
func.func @adam(%v: !r, %m: !r, %s: !r, %b1p: tensor<f32>, %b2p: tensor<f32>, %lr: tensor<f32>, %b1: tensor<f32>, %b2: tensor<f32>, %eps: tensor<f32>, %g: tensor<4xf32>) {
  "tf.ResourceApplyAdam"(%v, %m, %s, %b1p, %b2p, %lr, %b1, %b2, %eps, %g) : (!r, !r, !r, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>) -> ()
  %c = "tf.Const"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  "tf.ResourceApplyGradientDescent"(%v, %c, %g) : (!r, tensor<f32>, tensor<4xf32>) -> ()
  func.return
}

// CHECK-LABEL: func @adam
// CHECK-NEXT: %[[ONE:.*]] = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[S2:.*]] = "tf.Sub"(%[[ONE]], %arg4)
// CHECK-NEXT: %[[R2:.*]] = "tf.Sqrt"(%[[S2]])
// CHECK-NEXT: %[[S1:.*]] = "tf.Sub"(%[[ONE]], %arg3)
// CHECK-NEXT: %[[D:.*]] = "tf.Div"(%[[R2]], %[[S1]])
// CHECK-NEXT: %[[ALPHA:.*]] = "tf.Mul"(%arg5, %[[D]])
// CHECK-NEXT: %[[M:.*]] = "tf.ReadVariableOp"(%arg1)
// CHECK-NEXT: %[[BM:.*]] = "tf.Mul"(%arg6, %[[M]]) {{.*}} -> tensor<4xf32>
// CHECK-NEXT: %[[C1:.*]] = "tf.Sub"(%[[ONE]], %arg6)
// CHECK-NEXT: %[[CG:.*]] = "tf.Mul"(%[[C1]], %arg9)
// CHECK-NEXT: %[[NEWM:.*]] = "tf.AddV2"(%[[BM]], %[[CG]])
// CHECK-NEXT: %[[V:.*]] = "tf.ReadVariableOp"(%arg2)
// CHECK-NEXT: %[[BV:.*]] = "tf.Mul"(%arg7, %[[V]])
// CHECK-NEXT: %[[C2:.*]] = "tf.Sub"(%[[ONE]], %arg7)
// CHECK-NEXT: %[[SQ:.*]] = "tf.Square"(%arg9)
// CHECK-NEXT: %[[CS:.*]] = "tf.Mul"(%[[C2]], %[[SQ]])
// CHECK-NEXT: %[[NEWV:.*]] = "tf.AddV2"(%[[BV]], %[[CS]])
// CHECK-NEXT: %[[NUM:.*]] = "tf.Mul"(%[[ALPHA]], %[[NEWM]])
// CHECK-NEXT: %[[ROOT:.*]] = "tf.Sqrt"(%[[NEWV]])
// CHECK-NEXT: %[[DEN:.*]] = "tf.AddV2"(%[[ROOT]], %arg8)
// CHECK-NEXT: %[[STEP:.*]] = "tf.Div"(%[[NUM]], %[[DEN]])
// CHECK-NEXT: %[[VAR:.*]] = "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: %[[NEWVAR:.*]] = "tf.Sub"(%[[VAR]], %[[STEP]])
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0, %[[NEWVAR]]) <{validate_shape = false}>
// CHECK-NEXT: "tf.AssignVariableOp"(%arg1, %[[NEWM]]) <{validate_shape = false}>
// CHECK-NEXT: "tf.AssignVariableOp"(%arg2, %[[NEWV]]) <{validate_shape = false}>
// The gradient descent step with alpha = 1 folds to the gradient itself.
// CHECK-NEXT: %[[VAR2:.*]] = "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: %[[GD:.*]] = "tf.Sub"(%[[VAR2]], %arg9)
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0, %[[GD]])
// CHECK-NEXT: return

// -----

// Inside islands, constants stay in their island.
func.func @island(%v: tensor<!tf_type.resource<tensor<4xf32>>>, %g: tensor<4xf32>) {
  tf_executor.graph {
    %ctl = tf_executor.island {
      %c = "tf.Const"() <{value = dense<3.0> : tensor<f32>}> : () -> tensor<f32>
      "tf.ResourceApplyGradientDescent"(%v, %c, %g) : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<f32>, tensor<4xf32>) -> ()
      tf_executor.yield
    }
    tf_executor.fetch %ctl : !tf_executor.control
  }
  func.return
}

// CHECK-LABEL: func @island
// CHECK: tf_executor.island {
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[READ:.*]] = "tf.ReadVariableOp"(%arg0)
// CHECK-NEXT: %[[STEP:.*]] = "tf.Mul"(%arg1, %[[C]])
// CHECK-NEXT: %[[NEW:.*]] = "tf.Sub"(%[[READ]], %[[STEP]])
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0, %[[NEW]])
// CHECK-NEXT: tf_executor.yield

// -----

// Philox state: the 128-bit counter is advanced by 256 * delta with a carry.
func.func @rng(%rng: tensor<!tf_type.resource<tensor<3xi64>>>, %d: tensor<ui64>) -> tensor<3xi64> {
  %alg = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.RngReadAndSkip"(%rng, %alg, %d) : (tensor<!tf_type.resource<tensor<3xi64>>>, tensor<i32>, tensor<ui64>) -> tensor<3xi64>
  func.return %r : tensor<3xi64>
}

// CHECK-LABEL: func @rng
// CHECK-NEXT: %[[PAD:.*]] = "tf.Const"() <{value = dense<0> : tensor<1x2xi64>}>
// CHECK-NEXT: %[[ONE:.*]] = "tf.Const"() <{value = dense<1> : tensor<ui64>}>
// CHECK-NEXT: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<ui64>}>
// CHECK-NEXT: %[[STEP:.*]] = "tf.Const"() <{value = dense<256> : tensor<ui64>}>
// CHECK-NEXT: %[[STATE:.*]] = "tf.ReadVariableOp"(%arg0) {{.*}} -> tensor<3xi64>
// CHECK-NEXT: %[[W:.*]]:3 = "tf.Unpack"(%[[STATE]]) <{axis = 0 : i64}>
// CHECK-NEXT: %[[INC:.*]] = "tf.Mul"(%arg1, %[[STEP]])
// CHECK-NEXT: %[[LO:.*]] = "tf.Cast"(%[[W]]#0) <{Truncate = false}> {{.*}} -> tensor<ui64>
// CHECK-NEXT: %[[NEWLO:.*]] = "tf.AddV2"(%[[LO]], %[[INC]])
// CHECK-NEXT: %[[LO64:.*]] = "tf.Cast"(%[[NEWLO]]) <{Truncate = false}> {{.*}} -> tensor<i64>
// CHECK-NEXT: %[[OVERFLOW:.*]] = "tf.Less"(%[[NEWLO]], %[[LO]])
// CHECK-NEXT: %[[CARRY:.*]] = "tf.SelectV2"(%[[OVERFLOW]], %[[ONE]], %[[ZERO]])
// CHECK-NEXT: %[[HI:.*]] = "tf.Cast"(%[[W]]#1)
// CHECK-NEXT: %[[NEWHI:.*]] = "tf.AddV2"(%[[HI]], %[[CARRY]])
// CHECK-NEXT: %[[HI64:.*]] = "tf.Cast"(%[[NEWHI]])
// CHECK-NEXT: %[[NEWSTATE:.*]] = "tf.Pack"(%[[LO64]], %[[HI64]], %[[W]]#2) <{axis = 0 : i64}>
// CHECK-NEXT: "tf.AssignVariableOp"(%arg0, %[[NEWSTATE]]) <{validate_shape = false}>
// CHECK-NEXT: %[[OUT:.*]] = "tf.Pad"(%[[STATE]], %[[PAD]])
// CHECK-NEXT: return %[[OUT]]

// -----

!r = tensor<!tf_type.resource<tensor<?xf32>>>

// Ftrl becomes FtrlV2 (zero shrinkage), then arithmetic; broadcast types follow TF's builders.
func.func @ftrl(%v: !r, %a: !r, %l: !r, %g: tensor<?xf32>, %lr: tensor<f32>, %l1: tensor<f32>, %l2: tensor<f32>, %p: tensor<f32>) {
  "tf.ResourceApplyFtrl"(%v, %a, %l, %g, %lr, %l1, %l2, %p) : (!r, !r, !r, tensor<?xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> ()
  func.return
}

// CHECK-LABEL: func @ftrl
// CHECK-NOT: tf.ResourceApplyFtrl
// CHECK: "tf.Pow"({{.*}}) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
// CHECK: %[[CLIP:.*]] = "tf.ClipByValue"
// CHECK: "tf.AssignVariableOp"(%arg0
// CHECK-NEXT: "tf.AssignVariableOp"(%arg1
// CHECK-NEXT: return
