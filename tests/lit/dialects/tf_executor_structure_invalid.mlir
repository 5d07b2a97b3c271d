// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics

// tf_executor rules TF 2.21 states in ODS: the type parser, the control ops
// that only live directly in a graph, the broadcast predicates of Switch,
// Enter and Exit, and the custom parsers' diagnostics (TF's wording, leading
// space included).

// expected-error@+1 {{unknown tf_executor type: ctrl}}
func.func private @bad_type(!tf_executor.ctrl)

// -----

// Every control-flow op of the executor has the graph as parent.
func.func @merge_in_island(%a: tensor<f32>) {
  tf_executor.graph {
    %out, %ctl = tf_executor.island {
      // expected-error@+1 {{'tf_executor.Merge' op expects parent op 'tf_executor.graph'}}
      %m:3 = tf_executor.Merge %a, %a : tensor<f32>
      tf_executor.yield %m#0 : tensor<f32>
    }
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_in_func(%a: tensor<f32>) {
  // expected-error@+1 {{'tf_executor.Enter' op expects parent op 'tf_executor.graph'}}
  %e:2 = tf_executor.Enter %a frame "loop" : tensor<f32>
  return
}

// -----

func.func @exit_in_func(%a: tensor<f32>) {
  // expected-error@+1 {{'tf_executor.Exit' op expects parent op 'tf_executor.graph'}}
  %e:2 = tf_executor.Exit %a : tensor<f32>
  return
}

// -----

func.func @loop_cond_in_func(%p: tensor<i1>) {
  // expected-error@+1 {{'tf_executor.LoopCond' op expects parent op 'tf_executor.graph'}}
  %l:2 = tf_executor.LoopCond %p : tensor<i1>
  return
}

// -----

func.func @switch_in_func(%a: tensor<f32>, %p: tensor<i1>) {
  // expected-error@+1 {{'tf_executor.Switch' op expects parent op 'tf_executor.graph'}}
  %s:3 = tf_executor.Switch %a, %p : tensor<f32>
  return
}

// -----

func.func @switchn_in_func(%a: tensor<f32>, %i: tensor<i32>) {
  // expected-error@+1 {{'tf_executor._SwitchN' op expects parent op 'tf_executor.graph'}}
  %s:3 = tf_executor._SwitchN %a, %i of 2 : tensor<f32>
  return
}

// -----

func.func @control_trigger_in_func() {
  // expected-error@+1 {{'tf_executor.ControlTrigger' op expects parent op 'tf_executor.graph'}}
  %c = tf_executor.ControlTrigger {}
  return
}

// -----

func.func @source_in_func() {
  // expected-error@+1 {{'tf_executor.NextIteration.Source' op expects parent op 'tf_executor.graph'}}
  %s:3 = tf_executor.NextIteration.Source : tensor<f32>
  return
}

// -----

func.func @sink_in_func(%t: !tf_executor.token, %a: tensor<f32>) {
  // expected-error@+1 {{'tf_executor.NextIteration.Sink' op expects parent op 'tf_executor.graph'}}
  tf_executor.NextIteration.Sink[%t] %a : tensor<f32>
  return
}

// -----

// The data operand of Switch broadcasts to result 0 (which TF calls the
// true result) and result 1 (the false result); Enter and Exit to result 0.
func.func @switch_result0(%a: tensor<2xf32>, %p: tensor<i1>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' op failed to verify that data operand must be broadcastable to true result}}
    %s:3 = tf_executor.Switch %a, %p : (tensor<2xf32>, tensor<i1>) -> (tensor<3xf32>, tensor<2xf32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_result1(%a: tensor<2xf32>, %p: tensor<i1>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' op failed to verify that data operand must be broadcastable to false result}}
    %s:3 = tf_executor.Switch %a, %p : (tensor<2xf32>, tensor<i1>) -> (tensor<?xf32>, tensor<2xi32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_not_a_tensor(%a: f32) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Enter' op failed to verify that data operand must be broadcastable to result}}
    %e:2 = tf_executor.Enter %a frame "loop" : (f32) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @exit_other_element(%a: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Exit' op failed to verify that data operand must be broadcastable to result}}
    %e:2 = "tf_executor.Exit"(%a) : (tensor<f32>) -> (tensor<f16>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

// An island's body takes no arguments.
func.func @island_with_argument() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.island' op expects body without any arguments}}
    %ctl = "tf_executor.island"() ({
    ^bb0(%x: tensor<f32>):
      tf_executor.yield
    }) : () -> !tf_executor.control
    tf_executor.fetch
  }
  return
}

// -----

// Custom parsers.
func.func @merge_two_types(%a: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{custom op 'tf_executor.Merge'  expects only a single data type}}
    %m:3 = tf_executor.Merge %a, %a : tensor<f32>, tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_two_types(%a: tensor<f32>, %i: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{custom op 'tf_executor._SwitchN'  expects only a single data type}}
    %s:3 = tf_executor._SwitchN %a, %i of 2 : tensor<f32>, tensor<i32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_no_outputs(%a: tensor<f32>, %i: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{custom op 'tf_executor._SwitchN'  expects a positive number of outputs}}
    %s = tf_executor._SwitchN %a, %i of 0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_fn_one_input(%a: tensor<f32>, %p: tensor<i1>) {
  tf_executor.graph {
    // expected-error@+1 {{custom op 'tf_executor.Switch'  expects a single data type and a predicate}}
    %s:3 = tf_executor.Switch %a, %p : (tensor<f32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_fn_no_input(%a: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{custom op 'tf_executor.Enter'  expects a data input}}
    %e:2 = tf_executor.Enter %a frame "loop" : () -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @loop_cond_fn_two_data(%p: tensor<i1>) {
  tf_executor.graph {
    // expected-error@+1 {{custom op 'tf_executor.LoopCond'  expects a single data type}}
    %l:2 = tf_executor.LoopCond %p, %p : (tensor<i1>, tensor<i1>) -> (tensor<i1>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}
