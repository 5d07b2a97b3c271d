// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tensor-list-ops-decomposition

// The maximum size must be a constant.

func.func @main(%arg0: tensor<i32>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  // expected-error @+1 {{'tf.EmptyTensorList' op unknown max element count}}
  %list = "tf.EmptyTensorList"(%shape, %arg0) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return
}

// -----

// An element shape with an unknown dimension, in the operand and the type.

func.func @main() {
  %shape = "tf.Const"() {value = dense<[3, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %count = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorListReserve' op unknown tensor list element shape}}
  %list = "tf.TensorListReserve"(%shape, %count) : (tensor<2xi64>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3x?xf32>>>
  func.return
}

// -----

// An element shape another op computes, and an unranked element type.

func.func @main(%arg0: tensor<4x2xf32>) {
  %shape = "tf.Shape"(%arg0) : (tensor<4x2xf32>) -> tensor<2xi32>
  %max = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.EmptyTensorList' op unknown tensor list element shape}}
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
  func.return
}

// -----

// A list made from a tensor of unknown shape.

func.func @main(%arg0: tensor<?x2xf32>) {
  %shape = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+1 {{'tf.TensorListFromTensor' op TensorListFromTensorOp input has unknown shape.}}
  %list = "tf.TensorListFromTensor"(%arg0, %shape) : (tensor<?x2xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
  func.return
}

// -----

// Pushing on a list made from a tensor (a fixed size).

func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<f32>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %list = "tf.TensorListFromTensor"(%arg0, %shape) : (tensor<3xf32>, tensor<0xi32>) -> tensor<!tf_type.variant<tensor<f32>>>
  // expected-error @+1 {{cannot push on a fixed-size tensor list}}
  %pushed = "tf.TensorListPushBack"(%list, %arg1) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return
}

// -----

// Popping a reserved list, in a loop body (the size stays fixed through the
// loop).

func.func @main() {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %count = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.TensorListReserve"(%shape, %count) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %loop = "tf.While"(%list) {body = @body, cond = @cond, is_stateless = false} : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return
}
func.func private @body(%l: tensor<!tf_type.variant<tensor<f32>>>) -> tensor<!tf_type.variant<tensor<f32>>> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  // expected-error @+1 {{cannot pop on a fixed-size tensor list}}
  %popped:2 = "tf.TensorListPopBack"(%l, %shape) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<0xi32>) -> (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>)
  func.return %popped#0 : tensor<!tf_type.variant<tensor<f32>>>
}
func.func private @cond(%l: tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i1> {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  func.return %t : tensor<i1>
}

// -----

// A list @main takes as an argument is not known.

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>, %arg1: tensor<f32>) {
  // expected-error @+1 {{'tf.TensorListPushBack' op found tf.TensorListPushBack on unknown TensorList.}}
  %pushed = "tf.TensorListPushBack"(%arg0, %arg1) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return
}

// -----

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  // expected-error @+1 {{'tf.TensorListPopBack' op found tf.TensorListPopBack on unknown TensorList.}}
  %popped:2 = "tf.TensorListPopBack"(%arg0, %shape) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<0xi32>) -> (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>)
  func.return
}

// -----

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>, %arg1: tensor<i32>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  // expected-error @+1 {{'tf.TensorListGetItem' op found tf.TensorListGetItemOp on unknown TensorList.}}
  %item = "tf.TensorListGetItem"(%arg0, %arg1, %shape) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>, tensor<0xi32>) -> tensor<f32>
  func.return
}

// -----

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>, %arg1: tensor<i32>, %arg2: tensor<f32>) {
  // expected-error @+1 {{'tf.TensorListSetItem' op found tf.TensorListSetItemOp on unknown TensorList.}}
  %set = "tf.TensorListSetItem"(%arg0, %arg1, %arg2) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<i32>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return
}

// -----

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>) {
  // expected-error @+1 {{'tf.TensorListLength' op found tf.TensorListLength on unknown TensorList.}}
  %length = "tf.TensorListLength"(%arg0) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return
}

