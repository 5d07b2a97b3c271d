// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tensor-array-ops-decomposition | FileCheck %s

!ta = tensor<!tf_type.resource>

// An array of 2x2 int32 elements: a local variable assigned a zero buffer;
// a write reads the buffer, updates the element (start indices padded with
// zeros) and assigns it back; a read returned with an unknown shape keeps
// that type through a tensor.cast, other uses take the new value; the size is
// a constant; flows are gone, close too.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[VALUE:.*]]: tensor<2x2xi32>, %[[INDEX:.*]]: tensor<i32>)
// CHECK: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[SHAPE:.*]] = "tf.Const"() <{value = dense<[3, 2, 2]> : tensor<3xi32>}>
// CHECK-NEXT: %[[INIT:.*]] = "tf.BroadcastTo"(%[[ZERO]], %[[SHAPE]]) : (tensor<i32>, tensor<3xi32>) -> tensor<3x2x2xi32>
// CHECK-NEXT: %[[VAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<3x2x2xi32>>>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]], %[[INIT]])
// CHECK-NEXT: "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[BUF:.*]] = "tf.ReadVariableOp"(%[[VAR]]) : (tensor<!tf_type.resource<tensor<3x2x2xi32>>>) -> tensor<3x2x2xi32>
// CHECK-NEXT: %[[ONE:.*]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK-NEXT: %[[AT:.*]] = "tf.Reshape"(%[[INDEX]], %[[ONE]])
// CHECK-NEXT: %[[USHAPE:.*]] = "tf.Const"() <{value = dense<[1, 2, 2]> : tensor<3xi32>}>
// CHECK-NEXT: %[[UPD:.*]] = "tf.Reshape"(%[[VALUE]], %[[USHAPE]]) : (tensor<2x2xi32>, tensor<3xi32>) -> tensor<1x2x2xi32>
// CHECK-NEXT: %[[ZEROS:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi32>}>
// CHECK-NEXT: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[START:.*]] = "tf.ConcatV2"(%[[AT]], %[[ZEROS]], %[[AXIS]])
// CHECK-NEXT: %[[NEW:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BUF]], %[[UPD]], %[[START]])
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]], %[[NEW]])
// CHECK-NEXT: %[[BUF2:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK: %[[SLICE:.*]] = "tf.Slice"(%[[BUF2]], {{.*}}) : (tensor<3x2x2xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2x2xi32>
// CHECK-NEXT: %[[ESHAPE:.*]] = "tf.Const"() <{value = dense<2> : tensor<2xi32>}>
// CHECK-NEXT: %[[READ:.*]] = "tf.Reshape"(%[[SLICE]], %[[ESHAPE]]) : (tensor<1x2x2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
// CHECK-NEXT: %[[CAST:.*]] = tensor.cast %[[READ]] : tensor<2x2xi32> to tensor<*xi32>
// CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%[[READ]]) : (tensor<2x2xi32>) -> tensor<*xi32>
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<3> : tensor<i32>}>
// CHECK-NEXT: return %[[CAST]], %[[NEG]], %[[SIZE]]
// CHECK-NOT: TensorArray
func.func @main(%arg0: tensor<2x2xi32>, %arg1: tensor<i32>) -> (tensor<*xi32>, tensor<*xi32>, tensor<i32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = i32, element_shape = #tf_type.shape<2x2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %flow = "tf.TensorArrayWriteV3"(%ta#0, %arg1, %arg0, %ta#1) : (!ta, tensor<i32>, tensor<2x2xi32>, tensor<f32>) -> tensor<f32>
  %read = "tf.TensorArrayReadV3"(%ta#0, %arg1, %flow) : (!ta, tensor<i32>, tensor<f32>) -> tensor<*xi32>
  %neg = "tf.Neg"(%read) : (tensor<*xi32>) -> tensor<*xi32>
  %n = "tf.TensorArraySizeV3"(%ta#0, %flow) : (!ta, tensor<f32>) -> tensor<i32>
  "tf.TensorArrayCloseV3"(%ta#0) : (!ta) -> ()
  func.return %read, %neg, %n : tensor<*xi32>, tensor<*xi32>, tensor<i32>
}

// -----

!ta = tensor<!tf_type.resource>

// The element shape from a split of constant equal lengths (through an
// identity); a split adds the reshaped value to the buffer; a concat merges
// the first two dimensions, its lengths a constant.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[VALUE:.*]]: tensor<6x2xf32>)
// CHECK: %[[VAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<3x2x2xf32>>>
// CHECK: %[[SSHAPE:.*]] = "tf.Const"() <{value = dense<[3, 2, 2]> : tensor<3xi32>}>
// CHECK-NEXT: %[[SPLIT:.*]] = "tf.Reshape"(%[[VALUE]], %[[SSHAPE]]) : (tensor<6x2xf32>, tensor<3xi32>) -> tensor<3x2x2xf32>
// CHECK-NEXT: %[[OLD:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK-NEXT: %[[SUM:.*]] = "tf.AddV2"(%[[OLD]], %[[SPLIT]])
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]], %[[SUM]])
// CHECK-NEXT: %[[BUF:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK-NEXT: %[[CSHAPE:.*]] = "tf.Const"() <{value = dense<[6, 2]> : tensor<2xi32>}>
// CHECK-NEXT: %[[CONCAT:.*]] = "tf.Reshape"(%[[BUF]], %[[CSHAPE]]) : (tensor<3x2x2xf32>, tensor<2xi32>) -> tensor<6x2xf32>
// CHECK-NEXT: %[[CAST:.*]] = tensor.cast %[[CONCAT]] : tensor<6x2xf32> to tensor<*xf32>
// CHECK-NEXT: %[[LENGTHS:.*]] = "tf.Const"() <{value = dense<2> : tensor<3xi64>}>
// CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%[[LENGTHS]])
// CHECK-NEXT: return %[[CAST]], %[[NEG]]
func.func @main(%arg0: tensor<6x2xf32>) -> (tensor<*xf32>, tensor<*xi64>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<*>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %same = "tf.Identity"(%ta#0) : (!ta) -> !ta
  %lengths = "tf.Const"() {value = dense<2> : tensor<3xi64>} : () -> tensor<3xi64>
  %flow = "tf.TensorArraySplitV3"(%same, %arg0, %lengths, %ta#1) : (!ta, tensor<6x2xf32>, tensor<3xi64>, tensor<f32>) -> tensor<f32>
  %concat:2 = "tf.TensorArrayConcatV3"(%ta#0, %flow) {element_shape_except0 = #tf_type.shape<*>} : (!ta, tensor<f32>) -> (tensor<*xf32>, tensor<*xi64>)
  %lengths_out = "tf.Neg"(%concat#1) : (tensor<*xi64>) -> tensor<*xi64>
  func.return %concat#0, %lengths_out : tensor<*xf32>, tensor<*xi64>
}

// -----

!ta = tensor<!tf_type.resource>

// The element shape from the result of a gather, then from the
// element_shape of another gather; gathers of constant indices counting up
// slice, others use tf.GatherV2; a scatter of indices 0..n-1 of the buffer's
// type adds at once, others slice by slice (booleans: tf.LogicalOr).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[INDICES:.*]]: tensor<2xi32>)
// CHECK: %[[FALSE:.*]] = "tf.Cast"(%{{.*}}) : (tensor<i32>) -> tensor<i1>
// CHECK: %[[VAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<3x4xi1>>>
// CHECK: %[[BUF:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK-NEXT: %[[AXIS:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[G0:.*]] = "tf.GatherV2"(%[[BUF]], %[[INDICES]], %[[AXIS]]) : (tensor<3x4xi1>, tensor<2xi32>, tensor<i32>) -> tensor<2x4xi1>
// CHECK-NEXT: "tf.Const"() <{value = dense<[0, 1, 2]> : tensor<3xi32>}>
// CHECK-NEXT: %[[BUF1:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK-NEXT: %[[BEGIN:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi32>}>
// CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<[3, 4]> : tensor<2xi32>}>
// CHECK-NEXT: %[[G1:.*]] = "tf.Slice"(%[[BUF1]], %[[BEGIN]], %[[SIZE]]) : (tensor<3x4xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x4xi1>
// CHECK-NEXT: %[[CAST:.*]] = tensor.cast %[[G1]] : tensor<3x4xi1> to tensor<*xi1>
// CHECK-NEXT: %[[BUF2:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK-NEXT: %[[ALL:.*]] = "tf.LogicalOr"(%[[BUF2]], %[[G1]]) : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]], %[[ALL]])
// CHECK-NEXT: %[[BUF3:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK-NEXT: %[[PIECE:.*]] = "tf.Const"() <{value = dense<[1, 4]> : tensor<2xi32>}>
// CHECK: %[[I0:.*]] = "tf.Slice"(%[[INDICES]], {{.*}}) : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK: %[[OLD0:.*]] = "tf.Slice"(%[[BUF3]], {{.*}}) : (tensor<3x4xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x4xi1>
// CHECK-NEXT: %[[FROM0:.*]] = "tf.Const"() <{value = dense<0> : tensor<2xi32>}>
// CHECK-NEXT: %[[NEW0:.*]] = "tf.Slice"(%[[G0]], %[[FROM0]], %[[PIECE]]) : (tensor<2x4xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x4xi1>
// CHECK-NEXT: %[[OR0:.*]] = "tf.LogicalOr"(%[[OLD0]], %[[NEW0]])
// CHECK: %[[UPD0:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BUF3]], %[[OR0]],
// CHECK: %[[FROM1:.*]] = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}>
// CHECK-NEXT: %[[NEW1:.*]] = "tf.Slice"(%[[G0]], %[[FROM1]], %[[PIECE]])
// CHECK-NEXT: %[[OR1:.*]] = "tf.LogicalOr"(%{{.*}}, %[[NEW1]])
// CHECK: %[[UPD1:.*]] = "tf.XlaDynamicUpdateSlice"(%[[UPD0]], %[[OR1]],
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]], %[[UPD1]])
// CHECK-NEXT: return %[[G0]], %[[CAST]]
func.func @main(%arg0: tensor<2xi32>) -> (tensor<2x4xi1>, tensor<*xi1>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = i1, element_shape = #tf_type.shape<?x4>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %g0 = "tf.TensorArrayGatherV3"(%ta#0, %arg0, %ta#1) : (!ta, tensor<2xi32>, tensor<f32>) -> tensor<2x4xi1>
  %all = "tf.Const"() {value = dense<[0, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %g1 = "tf.TensorArrayGatherV3"(%ta#0, %all, %ta#1) {element_shape = #tf_type.shape<4>} : (!ta, tensor<3xi32>, tensor<f32>) -> tensor<*xi1>
  %f0 = "tf.TensorArrayScatterV3"(%ta#0, %all, %g1, %ta#1) : (!ta, tensor<3xi32>, tensor<*xi1>, tensor<f32>) -> tensor<f32>
  %f1 = "tf.TensorArrayScatterV3"(%ta#0, %arg0, %g0, %f0) : (!ta, tensor<2xi32>, tensor<2x4xi1>, tensor<f32>) -> tensor<f32>
  func.return %g0, %g1 : tensor<2x4xi1>, tensor<*xi1>
}

// -----

!ta = tensor<!tf_type.resource>

// Gradients: one variable per array and source, zeroed like the array;
// writes to a gradient add to the element there; a gradient of a gradient
// is another variable.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[VALUE:.*]]: tensor<3xf32>, %[[INDEX:.*]]: tensor<i32>)
// CHECK: %[[VAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<4x3xf32>>>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]],
// CHECK-NEXT: "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[GRAD:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<4x3xf32>>>
// CHECK-NEXT: %[[ZERO:.*]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: %[[FZERO:.*]] = "tf.Cast"(%[[ZERO]])
// CHECK-NEXT: %[[SHAPE:.*]] = "tf.Const"() <{value = dense<[4, 3]> : tensor<2xi32>}>
// CHECK-NEXT: %[[INIT:.*]] = "tf.BroadcastTo"(%[[FZERO]], %[[SHAPE]])
// CHECK-NEXT: "tf.AssignVariableOp"(%[[GRAD]], %[[INIT]])
// CHECK-NEXT: %[[BUF:.*]] = "tf.ReadVariableOp"(%[[GRAD]])
// CHECK: %[[OLD:.*]] = "tf.Slice"(%[[BUF]], {{.*}}) : (tensor<4x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[VSHAPE:.*]] = "tf.Const"() <{value = dense<[1, 3]> : tensor<2xi32>}>
// CHECK-NEXT: %[[V:.*]] = "tf.Reshape"(%[[VALUE]], %[[VSHAPE]]) : (tensor<3xf32>, tensor<2xi32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[SUM:.*]] = "tf.AddV2"(%[[V]], %[[OLD]])
// CHECK: %[[NEW:.*]] = "tf.XlaDynamicUpdateSlice"(%[[BUF]], %[[SUM]],
// CHECK-NEXT: "tf.AssignVariableOp"(%[[GRAD]], %[[NEW]])
// CHECK-NEXT: %[[BUF2:.*]] = "tf.ReadVariableOp"(%[[GRAD]])
// CHECK: "tf.AddV2"
// CHECK: "tf.AssignVariableOp"(%[[GRAD]],
// CHECK-NEXT: %[[GRAD2:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<4x3xf32>>>
// CHECK: "tf.AssignVariableOp"(%[[GRAD2]],
// CHECK-NEXT: return
func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<i32>) {
  %size = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<3>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %g:2 = "tf.TensorArrayGradV3"(%ta#0, %ta#1) {source = "grad"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  %w0 = "tf.TensorArrayWriteV3"(%g#0, %arg1, %arg0, %g#1) : (!ta, tensor<i32>, tensor<3xf32>, tensor<f32>) -> tensor<f32>
  %again:2 = "tf.TensorArrayGradV3"(%ta#0, %w0) {source = "grad"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  %w1 = "tf.TensorArrayWriteV3"(%again#0, %arg1, %arg0, %again#1) : (!ta, tensor<i32>, tensor<3xf32>, tensor<f32>) -> tensor<f32>
  %gg:2 = "tf.TensorArrayGradV3"(%g#0, %w1) {source = "grad"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  func.return
}

// -----

!ta = tensor<!tf_type.resource>

// A loop writing an array and taking its gradient: the body and condition
// take the variable and the gradient variable (made before the loop); the
// element shape comes from the write in the body. As TF: the rebuilt loop's
// results are all replaced by its operands.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[N:.*]]: tensor<i32>)
// CHECK: %[[VAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<4x2xf32>>>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]],
// CHECK-NEXT: %[[FLOW:.*]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[GRAD:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<4x2xf32>>>
// CHECK: "tf.AssignVariableOp"(%[[GRAD]],
// CHECK-NEXT: "tf.While"(%[[N]], %[[VAR]], %[[FLOW]], %[[GRAD]]) <{body = @loop_body, cond = @loop_cond, is_stateless = false}>
// CHECK-NEXT: return %[[N]]
// CHECK: func.func private @loop_body(%[[BN:.*]]: tensor<i32>, %[[BA:.*]]: tensor<!tf_type.resource<tensor<4x2xf32>>>, %[[BF:.*]]: tensor<f32>, %[[BG:.*]]: tensor<!tf_type.resource<tensor<4x2xf32>>>) -> (tensor<i32>, tensor<!tf_type.resource<tensor<4x2xf32>>>, tensor<f32>, tensor<!tf_type.resource<tensor<4x2xf32>>>)
// CHECK: %[[NEXT:.*]] = "tf.Sub"(%[[BN]],
// CHECK: "tf.ReadVariableOp"(%[[BA]])
// CHECK: "tf.AssignVariableOp"(%[[BA]],
// CHECK: "tf.ReadVariableOp"(%[[BG]])
// CHECK: "tf.AddV2"
// CHECK: "tf.AssignVariableOp"(%[[BG]],
// CHECK-NEXT: return %[[NEXT]], %[[BA]], %[[BF]], %[[BG]]
// CHECK: func.func private @loop_cond(%{{.*}}: tensor<i32>, %{{.*}}: tensor<!tf_type.resource<tensor<4x2xf32>>>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<!tf_type.resource<tensor<4x2xf32>>>) -> tensor<i1>
func.func @main(%arg0: tensor<i32>) -> tensor<i32> {
  %size = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<*>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %loop:3 = "tf.While"(%arg0, %ta#0, %ta#1) {body = @loop_body, cond = @loop_cond, is_stateless = false} : (tensor<i32>, !ta, tensor<f32>) -> (tensor<i32>, !ta, tensor<f32>)
  func.return %loop#0 : tensor<i32>
}
func.func private @loop_body(%n: tensor<i32>, %a: !ta, %flow: tensor<f32>) -> (tensor<i32>, !ta, tensor<f32>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %next = "tf.Sub"(%n, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %value = "tf._SomeOp"() : () -> tensor<2xf32>
  %w = "tf.TensorArrayWriteV3"(%a, %next, %value, %flow) : (!ta, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %g:2 = "tf.TensorArrayGradV3"(%a, %w) {source = "g"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  %gw = "tf.TensorArrayWriteV3"(%g#0, %next, %value, %g#1) : (!ta, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
  func.return %next, %a, %gw : tensor<i32>, !ta, tensor<f32>
}
func.func private @loop_cond(%n: tensor<i32>, %a: !ta, %flow: tensor<f32>) -> tensor<i1> {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %more = "tf.Greater"(%n, %zero) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %more : tensor<i1>
}

// -----

!ta = tensor<!tf_type.resource>

// A conditional whose branches take gradients of an array: both branches
// take the variable and one gradient variable per source (made before the
// op); the array result takes the forwarded operand, others the new op's.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[I:.*]]: tensor<i32>)
// CHECK: %[[VAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<2xf32>>>
// CHECK: %[[GX:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<2xf32>>>
// CHECK: %[[GY:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<2xf32>>>
// CHECK: %[[IF:.*]]:2 = "tf.If"(%[[P]], %[[I]], %[[VAR]], %[[GX]], %[[GY]]) <{else_branch = @else_fn, is_stateless = false, then_branch = @then_fn}>
// CHECK-NEXT: "tf.ReadVariableOp"(%[[VAR]])
// CHECK: return %[[IF]]#0
// CHECK: func.func private @then_fn(%[[TI:.*]]: tensor<i32>, %[[TA:.*]]: tensor<!tf_type.resource<tensor<2xf32>>>, %[[TX:.*]]: tensor<!tf_type.resource<tensor<2xf32>>>, %{{.*}}: tensor<!tf_type.resource<tensor<2xf32>>>) -> (tensor<i32>, tensor<!tf_type.resource<tensor<2xf32>>>)
// CHECK: "tf.ReadVariableOp"(%[[TX]])
// CHECK: "tf.AssignVariableOp"(%[[TX]],
// CHECK-NEXT: return %[[TI]], %[[TA]]
// CHECK: func.func private @else_fn(%{{.*}}: tensor<i32>, %[[EA:.*]]: tensor<!tf_type.resource<tensor<2xf32>>>, %{{.*}}: tensor<!tf_type.resource<tensor<2xf32>>>, %[[EY:.*]]: tensor<!tf_type.resource<tensor<2xf32>>>) -> (tensor<i32>, tensor<!tf_type.resource<tensor<2xf32>>>)
// CHECK: "tf.ReadVariableOp"(%[[EY]])
// CHECK: return %{{.*}}, %[[EA]]
func.func @main(%arg0: tensor<i1>, %arg1: tensor<i32>) -> tensor<i32> {
  %size = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %if:2 = "tf.If"(%arg0, %arg1, %ta#0) {then_branch = @then_fn, else_branch = @else_fn, is_stateless = false} : (tensor<i1>, tensor<i32>, !ta) -> (tensor<i32>, !ta)
  %r = "tf.TensorArrayReadV3"(%if#1, %arg1, %ta#1) : (!ta, tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return %if#0 : tensor<i32>
}
func.func private @then_fn(%i: tensor<i32>, %a: !ta) -> (tensor<i32>, !ta) {
  %flow = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %v = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %g:2 = "tf.TensorArrayGradV3"(%a, %flow) {source = "x"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  %w = "tf.TensorArrayWriteV3"(%g#0, %i, %v, %g#1) : (!ta, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %i, %a : tensor<i32>, !ta
}
func.func private @else_fn(%i: tensor<i32>, %a: !ta) -> (tensor<i32>, !ta) {
  %flow = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %g:2 = "tf.TensorArrayGradV3"(%a, %flow) {source = "y"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  %r = "tf.TensorArrayReadV3"(%g#0, %i, %g#1) : (!ta, tensor<i32>, tensor<f32>) -> tensor<f32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  func.return %two, %a : tensor<i32>, !ta
}

// -----

!ta = tensor<!tf_type.resource>

// Region control flow is decomposed in place (its operands and results hold
// no resources).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[I:.*]]: tensor<i32>)
// CHECK: %[[VAR:.*]] = "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<5x2xf32>>>
// CHECK: %[[R:.*]] = "tf.IfRegion"(%[[P]]) <{is_stateless = false}> ({
// CHECK-NEXT: %[[BUF:.*]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK: %[[X:.*]] = "tf.Reshape"({{.*}}) : (tensor<1x2xf32>, tensor<1xi32>) -> tensor<2xf32>
// CHECK-NEXT: "tf.Yield"(%[[X]])
// CHECK: "tf.ReadVariableOp"(%[[VAR]])
// CHECK: %[[NEW:.*]] = "tf.XlaDynamicUpdateSlice"
// CHECK-NEXT: "tf.AssignVariableOp"(%[[VAR]], %[[NEW]])
// CHECK-NEXT: "tf.Yield"
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<2xf32>
// CHECK-NEXT: return %[[R]]
func.func @main(%arg0: tensor<i1>, %arg1: tensor<i32>) -> tensor<2xf32> {
  %size = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %r = "tf.IfRegion"(%arg0) ({
    %x = "tf.TensorArrayReadV3"(%ta#0, %arg1, %ta#1) : (!ta, tensor<i32>, tensor<f32>) -> tensor<2xf32>
    "tf.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    %c = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
    %w = "tf.TensorArrayWriteV3"(%ta#0, %arg1, %c, %ta#1) : (!ta, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%c) : (tensor<2xf32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

!ta = tensor<!tf_type.resource>

// A public callee taking a gradient of its array argument is decomposed once,
// in a private copy <callee>_tensorarray_decomposed; callers pass the
// gradient variable (made before the first call); the array result takes
// the forwarded operand.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[I:.*]]: tensor<i32>)
// CHECK: %[[VAR:.*]] = "tf.MlirLocalVarOp"()
// CHECK: %[[GRAD:.*]] = "tf.MlirLocalVarOp"()
// CHECK: "tf.StatefulPartitionedCall"(%[[VAR]], %[[I]], %[[GRAD]]) <{config = "", config_proto = "", executor_type = "", f = @touch_tensorarray_decomposed}>
// CHECK-NEXT: "tf.PartitionedCall"(%[[VAR]], %[[I]], %[[GRAD]]) <{config = "", config_proto = "", executor_type = "", f = @touch_tensorarray_decomposed}>
// CHECK-NEXT: "tf.ReadVariableOp"(%[[VAR]])
// CHECK: func.func @touch(%{{.*}}: tensor<!tf_type.resource>, %{{.*}}: tensor<i32>) -> tensor<!tf_type.resource>
// CHECK: "tf.TensorArrayGradV3"
// CHECK: func.func private @touch_tensorarray_decomposed(%[[A:.*]]: tensor<!tf_type.resource<tensor<2xf32>>>, %{{.*}}: tensor<i32>, %[[G:.*]]: tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<!tf_type.resource<tensor<2xf32>>>
// CHECK: "tf.ReadVariableOp"(%[[G]])
// CHECK: "tf.AssignVariableOp"(%[[G]],
// CHECK-NEXT: return %[[A]]
func.func @main(%arg0: tensor<i32>) -> tensor<f32> {
  %size = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %c0 = "tf.StatefulPartitionedCall"(%ta#0, %arg0) {f = @touch, config = "", config_proto = "", executor_type = ""} : (!ta, tensor<i32>) -> !ta
  %c1 = "tf.PartitionedCall"(%c0, %arg0) {f = @touch, config = "", config_proto = "", executor_type = ""} : (!ta, tensor<i32>) -> !ta
  %r = "tf.TensorArrayReadV3"(%c1, %arg0, %ta#1) : (!ta, tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
func.func @touch(%a: !ta, %i: tensor<i32>) -> !ta {
  %flow = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %v = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %g:2 = "tf.TensorArrayGradV3"(%a, %flow) {source = "s"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  %w = "tf.TensorArrayWriteV3"(%g#0, %i, %v, %g#1) : (!ta, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %a : !ta
}

// -----

// A public callee whose signature does not change is replaced by its
// decomposed private copy, at the end of the module.

// CHECK-LABEL: func.func @main
// CHECK-NEXT: "tf.PartitionedCall"() <{config = "", config_proto = "", executor_type = "", f = @own}> : () -> tensor<i32>
// CHECK: func.func @other()
// CHECK: func.func private @own() -> tensor<i32>
// CHECK: "tf.MlirLocalVarOp"() : () -> tensor<!tf_type.resource<tensor<6x1xf32>>>
// CHECK-NOT: TensorArray
func.func @main() -> tensor<i32> {
  %r = "tf.PartitionedCall"() {f = @own, config = "", config_proto = "", executor_type = ""} : () -> tensor<i32>
  func.return %r : tensor<i32>
}
func.func @own() -> tensor<i32> {
  %size = "tf.Const"() {value = dense<6> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<1>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  %n = "tf.TensorArraySizeV3"(%ta#0, %ta#1) : (tensor<!tf_type.resource>, tensor<f32>) -> tensor<i32>
  func.return %n : tensor<i32>
}
func.func @other() {
  func.return
}

// -----

// Without @main nothing changes.

// CHECK-LABEL: func.func @not_main
func.func @not_main() {
  %size = "tf.Const"() {value = dense<6> : tensor<i32>} : () -> tensor<i32>
  // CHECK: "tf.TensorArrayV3"
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<1>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  func.return
}
