// RUN: tfmlir-opt %s -canonicalize | FileCheck %s

// The tf_executor canonicalization patterns.

// A graph that holds only its fetch forwards the fetched values.
// CHECK-LABEL: func.func @graph_only_fetch(
// CHECK-NEXT:    return %arg0, %arg1 : tensor<f32>, tensor<i32>
func.func @graph_only_fetch(%arg0: tensor<f32>, %arg1: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %0:2 = tf_executor.graph {
    tf_executor.fetch %arg0, %arg1 : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<i32>
}

// CHECK-LABEL: func.func @empty_graph(
// CHECK-NEXT:    return
func.func @empty_graph() {
  tf_executor.graph {
    tf_executor.fetch
  }
  return
}

// A graph with a single island is replaced by the island's ops; the island's
// control token (fetched after the data) goes away with the graph.
// CHECK-LABEL: func.func @graph_single_island(
// CHECK-NEXT:    %[[A:.*]] = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = "tf.Abs"(%[[A]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    return %[[B]] : tensor<f32>
func.func @graph_single_island(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island {
      %a = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
      %b = "tf.Abs"(%a) : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %b : tensor<f32>
    }
    tf_executor.fetch %outputs, %control : tensor<f32>, !tf_executor.control
  }
  return %0 : tensor<f32>
}

// The short form too; fetched values from outside the island are forwarded.
// CHECK-LABEL: func.func @graph_single_wrapped_op(
// CHECK-NEXT:    %[[A:.*]] = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    return %[[A]], %arg0 : tensor<f32>, tensor<f32>
func.func @graph_single_wrapped_op(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %outputs, %arg0 : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// Two islands: the graph stays.
// CHECK-LABEL: func.func @graph_two_islands(
// CHECK-NEXT:    %0 = tf_executor.graph {
// CHECK-NEXT:      %outputs, %control = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %outputs_0, %control_1 = tf_executor.island wraps "tf.Neg"(%outputs) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      tf_executor.fetch %outputs_0 : tensor<f32>
// CHECK-NEXT:    }
func.func @graph_two_islands(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Neg"(%outputs) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %outputs_0 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// A ControlTrigger without control inputs is dropped together with its uses;
// one with inputs stays.
// CHECK-LABEL: func.func @control_trigger(
// CHECK-NEXT:    %0 = tf_executor.graph {
// CHECK-NEXT:      %outputs, %control = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %outputs_0, %control_1 = tf_executor.island(%control) wraps "tf.Neg"(%outputs) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %[[T:.*]] = tf_executor.ControlTrigger %control
// CHECK-NEXT:      tf_executor.fetch %outputs_0, %[[T]] : tensor<f32>, !tf_executor.control
// CHECK-NEXT:    }
func.func @control_trigger(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %t = tf_executor.ControlTrigger {}
    %outputs, %control = tf_executor.island(%t) wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %outputs_0, %control_1 = tf_executor.island(%control, %t) wraps "tf.Neg"(%outputs) : (tensor<f32>) -> tensor<f32>
    %t2 = tf_executor.ControlTrigger %control
    tf_executor.fetch %outputs_0, %t, %t2 : tensor<f32>, !tf_executor.control, !tf_executor.control
  }
  return %0 : tensor<f32>
}

// Empty islands: without operands and data the island is dropped with its
// uses; with one control operand it folds to that operand; one forwarding a
// captured value with an unused control is replaced by the value.
// CHECK-LABEL: func.func @empty_islands(
// CHECK-NEXT:    %0 = tf_executor.graph {
// CHECK-NEXT:      %outputs, %control = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %outputs_0, %control_1 = tf_executor.island(%control) wraps "tf.Neg"(%outputs) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      tf_executor.fetch %outputs_0, %control_1 : tensor<f32>, !tf_executor.control
// CHECK-NEXT:    }
func.func @empty_islands(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %c0 = tf_executor.island {
      tf_executor.yield
    }
    %outputs, %control = tf_executor.island(%c0) wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %c1 = tf_executor.island(%control) {
      tf_executor.yield
    }
    %fwd, %c2 = tf_executor.island {
      tf_executor.yield %outputs : tensor<f32>
    }
    %outputs_0, %control_1 = tf_executor.island(%c1) wraps "tf.Neg"(%fwd) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %outputs_0, %control_1 : tensor<f32>, !tf_executor.control
  }
  return %0 : tensor<f32>
}

// An empty island whose control token is used is kept when it forwards data.
// CHECK-LABEL: func.func @empty_island_used_control(
// CHECK-NEXT:    %0 = tf_executor.graph {
// CHECK-NEXT:      %outputs, %control = tf_executor.island {
// CHECK-NEXT:        tf_executor.yield %arg0 : tensor<f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %outputs_0, %control_1 = tf_executor.island(%control) wraps "tf.Neg"(%outputs) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      tf_executor.fetch %outputs_0 : tensor<f32>
// CHECK-NEXT:    }
func.func @empty_island_used_control(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island {
      tf_executor.yield %arg0 : tensor<f32>
    }
    %outputs_0, %control_1 = tf_executor.island(%control) wraps "tf.Neg"(%outputs) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %outputs_0 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// Folded constants stay inside their island (the graph body accepts only
// tf_executor ops).
// CHECK-LABEL: func.func @fold_in_island(
// CHECK-NEXT:    %0:2 = tf_executor.graph {
// CHECK-NEXT:      %outputs:2, %control = tf_executor.island {
// CHECK-NEXT:        %cst = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
// CHECK-NEXT:        tf_executor.yield %cst, %cst : tensor<i32>, tensor<i32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %outputs_0, %control_1 = tf_executor.island wraps "tf.Neg"(%outputs#0) : (tensor<i32>) -> tensor<i32>
// CHECK-NEXT:      tf_executor.fetch %outputs#1, %outputs_0 : tensor<i32>, tensor<i32>
// CHECK-NEXT:    }
func.func @fold_in_island() -> (tensor<i32>, tensor<i32>) {
  %0:2 = tf_executor.graph {
    %outputs:2, %control = tf_executor.island {
      %a = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %b = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      tf_executor.yield %a, %b : tensor<i32>, tensor<i32>
    }
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Neg"(%outputs#0) : (tensor<i32>) -> tensor<i32>
    tf_executor.fetch %outputs#1, %outputs_0 : tensor<i32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<i32>, tensor<i32>
}
