// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -prepare-tpu-computation-for-tf-export

// A host module that does not parse (the verifier of _XlaHostComputeMlir
// rejects it, as TF's does, before the pass runs).
func.func @unparsable(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{attribute 'host_mlir_module' can not be deserialized. could not parse MLIR module-:1:1: error: custom op 'not_a_module' is unknown}}
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s", recv_key = "r", host_mlir_module = "not_a_module"} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

func.func @no_host_func(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{serialized module in attribute 'host_mlir_module' does not contain 'host_func' function.}}
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s", recv_key = "r", host_mlir_module = "module {\0A  func.func @elsewhere(%a: tensor<i32>) -> tensor<i32> {\0A    func.return %a : tensor<i32>\0A  }\0A}\0A"} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

func.func @operand_count(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'host_func' has 2 inputs and '_XlaHostComputeMlir' has 1 operands.  Number of operands/inputs should be the same.}}
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s", recv_key = "r", host_mlir_module = "module {\0A  func.func @host_func(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {\0A    func.return %a : tensor<i32>\0A  }\0A}\0A"} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// Checked on ops the pass leaves alone (manual_sharding) too: TF never reads them.
func.func @result_count(%x: tensor<i32>) {
  // expected-error @+1 {{'host_func' has 1 results and '_XlaHostComputeMlir' has 0 results.  Number of results should be the same.}}
  "tf._XlaHostComputeMlir"(%x) {send_key = "s", recv_key = "r", manual_sharding = true, host_mlir_module = "module {\0A  func.func @host_func(%a: tensor<i32>) -> tensor<i32> {\0A    func.return %a : tensor<i32>\0A  }\0A}\0A"} : (tensor<i32>) -> ()
  func.return
}

// -----

// Functional control flow using a function with communication ops.
func.func @functional_if(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.If' op does not support subcomputations with tf/xla communication ops}}
  %0 = "tf.If"(%p, %x) {then_branch = @sends, else_branch = @quiet, is_stateless = false} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @sends(%x: tensor<f32>) -> tensor<f32> {
  "tf.XlaSendToHost"(%x) {key = "k"} : (tensor<f32>) -> ()
  func.return %x : tensor<f32>
}
func.func private @quiet(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}

// -----

// An island holding a communication op: neither the island nor the graph
// may hold one; the graph, in the function's region, is the first met.
func.func @in_island(%x: tensor<f32>) {
  // expected-error @+1 {{'tf_executor.graph' op does not support subcomputations with tf/xla communication ops}}
  tf_executor.graph {
    %c = tf_executor.island {
      "tf.XlaSendToHost"(%x) {key = "k"} : (tensor<f32>) -> ()
      tf_executor.yield
    }
    tf_executor.fetch
  }
  func.return
}

// -----

// A device cluster calling a function with communication ops.
func.func @cluster_func_caller(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf_device.cluster_func' op does not support subcomputations with tf/xla communication ops}}
  %0 = "tf_device.cluster_func"(%x) {func = @receives} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @receives(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.XlaRecvFromHost"() {key = "k", shape = #tf_type.shape<>} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// TF's process crashes on a sharded argument of a function without a body.
// expected-error @+1 {{argument 1 of @sharded_declaration has a 'mhlo.sharding' but the function has no body}}
func.func private @sharded_declaration(tensor<f32> {mhlo.sharding = ""}, tensor<f32> {mhlo.sharding = "\08\01"})

// -----

// TF's process crashes on a host function without a body.
func.func @bodiless_host_func(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'tf._XlaHostComputeMlir' op: 'host_func' in 'host_mlir_module' has no body (TF's process crashes here)}}
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s", recv_key = "r", host_mlir_module = "module {\0A  func.func private @host_func(tensor<i32>) -> tensor<i32>\0A}\0A"} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// TF's process crashes when the symbol users of a function with communication
// ops lead outside any function (here: a function whose attribute names it).
func.func private @talks(%x: tensor<f32>) {
  "tf.XlaSendToHost"(%x) {key = "k"} : (tensor<f32>) -> ()
  func.return
}
// expected-error @+1 {{'func.func' op holds or uses tf/xla communication ops outside any function (TF's process crashes here)}}
func.func @used_by_a_function_attribute() attributes {tf.companion = @talks} {
  func.return
}

// -----

// The op TF builds without a host module has no shape_inference_graph, which
// tfmlir's tf.XlaHostCompute requires (TF's has it optional).
func.func @empty_host_module(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'tf.XlaHostCompute' op rewritten from a 'tf._XlaHostComputeMlir' without 'host_mlir_module' has no 'shape_inference_graph', which tfmlir's 'tf.XlaHostCompute' requires (TF's has it optional)}}
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s", recv_key = "r", host_mlir_module = ""} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
