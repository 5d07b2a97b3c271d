// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics

// Every verifier, symbol-use and custom-parser error of the tf_device
// dialect, one case per chunk.

//===----------------------------------------------------------------------===//
// tf_device.launch / tf_device.cluster
//===----------------------------------------------------------------------===//

func.func @launch_no_return() {
  // expected-error@+2 {{block with no terminator}}
  "tf_device.launch"() <{device = ""}> ({
    "tf.NoOp"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @launch_missing_device(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.launch' op requires attribute 'device'}}
  %0 = "tf_device.launch"() ({
    tf_device.return %arg0 : tensor<f32>
  }) : () -> tensor<f32>
  return
}

// -----

func.func @cluster_no_return() {
  // expected-error@+2 {{block with no terminator}}
  "tf_device.cluster"() ({
    "tf.NoOp"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @cluster_empty_region() {
  // expected-error@+1 {{'tf_device.cluster' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "tf_device.cluster"() ({
  }) : () -> ()
  return
}

// -----

func.func @cluster_func_undefined(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'func' attribute refers to an undefined function: missing}}
  %0 = "tf_device.cluster_func"(%arg0) <{func = @missing}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

"tf_saved_model.global_tensor"() <{sym_name = "not_a_function", type = tensor<f32>, value = dense<1.0> : tensor<f32>}> : () -> ()

func.func @cluster_func_not_a_function(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'func' attribute refers to an undefined function: not_a_function}}
  %0 = "tf_device.cluster_func"(%arg0) <{func = @not_a_function}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @cluster_func_missing_func(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf_device.cluster_func' op requires attribute 'func'}}
  %0 = "tf_device.cluster_func"(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>

func.func @cluster_func_nested_symbol(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{invalid properties {func = @callee::@inner} for op tf_device.cluster_func: Invalid attribute `func` in property conversion: @callee::@inner}}
  %0 = "tf_device.cluster_func"(%arg0) <{func = @callee::@inner}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// tf_device.parallel_execute
//===----------------------------------------------------------------------===//

// -----

func.func @parallel_execute_region_without_return() {
  "tf_device.parallel_execute"() ({
    tf_device.return
  }, {
    // expected-error@+1 {{block with no terminator}}
    "tf.NoOp"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @parallel_execute_output_type(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  // expected-error@+1 {{'tf_device.parallel_execute' op output types must be a concatenated list of output types for each regions.}}
  %0:2 = "tf_device.parallel_execute"() ({
    tf_device.return %arg0 : tensor<f32>
  }, {
    tf_device.return %arg1 : tensor<i32>
  }) : () -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @parallel_execute_output_count(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.parallel_execute' op number of output types (3) must match the total number of outputs from all regions (2).}}
  %0:3 = "tf_device.parallel_execute"() ({
    tf_device.return %arg0 : tensor<f32>
  }, {
    tf_device.return %arg0 : tensor<f32>
  }) : () -> (tensor<f32>, tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @parallel_execute_too_few_outputs(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.parallel_execute' op output types must be a concatenated list of output types for each regions.}}
  %0 = "tf_device.parallel_execute"() ({
    tf_device.return %arg0 : tensor<f32>
  }, {
    tf_device.return %arg0 : tensor<f32>
  }) : () -> tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// tf_device.replicate: custom parser
//===----------------------------------------------------------------------===//

// -----

func.func @replicate_empty_group(%arg0: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_device.replicate' expects number of operands for replicated input 0 to be 'n' (2), got 0}}
  tf_device.replicate([] as %x: tensor<f32>) {n = 2 : i32} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_missing_n(%arg0: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_device.replicate' expects 'n' to be at least 2, got 0}}
  tf_device.replicate([%arg0, %arg0] as %x: tensor<f32>) {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_n_not_integer(%arg0: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_device.replicate' expects 'n' to be at least 2, got 0}}
  tf_device.replicate([%arg0, %arg0] as %x: tensor<f32>) {n = "2"} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_group_size(%arg0: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_device.replicate' expects number of operands for replicated input 0 to be 'n' (2), got 3}}
  tf_device.replicate([%arg0, %arg0, %arg0] as %x: tensor<f32>) {n = 2 : i32} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_second_group_size(%arg0: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_device.replicate' expects number of operands for replicated input 1 to be 'n' (3), got 2}}
  tf_device.replicate([%arg0, %arg0, %arg0] as %x: tensor<f32>, [%arg0, %arg0] as %y: tensor<f32>) {n = 3 : i32} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_wrong_terminator(%arg0: tensor<f32>) {
  // expected-error@+1 {{expects a tf_device.return terminator}}
  tf_device.replicate {n = 2 : i32} {
    "tf.Yield"() : () -> ()
  }
  return
}

// -----

func.func @replicate_missing_as(%arg0: tensor<f32>) {
  // expected-error@+1 {{expected 'as'}}
  tf_device.replicate([%arg0, %arg0] %x: tensor<f32>) {n = 2 : i32} {
    tf_device.return
  }
  return
}

// -----

// expected-note@below {{prior use here}}
func.func @replicate_operand_type(%arg0: tensor<f32>) {
  // Replicated values are resolved with the block argument's type.
  // expected-error@+1 {{use of value '%arg0' expects different type than prior uses: 'tensor<i32>' vs 'tensor<f32>'}}
  tf_device.replicate([%arg0, %arg0] as %x: tensor<i32>) {n = 2 : i32} {
    tf_device.return
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_device.replicate: verifier
//===----------------------------------------------------------------------===//

// -----

func.func @replicate_n_too_small(%arg0: tensor<f32>) {
  // expected-error@+1 {{expects 'n' to be at least 2, got 1}}
  tf_device.replicate([%arg0] as %x: tensor<f32>) {n = 1 : i32} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_n_wrong_width(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op attribute 'n' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 2}}
  tf_device.replicate([%arg0, %arg0] as %x: tensor<f32>) {n = 2 : i64} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_inputs_not_multiple_of_n(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of replicated inputs (3) to be evenly divisible by 'n' (2)}}
  "tf_device.replicate"(%arg0, %arg0, %arg0) <{n = 2 : i32, operandSegmentSizes = array<i32: 3, 0>}> ({
  ^bb0(%x: tensor<f32>):
    tf_device.return
  }) : (tensor<f32>, tensor<f32>, tensor<f32>) -> ()
  return
}

// -----

func.func @replicate_block_argument_count(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of block arguments (1) to be equal to number of replicated inputs (2) / 'n' (2) + number of packed inputs (1)}}
  "tf_device.replicate"(%arg0, %arg0, %arg0) <{n = 2 : i32, operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: tensor<f32>):
    tf_device.return
  }) : (tensor<f32>, tensor<f32>, tensor<f32>) -> ()
  return
}

// -----

// (A compatible shape, e.g. tensor<*xf32> for tensor<f32>, is fine, as in TF.)
func.func @replicate_replicated_input_type(%arg0: tensor<f32>, %arg1: tensor<*xi32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects operand 1 ('tensor<*xi32>') and block argument 0 ('tensor<f32>') to have compatible types}}
  "tf_device.replicate"(%arg0, %arg1) <{n = 2 : i32, operandSegmentSizes = array<i32: 2, 0>}> ({
  ^bb0(%x: tensor<f32>):
    tf_device.return
  }) : (tensor<f32>, tensor<*xi32>) -> ()
  return
}

// -----

func.func @replicate_packed_input_type(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects operand 2 ('tensor<i32>') and block argument 1 ('tensor<f32>') to have compatible types}}
  "tf_device.replicate"(%arg0, %arg0, %arg1) <{n = 2 : i32, operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: tensor<f32>, %p: tensor<f32>):
    tf_device.return
  }) : (tensor<f32>, tensor<f32>, tensor<i32>) -> ()
  return
}

// -----

func.func @replicate_devices_wrong_count(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of devices (1) to be equal to 'n' (2)}}
  tf_device.replicate([%arg0, %arg0] as %x: tensor<f32>) {devices = {TPU_REPLICATED_CORE_0 = ["/device:TPU:0"]}, n = 2 : i32} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_devices_not_strings(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects 'devices' to be a consists of string list as values.}}
  tf_device.replicate([%arg0, %arg0] as %x: tensor<f32>) {devices = {CORE = [0, 1]}, n = 2 : i32} {
    tf_device.return
  }
  return
}

// -----

func.func @replicate_devices_not_list(%arg0: tensor<f32>) {
  // expected-error@+1 {{expects 'devices' to be a map alias and device name list.}}
  tf_device.replicate([%arg0, %arg0] as %x: tensor<f32>) {devices = {CORE = "/device:TPU:0"}, n = 2 : i32} {
    tf_device.return
  }
  return
}

// -----

// The terminator is checked after the region's ops (TF's order): a misplaced
// terminator reports its own error first.
func.func @replicate_no_return(%arg0: tensor<f32>) {
  "tf_device.replicate"() <{n = 2 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
    // expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
    func.return
  }) : () -> ()
  return
}

// -----

func.func @replicate_result_count(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' op expects number of results (1) to be equal to 'n' * number of terminator operands (2 * 1)}}
  %0 = "tf_device.replicate"() <{n = 2 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
    tf_device.return %arg0 : tensor<f32>
  }) : () -> tensor<f32>
  return
}

// -----

func.func @replicate_result_type(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  // expected-error@+1 {{'tf_device.replicate' op incompatible types for result 2 and terminator operand 1}}
  %0:4 = "tf_device.replicate"() <{n = 2 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
    tf_device.return %arg0, %arg1 : tensor<f32>, tensor<i32>
  }) : () -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>)
  return
}

