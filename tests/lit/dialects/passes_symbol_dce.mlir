// RUN: tfmlir-opt %s -symbol-dce | FileCheck %s --implicit-check-not=@unused --implicit-check-not=@only_used_by_unused --implicit-check-not=@unreferenced_decl

// Upstream -symbol-dce sees the function references of the tf and tf_device
// ops as symbol uses: private branch functions and callees survive, even
// when referenced only from inside tf_executor islands, while unreferenced
// private functions (and what only they reference) are deleted.

// CHECK-LABEL: func.func @main(
// CHECK:         "tf.If"
// CHECK:         "tf.While"
// CHECK:         "tf.Case"
// CHECK:         "tf.PartitionedCall"
// CHECK:         "tf.StatefulPartitionedCall"
// CHECK:         "tf.LegacyCall"
// CHECK:         "tf_device.cluster_func"
// CHECK:       func.func private @if_then(
// CHECK:       func.func private @if_else(
// CHECK:       func.func private @while_cond(
// CHECK:       func.func private @while_body(
// CHECK:       func.func private @case0(
// CHECK:       func.func private @case1(
// CHECK:       func.func private @pcall(
// CHECK:       func.func private @nested_callee(
// CHECK:       func.func private @spcall(
// CHECK:       func.func private @lcall(
// CHECK:       func.func private @cluster(
// CHECK:       func.func @public_with_func_attr(
// CHECK:       func.func private @func_attr_target()
// CHECK:       func.func @init()

module attributes {tf_saved_model.semantics} {
  "tf_saved_model.session_initializer"() <{initializers = [@init]}> : () -> ()
  func.func @main(%arg0: tensor<i1> {tf_saved_model.index_path = [0]}, %arg1: tensor<f32> {tf_saved_model.index_path = [1]}, %arg2: tensor<i32> {tf_saved_model.index_path = [2]}) -> (tensor<f32> {tf_saved_model.index_path = []}) attributes {tf_saved_model.exported_names = ["main"]} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.If"(%arg0, %arg1) <{else_branch = @if_else, is_stateless = false, then_branch = @if_then}> {device = ""} : (tensor<i1>, tensor<f32>) -> tensor<f32>
      %outputs_0:2, %control_1 = tf_executor.island wraps "tf.While"(%arg2, %outputs) <{body = @while_body, cond = @while_cond, is_stateless = true, parallel_iterations = 10 : i64}> {device = ""} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Case"(%arg2, %outputs_0#1) <{branches = [@case0, @case1], is_stateless = false}> {device = ""} : (tensor<i32>, tensor<f32>) -> tensor<f32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.PartitionedCall"(%outputs_2) <{config = "", config_proto = "", executor_type = "", f = @pcall}> {device = ""} : (tensor<f32>) -> tensor<f32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.StatefulPartitionedCall"(%outputs_4) <{config = "", config_proto = "", executor_type = "", f = @spcall}> {device = ""} : (tensor<f32>) -> tensor<f32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.LegacyCall"(%outputs_6) <{f = @lcall}> {device = ""} : (tensor<f32>) -> tensor<f32>
      tf_executor.fetch %outputs_8 : tensor<f32>
    }
    %1 = "tf_device.cluster_func"(%0) <{func = @cluster}> : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @if_then(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
  func.func private @if_else(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @while_cond(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<i1>
  func.func private @while_body(%arg0: tensor<i32>, %arg1: tensor<f32>) -> (tensor<i32>, tensor<f32>)
  func.func private @case0(%arg0: tensor<f32>) -> tensor<f32>
  func.func private @case1(%arg0: tensor<f32>) -> tensor<f32>
  // Kept transitively: @pcall is used, and it calls @nested_callee.
  func.func private @pcall(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @nested_callee}> : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @nested_callee(%arg0: tensor<f32>) -> tensor<f32>
  func.func private @spcall(%arg0: tensor<f32>) -> tensor<f32>
  func.func private @lcall(%arg0: tensor<f32>) -> tensor<f32>
  func.func private @cluster(%arg0: tensor<f32>) -> tensor<f32>
  // Deleted: nothing references @unused, so @only_used_by_unused goes too.
  func.func private @unused(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @only_used_by_unused}> : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @only_used_by_unused(%arg0: tensor<f32>) -> tensor<f32>
  func.func private @unreferenced_decl(%arg0: tensor<f32>) -> tensor<f32>
  // A reference nested in a #tf_type.func attribute is a symbol use too.
  func.func @public_with_func_attr() attributes {f = #tf_type.func<@func_attr_target, {}>, tf_saved_model.exported_names = ["public_with_func_attr"]} {
    return
  }
  func.func private @func_attr_target()
  // Referenced by the session initializer (which needs it exported, so public).
  func.func @init() attributes {tf_saved_model.exported_names = ["init"]} {
    return
  }
}
