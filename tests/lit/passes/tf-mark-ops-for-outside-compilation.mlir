// RUN: tfmlir-opt %s -split-input-file -tf-mark-ops-for-outside-compilation | FileCheck %s

// With soft placement, unsupported ops get "auto<n>" markers, counted per
// cluster in walk order: ops TF cannot compile (tf.Digamma is supported,
// tf.Where too; an op TF does not know is not), ops with string operands or
// results, not tf.Assert. Ops of other dialects and ops outside clusters stay.

// CHECK-LABEL: func @soft_placement
func.func @soft_placement(%arg0: tensor<2xf32>, %arg1: tensor<!tf_type.string>) -> tensor<2xf32> {
  // CHECK:      "tf.Unknown"() : () -> ()
  "tf.Unknown"() : () -> ()
  %0 = "tf_device.cluster"() ({
    // CHECK:      "tf.Digamma"(%arg0) : (tensor<2xf32>)
    %1 = "tf.Digamma"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    // CHECK-NEXT: "tf.Unknown"() {_xla_outside_compilation = "auto0"}
    "tf.Unknown"() : () -> ()
    // CHECK-NEXT: "tf.StringToNumber"(%arg1) {_xla_outside_compilation = "auto1", out_type = f32}
    %2 = "tf.StringToNumber"(%arg1) {out_type = f32} : (tensor<!tf_type.string>) -> tensor<f32>
    // CHECK-NEXT: "tf.AsString"(%{{.*}}) {{.*}}{_xla_outside_compilation = "auto2"}
    %3 = "tf.AsString"(%2) {fill = "", precision = -1 : i64, scientific = false, shortest = false, width = -1 : i64} : (tensor<f32>) -> tensor<!tf_type.string>
    // CHECK-NEXT: "tf.Const"
    // CHECK-NEXT: "tf.Assert"
    // CHECK-NOT:  _xla_outside_compilation
    %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    "tf.Assert"(%t, %arg1) {summarize = 3 : i64} : (tensor<i1>, tensor<!tf_type.string>) -> ()
    tf_device.return %1 : tensor<2xf32>
  }) {allow_soft_placement = true} : () -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// Ops in control flow regions are looked at (post-order: nested first); a
// marked op inside a marked op loses its marker. The counter restarts per
// cluster; existing markers are overwritten for unsupported ops, kept for
// supported ones.

// CHECK-LABEL: func @regions_and_counters
func.func @regions_and_counters(%arg0: tensor<i1>, %arg1: tensor<f32>) {
  "tf_device.cluster"() ({
    // CHECK:      "tf.IfRegion"
    "tf.IfRegion"(%arg0) ({
      // CHECK:      "tf.Unknown"() {_xla_outside_compilation = "auto0"}
      "tf.Unknown"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : (tensor<i1>) -> ()
    // CHECK:      "tf.Unknown2"() {_xla_outside_compilation = "auto1"}
    "tf.Unknown2"() {_xla_outside_compilation = "manual"} : () -> ()
    // CHECK-NEXT: "tf.Neg"(%arg1) {_xla_outside_compilation = "manual"}
    %0 = "tf.Neg"(%arg1) {_xla_outside_compilation = "manual"} : (tensor<f32>) -> tensor<f32>
    // CHECK:      "tf.WhileRegion"
    // CHECK:        "tf.Unknown3"() : () -> ()
    // CHECK:      }) {_xla_outside_compilation = "manual"}
    %1 = "tf.WhileRegion"(%arg1) ({
    ^bb0(%a: tensor<f32>):
      "tf.Yield"(%arg0) : (tensor<i1>) -> ()
    }, {
    ^bb0(%a: tensor<f32>):
      "tf.Unknown3"() : () -> ()
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }) {is_stateless = false, _xla_outside_compilation = "manual"} : (tensor<f32>) -> tensor<f32>
    tf_device.return
  }) {allow_soft_placement = true} : () -> ()
  "tf_device.cluster"() ({
    // CHECK:      "tf.Unknown"() {_xla_outside_compilation = "auto0"}
    "tf.Unknown"() : () -> ()
    tf_device.return
  }) {allow_soft_placement = true} : () -> ()
  func.return
}

// Variants follow outside compilation: the producer of a variant operand of
// a marked op (even outside the cluster) and the users of its variant
// results (not terminators) get "auto", transitively.

// CHECK-LABEL: func @variants
func.func @variants(%arg0: tensor<f32>, %arg1: tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>> {
  // CHECK:      "tf.EmptyTensorList"{{.*}}{_xla_outside_compilation = "auto"}
  %shape = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %list = "tf.EmptyTensorList"(%shape, %arg1) : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<f32>>>
  %0 = "tf_device.cluster"() ({
    // CHECK:      "tf.UnknownVariant"(%{{.*}}) {_xla_outside_compilation = "auto0"}
    %1 = "tf.UnknownVariant"(%list) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<!tf_type.variant<tensor<f32>>>
    // CHECK-NEXT: "tf.TensorListPushBack"{{.*}}{_xla_outside_compilation = "auto"}
    %2 = "tf.TensorListPushBack"(%1, %arg0) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
    // CHECK-NEXT: "tf.TensorListPushBack"{{.*}}{_xla_outside_compilation = "auto"}
    %3 = "tf.TensorListPushBack"(%2, %arg0) : (tensor<!tf_type.variant<tensor<f32>>>, tensor<f32>) -> tensor<!tf_type.variant<tensor<f32>>>
    // CHECK-NEXT: tf_device.return
    tf_device.return %3 : tensor<!tf_type.variant<tensor<f32>>>
  }) {allow_soft_placement = true} : () -> tensor<!tf_type.variant<tensor<f32>>>
  func.return %0 : tensor<!tf_type.variant<tensor<f32>>>
}

// Strings in subtypes count; supported ops without strings stay.

// CHECK-LABEL: func @string_subtypes
func.func @string_subtypes(%arg0: tensor<!tf_type.resource<tensor<!tf_type.string>>>, %arg1: tensor<!tf_type.resource<tensor<f32>>>) {
  "tf_device.cluster"() ({
    // CHECK:      "tf.ReadVariableOp"(%arg0) {_xla_outside_compilation = "auto0"}
    %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<!tf_type.string>>>) -> tensor<*x!tf_type.string>
    // CHECK:      "tf.ReadVariableOp"(%arg1) : (
    %1 = "tf.ReadVariableOp"(%arg1) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_device.return
  }) {allow_soft_placement = true} : () -> ()
  func.return
}

// Without soft placement, clusters of supported ops and already marked ops
// pass; markers inside marked ops still go.

// CHECK-LABEL: func @strict_fine
func.func @strict_fine(%arg0: tensor<f32>) {
  "tf_device.cluster"() ({
    // CHECK:      "tf.Neg"
    %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    // CHECK:      "tf.Unknown"() {_xla_outside_compilation = "0"}
    "tf.Unknown"() {_xla_outside_compilation = "0"} : () -> ()
    // CHECK:      "tf_device.launch"
    // CHECK:        "tf.Unknown"() : () -> ()
    // CHECK:      }) {_xla_outside_compilation = "1"}
    "tf_device.launch"() <{device = ""}> ({
      "tf.Unknown"() {_xla_outside_compilation = "2"} : () -> ()
      tf_device.return
    }) {_xla_outside_compilation = "1"} : () -> ()
    tf_device.return
  }) {allow_soft_placement = false} : () -> ()
  func.return
}
