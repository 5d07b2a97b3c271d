// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-promote-resources-to-args | FileCheck %s

!fres = tensor<!tf_type.resource<tensor<4xf32>>>

// Variables through handles: "acc" read and written, "out" only written,
// "in" only read (twice, through two handles of one shared name).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<4xf32>, %arg1: tensor<4xf32> {tf.aliasing_output = 1 : i64, tf.resource_name = "acc"}, %arg2: tensor<4xf32> {tf.resource_name = "in"})
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32> {tf.resource_name = "out"})
// CHECK-NOT: tf.VarHandleOp
// CHECK-NOT: tf.ReadVariableOp
// CHECK: %[[ADD:.*]] = "tf.AddV2"(%arg1, %arg2)
// CHECK: %[[MUL:.*]] = "tf.Mul"(%arg2, %arg0)
// CHECK-NOT: tf.AssignVariableOp
// CHECK: return %[[ADD]], %[[ADD]], %[[MUL]]
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %acc = "tf.VarHandleOp"() {container = "", shared_name = "acc"} : () -> !fres
  %out = "tf.VarHandleOp"() {container = "", shared_name = "out"} : () -> !fres
  %in0 = "tf.VarHandleOp"() {container = "", shared_name = "in"} : () -> !fres
  %0 = "tf.ReadVariableOp"(%acc) : (!fres) -> tensor<4xf32>
  %1 = "tf.ReadVariableOp"(%in0) : (!fres) -> tensor<4xf32>
  %2 = "tf.AddV2"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%acc, %2) : (!fres, tensor<4xf32>) -> ()
  %in1 = "tf.VarHandleOp"() {container = "", shared_name = "in"} : () -> !fres
  %3 = "tf.ReadVariableOp"(%in1) : (!fres) -> tensor<4xf32>
  %4 = "tf.Mul"(%3, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "tf.AssignVariableOp"(%out, %4) : (!fres, tensor<4xf32>) -> ()
  %5 = "tf.ReadVariableOp"(%acc) : (!fres) -> tensor<4xf32>
  func.return %5 : tensor<4xf32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// Resource arguments between other arguments: one only read, one only
// written, one never used; argument and result attributes kept.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<i32> {tf._user = 1 : i64}, %arg1: tensor<f32>, %arg2: tensor<f32> {tf._kept = "k", tf.aliasing_output = 1 : i64}, %arg3: tensor<f32>)
// CHECK-SAME: -> (tensor<i32> {tf._r = 0 : i64}, tensor<f32>)
// CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%arg1)
// CHECK-NEXT: return %arg0, %[[NEG]]
func.func @main(%arg0: tensor<i32> {tf._user = 1 : i64}, %arg1: !fres, %arg2: !fres {tf._kept = "k"}, %arg3: !fres) -> (tensor<i32> {tf._r = 0 : i64}) {
  %0 = "tf.ReadVariableOp"(%arg1) : (!fres) -> tensor<f32>
  %1 = "tf.Neg"(%0) : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%arg2, %1) : (!fres, tensor<f32>) -> ()
  func.return %arg0 : tensor<i32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// A variable not initialized stays a handle; an initialized one with the same
// handle name used twice gives one argument.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<f32> {tf.aliasing_output = 1 : i64, tf.resource_name = "early"}) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: "tf.VarHandleOp"() <{container = "", shared_name = "late"}> {_is_initialized = false}
// CHECK-NEXT: return %arg0, %arg0
func.func @main() -> tensor<f32> {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "late", _is_initialized = false} : () -> !fres
  %1 = "tf.VarHandleOp"() {container = "", shared_name = "early", _is_initialized = true} : () -> !fres
  %2 = "tf.ReadVariableOp"(%1) : (!fres) -> tensor<f32>
  %3 = "tf.VarHandleOp"() {container = "", shared_name = "early"} : () -> !fres
  "tf.AssignVariableOp"(%3, %2) : (!fres, tensor<f32>) -> ()
  func.return %2 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// A functional tf.If: one branch updates the variable, the other reads it.
// The branches take and return values; the variable is read before the If
// and written after it, then promoted.

// CHECK-LABEL: func.func private @bump
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[ADD:.*]] = "tf.AddV2"(%arg1, %arg0)
// CHECK-NEXT: return %[[ADD]], %[[ADD]]
// CHECK-LABEL: func.func private @peek
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: return %arg1, %arg1
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32> {tf.aliasing_output = 1 : i64, tf.resource_name = "counter"}) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[IF:.*]]:2 = "tf.If"(%arg0, %arg1, %arg2)
// CHECK-NEXT: return %[[IF]]#0, %[[IF]]#1
func.func private @bump(%arg0: tensor<f32>, %arg1: !fres) -> tensor<f32> {
  %0 = "tf.ReadVariableOp"(%arg1) : (!fres) -> tensor<f32>
  %1 = "tf.AddV2"(%0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%arg1, %1) : (!fres, tensor<f32>) -> ()
  func.return %1 : tensor<f32>
}

