// RUN: tfmlir-opt %s -split-input-file -tf-executor-functionalize-control-flow | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-executor-functionalize-control-flow -tf-executor-to-functional-conversion -verify-each

// A loop: i = 0; while i < n: i += 1 (n loop-invariant), with parallel_iterations 32.
func.func @simple_while(%n: tensor<i32>) -> tensor<*xi32> {
  %r = tf_executor.graph {
    %src:3 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32}
    %zero:2 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32> loc("zero")
    %ei:2 = tf_executor.Enter %zero#0 frame "loop" parallel_iterations 32 : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32} loc("loop/Enter")
    %en:2 = tf_executor.Enter %n frame "loop" parallel_iterations 32 constant : tensor<i32> {T = i32} loc("loop/Enter_1")
    %m:3 = tf_executor.Merge %ei#0, %src#0 : tensor<*xi32> {N = 2 : i64, T = i32} loc("loop/Merge")
    %less:2 = tf_executor.island wraps "tf.Less"(%m#0, %en#0) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1> loc("loop/Less")
    %lc:2 = tf_executor.LoopCond %less#0 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {_tpu_replicate = "cluster", _xla_compile_device_type = "TPU", _other = "dropped"} loc("loop/LoopCond")
    %sw:3 = tf_executor.Switch %m#0, %lc#0 : tensor<*xi32> {T = i32} loc("loop/Switch")
    %exit:2 = tf_executor.Exit %sw#0 : tensor<*xi32> {T = i32} loc("loop/Exit")
    %id:2 = tf_executor.island wraps "tf.Identity"(%sw#1) : (tensor<*xi32>) -> tensor<*xi32> loc("loop/Identity")
    %one:2 = tf_executor.island(%id#1) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32> loc("loop/one")
    %add:2 = tf_executor.island wraps "tf.AddV2"(%id#0, %one#0) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32> loc("loop/add")
    tf_executor.NextIteration.Sink [%src#1] %add#0 : tensor<*xi32> {T = i32}
    tf_executor.fetch %exit#0 : tensor<*xi32>
  }
  func.return %r : tensor<*xi32>
}

// The loop becomes a While named after the LoopCond: Enter inputs in, Exit values out,
// parallel_iterations from the Enters, TF's propagated attributes from the LoopCond; the
// invariant n passes through the body; no effects: stateless.
// CHECK-LABEL: func.func @simple_while
// CHECK-SAME: (%[[N:.*]]: tensor<i32>)
// CHECK: %[[ZERO:.*]], %{{.*}} = tf_executor.island wraps "tf.Const"
// CHECK: %[[W:.*]]:2, %{{.*}} = tf_executor.island wraps "tf.While"(%[[ZERO]], %[[N]]) <{body = @_functionalize_body_0, cond = @_functionalize_cond_0, is_stateless = true, parallel_iterations = 32 : i64}> {_tpu_replicate = "cluster", _xla_compile_device_type = "TPU", device = ""} : (tensor<i32>, tensor<i32>) -> (tensor<*xi32>, tensor<i32>)
// CHECK: tf_executor.fetch %[[W]]#0
// CHECK: func.func private @_functionalize_cond_0(%[[I:.*]]: tensor<*xi32>, %[[M:.*]]: tensor<i32>) -> tensor<*xi1>
// CHECK: %[[LESS:.*]], %{{.*}} = tf_executor.island wraps "tf.Less"(%[[I]], %[[M]])
// CHECK: tf_executor.fetch %[[LESS]]
// CHECK: func.func private @_functionalize_body_0(%[[BI:.*]]: tensor<*xi32>, %[[BM:.*]]: tensor<i32>) -> (tensor<*xi32>, tensor<i32>)
// CHECK: %[[ID:.*]], %[[IDC:.*]] = tf_executor.island wraps "tf.Identity"(%[[BI]])
// CHECK: %[[ONE:.*]], %{{.*}} = tf_executor.island(%[[IDC]]) wraps "tf.Const"
// CHECK: %[[ADD:.*]], %{{.*}} = tf_executor.island wraps "tf.AddV2"(%[[ID]], %[[ONE]])
// CHECK: tf_executor.fetch %[[ADD]], %[[BM]]
// CHECK-NOT: tf_executor.Enter

// -----

// tf.cond: pivots, a predicate read through an Identity, a control input from outside, two
// Merges (one If; TF's order: by node name), the Merge names kept on Identities.
func.func @cond(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %r:2 = tf_executor.graph {
    %ctl = tf_executor.island wraps "tf.NoOp"() : () -> () loc("init")
    %pred:2 = tf_executor.island wraps "tf.Identity"(%p) : (tensor<i1>) -> tensor<i1> loc("cond/pred_id")
    %ps:3 = tf_executor.Switch %p, %p : tensor<i1> {T = i1} loc("cond/Switch")
    %pt:2 = tf_executor.island wraps "tf.Identity"(%ps#1) : (tensor<i1>) -> tensor<i1> loc("cond/switch_t")
    %pf:2 = tf_executor.island wraps "tf.Identity"(%ps#0) : (tensor<i1>) -> tensor<i1> loc("cond/switch_f")
    %xs:3 = tf_executor.Switch %x, %pred#0 : tensor<f32> {T = f32} loc("cond/Switch_2")
    %ys:3 = tf_executor.Switch %y, %pred#0 : tensor<f32> {T = f32} loc("cond/Switch_1")
    %two:2 = tf_executor.island(%pt#1, %ctl) wraps "tf.Const"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32> loc("cond/two")
    %mul:2 = tf_executor.island wraps "tf.Mul"(%xs#1, %two#0) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("cond/mul")
    %neg:2 = tf_executor.island wraps "tf.Neg"(%ys#0) : (tensor<f32>) -> tensor<f32> loc("cond/neg")
    %m1:3 = tf_executor.Merge %neg#0, %mul#0 : (tensor<f32>, tensor<f32>) -> (tensor<*xf32>, tensor<i32>, !tf_executor.control) {N = 2 : i64, T = f32} loc("cond/Merge_1")
    %m0:3 = tf_executor.Merge %ys#0, %xs#1 : (tensor<f32>, tensor<f32>) -> (tensor<*xf32>, tensor<i32>, !tf_executor.control) {N = 2 : i64, T = f32} loc("cond/Merge")
    %after = tf_executor.island(%m1#2) wraps "tf.NoOp"() : () -> () loc("after")
    tf_executor.fetch %m0#0, %m1#0, %after : tensor<*xf32>, tensor<*xf32>, !tf_executor.control
  }
  func.return %r#0, %r#1 : tensor<*xf32>, tensor<*xf32>
}

// A cond: one If for the Merges on one predicate (read through Identity islands), its inputs
// the predicate and the Switch inputs in TF's order (by Switch name), external control inputs
// on the If island, control uses of a Merge moved to it; each Merge's name stays on an Identity.
// CHECK-LABEL: func.func @cond
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>)
// CHECK: %[[INIT:.*]] = tf_executor.island wraps "tf.NoOp"
// CHECK: %[[IF:.*]]:2, %[[IFC:.*]] = tf_executor.island(%[[INIT]]) wraps "tf.If"(%[[P]], %[[P]], %[[Y]], %[[X]]) <{else_branch = @_functionalize_if_else_branch_0, is_stateless = true, then_branch = @_functionalize_if_then_branch_0}> {device = ""} : (tensor<i1>, tensor<i1>, tensor<f32>, tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>)
// CHECK: tf_executor.island wraps "tf.Identity"(%[[IF]]#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
// CHECK: tf_executor.island wraps "tf.Identity"(%[[IF]]#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
// CHECK: %[[AFTER:.*]] = tf_executor.island(%[[IFC]]) wraps "tf.NoOp"
// CHECK: tf_executor.fetch %[[IF]]#0, %[[IF]]#1, %[[AFTER]]
// CHECK: func.func private @_functionalize_if_then_branch_0(%{{.*}}: tensor<i1>, %[[TY:.*]]: tensor<f32>, %[[TX:.*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK: "tf.Mul"(%[[TX]],
// CHECK: tf_executor.fetch %[[TX]], %{{.*}} : tensor<f32>, tensor<f32>
// CHECK: func.func private @_functionalize_if_else_branch_0(%{{.*}}: tensor<i1>, %[[EY:.*]]: tensor<f32>, %{{.*}}: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK: %[[NEG:.*]], %{{.*}} = tf_executor.island wraps "tf.Neg"(%[[EY]])
// CHECK: tf_executor.fetch %[[EY]], %[[NEG]]

// -----

module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @nested_while() {
    tf_executor.graph {
      %output, %token, %control = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32, device = ""}
      %output_0, %token_1, %control_2 = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32, device = ""}
      %output_3, %token_4, %control_5 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""}
      %output_6, %token_7, %control_8 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""}
      %outputs, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %output_10, %control_11 = tf_executor.Enter %outputs frame "while/while_context" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_12, %value_index, %control_13 = tf_executor.Merge %output_10, %output_6 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""}
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<2.500000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<>} : () -> tensor<i32>
      %output_18, %control_19 = tf_executor.Enter %outputs_16 frame "while/while_context" constant  : tensor<i32> {T = i32, device = ""}
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Less"(%output_12, %output_18) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
      %output_22, %control_23 = tf_executor.LoopCond %outputs_20 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""}
      %falseOutput, %trueOutput, %control_24 = tf_executor.Switch %output_12, %output_22 : tensor<*xi32> {T = i32, _class = ["loc:@while/Merge"], device = ""}
      %output_25, %control_26 = tf_executor.Exit %falseOutput : tensor<*xi32> {T = i32, device = ""}
      %outputs_27, %control_28 = tf_executor.island wraps "tf.Identity"(%output_25) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_29, %control_30 = tf_executor.island wraps "tf.Identity"(%trueOutput) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_31, %control_32 = tf_executor.island(%control_30) wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %output_33, %control_34 = tf_executor.Enter %outputs_31 frame "while/while/while_context" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_35, %value_index_36, %control_37 = tf_executor.Merge %output_33, %output_3 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""}
      %outputs_38, %control_39 = tf_executor.island(%control_30) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.AddV2"(%outputs_29, %outputs_38) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      tf_executor.NextIteration.Sink[%token_7] %outputs_40 : tensor<*xi32> {T = i32, device = ""}
      %output_42, %control_43 = tf_executor.Enter %outputs_29 frame "while/while/while_context" constant  : tensor<*xi32> {T = i32, device = ""}
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Less"(%output_35, %output_42) {device = ""} : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi1>
      %output_46, %control_47 = tf_executor.LoopCond %outputs_44 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""}
      %falseOutput_48, %trueOutput_49, %control_50 = tf_executor.Switch %output_35, %output_46 : tensor<*xi32> {T = i32, _class = ["loc:@while/while/Merge"], device = ""}
      %output_51, %control_52 = tf_executor.Exit %falseOutput_48 : tensor<*xi32> {T = i32, device = ""}
      %outputs_53, %control_54 = tf_executor.island wraps "tf.Identity"(%trueOutput_49) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_55, %control_56 = tf_executor.island(%control_54) wraps "tf.Cast"(%output_42) <{Truncate = false}> {device = ""} : (tensor<*xi32>) -> tensor<*xf32>
      %outputs_57, %control_58 = tf_executor.island(%control_54) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_59, %control_60 = tf_executor.island wraps "tf.AddV2"(%outputs_53, %outputs_57) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      tf_executor.NextIteration.Sink[%token_4] %outputs_59 : tensor<*xi32> {T = i32, device = ""}
      %outputs_61, %control_62 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<2>} : () -> tensor<2xf32>
      %outputs_63, %control_64 = tf_executor.island wraps "tf.Exp"(%outputs_61) {device = ""} : (tensor<2xf32>) -> tensor<2xf32>
      %outputs_65, %control_66 = tf_executor.island wraps "tf.Mul"(%outputs_63, %outputs_14) {device = ""} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
      %output_67, %control_68 = tf_executor.Enter %outputs_65 frame "while/while_context" constant  : tensor<2xf32> {T = f32, device = ""}
      %output_69, %control_70 = tf_executor.Enter %output_67 frame "while/while/while_context" constant  : tensor<2xf32> {T = f32, device = ""}
      %outputs_71, %control_72 = tf_executor.island wraps "tf.Mul"(%output_69, %outputs_55) {device = ""} : (tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
      %output_73, %control_74 = tf_executor.Enter %outputs_61 frame "while/while_context" : (tensor<2xf32>) -> (tensor<*xf32>, !tf_executor.control) {T = f32, device = ""}
      %output_75, %value_index_76, %control_77 = tf_executor.Merge %output_73, %output_0 : tensor<*xf32> {N = 2 : i64, T = f32, device = ""}
      %falseOutput_78, %trueOutput_79, %control_80 = tf_executor.Switch %output_75, %output_22 : tensor<*xf32> {T = f32, _class = ["loc:@while/Merge_1"], device = ""}
      %output_81, %control_82 = tf_executor.Exit %falseOutput_78 : tensor<*xf32> {T = f32, device = ""}
      %outputs_83, %control_84 = tf_executor.island wraps "tf.Identity"(%output_81) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_85, %control_86 = tf_executor.island wraps "tf.Identity"(%trueOutput_79) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %output_87, %control_88 = tf_executor.Enter %outputs_85 frame "while/while/while_context" : tensor<*xf32> {T = f32, device = ""}
      %output_89, %value_index_90, %control_91 = tf_executor.Merge %output_87, %output : tensor<*xf32> {N = 2 : i64, T = f32, device = ""}
      %falseOutput_92, %trueOutput_93, %control_94 = tf_executor.Switch %output_89, %output_46 : tensor<*xf32> {T = f32, _class = ["loc:@while/while/Merge_1"], device = ""}
      %output_95, %control_96 = tf_executor.Exit %falseOutput_92 : tensor<*xf32> {T = f32, device = ""}
      tf_executor.NextIteration.Sink[%token_1] %output_95 : tensor<*xf32> {T = f32, device = ""}
      %outputs_97, %control_98 = tf_executor.island wraps "tf.Identity"(%trueOutput_93) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_99, %control_100 = tf_executor.island wraps "tf.AddV2"(%outputs_97, %outputs_71) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      tf_executor.NextIteration.Sink[%token] %outputs_99 : tensor<*xf32> {T = f32, device = ""}
      tf_executor.fetch
    }
    return
  }
}

