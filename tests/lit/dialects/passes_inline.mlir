// RUN: tfmlir-opt %s -split-input-file -inline | FileCheck %s

// The dialects' inliner interfaces (TF 2.21's): calls inline into tf.IfRegion,
// tf.CaseRegion and tf.WhileRegion regions and into tf_device and
// tf_executor.island regions; tf ops are cloned only when TF may duplicate
// them; (Stateful)PartitionedCall bodies are placed on the call's device.

// CHECK-LABEL: func @call_in_if_region
// CHECK:         "tf.IfRegion"
// CHECK-NEXT:      "tf.Neg"(%arg1)
// CHECK-NEXT:      "tf.Yield"
// CHECK-NOT:     call
func.func @call_in_if_region(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = "tf.IfRegion"(%arg0) ({
    %1 = func.call @negate(%arg1) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%arg1) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @negate(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// A StatefulPartitionedCall's body gets the call's device: ops without one
// take it whole, ops with a partial one keep their parts and take the rest,
// ops whose device does not parse keep it.

// CHECK-LABEL: func @placed_call_in_while_region
// CHECK:         "tf.WhileRegion"
// CHECK:           "tf.Neg"(%{{.*}}) {device = "/job:worker/replica:0/task:1/device:CPU:0"}
// CHECK-NEXT:      "tf.Abs"(%{{.*}}) {device = "/job:worker/replica:0/task:1/device:GPU:1"}
// CHECK-NEXT:      "tf.Exp"(%{{.*}}) {device = "bogus device"}
// CHECK-NEXT:      "tf.Sin"(%{{.*}}) {device = "/job:ps/replica:0/task:1/device:CPU:0"}
// CHECK-NOT:     StatefulPartitionedCall
func.func @placed_call_in_while_region(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.WhileRegion"(%arg0) <{is_stateless = false}> ({
  ^bb0(%a: tensor<f32>):
    %c = "tf.Const"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>):
    %1 = "tf.StatefulPartitionedCall"(%a) <{config = "", config_proto = "", executor_type = "", f = @body}> {device = "/job:worker/replica:0/task:1/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @body(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%0) {device = "/device:GPU:1"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Exp"(%1) {device = "bogus device"} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.Sin"(%2) {device = "/job:ps"} : (tensor<f32>) -> tensor<f32>
  func.return %3 : tensor<f32>
}

// -----

// A call device that does not parse places nothing; a PartitionedCall whose
// argument type differs from the callee's gets a tf.Cast.

// CHECK-LABEL: func @unparsable_call_device
// CHECK-NEXT:    %[[CAST:.*]] = "tf.Cast"(%arg0) <{Truncate = false}> : (tensor<2xf32>) -> tensor<*xf32>
// CHECK-NEXT:    "tf.Neg"(%[[CAST]]) : (tensor<*xf32>) -> tensor<*xf32>
func.func @unparsable_call_device(%arg0: tensor<2xf32>) -> tensor<*xf32> {
  %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @neg_any}> {device = "not a device"} : (tensor<2xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}
func.func private @neg_any(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%arg0) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// -----

// tf.LegacyCall places its body only with _lower_as_multi_device_function.

// CHECK-LABEL: func @legacy_calls
// CHECK-NEXT:    "tf.Neg"(%arg0) {device = "/device:CPU:0"}
// CHECK-NEXT:    "tf.Neg"(%arg0) :
func.func @legacy_calls(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf.LegacyCall"(%arg0) <{f = @neg}> {_lower_as_multi_device_function = true, device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.LegacyCall"(%arg0) <{f = @neg}> {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
  func.return %0, %1 : tensor<f32>, tensor<f32>
}
func.func private @neg(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// tf._noinline keeps a function out unless it has tf._XlaMustCompile;
// tf.TPUPartitionedCall is never inlined.

// CHECK-LABEL: func @noinline
// CHECK-NEXT:    "tf.PartitionedCall"(%arg0) <{{{.*}}f = @kept}>
// CHECK-NEXT:    "tf.Abs"(%arg0)
// CHECK-NEXT:    "tf.TPUOrdinalSelector"
// CHECK-NEXT:    "tf.TPUPartitionedCall"
func.func @noinline(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @kept}> : (tensor<f32>) -> tensor<f32>
  %1 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @must_compile}> : (tensor<f32>) -> tensor<f32>
  %o = "tf.TPUOrdinalSelector"() : () -> tensor<?xi32>
  %2 = "tf.TPUPartitionedCall"(%arg0, %o) <{f = @tpu}> : (tensor<f32>, tensor<?xi32>) -> tensor<f32>
  func.return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}
func.func private @kept(%arg0: tensor<f32>) -> tensor<f32> attributes {tf._noinline = true} {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @must_compile(%arg0: tensor<f32>) -> tensor<f32> attributes {tf._XlaMustCompile = true, tf._noinline = true} {
  %0 = "tf.Abs"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @tpu(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Exp"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// A function used twice is cloned only if TF may duplicate its ops: not with
// a random op (CannotDuplicate) or a stateful op TF's dialect does not define
// (unless it is marked is_stateless); yes with a modelled stateful op.

// CHECK-LABEL: func @duplication
// CHECK-NEXT:    call @random
// CHECK-NEXT:    call @random
// CHECK-NEXT:    call @unmodelled
// CHECK-NEXT:    call @unmodelled
// CHECK-NEXT:    "tf.CheckNumericsV2"(%arg1) {is_stateless = true
// CHECK-NEXT:    "tf.CheckNumericsV2"(%arg1) {is_stateless = true
// CHECK-NEXT:    "tf.AssignVariableOp"
// CHECK-NEXT:    "tf.AssignVariableOp"
func.func @duplication(%arg0: tensor<2xi32>, %arg1: tensor<f32>, %arg2: tensor<!tf_type.resource<tensor<f32>>>) {
  %0 = func.call @random(%arg0) : (tensor<2xi32>) -> tensor<2x?xf32>
  %1 = func.call @random(%arg0) : (tensor<2xi32>) -> tensor<2x?xf32>
  %2 = func.call @unmodelled(%arg1) : (tensor<f32>) -> tensor<f32>
  %3 = func.call @unmodelled(%arg1) : (tensor<f32>) -> tensor<f32>
  %4 = func.call @stateless(%arg1) : (tensor<f32>) -> tensor<f32>
  %5 = func.call @stateless(%arg1) : (tensor<f32>) -> tensor<f32>
  func.call @assign(%arg2, %arg1) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.call @assign(%arg2, %arg1) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}
func.func private @random(%arg0: tensor<2xi32>) -> tensor<2x?xf32> {
  %0 = "tf.RandomUniform"(%arg0) <{seed = 0 : i64, seed2 = 0 : i64}> : (tensor<2xi32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}
func.func private @unmodelled(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.CheckNumericsV2"(%arg0) {message = "m"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @stateless(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.CheckNumericsV2"(%arg0) {message = "m", is_stateless = true} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @assign(%arg0: tensor<!tf_type.resource<tensor<f32>>>, %arg1: tensor<f32>) {
  "tf.AssignVariableOp"(%arg0, %arg1) <{validate_shape = false}> : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  func.return
}

// -----

// Calls inline into tf_device regions; tf_device.cluster_func never inlines.

// CHECK-LABEL: func @device_regions
// CHECK:         "tf_device.cluster"
// CHECK-NEXT:      "tf.Neg"(%arg0)
// CHECK:         "tf_device.cluster_func"(%arg0) <{func = @neg2}>
func.func @device_regions(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf_device.cluster"() ({
    %1 = func.call @neg(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) : () -> tensor<f32>
  %2 = "tf_device.cluster_func"(%arg0) <{func = @neg2}> : (tensor<f32>) -> tensor<f32>
  func.return %0, %2 : tensor<f32>, tensor<f32>
}
func.func private @neg(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @neg2(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Calls inline into islands (a callee's own graph is canonicalized away
// first: tf_executor ops themselves are never inlined).

// CHECK-LABEL: func @islands
// CHECK:         tf_executor.island {
// CHECK-NEXT:      "tf.Neg"(%arg0)
// CHECK:         tf_executor.island {
// CHECK-NEXT:      "tf.Neg"(%arg0)
// CHECK-NOT:     PartitionedCall
func.func @islands(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = tf_executor.graph {
    %1, %c1 = tf_executor.island {
      %2 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @neg}> : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %2 : tensor<f32>
    }
    %3, %c3 = tf_executor.island {
      %4 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @graph_body}> : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %4 : tensor<f32>
    }
    tf_executor.fetch %1, %3 : tensor<f32>, tensor<f32>
  }
  func.return %0#0, %0#1 : tensor<f32>, tensor<f32>
}
func.func private @neg(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @graph_body(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1, %c = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %1 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