func.func private @peek(%arg0: tensor<f32>, %arg1: !fres) -> tensor<f32> {
  %0 = "tf.ReadVariableOp"(%arg1) : (!fres) -> tensor<f32>
  func.return %0 : tensor<f32>
}

func.func @main(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  %v = "tf.VarHandleOp"() {container = "", shared_name = "counter"} : () -> !fres
  %0 = "tf.If"(%arg0, %arg1, %v) {else_branch = @peek, then_branch = @bump, is_stateless = false} : (tensor<i1>, tensor<f32>, !fres) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<i32>>>

// A functional tf.While counting a variable up: the body's update becomes a
// loop value; the condition reads it; one unused resource is dropped.

// CHECK-LABEL: func.func private @cond
// CHECK-SAME: (%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "tf.Less"(%arg1, %arg0)
// CHECK-LABEL: func.func private @body
// CHECK-SAME: (%arg0: tensor<i32>, %arg1: tensor<i32>) -> (tensor<i32>, tensor<i32>)
// CHECK: %[[ADD:.*]] = "tf.AddV2"(%arg1, %{{.*}})
// CHECK-NEXT: return %arg0, %[[ADD]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<i32>, %arg1: tensor<i32> {tf.aliasing_output = 1 : i64}) -> (tensor<i32>, tensor<i32>)
// CHECK-NEXT: %[[W:.*]]:2 = "tf.While"(%arg0, %arg1)
// CHECK-NEXT: return %[[W]]#0, %[[W]]#1
func.func private @cond(%arg0: tensor<i32>, %arg1: !fres, %arg2: !fres) -> tensor<i1> {
  %0 = "tf.ReadVariableOp"(%arg1) : (!fres) -> tensor<i32>
  %1 = "tf.Less"(%0, %arg0) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %1 : tensor<i1>
}

func.func private @body(%arg0: tensor<i32>, %arg1: !fres, %arg2: !fres) -> (tensor<i32>, !fres, !fres) {
  %0 = "tf.ReadVariableOp"(%arg1) : (!fres) -> tensor<i32>
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.AddV2"(%0, %c) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  "tf.AssignVariableOp"(%arg1, %1) : (!fres, tensor<i32>) -> ()
  func.return %arg0, %arg1, %arg2 : tensor<i32>, !fres, !fres
}

func.func @main(%arg0: tensor<i32>, %arg1: !fres) -> tensor<i32> {
  %v = "tf.VarHandleOp"() {container = "", shared_name = "unused"} : () -> !fres
  %0:3 = "tf.While"(%arg0, %arg1, %v) {body = @body, cond = @cond, is_stateless = false} : (tensor<i32>, !fres, !fres) -> (tensor<i32>, !fres, !fres)
  func.return %0#0 : tensor<i32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<2xf32>>>

// A call to a function updating a variable and returning the resource: the
// callee is cloned with its resource lifted, and the call's resource result
// is its operand.

// CHECK-LABEL: func.func private @update(
// CHECK-SAME: !tf_type.resource
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<2xf32>, %arg1: tensor<2xf32> {tf.aliasing_output = 1 : i64, tf.resource_name = "weights"}) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT: %[[CALL:.*]]:2 = "tf.StatefulPartitionedCall"(%arg1, %arg0) <{{{.*}}f = @update_resource_lifted}>
// CHECK-NEXT: %[[ADD:.*]] = "tf.AddV2"(%[[CALL]]#0, %[[CALL]]#1)
// CHECK-NEXT: return %[[ADD]], %[[CALL]]#1
// CHECK-LABEL: func.func private @update_resource_lifted
// CHECK-SAME: (%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT: %[[SUB:.*]] = "tf.Sub"(%arg0, %arg1)
// CHECK-NEXT: return %arg0, %[[SUB]]
func.func private @update(%arg0: !fres, %arg1: tensor<2xf32>) -> (tensor<2xf32>, !fres) {
  %0 = "tf.ReadVariableOp"(%arg0) : (!fres) -> tensor<2xf32>
  %1 = "tf.Sub"(%0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "tf.AssignVariableOp"(%arg0, %1) : (!fres, tensor<2xf32>) -> ()
  func.return %0, %arg0 : tensor<2xf32>, !fres
}

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %v = "tf.VarHandleOp"() {container = "", shared_name = "weights"} : () -> !fres
  %0:2 = "tf.StatefulPartitionedCall"(%v, %arg0) {config = "", config_proto = "", executor_type = "", f = @update} : (!fres, tensor<2xf32>) -> (tensor<2xf32>, !fres)
  %1 = "tf.ReadVariableOp"(%0#1) : (!fres) -> tensor<2xf32>
  %2 = "tf.AddV2"(%0#0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// Region control flow: the write in one region of a tf.IfRegion is hoisted
// out (the variable is read too, for the region that does not write it).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<i1>, %arg1: tensor<f32> {tf.aliasing_output = 1 : i64}) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[IF:.*]]:2 = "tf.IfRegion"(%arg0)
// CHECK: %[[C2:.*]] = "tf.Const"() <{value = dense<2.000000e+00>
// CHECK-NEXT: "tf.Yield"(%[[C2]], %[[C2]])
// CHECK: %[[C3:.*]] = "tf.Const"() <{value = dense<3.000000e+00>
// CHECK-NEXT: "tf.Yield"(%[[C3]], %arg1)
// CHECK: return %[[IF]]#0, %[[IF]]#1
func.func @main(%arg0: tensor<i1>, %arg1: !fres) -> tensor<f32> {
  %0 = "tf.IfRegion"(%arg0) ({
    %c = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    "tf.AssignVariableOp"(%arg1, %c) : (!fres, tensor<f32>) -> ()
    "tf.Yield"(%c) : (tensor<f32>) -> ()
  }, {
    %c = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
    "tf.Yield"(%c) : (tensor<f32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// A functional tf.Case with three branches over three variables, updated in
// different branches: the reads before and the writes after the Case come in
// the order of TF's hash map, as do the new results.

// CHECK-LABEL: func.func private @b0
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[C:.*]] = "tf.Const"
// CHECK-NEXT: return %arg0, %[[C]], %arg1
// CHECK-LABEL: func.func private @b1
// CHECK-NEXT: return %arg2, %arg2, %arg1
// CHECK-LABEL: func.func private @b2
// CHECK-NEXT: return %arg0, %arg2, %arg0
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<i32>, %arg1: tensor<f32> {tf.aliasing_output = 0 : i64}, %arg2: tensor<f32> {tf.aliasing_output = 1 : i64}, %arg3: tensor<f32> {tf.aliasing_output = 2 : i64})
// CHECK-NEXT: %[[CASE:.*]]:3 = "tf.Case"(%arg0, %arg1, %arg2, %arg3)
// CHECK-NEXT: return %[[CASE]]#0, %[[CASE]]#2, %[[CASE]]#1
func.func private @b0(%arg0: !fres, %arg1: !fres, %arg2: !fres) {
  %c = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignVariableOp"(%arg2, %c) : (!fres, tensor<f32>) -> ()
  func.return
}

func.func private @b1(%arg0: !fres, %arg1: !fres, %arg2: !fres) {
  %0 = "tf.ReadVariableOp"(%arg2) : (!fres) -> tensor<f32>
  "tf.AssignVariableOp"(%arg0, %0) : (!fres, tensor<f32>) -> ()
  func.return
}

func.func private @b2(%arg0: !fres, %arg1: !fres, %arg2: !fres) {
  %0 = "tf.ReadVariableOp"(%arg0) : (!fres) -> tensor<f32>
  "tf.AssignVariableOp"(%arg1, %0) : (!fres, tensor<f32>) -> ()
  func.return
}

func.func @main(%arg0: tensor<i32>, %arg1: !fres, %arg2: !fres, %arg3: !fres) {
  "tf.Case"(%arg0, %arg1, %arg2, %arg3) {branches = [@b0, @b1, @b2], is_stateless = false} : (tensor<i32>, !fres, !fres, !fres) -> ()
  func.return
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// A tf.If returning one of its resource operands (the same argument in both
// branches): uses of that result take the operand, which is then lifted.

// CHECK-LABEL: func.func private @pass0
// CHECK-SAME: (%arg0: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %arg0
// CHECK-LABEL: func.func private @pass1
// CHECK-NEXT: %[[SQ:.*]] = "tf.Square"(%arg0)
// CHECK-NEXT: return %[[SQ]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<i1>, %arg1: tensor<f32> {tf.aliasing_output = 1 : i64}) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[IF:.*]] = "tf.If"(%arg0, %arg1)
// CHECK-NEXT: return %[[IF]], %[[IF]]
func.func private @pass0(%arg0: !fres) -> !fres {
  func.return %arg0 : !fres
}

func.func private @pass1(%arg0: !fres) -> !fres {
  %0 = "tf.ReadVariableOp"(%arg0) : (!fres) -> tensor<f32>
  %1 = "tf.Square"(%0) : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%arg0, %1) : (!fres, tensor<f32>) -> ()
  func.return %arg0 : !fres
}

func.func @main(%arg0: tensor<i1>, %arg1: !fres) -> tensor<f32> {
  %0 = "tf.If"(%arg0, %arg1) {else_branch = @pass0, then_branch = @pass1, is_stateless = false} : (tensor<i1>, !fres) -> !fres
  %1 = "tf.ReadVariableOp"(%0) : (!fres) -> tensor<f32>
  func.return %1 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// A tf.While over three variables, each updated in the body: the loop
// variables, and the reads before and writes after the loop.

// CHECK-LABEL: func.func private @wbody
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i1>)
// CHECK-NEXT: return %arg1, %arg2, %arg0, %arg3
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<f32> {tf.aliasing_output = 0 : i64}, %arg1: tensor<f32> {tf.aliasing_output = 1 : i64}, %arg2: tensor<f32> {tf.aliasing_output = 2 : i64}, %arg3: tensor<i1>)
// CHECK-NEXT: %[[W:.*]]:4 = "tf.While"(%arg0, %arg1, %arg2, %arg3)
// CHECK-NEXT: return %[[W]]#0, %[[W]]#1, %[[W]]#2
func.func private @wcond(%arg0: !fres, %arg1: !fres, %arg2: !fres, %arg3: tensor<i1>) -> tensor<i1> {
  func.return %arg3 : tensor<i1>
}

func.func private @wbody(%arg0: !fres, %arg1: !fres, %arg2: !fres, %arg3: tensor<i1>) -> (!fres, !fres, !fres, tensor<i1>) {
  %0 = "tf.ReadVariableOp"(%arg0) : (!fres) -> tensor<f32>
  %1 = "tf.ReadVariableOp"(%arg1) : (!fres) -> tensor<f32>
  %2 = "tf.ReadVariableOp"(%arg2) : (!fres) -> tensor<f32>
  "tf.AssignVariableOp"(%arg0, %1) : (!fres, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%arg1, %2) : (!fres, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%arg2, %0) : (!fres, tensor<f32>) -> ()
  func.return %arg0, %arg1, %arg2, %arg3 : !fres, !fres, !fres, tensor<i1>
}

func.func @main(%arg0: !fres, %arg1: !fres, %arg2: !fres, %arg3: tensor<i1>) {
  %0:4 = "tf.While"(%arg0, %arg1, %arg2, %arg3) {body = @wbody, cond = @wcond, is_stateless = false} : (!fres, !fres, !fres, tensor<i1>) -> (!fres, !fres, !fres, tensor<i1>)
  func.return
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// Local variables: one only written is removed; tf.Identity of a resource is
// looked through.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %arg1
func.func @main(%arg0: tensor<f32>, %arg1: !fres) -> tensor<f32> {
  %0 = "tf.MlirLocalVarOp"() : () -> !fres
  "tf.AssignVariableOp"(%0, %arg0) : (!fres, tensor<f32>) -> ()
  %1 = "tf.Identity"(%arg1) : (!fres) -> !fres
  %2 = "tf.ReadVariableOp"(%1) : (!fres) -> tensor<f32>
  func.return %2 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// Two tf.If with a resource result sharing their branches: the first gets
// private copies of the branches (_lifted) before unused results are dropped.

// CHECK-LABEL: func.func private @then_write
// CHECK-SAME: (%arg0: tensor<f32> {tf._a = 1 : i64}, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: return %arg1, %arg1
// CHECK-LABEL: func.func private @else_keep
// CHECK-NEXT: return %arg1, %arg0
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<i1>, %arg1: tensor<f32> {tf.aliasing_output = 1 : i64}, %arg2: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[IF0:.*]]:2 = "tf.If"(%arg0, %arg1, %arg2) <{else_branch = @else_keep_lifted, is_stateless = false, then_branch = @then_write_lifted}>
// CHECK-NEXT: %[[IF1:.*]]:2 = "tf.If"(%arg0, %[[IF0]]#1, %[[IF0]]#0) <{else_branch = @else_keep, is_stateless = false, then_branch = @then_write}>
// CHECK-NEXT: return %[[IF1]]#0, %[[IF1]]#1
// CHECK-LABEL: func.func private @then_write_lifted
// CHECK-SAME: (%arg0: tensor<f32> {tf._a = 1 : i64}, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-LABEL: func.func private @else_keep_lifted
func.func private @then_write(%a0: !fres {tf._a = 1 : i64}, %a1: tensor<f32>) -> (!fres, tensor<f32> {tf._res = 2 : i64}) {
  "tf.AssignVariableOp"(%a0, %a1) : (!fres, tensor<f32>) -> ()
  func.return %a0, %a1 : !fres, tensor<f32>
}

func.func private @else_keep(%a0: !fres, %a1: tensor<f32>) -> (!fres, tensor<f32>) {
  func.return %a0, %a1 : !fres, tensor<f32>
}

func.func @main(%p: tensor<i1>, %v: !fres, %x: tensor<f32>) -> tensor<f32> {
  %0:2 = "tf.If"(%p, %v, %x) {else_branch = @else_keep, then_branch = @then_write, is_stateless = false} : (tensor<i1>, !fres, tensor<f32>) -> (!fres, tensor<f32>)
  %1:2 = "tf.If"(%p, %0#0, %0#1) {else_branch = @else_keep, then_branch = @then_write, is_stateless = false} : (tensor<i1>, !fres, tensor<f32>) -> (!fres, tensor<f32>)
  func.return %1#1 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// One callee called in a loop body and in main: lifted once (hoisting the
// body first), both calls use the clone.

// CHECK-LABEL: func.func private @body
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<i1>) -> (tensor<f32>, tensor<i1>)
// CHECK-NEXT: %[[CALL:.*]] = "tf.PartitionedCall"(%arg0) <{{{.*}}f = @grow_resource_lifted}>
// CHECK-NEXT: return %[[CALL]], %arg1
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<f32> {tf.aliasing_output = 1 : i64}, %arg1: tensor<i1>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[W:.*]]:2 = "tf.While"(%arg0, %arg1)
// CHECK-NEXT: %[[CALL:.*]] = "tf.PartitionedCall"(%[[W]]#0) <{{{.*}}f = @grow_resource_lifted}>
// CHECK-NEXT: return %[[CALL]], %[[CALL]]
// CHECK-LABEL: func.func private @grow_resource_lifted
// CHECK-SAME: (%arg0: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[EXP:.*]] = "tf.Exp"(%arg0)
// CHECK-NEXT: return %[[EXP]]
func.func private @grow(%a0: !fres) -> !fres {
  %0 = "tf.ReadVariableOp"(%a0) : (!fres) -> tensor<f32>
  %1 = "tf.Exp"(%0) : (tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%a0, %1) : (!fres, tensor<f32>) -> ()
  func.return %a0 : !fres
}

func.func private @cond(%a0: !fres, %n: tensor<i1>) -> tensor<i1> {
  func.return %n : tensor<i1>
}

func.func private @body(%a0: !fres, %n: tensor<i1>) -> (!fres, tensor<i1>) {
  %0 = "tf.PartitionedCall"(%a0) {config = "", config_proto = "", executor_type = "", f = @grow} : (!fres) -> !fres
  func.return %a0, %n : !fres, tensor<i1>
}

func.func @main(%v: !fres, %n: tensor<i1>) -> tensor<f32> {
  %0:2 = "tf.While"(%v, %n) {body = @body, cond = @cond, is_stateless = false} : (!fres, tensor<i1>) -> (!fres, tensor<i1>)
  %1 = "tf.PartitionedCall"(%v) {config = "", config_proto = "", executor_type = "", f = @grow} : (!fres) -> !fres
  %2 = "tf.ReadVariableOp"(%1) : (!fres) -> tensor<f32>
  func.return %2 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// A tf.If over four resources (0 unused, 1 and 5 written, 4 read): TF's map
// visits them as 0, 4, 1, 5 and shifts indices by the unused ones met before
// in that order; the new results hold the values written to 1 and 5.

// CHECK-LABEL: func.func private @then_writes
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
// CHECK-NEXT: return %arg2, %arg2, %arg1
// CHECK-LABEL: func.func private @else_reads
// CHECK-NEXT: return %arg3, %arg0, %arg4
// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg3: tensor<f32> {tf.aliasing_output = 1 : i64}
// CHECK-SAME: %arg5: tensor<f32> {tf.aliasing_output = 2 : i64}
// CHECK-NEXT: %[[IF:.*]]:3 = "tf.If"(%arg0, %arg3, %arg1, %arg1, %arg4, %arg5)
// CHECK-NEXT: return %[[IF]]#0, %[[IF]]#1, %[[IF]]#2
func.func private @then_writes(%a0: !fres, %a1: !fres, %a2: tensor<f32>, %a3: tensor<f32>, %a4: !fres, %a5: !fres) -> tensor<f32> {
  "tf.AssignVariableOp"(%a5, %a2) : (!fres, tensor<f32>) -> ()
  "tf.AssignVariableOp"(%a1, %a3) : (!fres, tensor<f32>) -> ()
  func.return %a3 : tensor<f32>
}

func.func private @else_reads(%a0: !fres, %a1: !fres, %a2: tensor<f32>, %a3: tensor<f32>, %a4: !fres, %a5: !fres) -> tensor<f32> {
  %0 = "tf.ReadVariableOp"(%a4) : (!fres) -> tensor<f32>
  func.return %0 : tensor<f32>
}

func.func @main(%p: tensor<i1>, %x: tensor<f32>, %v: !fres, %w: !fres, %u: !fres, %q: !fres) -> tensor<f32> {
  %0 = "tf.If"(%p, %v, %w, %x, %x, %u, %q) {else_branch = @else_reads, then_branch = @then_writes, is_stateless = false} : (tensor<i1>, !fres, !fres, tensor<f32>, tensor<f32>, !fres, !fres) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

!fres = tensor<!tf_type.resource<tensor<f32>>>

// A failure while hoisting inside a loop body (a callee returning a resource
// that is not its argument) does not fail the pass: TF reports it and goes
// on, tfmlir warns.

// expected-warning @+1 {{'func.func' op unsupported function call: resource return value does not alias an input. (ignored: TensorFlow goes on here)}}
func.func private @make(%x: tensor<f32>) -> !fres {
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "made"} : () -> !fres
  func.return %0 : !fres
}

func.func private @cond(%n: tensor<i1>, %x: tensor<f32>) -> tensor<i1> {
  func.return %n : tensor<i1>
}

// CHECK-LABEL: func.func private @body
// CHECK-NEXT: "tf.PartitionedCall"(%arg1) <{{{.*}}f = @make}>
func.func private @body(%n: tensor<i1>, %x: tensor<f32>) -> (tensor<i1>, tensor<f32>) {
  %0 = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @make} : (tensor<f32>) -> !fres
  func.return %n, %x : tensor<i1>, tensor<f32>
}

// CHECK-LABEL: func.func @main
// CHECK-NEXT: "tf.While"(%arg0, %arg1)
func.func @main(%n: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0:2 = "tf.While"(%n, %x) {body = @body, cond = @cond, is_stateless = false} : (tensor<i1>, tensor<f32>) -> (tensor<i1>, tensor<f32>)
  func.return %0#1 : tensor<f32>
}