// Nested while_loops (a TF1 program): the inner loop becomes a While inside the outer body.
// CHECK-LABEL: func.func @nested_while
// CHECK: "tf.While"({{.*}}) <{body = @_functionalize_body_1, cond = @_functionalize_cond_1
// CHECK-NOT: tf_executor.Merge
// CHECK: func.func private @_functionalize_cond_0
// CHECK: func.func private @_functionalize_body_0
// CHECK: func.func private @_functionalize_cond_1
// CHECK: func.func private @_functionalize_body_1
// CHECK: "tf.While"({{.*}}) <{body = @_functionalize_body_0, cond = @_functionalize_cond_0

// -----

module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @loop_in_cond() {
    tf_executor.graph {
      %output, %token, %control = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32, device = ""}
      %output_0, %token_1, %control_2 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""}
      %outputs, %control_3 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<>} : () -> tensor<i1>
      %falseOutput, %trueOutput, %control_4 = tf_executor.Switch %outputs, %outputs : tensor<i1> {T = i1, device = ""}
      %outputs_5, %control_6 = tf_executor.island wraps "tf.Identity"(%falseOutput) {device = ""} : (tensor<i1>) -> tensor<i1>
      %outputs_7, %control_8 = tf_executor.island(%control_6) wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_9, %control_10 = tf_executor.island wraps "tf.Identity"(%trueOutput) {device = ""} : (tensor<i1>) -> tensor<i1>
      %outputs_11, %control_12 = tf_executor.island(%control_10) wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %output_13, %control_14 = tf_executor.Enter %outputs_11 frame "cond/while/while_context" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_15, %value_index, %control_16 = tf_executor.Merge %output_13, %output_0 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""}
      %outputs_17, %control_18 = tf_executor.island(%control_16) wraps "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_19, %control_20 = tf_executor.island wraps "tf.Less"(%output_15, %outputs_17) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
      %output_21, %control_22 = tf_executor.LoopCond %outputs_19 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""}
      %falseOutput_23, %trueOutput_24, %control_25 = tf_executor.Switch %output_15, %output_21 : tensor<*xi32> {T = i32, _class = ["loc:@cond/while/Merge"], device = ""}
      %output_26, %control_27 = tf_executor.Exit %falseOutput_23 : tensor<*xi32> {T = i32, device = ""}
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Identity"(%trueOutput_24) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_30, %control_31 = tf_executor.island(%control_29) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.AddV2"(%outputs_28, %outputs_30) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      tf_executor.NextIteration.Sink[%token_1] %outputs_32 : tensor<*xi32> {T = i32, device = ""}
      %outputs_34, %control_35 = tf_executor.island(%control_29) wraps "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_36, %control_37 = tf_executor.island(%control_29) wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Identity"(%outputs) {device = ""} : (tensor<i1>) -> tensor<i1>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<3>} : () -> tensor<3xf32>
      %falseOutput_42, %trueOutput_43, %control_44 = tf_executor.Switch %outputs_40, %outputs_38 : tensor<3xf32> {T = f32, _class = ["loc:@x"], device = ""}
      %outputs_45, %control_46 = tf_executor.island wraps "tf.Sub"(%falseOutput_42, %outputs_7) {device = ""} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
      %falseOutput_47, %trueOutput_48, %control_49 = tf_executor.Switch %outputs_40, %outputs_38 : tensor<3xf32> {T = f32, _class = ["loc:@x"], device = ""}
      %output_50, %control_51 = tf_executor.Enter %trueOutput_48 frame "cond/while/while_context" : (tensor<3xf32>) -> (tensor<*xf32>, !tf_executor.control) {T = f32, device = ""}
      %output_52, %value_index_53, %control_54 = tf_executor.Merge %output_50, %output : tensor<*xf32> {N = 2 : i64, T = f32, device = ""}
      %falseOutput_55, %trueOutput_56, %control_57 = tf_executor.Switch %output_52, %output_21 : tensor<*xf32> {T = f32, _class = ["loc:@cond/while/Merge_1"], device = ""}
      %output_58, %control_59 = tf_executor.Exit %falseOutput_55 : tensor<*xf32> {T = f32, device = ""}
      %output_60, %value_index_61, %control_62 = tf_executor.Merge %outputs_45, %output_58 : (tensor<3xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<i32>, !tf_executor.control) {N = 2 : i64, T = f32, device = ""}
      %outputs_63, %control_64 = tf_executor.island wraps "tf.Identity"(%output_60) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_65, %control_66 = tf_executor.island wraps "tf.Identity"(%trueOutput_56) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_67, %control_68 = tf_executor.island wraps "tf.Mul"(%outputs_65, %outputs_34) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_69, %control_70 = tf_executor.island wraps "tf.Sub"(%outputs_67, %outputs_36) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      tf_executor.NextIteration.Sink[%token] %outputs_69 : tensor<*xf32> {T = f32, device = ""}
      tf_executor.fetch
    }
    return
  }
}

