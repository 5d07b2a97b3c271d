// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tensor-list-ops-decomposition | FileCheck %s

!tl = tensor<!tf_type.variant<tensor<2x3xi32>>>

// A list of 2x3 int32 elements (no cast of the zero), an i64 element shape:
// pushes write at the size (start indices padded with zeros), pops read
// before it; the length is the size reshaped to a scalar.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[ELEM:.*]]: tensor<2x3xi32>)
// CHECK: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[BSHAPE:.*]] = "tf.Const"() <{value = dense<[4, 2, 3]> : tensor<3xi32>}>
// CHECK-NEXT: %[[BUF:.*]] = "tf.BroadcastTo"(%[[ZERO]], %[[BSHAPE]]) : (tensor<i32>, tensor<3xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT: %[[SIZE0:.*]] = "tf.Const"() <{value = dense<0> : tensor<1xi32>}>
// CHECK-NEXT: %[[USHAPE:.*]] = "tf.Const"() <{value = dense<[1, 2, 3]> : tensor<3xi32>}>
// CHECK-NEXT: %[[UPD:.*]] = "tf.Reshape"(%[[ELEM]], %[[USHAPE]]) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<1x2x3xi32>
// CHECK-NEXT: %[[ZEROS:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi32>}>
// CHECK-NEXT: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[START:.*]] = "tf.ConcatV2"(%[[SIZE0]], %[[ZEROS]], %[[AXIS]]) : (tensor<1xi32>, tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
// CHECK-NEXT: %[[BUF1:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BUF]], %[[UPD]], %[[START]])
// CHECK-NEXT: %[[ONE:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK-NEXT: %[[SIZE1:.*]] = "tf.AddV2"(%[[SIZE0]], %[[ONE]])
// CHECK: %[[BUF2:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BUF1]],
// CHECK: %[[SIZE2:.*]] = "tf.AddV2"(%[[SIZE1]],
// CHECK: %[[COPY:.*]] = "tf.Identity"(%[[BUF2]]) : (tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT: %[[ONE2:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK-NEXT: %[[SIZE3:.*]] = "tf.Sub"(%[[SIZE2]], %[[ONE2]])
// CHECK-NEXT: %[[SSIZE:.*]] = "tf.Const"() <{value = dense<[1, 2, 3]> : tensor<3xi32>}>
// CHECK-NEXT: %[[ZEROS2:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi32>}>
// CHECK-NEXT: %[[AXIS2:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[START2:.*]] = "tf.ConcatV2"(%[[SIZE3]], %[[ZEROS2]], %[[AXIS2]])
// CHECK-NEXT: %[[SLICE:.*]] = "tf.Slice"(%[[COPY]], %[[START2]], %[[SSIZE]]) : (tensor<4x2x3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2x3xi32>
// CHECK-NEXT: %[[ESHAPE:.*]] = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}>
// CHECK-NEXT: %[[POPPED:.*]] = "tf.Reshape"(%[[SLICE]], %[[ESHAPE]]) : (tensor<1x2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %[[SCALAR:.*]] = "tf.Const"() <{value = dense<> : tensor<0xi32>}>
// CHECK-NEXT: %[[LENGTH:.*]] = "tf.Reshape"(%[[SIZE3]], %[[SCALAR]]) : (tensor<1xi32>, tensor<0xi32>) -> tensor<i32>
// CHECK-NEXT: return %[[POPPED]], %[[LENGTH]]
func.func @main(%arg0: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<i32>) {
  %shape = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %max = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<2xi64>, tensor<i32>) -> !tl
  %pushed = "tf.TensorListPushBack"(%list, %arg0) : (!tl, tensor<2x3xi32>) -> !tl
  %again = "tf.TensorListPushBack"(%pushed, %arg0) : (!tl, tensor<2x3xi32>) -> !tl
  %pop_shape = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %popped:2 = "tf.TensorListPopBack"(%again, %pop_shape) : (!tl, tensor<2xi32>) -> (!tl, tensor<2x3xi32>)
  %length = "tf.TensorListLength"(%popped#0) : (!tl) -> tensor<i32>
  func.return %popped#1, %length : tensor<2x3xi32>, tensor<i32>
}

