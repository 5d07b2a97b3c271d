// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics

// Every verifier and custom-parser error of the tf_executor dialect, one case
// per chunk. Cases that need IR the custom parsers can't produce use the
// generic form.

//===----------------------------------------------------------------------===//
// tf_executor.graph
//===----------------------------------------------------------------------===//

func.func @graph_non_executor_op(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf.Identity' op unallowed inside a tf_executor.graph region}}
    %0 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @graph_in_graph() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.graph' op unallowed directly inside another tf_executor.graph}}
    tf_executor.graph {
      tf_executor.fetch
    }
    tf_executor.fetch
  }
  return
}

// -----

func.func @graph_bad_terminator() {
  "tf_executor.graph"() ({
    // expected-error@+1 {{'tf_executor.island' op invalid tf_executor.graph terminator, fetch expected}}
    %0 = "tf_executor.island"() ({
      "tf_executor.yield"() : () -> ()
    }) : () -> !tf_executor.control
  }) : () -> ()
  return
}

// -----

func.func @graph_fetch_too_few(%arg0: tensor<f32>) {
  %0:2 = "tf_executor.graph"() ({
    // expected-error@+1 {{'tf_executor.fetch' op does not have enough operands to cover the graph returned values}}
    "tf_executor.fetch"(%arg0) : (tensor<f32>) -> ()
  }) : () -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @graph_fetch_control_bound_to_result(%arg0: tensor<f32>) {
  %0:2 = "tf_executor.graph"() ({
    %1 = "tf_executor.ControlTrigger"() : () -> !tf_executor.control
    // expected-error@+1 {{'tf_executor.fetch' op operand #0 is a control type, can't be bound to a graph result}}
    "tf_executor.fetch"(%1, %arg0) : (!tf_executor.control, tensor<f32>) -> ()
  }) : () -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @graph_fetch_extra_data(%arg0: tensor<f32>) {
  %0 = "tf_executor.graph"() ({
    // expected-error@+1 {{'tf_executor.fetch' op operand #1 does not have a graph results to bind}}
    "tf_executor.fetch"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> ()
  }) : () -> tensor<f32>
  return
}

// -----

func.func @graph_fetch_type_mismatch(%arg0: tensor<f32>) {
  %0 = "tf_executor.graph"() ({
    // expected-error@+1 {{'tf_executor.fetch' op operand #0 type mismatch graph results ('tensor<*xf32>' != 'tensor<f32>')}}
    "tf_executor.fetch"(%arg0) : (tensor<f32>) -> ()
  }) : () -> tensor<*xf32>
  return
}

// -----

func.func @fetch_control_before_data(%arg0: tensor<f32>) {
  "tf_executor.graph"() ({
    %1 = "tf_executor.ControlTrigger"() : () -> !tf_executor.control
    // expected-error@+2 {{'tf_executor.fetch' op found non-control operand #1 after control operand}}
    // expected-error@+1 {{'tf_executor.fetch' op failed to verify that all control inputs must appear after any non-control input}}
    "tf_executor.fetch"(%1, %arg0) : (!tf_executor.control, tensor<f32>) -> ()
  }) : () -> ()
  return
}

// -----

func.func @fetch_outside_graph() {
  // expected-error@+1 {{'tf_executor.fetch' op expects parent op 'tf_executor.graph'}}
  tf_executor.fetch
}

// -----

func.func @graph_two_blocks() {
  // expected-error@+1 {{expects a single block region}}
  tf_executor.graph {
    tf_executor.fetch
  ^bb1:
    tf_executor.fetch
  }
  return
}

// -----

func.func @graph_wrong_terminator() {
  // expected-error@+1 {{expects a tf_executor.fetch terminator}}
  tf_executor.graph {
    %c = tf_executor.island {
      tf_executor.yield
    }
    tf_executor.yield
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_executor.island / tf_executor.yield
//===----------------------------------------------------------------------===//

// -----

func.func @island_empty_block() {
  tf_executor.graph {
    // The SingleBlock trait rejects the empty block before the island verifier.
    // expected-error@+1 {{'tf_executor.island' op expects a non-empty block}}
    %0 = "tf_executor.island"() ({
    ^bb0:
    }) : () -> !tf_executor.control
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_bad_terminator() {
  tf_executor.graph {
    %0 = "tf_executor.island"() ({
      // expected-error@+1 {{'tf.NoOp' op invalid tf_executor.island terminator, yield expected}}
      "tf.NoOp"() : () -> ()
    }) : () -> !tf_executor.control
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_yield_count(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0:2 = "tf_executor.island"() ({
      // expected-error@+1 {{'tf_executor.yield' op has 2 operand, but island returns 1}}
      "tf_executor.yield"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> ()
    }) : () -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_yield_type(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0:2 = "tf_executor.island"() ({
      // expected-error@+1 {{'tf_executor.yield' op operand #0 type mismatch island results}}
      "tf_executor.yield"(%arg0) : (tensor<f32>) -> ()
    }) : () -> (tensor<*xf32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_yields_control() {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    %1:2 = "tf_executor.island"() ({
      // expected-error@+1 {{'tf_executor.yield' op unexpected control type for operand #0}}
      "tf_executor.yield"(%0) : (!tf_executor.control) -> ()
    }) : () -> (!tf_executor.control, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_control_input_not_control(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.island' op operand #0 must be variadic of control, but got 'tensor<f32>'}}
    %0 = "tf_executor.island"(%arg0) ({
      "tf_executor.yield"() : () -> ()
    }) : (tensor<f32>) -> !tf_executor.control
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_outside_graph() {
  // expected-error@+1 {{'tf_executor.island' op expects parent op 'tf_executor.graph'}}
  %0 = tf_executor.island {
    tf_executor.yield
  }
  return
}

// -----

func.func @yield_outside_island() {
  "tf.SomeUnknownOpWithRegion"() ({
    // expected-error@+1 {{'tf_executor.yield' op expects parent op 'tf_executor.island'}}
    tf_executor.yield
  }) : () -> ()
  return
}

// -----

func.func @island_wrong_terminator() {
  tf_executor.graph {
    // expected-error@+1 {{expects a tf_executor.yield terminator}}
    %0 = tf_executor.island {
      tf_executor.fetch
    }
    tf_executor.fetch
  }
  return
}

// -----

// expected-note@below {{prior use here}}
func.func @island_control_operand_type(%arg0: tensor<f32>) {
  tf_executor.graph {
    // Island operands are resolved as !tf_executor.control.
    // expected-error@+1 {{use of value '%arg0' expects different type than prior uses: '!tf_executor.control' vs 'tensor<f32>'}}
    %0 = tf_executor.island(%arg0) {
      tf_executor.yield
    }
    tf_executor.fetch
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_executor.Switch
//===----------------------------------------------------------------------===//

// -----

func.func @switch_one_operand(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{custom op 'tf_executor.Switch'  expects a single data type and a predicate}}
    %0:3 = tf_executor.Switch %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_functional_type_one_input(%arg0: tensor<f32>, %arg1: tensor<i1>) {
  tf_executor.graph {
    // expected-error@+1 {{expects a single data type and a predicate}}
    %0:3 = tf_executor.Switch %arg0, %arg1 : (tensor<f32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_predicate_not_bool(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' op operand #1 must be tensor of 1-bit signless integer values, but got 'tensor<i32>'}}
    %0:3 = tf_executor.Switch %arg0, %arg1 : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

// expected-note@below {{prior use here}}
func.func @switch_short_form_predicate_type(%arg0: tensor<f32>, %arg1: tensor<*xi1>) {
  tf_executor.graph {
    // The short form implies a tensor<i1> predicate.
    // expected-error@+1 {{use of value '%arg1' expects different type than prior uses: 'tensor<i1>' vs 'tensor<*xi1>'}}
    %0:3 = tf_executor.Switch %arg0, %arg1 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_control_before_data(%arg0: tensor<f32>, %arg1: tensor<i1>) {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    // The ODS operand constraint of the control inputs fires before the
    // ControlOperandsAfterAllData trait.
    // expected-error@+1 {{'tf_executor.Switch' op operand #3 must be variadic of control, but got 'tensor<f32>'}}
    %1:3 = "tf_executor.Switch"(%arg0, %arg1, %0, %arg0) : (tensor<f32>, tensor<i1>, !tf_executor.control, tensor<f32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_functional_too_few_operands(%arg0: tensor<f32>, %arg1: tensor<i1>) {
  tf_executor.graph {
    // expected-error@+1 {{expects at least 3 operand(s) for the given types, got 2}}
    %0:3 = tf_executor.Switch %arg0, %arg1 : (tensor<f32>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_executor._SwitchN
//===----------------------------------------------------------------------===//

// -----

func.func @switchn_zero_outs(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects a positive number of outputs}}
    %0:1 = tf_executor._SwitchN %arg0, %arg1 of 0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_num_outs_negative(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op expect `num_outs` (-1) results but got 0}}
    %0 = "tf_executor._SwitchN"(%arg0, %arg1) <{num_outs = -1 : i64}> : (tensor<f32>, tensor<i32>) -> !tf_executor.control
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_result_count(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op expect `num_outs` (3) results but got 2}}
    %0:3 = tf_executor._SwitchN %arg0, %arg1 of 3 : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_not_tensor(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op expects outputs to have tensor type but got 'i32'}}
    %0:3 = tf_executor._SwitchN %arg0, %arg1 of 2 : (tensor<f32>, tensor<i32>) -> (tensor<f32>, i32, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_not_broadcastable(%arg0: tensor<2xf32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op expects data operand to be broadcastable with all output types but got 'tensor<2xf32>' vs 'tensor<3xf32>'}}
    %0:3 = tf_executor._SwitchN %arg0, %arg1 of 2 : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<3xf32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_ref_from_non_ref(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op expects same operand and output element type but got 'tensor<f32>' vs 'tensor<!tf_type.f32ref>'}}
    %0:3 = tf_executor._SwitchN %arg0, %arg1 of 2 : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<!tf_type.f32ref>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_index_type(%arg0: tensor<f32>, %arg1: tensor<i64>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op operand #1 must be tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
    %0:3 = tf_executor._SwitchN %arg0, %arg1 of 2 : (tensor<f32>, tensor<i64>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_missing_num_outs(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op requires attribute 'num_outs'}}
    %0:2 = "tf_executor._SwitchN"(%arg0, %arg1) : (tensor<f32>, tensor<i32>) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_executor.Merge
//===----------------------------------------------------------------------===//

// -----

func.func @merge_no_operands() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op expects at least one operand}}
    %0:3 = "tf_executor.Merge"() : () -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_control_first(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    // expected-error@+1 {{'tf_executor.Merge' op expects a non-control input}}
    %1:3 = tf_executor.Merge %0 : (!tf_executor.control) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_not_broadcastable(%arg0: tensor<2xf32>, %arg1: tensor<4xf32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op expects all operands to be broadcastable with output type but got 'tensor<4xf32>' vs 'tensor<2xf32>'}}
    %0:3 = tf_executor.Merge %arg0, %arg1 : (tensor<2xf32>, tensor<4xf32>) -> (tensor<2xf32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_element_type(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op expects all operands to be broadcastable with output type but got 'tensor<i32>' vs 'tensor<f32>'}}
    %0:3 = tf_executor.Merge %arg0, %arg1 : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_operand_not_tensor(%arg0: tensor<f32>, %arg1: f32) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op expects data operands to have tensor type but got 'f32'}}
    %0:3 = tf_executor.Merge %arg0, %arg1 : (tensor<f32>, f32) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_ref_output_from_non_ref(%arg0: tensor<f32>, %arg1: tensor<!tf_type.f32ref>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op expects same operand and output element type but got 'tensor<f32>' vs 'tensor<!tf_type.f32ref>'}}
    %0:3 = tf_executor.Merge %arg0, %arg1 : (tensor<f32>, tensor<!tf_type.f32ref>) -> (tensor<!tf_type.f32ref>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_control_before_data(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    // expected-error@+2 {{'tf_executor.Merge' op found non-control operand #2 after control operand}}
    // expected-error@+1 {{'tf_executor.Merge' op failed to verify that all control inputs must appear after any non-control input}}
    %1:3 = tf_executor.Merge %arg0, %0, %arg0 : (tensor<f32>, !tf_executor.control, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_short_form_one_operand(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{the short form expects two data operands}}
    %0:3 = tf_executor.Merge %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_functional_too_few_operands(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects at least 2 operand(s) for the given types, got 1}}
    %0:3 = tf_executor.Merge %arg0 : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_value_index_type(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op result #1 must be tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
    %0:3 = tf_executor.Merge %arg0, %arg0 : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<i64>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_executor.Enter / Exit / LoopCond
//===----------------------------------------------------------------------===//

// -----

func.func @enter_no_operand() {
  tf_executor.graph {
    // expected-error@+1 {{expects at least one data operand}}
    %0:2 = tf_executor.Enter frame "f" : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_functional_no_input(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects a data input}}
    %0:2 = tf_executor.Enter %arg0 frame "f" : () -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_missing_frame(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{expected 'frame'}}
    %0:2 = tf_executor.Enter %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_control_before_data(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    // The ODS operand constraint of the control inputs fires before the
    // ControlOperandsAfterAllData trait.
    // expected-error@+1 {{'tf_executor.Enter' op operand #2 must be variadic of control, but got 'tensor<f32>'}}
    %1:2 = "tf_executor.Enter"(%arg0, %0, %arg0) <{frame_name = "f"}> : (tensor<f32>, !tf_executor.control, tensor<f32>) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_missing_frame_name(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Enter' op requires attribute 'frame_name'}}
    %0:2 = "tf_executor.Enter"(%arg0) : (tensor<f32>) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @exit_no_operand() {
  tf_executor.graph {
    // expected-error@+1 {{expects at least one operand}}
    %0:2 = tf_executor.Exit : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @exit_two_data_types(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects a single data type}}
    %0:2 = tf_executor.Exit %arg0, %arg0 : (tensor<f32>, tensor<f32>) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @exit_control_before_data(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    // The ODS operand constraint of the control inputs fires before the
    // ControlOperandsAfterAllData trait.
    // expected-error@+1 {{'tf_executor.Exit' op operand #2 must be variadic of control, but got 'tensor<f32>'}}
    %1:2 = "tf_executor.Exit"(%arg0, %0, %arg0) : (tensor<f32>, !tf_executor.control, tensor<f32>) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @loopcond_no_data_type() {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    // expected-error@+1 {{expects a single data type}}
    %1:2 = tf_executor.LoopCond %0 : (!tf_executor.control) -> (tensor<i1>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @loopcond_not_bool(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.LoopCond' op operand #0 must be tensor of 1-bit signless integer values, but got 'tensor<f32>'}}
    %0:2 = tf_executor.LoopCond %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @loopcond_control_before_data(%arg0: tensor<i1>) {
  tf_executor.graph {
    %0 = tf_executor.ControlTrigger {}
    // The ODS operand constraint of the control inputs fires before the
    // ControlOperandsAfterAllData trait.
    // expected-error@+1 {{'tf_executor.LoopCond' op operand #2 must be variadic of control, but got 'tensor<i1>'}}
    %1:2 = "tf_executor.LoopCond"(%arg0, %0, %arg0) : (tensor<i1>, !tf_executor.control, tensor<i1>) -> (tensor<i1>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_executor.NextIteration.Source / Sink
//===----------------------------------------------------------------------===//

// -----

func.func @source_token_unused() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.NextIteration.Source' op expects a single user for produced token}}
    %output, %token, %control = tf_executor.NextIteration.Source : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @source_token_two_sinks(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.NextIteration.Source' op expects a single user for produced token}}
    %output, %token, %control = tf_executor.NextIteration.Source : tensor<f32>
    tf_executor.NextIteration.Sink[%token] %arg0 : tensor<f32>
    tf_executor.NextIteration.Sink[%token] %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @source_token_not_to_sink() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.NextIteration.Source' op token should be consumed by a sink op}}
    %output, %token, %control = tf_executor.NextIteration.Source : tensor<f32>
    %output_0, %control_1 = tf_executor.Exit %token : (!tf_executor.token) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_token_block_argument(%arg0: !tf_executor.token, %arg1: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.NextIteration.Sink' op expects a token directly produced by a tf_executor.NextIteration.Source op}}
    tf_executor.NextIteration.Sink[%arg0] %arg1 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_token_from_other_op(%arg0: !tf_executor.token, %arg1: tensor<f32>) {
  tf_executor.graph {
    %output, %control = tf_executor.island {
      tf_executor.yield %arg0 : !tf_executor.token
    }
    // expected-error@+1 {{'tf_executor.NextIteration.Sink' op expects a token produced by a tf_executor.NextIteration.Source op}}
    tf_executor.NextIteration.Sink[%output] %arg1 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_type_mismatch(%arg0: tensor<*xf32>) {
  tf_executor.graph {
    %output, %token, %control = tf_executor.NextIteration.Source : tensor<f32>
    // expected-error@+1 {{'tf_executor.NextIteration.Sink' op input type 'tensor<*xf32>' mismatch the tf_executor.NextIteration.Source output type: 'tensor<f32>'}}
    tf_executor.NextIteration.Sink[%token] %arg0 : tensor<*xf32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_no_data_operand() {
  tf_executor.graph {
    %output, %token, %control = tf_executor.NextIteration.Source : tensor<f32>
    // expected-error@+1 {{expects a token and a data operand}}
    tf_executor.NextIteration.Sink[%token] : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_control_before_data(%arg0: tensor<f32>) {
  tf_executor.graph {
    %output, %token, %control = tf_executor.NextIteration.Source : tensor<f32>
    // The ODS operand constraint of the control inputs fires before the
    // ControlOperandsAfterAllData trait.
    // expected-error@+1 {{'tf_executor.NextIteration.Sink' op operand #3 must be variadic of control, but got 'tensor<f32>'}}
    "tf_executor.NextIteration.Sink"(%token, %arg0, %control, %arg0) : (!tf_executor.token, tensor<f32>, !tf_executor.control, tensor<f32>) -> ()
    tf_executor.fetch
  }
  return
}

//===----------------------------------------------------------------------===//
// tf_executor.ControlTrigger
//===----------------------------------------------------------------------===//

// -----

func.func @control_trigger_data_operand(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.ControlTrigger' op operand #0 must be variadic of control, but got 'tensor<f32>'}}
    %0 = "tf_executor.ControlTrigger"(%arg0) : (tensor<f32>) -> !tf_executor.control
    tf_executor.fetch
  }
  return
}

// -----

func.func @control_trigger_result_type() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.ControlTrigger' op result #0 must be control, but got 'tensor<f32>'}}
    %0 = "tf_executor.ControlTrigger"() : () -> tensor<f32>
    tf_executor.fetch
  }
  return
}