// A while_loop in a cond branch: the While lands in the then branch.
// CHECK-LABEL: func.func @loop_in_cond
// CHECK: "tf.If"({{.*}}) <{else_branch = @_functionalize_if_else_branch_0, is_stateless = true, then_branch = @_functionalize_if_then_branch_0}>
// CHECK: func.func private @_functionalize_if_then_branch_0
// CHECK: "tf.While"({{.*}}) <{body = @_functionalize_body_0, cond = @_functionalize_cond_0
// CHECK: func.func private @_functionalize_if_else_branch_0
// CHECK-NOT: "tf.While"

// -----

module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @cond_in_loop() {
    tf_executor.graph {
      %output, %token, %control = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32, device = ""}
      %output_0, %token_1, %control_2 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""}
      %outputs, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %output_4, %control_5 = tf_executor.Enter %outputs frame "while/while_context" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_6, %value_index, %control_7 = tf_executor.Merge %output_4, %output_0 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""}
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<>} : () -> tensor<i32>
      %output_10, %control_11 = tf_executor.Enter %outputs_8 frame "while/while_context" constant  : tensor<i32> {T = i32, device = ""}
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Less"(%output_6, %output_10) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
      %output_14, %control_15 = tf_executor.LoopCond %outputs_12 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""}
      %falseOutput, %trueOutput, %control_16 = tf_executor.Switch %output_6, %output_14 : tensor<*xi32> {T = i32, _class = ["loc:@while/Merge"], device = ""}
      %output_17, %control_18 = tf_executor.Exit %falseOutput : tensor<*xi32> {T = i32, device = ""}
      %outputs_19, %control_20 = tf_executor.island wraps "tf.Identity"(%trueOutput) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_21, %control_22 = tf_executor.island(%control_20) wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_23, %control_24 = tf_executor.island(%control_20) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_25, %control_26 = tf_executor.island wraps "tf.AddV2"(%outputs_19, %outputs_23) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      tf_executor.NextIteration.Sink[%token_1] %outputs_25 : tensor<*xi32> {T = i32, device = ""}
      %outputs_27, %control_28 = tf_executor.island(%control_20) wraps "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_29, %control_30 = tf_executor.island wraps "tf.FloorMod"(%outputs_19, %outputs_27) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_31, %control_32 = tf_executor.island wraps "tf.Equal"(%outputs_29, %outputs_21) <{incompatible_shape_error = true}> {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
      %falseOutput_33, %trueOutput_34, %control_35 = tf_executor.Switch %outputs_31, %outputs_31 : (tensor<*xi1>, tensor<*xi1>) -> (tensor<*xi1>, tensor<*xi1>, !tf_executor.control) {T = i1, device = ""}
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Identity"(%falseOutput_33) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      %outputs_38, %control_39 = tf_executor.island(%control_37) wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Identity"(%trueOutput_34) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      %outputs_42, %control_43 = tf_executor.island(%control_41) wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Identity"(%outputs_31) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<3>} : () -> tensor<3xf32>
      %output_48, %control_49 = tf_executor.Enter %outputs_46 frame "while/while_context" : (tensor<3xf32>) -> (tensor<*xf32>, !tf_executor.control) {T = f32, device = ""}
      %output_50, %value_index_51, %control_52 = tf_executor.Merge %output_48, %output : tensor<*xf32> {N = 2 : i64, T = f32, device = ""}
      %falseOutput_53, %trueOutput_54, %control_55 = tf_executor.Switch %output_50, %output_14 : tensor<*xf32> {T = f32, _class = ["loc:@while/Merge_1"], device = ""}
      %output_56, %control_57 = tf_executor.Exit %falseOutput_53 : tensor<*xf32> {T = f32, device = ""}
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Identity"(%output_56) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.Identity"(%trueOutput_54) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %falseOutput_62, %trueOutput_63, %control_64 = tf_executor.Switch %outputs_60, %outputs_44 : (tensor<*xf32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<*xf32>, !tf_executor.control) {T = f32, _class = ["loc:@while/Identity_1"], device = ""}
      %outputs_65, %control_66 = tf_executor.island wraps "tf.AddV2"(%trueOutput_63, %outputs_42) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %falseOutput_67, %trueOutput_68, %control_69 = tf_executor.Switch %outputs_60, %outputs_44 : (tensor<*xf32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<*xf32>, !tf_executor.control) {T = f32, _class = ["loc:@while/Identity_1"], device = ""}
      %outputs_70, %control_71 = tf_executor.island wraps "tf.Mul"(%falseOutput_67, %outputs_38) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %output_72, %value_index_73, %control_74 = tf_executor.Merge %outputs_70, %outputs_65 : tensor<*xf32> {N = 2 : i64, T = f32, device = ""}
      tf_executor.NextIteration.Sink[%token] %output_72 : tensor<*xf32> {T = f32, device = ""}
      tf_executor.fetch
    }
    return
  }
}

