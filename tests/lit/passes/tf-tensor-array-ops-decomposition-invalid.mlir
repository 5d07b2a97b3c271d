// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tensor-array-ops-decomposition

!ta = tensor<!tf_type.resource>

// No static element shape: neither the attribute nor an access gives one
// (the write's value has an unknown dimension).

func.func @main(%arg0: tensor<?xf32>, %arg1: tensor<i32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayV3' op unknown element shape}}
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<?>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %flow = "tf.TensorArrayWriteV3"(%ta#0, %arg1, %arg0, %ta#1) : (!ta, tensor<i32>, tensor<?xf32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @main() {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayV3' op dynamic tensor array size is unsupported}}
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = true, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  func.return
}

// -----

func.func @main(%arg0: tensor<i32>) {
  // expected-error @+1 {{'tf.TensorArrayV3' op unknown max element count}}
  %ta:2 = "tf.TensorArrayV3"(%arg0) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  func.return
}

// -----

// An array @main takes as an argument is not known.

func.func @main(%arg0: tensor<!tf_type.resource>, %arg1: tensor<i32>, %arg2: tensor<f32>) {
  // expected-error @+1 {{'tf.TensorArrayReadV3' op unknown tensor array}}
  %r = "tf.TensorArrayReadV3"(%arg0, %arg1, %arg2) : (tensor<!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

!ta = tensor<!tf_type.resource>

func.func @main() {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  // expected-error @+1 {{'tf.TensorArrayConcatV3' op cannot concat on scalar-element tensor array}}
  %concat:2 = "tf.TensorArrayConcatV3"(%ta#0, %ta#1) : (!ta, tensor<f32>) -> (tensor<*xf32>, tensor<*xi64>)
  func.return
}

// -----

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<6xf32>, %arg1: tensor<3xi64>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  // expected-error @+1 {{'tf.TensorArraySplitV3' op non-constant split lengths}}
  %flow = "tf.TensorArraySplitV3"(%ta#0, %arg0, %arg1, %ta#1) : (!ta, tensor<6xf32>, tensor<3xi64>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<6xf32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %lengths = "tf.Const"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  // expected-error @+1 {{'tf.TensorArraySplitV3' op non-positive split count}}
  %flow = "tf.TensorArraySplitV3"(%ta#0, %arg0, %lengths, %ta#1) : (!ta, tensor<6xf32>, tensor<0xi64>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<?xf32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %lengths = "tf.Const"() {value = dense<2> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error @+1 {{'tf.TensorArraySplitV3' op unknown or invalid split tensor shape}}
  %flow = "tf.TensorArraySplitV3"(%ta#0, %arg0, %lengths, %ta#1) : (!ta, tensor<?xf32>, tensor<3xi64>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

// A split of unequal lengths found while looking for the element shape: its
// error, then the array's.

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<6xf32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayV3' op unknown element shape}}
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<*>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %lengths = "tf.Const"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error @+1 {{'tf.TensorArraySplitV3' op different split lengths are not supported}}
  %flow = "tf.TensorArraySplitV3"(%ta#0, %arg0, %lengths, %ta#1) : (!ta, tensor<6xf32>, tensor<3xi64>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

// A loop body returning another array than it takes.

!ta = tensor<!tf_type.resource>

func.func @main() {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  // expected-error @+1 {{'tf.While' op output tensor array does not alias input in a while loop}}
  %loop = "tf.While"(%ta#0) {body = @body, cond = @cond, is_stateless = false} : (!ta) -> !ta
  func.return
}
func.func private @body(%a: !ta) -> !ta {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %other:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "b"} : (tensor<i32>) -> (!ta, tensor<f32>)
  func.return %other#0 : !ta
}
func.func private @cond(%a: !ta) -> tensor<i1> {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  func.return %t : tensor<i1>
}

// -----

// Branches returning different arrays.

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<i1>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta0:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %ta1:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<2>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "b"} : (tensor<i32>) -> (!ta, tensor<f32>)
  // expected-error @+1 {{'tf.If' op branches do not forward the same input resource}}
  %if = "tf.If"(%arg0, %ta0#0, %ta1#0) {then_branch = @first, else_branch = @second, is_stateless = false} : (tensor<i1>, !ta, !ta) -> !ta
  func.return
}
func.func private @first(%a: !ta, %b: !ta) -> !ta {
  %flow = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %g:2 = "tf.TensorArrayGradV3"(%a, %flow) {source = "g"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  func.return %a : !ta
}
func.func private @second(%a: !ta, %b: !ta) -> !ta {
  func.return %b : !ta
}

// -----

// Region control flow carrying an array.

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<i32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = i32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  // expected-error @+1 {{'tf.CaseRegion' op found unexpected type 'tensor<!tf_type.resource>' of result #0, resource type results are expected to have been canonicalized away for region based control flow ops}}
  %r = "tf.CaseRegion"(%arg0) ({
    "tf.Yield"(%ta#0) : (!ta) -> ()
  }) {is_stateless = false} : (tensor<i32>) -> !ta
  func.return
}

// -----

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<i32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = i32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  // expected-error @+1 {{'tf.WhileRegion' op found unexpected type 'tensor<!tf_type.resource<tensor<3xi32>>>' of operand #1, resource type operands are expected to have been canonicalized away for region based control flow ops}}
  %loop:2 = "tf.WhileRegion"(%arg0, %ta#0) ({
  ^bb0(%n: tensor<i32>, %a: !ta):
    %more = "tf._SomeOp"(%n) : (tensor<i32>) -> tensor<i1>
    "tf.Yield"(%more) : (tensor<i1>) -> ()
  }, {
  ^bb0(%n: tensor<i32>, %a: !ta):
    "tf.Yield"(%n, %a) : (tensor<i32>, !ta) -> ()
  }) {is_stateless = false} : (tensor<i32>, !ta) -> (tensor<i32>, !ta)
  func.return
}

// -----

// An array argument of a callee that takes no gradient of it is not known
// in the callee (as in TF).

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: tensor<i32>) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  %r = "tf.PartitionedCall"(%ta#0, %arg0, %ta#1) {f = @read, config = "", config_proto = "", executor_type = ""} : (!ta, tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return
}
func.func private @read(%a: !ta, %i: tensor<i32>, %flow: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.TensorArrayReadV3' op unknown tensor array}}
  %r = "tf.TensorArrayReadV3"(%a, %i, %flow) : (!ta, tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// A callee decomposed for an array, called again with an unknown one.

!ta = tensor<!tf_type.resource>

func.func @main(%arg0: !ta) {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  "tf.StatefulPartitionedCall"(%ta#0) {f = @grad, config = "", config_proto = "", executor_type = ""} : (!ta) -> ()
  // expected-error @+1 {{'tf.StatefulPartitionedCall' op unknown tensor array}}
  "tf.StatefulPartitionedCall"(%arg0) {f = @grad, config = "", config_proto = "", executor_type = ""} : (!ta) -> ()
  func.return
}
func.func private @grad(%a: !ta) {
  %flow = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %g:2 = "tf.TensorArrayGradV3"(%a, %flow) {source = "g"} : (!ta, tensor<f32>) -> (!ta, tensor<f32>)
  func.return
}

// -----

// A public callee is decomposed before it joins the module: a call in it
// finds no callee when the pass looks for gradients there (TensorFlow
// crashes).

!ta = tensor<!tf_type.resource>

func.func @main() {
  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%size) {dtype = f32, element_shape = #tf_type.shape<>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "a"} : (tensor<i32>) -> (!ta, tensor<f32>)
  "tf.PartitionedCall"(%ta#0) {f = @outer_calling_inner, config = "", config_proto = "", executor_type = ""} : (!ta) -> ()
  func.return
}
func.func @outer_calling_inner(%a: !ta) {
  // expected-error @+1 {{'tf.PartitionedCall' op cannot find the function its 'f' attribute names with a body in the module (TensorFlow crashes here)}}
  "tf.PartitionedCall"() {f = @inner, config = "", config_proto = "", executor_type = ""} : () -> ()
  func.return
}
func.func private @inner() {
  func.return
}
