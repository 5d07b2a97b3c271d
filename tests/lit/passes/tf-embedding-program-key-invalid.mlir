// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-embedding-program-key

// No compile op: the placeholder stays and the pass fails.

func.func @no_compile() {
  %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  // expected-error @+1 {{Couldn't find a program key to insert into this op.}}
  "tf.OpA"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> ()
  func.return
}

// -----

// A mini_batch_in_csr op never moves: before the compile launch it keeps its
// placeholder.

func.func @csr_before_compile() {
  "tf_device.launch"() ({
    %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
    // expected-error @+1 {{Couldn't find a program key to insert into this op.}}
    "tf.OpA"(%key) {mini_batch_in_csr = ""} : (tensor<1x!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> ()
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  func.return
}

// -----

// The compile launch that follows is not in the block of the op's launch:
// nothing moves.

func.func @compile_in_other_block() {
  tf_device.replicate {n = 2 : i32} {
    "tf_device.launch"() ({
      %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
      // expected-error @+1 {{Couldn't find a program key to insert into this op.}}
      "tf.OpA"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> ()
      tf_device.return
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> ()
    tf_device.return
  }
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  func.return
}

// -----

// Where TF leaves uses of the erased launch behind: the launch returns a value
// defined outside it, or a value of the moved ops twice.

func.func @returns_outside_value(%arg: tensor<i32>) -> tensor<i32> {
  %outside = "tf.Neg"(%arg) : (tensor<i32>) -> tensor<i32>
  // expected-error @+1 {{result #0 of the launch is still used after its ops moved}}
  %0 = "tf_device.launch"() ({
    %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
    "tf.OpA"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> ()
    tf_device.return %outside : tensor<i32>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> tensor<i32>
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  func.return %0 : tensor<i32>
}

// -----

func.func @returns_moved_value_twice() -> (tensor<i32>, tensor<i32>) {
  // expected-error @+1 {{result #1 of the launch is still used after its ops moved}}
  %0:2 = "tf_device.launch"() ({
    %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
    %a = "tf.OpA"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> tensor<i32>
    tf_device.return %a, %a : tensor<i32>, tensor<i32>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<i32>, tensor<i32>)
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  func.return %0#0, %0#1 : tensor<i32>, tensor<i32>
}

// -----

// TF's process crashes on these: an op with the attribute but no operand, a
// compile op without a program.

func.func @no_key_operand() {
  // expected-error @+1 {{'tf.OpA' op has no operand to hold the program key}}
  "tf.OpA"() {mini_batch_splits = ""} : () -> ()
  func.return
}

// -----

func.func @compile_without_program() {
  // expected-error @+1 {{'tf._TPUCompileMlir' op has no program result}}
  %status = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> tensor<!tf_type.string>
  %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  "tf.OpA"(%key) {mini_batch_in_csr = ""} : (tensor<1x!tf_type.string>) -> ()
  func.return
}