// A cond in a while_loop body: the If lands in the body.
// CHECK-LABEL: func.func @cond_in_loop
// CHECK: "tf.While"({{.*}}) <{body = @_functionalize_body_0, cond = @_functionalize_cond_0
// CHECK: func.func private @_functionalize_body_0
// CHECK: "tf.If"({{.*}}) <{else_branch = @_functionalize_if_else_branch_0, is_stateless = true, then_branch = @_functionalize_if_then_branch_0}>
// CHECK: func.func private @_functionalize_if_then_branch_0
// CHECK: func.func private @_functionalize_if_else_branch_0

// -----

module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @while_tensor_array() {
    tf_executor.graph {
      %output, %token, %control = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32, device = ""}
      %output_0, %token_1, %control_2 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""}
      %outputs, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %output_4, %control_5 = tf_executor.Enter %outputs frame "while/while_context" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_6, %value_index, %control_7 = tf_executor.Merge %output_4, %output_0 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""}
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {_class = ["loc:@TensorArray"], device = ""} : () -> tensor<i32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {_class = ["loc:@TensorArray"], device = ""} : () -> tensor<i32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<>} : () -> tensor<i32>
      %outputs_14:2, %control_15 = tf_executor.island wraps "tf.TensorArrayV3"(%outputs_12) <{clear_after_read = true, dtype = f32, dynamic_size = false, element_shape = #tf_type.shape<2>, identical_element_shapes = true, tensor_array_name = ""}> {device = ""} : (tensor<i32>) -> (tensor<*x!tf_type.resource>, tensor<*xf32>)
      %output_16, %control_17 = tf_executor.Enter %outputs_14#1 frame "while/while_context" : tensor<*xf32> {T = f32, device = ""}
      %output_18, %value_index_19, %control_20 = tf_executor.Merge %output_16, %output : tensor<*xf32> {N = 2 : i64, T = f32, device = ""}
      %output_21, %control_22 = tf_executor.Enter %outputs_14#0 frame "while/while_context" constant  : tensor<*x!tf_type.resource> {T = !tf_type.resource, _class = ["loc:@while/mul"], device = ""}
      %outputs_23, %control_24 = tf_executor.island wraps "tf.Range"(%outputs_10, %outputs_12, %outputs_8) {_class = ["loc:@TensorArray"], device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
      %output_25, %control_26 = tf_executor.Enter %outputs_12 frame "while/while_context" constant  : tensor<i32> {T = i32, device = ""}
      %outputs_27, %control_28 = tf_executor.island wraps "tf.Less"(%output_6, %output_25) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
      %output_29, %control_30 = tf_executor.LoopCond %outputs_27 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""}
      %falseOutput, %trueOutput, %control_31 = tf_executor.Switch %output_6, %output_29 : tensor<*xi32> {T = i32, _class = ["loc:@while/Merge"], device = ""}
      %output_32, %control_33 = tf_executor.Exit %falseOutput : tensor<*xi32> {T = i32, device = ""}
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Identity"(%trueOutput) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_36, %control_37 = tf_executor.island(%control_35) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.AddV2"(%outputs_34, %outputs_36) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      tf_executor.NextIteration.Sink[%token_1] %outputs_38 : tensor<*xi32> {T = i32, device = ""}
      %outputs_40, %control_41 = tf_executor.island(%control_35) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.AddV2"(%outputs_34, %outputs_40) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Cast"(%outputs_42) <{Truncate = false}> {device = ""} : (tensor<*xi32>) -> tensor<*xf32>
      %falseOutput_46, %trueOutput_47, %control_48 = tf_executor.Switch %output_18, %output_29 : tensor<*xf32> {T = f32, _class = ["loc:@while/Merge_1"], device = ""}
      %output_49, %control_50 = tf_executor.Exit %falseOutput_46 : tensor<*xf32> {T = f32, device = ""}
      %outputs_51, %control_52 = tf_executor.island wraps "tf.TensorArrayGatherV3"(%outputs_14#0, %outputs_23, %output_49) <{element_shape = #tf_type.shape<2>}> {_class = ["loc:@TensorArray"], device = ""} : (tensor<*x!tf_type.resource>, tensor<?xi32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_53, %control_54 = tf_executor.island wraps "tf.Identity"(%outputs_51) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_55, %control_56 = tf_executor.island wraps "tf.Identity"(%trueOutput_47) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_57, %control_58 = tf_executor.island wraps "tf.Placeholder"() {device = "", shape = #tf_type.shape<2>} : () -> tensor<2xf32>
      %output_59, %control_60 = tf_executor.Enter %outputs_57 frame "while/while_context" constant  : tensor<2xf32> {T = f32, device = ""}
      %outputs_61, %control_62 = tf_executor.island wraps "tf.Mul"(%output_59, %outputs_44) {device = ""} : (tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_63, %control_64 = tf_executor.island wraps "tf.TensorArrayWriteV3"(%output_21, %outputs_34, %outputs_61, %outputs_55) {_class = ["loc:@while/mul"], device = ""} : (tensor<*x!tf_type.resource>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      tf_executor.NextIteration.Sink[%token] %outputs_63 : tensor<*xf32> {T = f32, device = ""}
      tf_executor.fetch
    }
    return
  }
}

// A TensorArray written in a loop: the resource handle is the last loop variable (TF's order),
// the loop is stateful.
// CHECK-LABEL: func.func @while_tensor_array
// CHECK: %[[TA:.*]]:2, %{{.*}} = tf_executor.island wraps "tf.TensorArrayV3"
// CHECK: "tf.While"({{.*}}, %[[TA]]#0) <{body = @_functionalize_body_0, cond = @_functionalize_cond_0, is_stateless = false
// CHECK: func.func private @_functionalize_body_0({{.*}}%[[H:.*]]: tensor<*x!tf_type.resource>)
// CHECK: "tf.TensorArrayWriteV3"(%[[H]],