// -----

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>) {
  // expected-error @+1 {{'tf.TensorListElementShape' op unknown tensor list}}
  %shape = "tf.TensorListElementShape"(%arg0) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<0xi32>
  func.return
}

// -----

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>, %arg1: tensor<2xi32>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  // expected-error @+1 {{'tf.TensorListGather' op unknown tensor list}}
  %gathered = "tf.TensorListGather"(%arg0, %arg1, %shape) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<2xi32>, tensor<0xi32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>, %arg1: tensor<2xi32>, %arg2: tensor<2xf32>) {
  // expected-error @+1 {{'tf.TensorListScatterIntoExistingList' op unknown tensor list}}
  %scattered = "tf.TensorListScatterIntoExistingList"(%arg0, %arg2, %arg1) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<2xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return
}

// -----

// A callee decomposed for a list operand, called again with a value that is
// not a decomposed list.

func.func @main(%arg0: tensor<!tf_type.variant<tensor<f32>>>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %0 = "tf.PartitionedCall"(%list) {f = @length, config = "", config_proto = "", executor_type = ""} : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  // expected-error @+1 {{'tf.PartitionedCall' op unknown tensor list.}}
  %1 = "tf.PartitionedCall"(%arg0) {f = @length, config = "", config_proto = "", executor_type = ""} : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return
}
func.func private @length(%l: tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32> {
  %length = "tf.TensorListLength"(%l) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return %length : tensor<i32>
}

// -----

// A public callee is decomposed before it joins the module: a call in it
// finds no callee.

func.func @main() {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %0 = "tf.PartitionedCall"(%list) {f = @outer, config = "", config_proto = "", executor_type = ""} : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return
}
func.func @outer(%l: tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32> {
  // expected-error @+1 {{'tf.PartitionedCall' op TensorList decomposition does not support call with nested references.}}
  %0 = "tf.PartitionedCall"(%l) {f = @inner, config = "", config_proto = "", executor_type = ""} : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
func.func private @inner(%l: tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32> {
  %length = "tf.TensorListLength"(%l) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<i32>
  func.return %length : tensor<i32>
}

// -----

// A branch function shared by two ops gains its size argument twice: the
// verifier rejects the result, as it does TF's.

func.func @main(%arg0: tensor<i1>, %arg1: tensor<3xf32>) {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %list = "tf.TensorListFromTensor"(%arg1, %shape) : (tensor<3xf32>, tensor<0xi32>) -> tensor<!tf_type.variant<tensor<f32>>>
  // expected-error @+1 {{'tf.If' op 'then_branch' inputs (size = 3) should have the same number of values as inputs (size = 2)}}
  %0 = "tf.If"(%arg0, %list) {then_branch = @same, else_branch = @same, is_stateless = true} : (tensor<i1>, tensor<!tf_type.variant<tensor<f32>>>) -> tensor<!tf_type.variant<tensor<f32>>>
  func.return
}
func.func private @same(%l: tensor<!tf_type.variant<tensor<f32>>>) -> tensor<!tf_type.variant<tensor<f32>>> {
  func.return %l : tensor<!tf_type.variant<tensor<f32>>>
}

// -----

// As TF: a list a tf.WhileRegion of the callee carries as region argument #0
// needs a list as the call's operand #0 too.

!v = tensor<!tf_type.variant<tensor<f32>>>

func.func @main(%arg0: tensor<f32>, %arg1: tensor<i32>) -> tensor<i32> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %list = "tf.EmptyTensorList"(%shape, %max) : (tensor<0xi32>, tensor<i32>) -> !v
  // expected-error @+1 {{'tf.StatefulPartitionedCall' op unknown tensor list.}}
  %r = "tf.StatefulPartitionedCall"(%arg1, %list, %arg0) {f = @fill, config = "", config_proto = "", executor_type = ""} : (tensor<i32>, !v, tensor<f32>) -> !v
  %n = "tf.TensorListLength"(%r) : (!v) -> tensor<i32>
  func.return %n : tensor<i32>
}
func.func private @fill(%i: tensor<i32>, %l: !v, %x: tensor<f32>) -> !v {
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
