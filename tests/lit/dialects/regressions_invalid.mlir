// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics
// Bad input that once aborted the process or was silently accepted.

func.func @wraps_without_generic_op() {
  tf_executor.graph {
    // expected-error@+1 {{expected a generic operation (quoted name) after 'wraps'}}
    %o, %c = tf_executor.island wraps func.return
    tf_executor.fetch
  }
  return
}

// -----

func.func @replicate_without_return() {
  "tf_device.replicate"() <{n = 2 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
    // expected-error@+1 {{block with no terminator}}
    "tf.NoOp"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @replicate_negative_n(%arg0: tensor<f32>) {
  // expected-error@+1 {{expects 'n' to be at least 2, got -1}}
  tf_device.replicate {n = -1 : i32} {
    tf_device.return %arg0 : tensor<f32>
  }
  return
}

// -----

func.func @replicate_devices_not_a_dictionary() {
  // expected-error@+1 {{expects 'devices' to be a dictionary}}
  tf_device.replicate {n = 2 : i32, devices = ["a", "b"]} {
    tf_device.return
  }
  return
}

// -----

func.func @enter_frame_in_attr_dict(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'frame_name' is given by the Enter syntax, not the attribute dictionary}}
    %o, %c = tf_executor.Enter %arg0 frame "x" : tensor<f32> {frame_name = "y"}
    tf_executor.fetch
  }
  return
}