//===----------------------------------------------------------------------===//
// tf_device.send / receive / remote_run / launch_func (ODS only)
//===----------------------------------------------------------------------===//

// -----

func.func @send_missing_host(%arg0: tensor<f32>) {
  // expected-error@+1 {{expected attribute value}}
  tf_device.send %arg0 "key" : tensor<f32>
  return
}

// -----

func.func @receive_key_not_string() {
  // expected-error@+1 {{Invalid attribute `key` in property conversion: 1 : i64}}
  %0 = "tf_device.receive"() <{key = 1 : i64, src_host = "/job:worker"}> : () -> tensor<f32>
  return
}

// -----

func.func @remote_run_callee_not_symbol(%arg0: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_device.remote_run' invalid kind of attribute specified}}
  %0 = tf_device.remote_run "/job:worker/replica:0/task:1" "callee"(%arg0) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @launch_func_missing_device(%arg0: tensor<f32>) {
  // expected-error@+1 {{'tf_device.launch_func' op requires attribute 'device'}}
  %0 = "tf_device.launch_func"(%arg0) <{func = @f}> : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @replicate_two_blocks() {
  // expected-error@+1 {{custom op 'tf_device.replicate' expects a single block region}}
  tf_device.replicate {n = 2 : i32} {
    "tf.NoOp"() : () -> ()
    cf.br ^next
  ^next:
    tf_device.return
  }
  return
}

// -----

// More returned values than results.
func.func @parallel_execute_more_returned(%a: tensor<f32>) {
  // expected-error@+1 {{'tf_device.parallel_execute' op output types must be a concatenated list of output types for each regions.}}
  %r = "tf_device.parallel_execute"() ({
    tf_device.return %a, %a : tensor<f32>, tensor<f32>
  }, {
    tf_device.return %a : tensor<f32>
  }) : () -> tensor<f32>
  return
}

// -----

// `n` of an unsigned type: refused by the parser before any check reads it
// (reading it as a signless integer aborted the process).
func.func @replicate_unsigned_n(%arg0: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_device.replicate' expects 'n' to be a signless integer, got 4294967295 : ui32}}
  tf_device.replicate {n = 4294967295 : ui32} {
    tf_device.return
  }
  func.return
}