// -----

// A reserved list of booleans: the zero is cast to i1; set and get index
// with the operand reshaped to tensor<1xi32>; the length of a fixed-size list
// is a constant; stacking is the buffer itself.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[INDEX:.*]]: tensor<i32>, %[[ITEM:.*]]: tensor<5xi1>)
// CHECK: %[[COUNT:.*]] = "tf.Const"() <{value = dense<3> : tensor<i32>}>
// CHECK-NEXT: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[FALSE:.*]] = "tf.Cast"(%[[ZERO]]) : (tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %[[BSHAPE:.*]] = "tf.Const"() <{value = dense<[3, 5]> : tensor<2xi32>}>
// CHECK-NEXT: %[[BUF:.*]] = "tf.BroadcastTo"(%[[FALSE]], %[[BSHAPE]]) : (tensor<i1>, tensor<2xi32>) -> tensor<3x5xi1>
// CHECK-NEXT: %[[ONE:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK-NEXT: "tf.Reshape"(%[[COUNT]], %[[ONE]]) : (tensor<i32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT: %[[ONE1:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK-NEXT: %[[SETAT:.*]] = "tf.Reshape"(%[[INDEX]], %[[ONE1]]) : (tensor<i32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK: %[[UPD:.*]] = "tf.Reshape"(%[[ITEM]], %{{.*}}) : (tensor<5xi1>, tensor<2xi32>) -> tensor<1x5xi1>
// CHECK: %[[START:.*]] = "tf.ConcatV2"(%[[SETAT]],
// CHECK-NEXT: %[[SET:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BUF]], %[[UPD]], %[[START]])
// CHECK: %[[GETAT:.*]] = "tf.Reshape"(%[[INDEX]],
// CHECK: %[[START2:.*]] = "tf.ConcatV2"(%[[GETAT]],
// CHECK-NEXT: %[[SLICE:.*]] = "tf.Slice"(%[[SET]], %[[START2]],
// CHECK: %[[GOT:.*]] = "tf.Reshape"(%[[SLICE]], %{{.*}}) : (tensor<1x5xi1>, tensor<1xi32>) -> tensor<5xi1>
// CHECK-NEXT: %[[LENGTH:.*]] = "tf.Const"() <{value = dense<3> : tensor<i32>}>
// CHECK-NEXT: return %[[GOT]], %[[LENGTH]], %[[SET]]
func.func @main(%arg0: tensor<i32>, %arg1: tensor<5xi1>) -> (tensor<5xi1>, tensor<i32>, tensor<3x5xi1>) {
  %shape = "tf.Const"() {value = dense<5> : tensor<1xi32>} : () -> tensor<1xi32>
  %count = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.TensorListReserve"(%shape, %count) : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<5xi1>>>
  %set = "tf.TensorListSetItem"(%list, %arg0, %arg1) : (tensor<!tf_type.variant<tensor<5xi1>>>, tensor<i32>, tensor<5xi1>) -> tensor<!tf_type.variant<tensor<5xi1>>>
  %item = "tf.TensorListGetItem"(%set, %arg0, %shape) : (tensor<!tf_type.variant<tensor<5xi1>>>, tensor<i32>, tensor<1xi32>) -> tensor<5xi1>
  %length = "tf.TensorListLength"(%set) : (tensor<!tf_type.variant<tensor<5xi1>>>) -> tensor<i32>
  %stack = "tf.TensorListStack"(%set, %shape) : (tensor<!tf_type.variant<tensor<5xi1>>>, tensor<1xi32>) -> tensor<3x5xi1>
  func.return %item, %length, %stack : tensor<5xi1>, tensor<i32>, tensor<3x5xi1>
}

// -----

// A list made from a tensor: element shape (i32), contiguous constant gather
// (a slice), non-contiguous constant and unknown gathers (tf.GatherV2).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[TENSOR:.*]]: tensor<6x4xf32>, %[[INDICES:.*]]: tensor<2xi32>)
// CHECK: %[[BUF:.*]] = "tf.Identity"(%[[TENSOR]]) : (tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: "tf.Const"() <{value = dense<6> : tensor<1xi32>}>
// CHECK-NEXT: %[[ESHAPE:.*]] = "tf.Const"() <{value = dense<4> : tensor<1xi32>}>
// CHECK-NEXT: "tf.Const"() <{value = dense<[2, 3, 4]> : tensor<3xi32>}>
// CHECK-NEXT: %[[BEGIN:.*]] = "tf.Const"() <{value = dense<[2, 0]> : tensor<2xi32>}>
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<[3, 4]> : tensor<2xi32>}>
// CHECK-NEXT: %[[G0:.*]] = "tf.Slice"(%[[BUF]], %[[BEGIN]], %[[SIZE]]) : (tensor<6x4xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[HOLES:.*]] = "tf.Const"() <{value = dense<[5, 1]> : tensor<2xi32>}>
// CHECK-NEXT: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[G1:.*]] = "tf.GatherV2"(%[[BUF]], %[[HOLES]], %[[AXIS]]) : (tensor<6x4xf32>, tensor<2xi32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[AXIS2:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[G2:.*]] = "tf.GatherV2"(%[[BUF]], %[[INDICES]], %[[AXIS2]])
// CHECK-NEXT: return %[[ESHAPE]], %[[G0]], %[[G1]], %[[G2]]
func.func @main(%arg0: tensor<6x4xf32>, %arg1: tensor<2xi32>) -> (tensor<1xi32>, tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %shape = "tf.Const"() {value = dense<4> : tensor<1xi32>} : () -> tensor<1xi32>
  %list = "tf.TensorListFromTensor"(%arg0, %shape) : (tensor<6x4xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<4xf32>>>
  %element_shape = "tf.TensorListElementShape"(%list) : (tensor<!tf_type.variant<tensor<4xf32>>>) -> tensor<1xi32>
  %run = "tf.Const"() {value = dense<[2, 3, 4]> : tensor<3xi32>} : () -> tensor<3xi32>
  %g0 = "tf.TensorListGather"(%list, %run, %shape) : (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<3xi32>, tensor<1xi32>) -> tensor<3x4xf32>
  %holes = "tf.Const"() {value = dense<[5, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %g1 = "tf.TensorListGather"(%list, %holes, %shape) : (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<2xi32>, tensor<1xi32>) -> tensor<2x4xf32>
  %g2 = "tf.TensorListGather"(%list, %arg1, %shape) : (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<2xi32>, tensor<1xi32>) -> tensor<2x4xf32>
  func.return %element_shape, %g0, %g1, %g2 : tensor<1xi32>, tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Scattering into a list reshapes the indices to [n, 1]; AddN and ZerosLike
// of lists take the buffer type; identities of any value are removed.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[INDICES:.*]]: tensor<2xi32>, %[[UPDATES:.*]]: tensor<2x4xf32>, %[[SCALAR:.*]]: tensor<f32>)
// CHECK: %[[BUF:.*]] = "tf.BroadcastTo"
// CHECK: %[[ISHAPE:.*]] = "tf.Const"() <{value = dense<[2, 1]> : tensor<2xi32>}>
// CHECK-NEXT: %[[IND:.*]] = "tf.Reshape"(%[[INDICES]], %[[ISHAPE]]) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2x1xi32>
// CHECK-NEXT: %[[SCATTERED:.*]] = "tf.TensorScatterUpdate"(%[[BUF]], %[[IND]], %[[UPDATES]]) <{bad_indices_policy = ""}> : (tensor<6x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[ZEROS:.*]] = "tf.ZerosLike"(%[[SCATTERED]]) : (tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[SUM:.*]] = "tf.AddN"(%[[SCATTERED]], %[[ZEROS]]) : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: return %[[SUM]], %[[SCALAR]]
func.func @main(%arg0: tensor<2xi32>, %arg1: tensor<2x4xf32>, %arg2: tensor<f32>) -> (tensor<6x4xf32>, tensor<f32>) {
  %shape = "tf.Const"() {value = dense<4> : tensor<1xi32>} : () -> tensor<1xi32>
  %count = "tf.Const"() {value = dense<6> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.TensorListReserve"(%shape, %count) : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<4xf32>>>
  %scattered = "tf.TensorListScatterIntoExistingList"(%list, %arg1, %arg0) : (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<4xf32>>>
  %zeros = "tf.ZerosLike"(%scattered) : (tensor<!tf_type.variant<tensor<4xf32>>>) -> tensor<!tf_type.variant<tensor<4xf32>>>
  %sum = "tf.AddN"(%scattered, %zeros) : (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<!tf_type.variant<tensor<4xf32>>>) -> tensor<!tf_type.variant<tensor<4xf32>>>
  %both:2 = "tf.IdentityN"(%sum, %arg2) : (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<f32>) -> (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<f32>)
  %stopped = "tf.StopGradient"(%both#1) : (tensor<f32>) -> tensor<f32>
  %stack = "tf.TensorListStack"(%both#0, %shape) : (tensor<!tf_type.variant<tensor<4xf32>>>, tensor<1xi32>) -> tensor<6x4xf32>
  func.return %stack, %stopped : tensor<6x4xf32>, tensor<f32>
}

// -----

// The element shape comes from the result type before the operand: an
// unknown (non-constant) element shape is fine when the type is static.

// CHECK-LABEL: func.func @main
// CHECK: "tf.Cast"(%{{.*}}) : (tensor<i32>) -> tensor<f16>
// CHECK-NEXT: "tf.Const"() <{value = dense<[7, 3, 2]> : tensor<3xi32>}>
// CHECK-NEXT: "tf.BroadcastTo"{{.*}} -> tensor<7x3x2xf16>
func.func @main(%arg0: tensor<?xi32>) -> tensor<i32> {
  %max = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%arg0, %max) : (tensor<?xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3x2xf16>>>
  %length = "tf.TensorListLength"(%list) : (tensor<!tf_type.variant<tensor<3x2xf16>>>) -> tensor<i32>
  func.return %length : tensor<i32>
}

// -----

// A loop pushing to a list and counting: body and condition take the buffer
// type and a size argument; the body returns the new size; the loop gets
// the size as an extra operand and result.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[N:.*]]: tensor<i32>)
// CHECK: %[[BUF:.*]] = "tf.BroadcastTo"{{.*}} -> tensor<8xf32>
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<0> : tensor<1xi32>}>
// CHECK-NEXT: %[[LOOP:.*]]:3 = "tf.While"(%[[N]], %[[BUF]], %[[SIZE]]) <{body = @loop_body, cond = @loop_cond, is_stateless = false}> {_attr = "kept"} : (tensor<i32>, tensor<8xf32>, tensor<1xi32>) -> (tensor<i32>, tensor<8xf32>, tensor<1xi32>)
// CHECK-NEXT: %[[COPY:.*]] = "tf.Identity"(%[[LOOP]]#1)
// CHECK: "tf.Sub"(%[[LOOP]]#2,
// CHECK: func.func @loop_body(%[[BN:.*]]: tensor<i32>, %[[BL:.*]]: tensor<8xf32>, %[[BS:.*]]: tensor<1xi32>) -> (tensor<i32>, tensor<8xf32>, tensor<1xi32>)
// CHECK: %[[NEXT:.*]] = "tf.Sub"(%[[BN]],
// CHECK: %[[PUSHED:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BL]], %{{.*}}, %[[BS]])
// CHECK: %[[GROWN:.*]] = "tf.AddV2"(%[[BS]],
// CHECK-NEXT: return %[[NEXT]], %[[PUSHED]], %[[GROWN]]
// CHECK: func.func @loop_cond(%[[CN:.*]]: tensor<i32>, %{{.*}}: tensor<8xf32>, %[[CS:.*]]: tensor<1xi32>) -> tensor<i1>
// CHECK: %[[LENGTH:.*]] = "tf.Reshape"(%[[CS]],
// CHECK-NEXT: "tf.Less"(%[[LENGTH]], %[[CN]])
func.func @main(%arg0: tensor<i32>) -> tensor<f32> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<8> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %loop:2 = "tf.While"(%arg0, %list) {body = @loop_body, cond = @loop_cond, is_stateless = false, _attr = "kept"} : (tensor<i32>, tensor<!tf_type.variant<tensor<f32>>>) -> (tensor<i32>, tensor<!tf_type.variant<tensor<f32>>>)
  %popped:2 = "tf.TensorListPopBack"(%loop#1, %shape) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<0xi32>) -> (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>)
  func.return %popped#1 : tensor<f32>
}
func.func @loop_body(%n: tensor<i32>, %l: tensor<!tf_type.variant<tensor<f32>>>) -> (tensor<i32>, tensor<!tf_type.variant<tensor<f32>>>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %next = "tf.Sub"(%n, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %value = "tf.Cast"(%n) : (tensor<i32>) -> tensor<f32>
  %pushed = "tf.TensorListPushBack"(%l, %value) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return %next, %pushed : tensor<i32>, tensor<!tf_type.variant<tensor<f32>>>
}
func.func @loop_cond(%n: tensor<i32>, %l: tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i1> {
  %length = "tf.TensorListLength"(%l) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  %more = "tf.Less"(%length, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %more : tensor<i1>
}

// -----

// tf.If and tf.Case with a fixed-size list: the branches take the buffer and
// its size, and return them; the op gets the size as an extra operand and
// result (its fixed size stays known after it: the length is a constant).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[I:.*]]: tensor<i32>, %[[T:.*]]: tensor<3xf32>)
// CHECK: %[[BUF:.*]] = "tf.Identity"(%[[T]])
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<3> : tensor<1xi32>}>
// CHECK-NEXT: %[[IF:.*]]:2 = "tf.If"(%[[P]], %[[BUF]], %[[I]], %[[SIZE]]) <{else_branch = @pass_through, is_stateless = true, then_branch = @set_first}> : (tensor<i1>, tensor<3xf32>, tensor<i32>, tensor<1xi32>) -> (tensor<3xf32>, tensor<1xi32>)
// CHECK-NEXT: %[[CASE:.*]]:2 = "tf.Case"(%[[I]], %[[IF]]#0, %[[I]], %[[IF]]#1) <{branches = [@pass_through_2, @set_first_2], is_stateless = false}>
// CHECK-NEXT: %[[L0:.*]] = "tf.Const"() <{value = dense<3> : tensor<i32>}>
// CHECK-NEXT: %[[L1:.*]] = "tf.Const"() <{value = dense<3> : tensor<i32>}>
// CHECK-NEXT: return %[[L0]], %[[L1]]
// CHECK: func.func private @set_first(%[[A0:.*]]: tensor<3xf32>, %[[A1:.*]]: tensor<i32>, %[[A2:.*]]: tensor<1xi32>) -> (tensor<3xf32>, tensor<1xi32>)
// CHECK: %[[SET:.*]] = "tf.XlaDynamicUpdateSlice"(%[[A0]],
// CHECK-NEXT: return %[[SET]], %[[A2]]
// CHECK: func.func private @pass_through(%[[B0:.*]]: tensor<3xf32>, %{{.*}}: tensor<i32>, %[[B2:.*]]: tensor<1xi32>) -> (tensor<3xf32>, tensor<1xi32>)
// CHECK-NEXT: return %[[B0]], %[[B2]]
// CHECK: func.func private @set_first_2({{.*}}) -> (tensor<3xf32>, tensor<1xi32>)
// CHECK: func.func private @pass_through_2({{.*}}) -> (tensor<3xf32>, tensor<1xi32>)
func.func @main(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<3xf32>) -> (tensor<i32>, tensor<i32>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %list = "tf.TensorListFromTensor"(%arg2, %shape) : (tensor<3xf32>, tensor<0xi32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %if = "tf.If"(%arg0, %list, %arg1) {then_branch = @set_first, else_branch = @pass_through, is_stateless = true} : (tensor<i1>, tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %case = "tf.Case"(%arg1, %if, %arg1) {branches = [@pass_through_2, @set_first_2], is_stateless = false} : (tensor<i32>, tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %l0 = "tf.TensorListLength"(%if) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  %l1 = "tf.TensorListLength"(%case) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return %l0, %l1 : tensor<i32>, tensor<i32>
}
func.func private @set_first(%l: tensor<!tf_type.variant<tensor<f32>>>, %i: tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>> {
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %set = "tf.TensorListSetItem"(%l, %i, %zero) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return %set : tensor<!tf_type.variant<tensor<f32>>>
}
func.func private @pass_through(%l: tensor<!tf_type.variant<tensor<f32>>>, %i: tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>> {
  func.return %l : tensor<!tf_type.variant<tensor<f32>>>
}
func.func private @set_first_2(%l: tensor<!tf_type.variant<tensor<f32>>>, %i: tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>> {
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %set = "tf.TensorListSetItem"(%l, %i, %zero) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return %set : tensor<!tf_type.variant<tensor<f32>>>
}
func.func private @pass_through_2(%l: tensor<!tf_type.variant<tensor<f32>>>, %i: tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>> {
  func.return %l : tensor<!tf_type.variant<tensor<f32>>>
}

// -----

// Region control flow: a tf.WhileRegion carrying a list gets a size region
// argument in both regions, the body yields the size; tf.IfRegion and
// tf.CaseRegion yielding lists yield their sizes too.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[N:.*]]: tensor<i32>)
// CHECK: %[[BUF:.*]] = "tf.BroadcastTo"
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<0> : tensor<1xi32>}>
// CHECK-NEXT: %[[LOOP:.*]]:3 = "tf.WhileRegion"(%[[BUF]], %[[N]], %[[SIZE]]) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<5xf32>, %[[CN:.*]]: tensor<i32>, %[[CS:.*]]: tensor<1xi32>):
// CHECK: %[[LENGTH:.*]] = "tf.Reshape"(%[[CS]],
// CHECK-NEXT: %[[MORE:.*]] = "tf.Less"(%[[LENGTH]], %[[CN]])
// CHECK-NEXT: "tf.Yield"(%[[MORE]])
// CHECK: ^bb0(%[[BL:.*]]: tensor<5xf32>, %[[BN:.*]]: tensor<i32>, %[[BS:.*]]: tensor<1xi32>):
// CHECK: %[[PUSHED:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BL]], %{{.*}}, %[[BS]])
// CHECK: %[[GROWN:.*]] = "tf.AddV2"(%[[BS]],
// CHECK-NEXT: "tf.Yield"(%[[PUSHED]], %[[BN]], %[[GROWN]])
// CHECK-NEXT: }) : (tensor<5xf32>, tensor<i32>, tensor<1xi32>) -> (tensor<5xf32>, tensor<i32>, tensor<1xi32>)
// CHECK-NEXT: %[[IF:.*]]:2 = "tf.IfRegion"(%[[P]]) <{is_stateless = true}> ({
// CHECK-NEXT: %[[COPY:.*]] = "tf.Identity"(%[[LOOP]]#0)
// CHECK: %[[SHRUNK:.*]] = "tf.Sub"(%[[LOOP]]#2,
// CHECK: "tf.Yield"(%[[COPY]], %[[SHRUNK]])
// CHECK: "tf.Yield"(%[[LOOP]]#0, %[[LOOP]]#2)
// CHECK-NEXT: }) : (tensor<i1>) -> (tensor<5xf32>, tensor<1xi32>)
// CHECK-NEXT: %[[CASE:.*]]:3 = "tf.CaseRegion"(%[[N]]) <{is_stateless = true}> ({
// CHECK: %[[C1:.*]] = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK: %[[PUSHED2:.*]] = "tf.XlaDynamicUpdateSlice"(%[[IF]]#0, %{{.*}}, %[[IF]]#1)
// CHECK: %[[GROWN2:.*]] = "tf.AddV2"(%[[IF]]#1,
// CHECK-NEXT: "tf.Yield"(%[[C1]], %[[PUSHED2]], %[[GROWN2]])
// CHECK: %[[C2:.*]] = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}>
// CHECK-NEXT: "tf.Yield"(%[[C2]], %[[IF]]#0, %[[IF]]#1)
// CHECK-NEXT: }) : (tensor<i32>) -> (tensor<f32>, tensor<5xf32>, tensor<1xi32>)
// CHECK: %[[LENGTH2:.*]] = "tf.Reshape"(%[[CASE]]#2,
// CHECK-NEXT: return %[[CASE]]#0, %[[LENGTH2]]
func.func @main(%arg0: tensor<i1>, %arg1: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %loop:2 = "tf.WhileRegion"(%list, %arg1) ({
  ^bb0(%l: tensor<!tf_type.variant<tensor<f32>>>, %n: tensor<i32>):
    %length = "tf.TensorListLength"(%l) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
    %more = "tf.Less"(%length, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%more) : (tensor<i1>) -> ()
  }, {
  ^bb0(%l: tensor<!tf_type.variant<tensor<f32>>>, %n: tensor<i32>):
    %value = "tf.Cast"(%n) : (tensor<i32>) -> tensor<f32>
    %pushed = "tf.TensorListPushBack"(%l, %value) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
    "tf.Yield"(%pushed, %n) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>) -> ()
  }) {is_stateless = false, parallel_iterations = 10 : i64} : (tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>) -> (tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>)
  %if = "tf.IfRegion"(%arg0) ({
    %popped:2 = "tf.TensorListPopBack"(%loop#0, %shape) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<0xi32>) -> (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>)
    "tf.Yield"(%popped#0) : (tensor<!tf_type.variant<tensor<f32>>>) -> ()
  }, {
    "tf.Yield"(%loop#0) : (tensor<!tf_type.variant<tensor<f32>>>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<!tf_type.variant<tensor<f32>>>
  %case:2 = "tf.CaseRegion"(%arg1) ({
    %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %pushed = "tf.TensorListPushBack"(%if, %c) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
    "tf.Yield"(%c, %pushed) : (tensor<f32>, tensor<!tf_type.variant<tensor<f32>>>) -> ()
  }, {
    %c = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    "tf.Yield"(%c, %if) : (tensor<f32>, tensor<!tf_type.variant<tensor<f32>>>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> (tensor<f32>, tensor<!tf_type.variant<tensor<f32>>>)
  %length = "tf.TensorListLength"(%case#1) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return %case#0, %length : tensor<f32>, tensor<i32>
}

// -----

// A public callee called twice with a list is decomposed once, in a private
// copy named <callee>_tensorlist_decomposed (a name taken gets a suffix);
// the public callee stays as it was.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[V:.*]]: tensor<f32>)
// CHECK: %[[BUF:.*]] = "tf.BroadcastTo"
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<0> : tensor<1xi32>}>
// CHECK-NEXT: %[[ONE:.*]]:2 = "tf.StatefulPartitionedCall"(%[[BUF]], %[[V]], %[[SIZE]]) <{config = "", config_proto = "", executor_type = "", f = @append_tensorlist_decomposed_0}> : (tensor<5xf32>, tensor<f32>, tensor<1xi32>) -> (tensor<5xf32>, tensor<1xi32>)
// CHECK-NEXT: %[[TWO:.*]]:2 = "tf.PartitionedCall"(%[[ONE]]#0, %[[V]], %[[ONE]]#1) <{config = "", config_proto = "", executor_type = "", f = @append_tensorlist_decomposed_0}> {_xla = true}
// CHECK: "tf.Reshape"(%[[TWO]]#1,
// CHECK: func.func @append(%{{.*}}: tensor<!tf_type.variant<tensor<f32>>>, %{{.*}}: tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
// CHECK-NEXT: "tf.TensorListPushBack"
// CHECK: func.func private @append_tensorlist_decomposed()
// CHECK: func.func private @append_tensorlist_decomposed_0(%[[A0:.*]]: tensor<5xf32>, %[[A1:.*]]: tensor<f32>, %[[A2:.*]]: tensor<1xi32>) -> (tensor<5xf32>, tensor<1xi32>)
// CHECK: %[[PUSHED:.*]] = "tf.XlaDynamicUpdateSlice"(%[[A0]], %{{.*}}, %[[A2]])
// CHECK: %[[GROWN:.*]] = "tf.AddV2"(%[[A2]],
// CHECK-NEXT: return %[[PUSHED]], %[[GROWN]]
func.func @main(%arg0: tensor<f32>) -> tensor<i32> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %one = "tf.StatefulPartitionedCall"(%list, %arg0) {f = @append, config = "", config_proto = "", executor_type = ""} : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %two = "tf.PartitionedCall"(%one, %arg0) {f = @append, config = "", config_proto = "", executor_type = "", _xla = true} : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %length = "tf.TensorListLength"(%two) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return %length : tensor<i32>
}
func.func @append(%l: tensor<!tf_type.variant<tensor<f32>>>, %v: tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>> {
  %pushed = "tf.TensorListPushBack"(%l, %v) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return %pushed : tensor<!tf_type.variant<tensor<f32>>>
}
func.func private @append_tensorlist_decomposed() {
  func.return
}

// -----

// A public callee whose signature does not change (its list is its own) is
// replaced by its decomposed private copy, at the end of the module.

// CHECK-LABEL: func.func @main
// CHECK-NEXT: "tf.PartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @make}> : () -> tensor<i32>
// CHECK: func.func @other()
// CHECK: func.func private @make() -> tensor<i32>
// CHECK-NOT: TensorList
// CHECK: "tf.BroadcastTo"
func.func @main() -> tensor<i32> {
  %r = "tf.PartitionedCall"() {f = @make, config = "", config_proto = "", executor_type = ""} : () -> tensor<i32>
  func.return %r : tensor<i32>
}
func.func @make() -> tensor<i32> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %length = "tf.TensorListLength"(%list) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return %length : tensor<i32>
}
func.func @other() {
  func.return
}

// -----

!v = tensor<!tf_type.variant<tensor<f32>>>

// A private callee decomposed in place; its tf.WhileRegion carries the list
// at the callee's own argument index (0), which TF requires (the invalid
// tests show the other case).

// CHECK-LABEL: func.func @main
// CHECK: %[[BUF:.*]] = "tf.BroadcastTo"
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<0> : tensor<1xi32>}>
// CHECK-NEXT: %[[CALL:.*]]:2 = "tf.StatefulPartitionedCall"(%[[BUF]], %arg1, %arg0, %[[SIZE]]) <{config = "", config_proto = "", executor_type = "", f = @fill}> : (tensor<5xf32>, tensor<i32>, tensor<f32>, tensor<1xi32>) -> (tensor<5xf32>, tensor<1xi32>)
// CHECK: "tf.Reshape"(%[[CALL]]#1,
// CHECK: func.func private @fill(%[[L:.*]]: tensor<5xf32>, %[[I:.*]]: tensor<i32>, %[[X:.*]]: tensor<f32>, %[[S:.*]]: tensor<1xi32>) -> (tensor<5xf32>, tensor<1xi32>)
// CHECK-NEXT: %[[LOOP:.*]]:3 = "tf.WhileRegion"(%[[L]], %[[I]], %[[S]])
// CHECK: return %[[LOOP]]#0, %[[LOOP]]#2
func.func @main(%arg0: tensor<f32>, %arg1: tensor<i32>) -> tensor<i32> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> !v
  %r = "tf.StatefulPartitionedCall"(%list, %arg1, %arg0) {f = @fill, config = "", config_proto = "", executor_type = ""} : (!v, tensor<i32>, tensor<f32>) -> !v
  %n = "tf.TensorListLength"(%r) : (!v) -> tensor<i32>
  func.return %n : tensor<i32>
}
func.func private @fill(%l: !v, %i: tensor<i32>, %x: tensor<f32>) -> !v {
  %loop:2 = "tf.WhileRegion"(%l, %i) ({
  ^bb0(%a: !v, %b: tensor<i32>):
    %c = "tf._SomeOp"(%b) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: !v, %b: tensor<i32>):
    %p = "tf.TensorListPushBack"(%a, %x) : (!v, tensor<f32>) -> !v
    "tf.Yield"(%p, %b) : (!v, tensor<i32>) -> ()
  }) {is_stateless = false} : (!v, tensor<i32>) -> (!v, tensor<i32>)
  func.return %loop#0 : !v
}

// -----

// Without @main nothing changes.

// CHECK-LABEL: func.func @not_main
func.func @not_main() -> tensor<!tf_type.variant<tensor<f32>>> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  // CHECK: "tf.EmptyTensorList"
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return %list : tensor<!tf_type.variant<tensor<f32>>>
}
