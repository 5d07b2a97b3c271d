// RUN: tfmlir-opt %s -split-input-file -tf-tpu-host-computation-expansion | FileCheck %s

// A chain of casts and identities at the head of a cluster feeding only host
// ops (a string _xla_outside_compilation) is marked for outside compilation
// (the last one first, which makes the one before eligible). The host ops
// keep their own value.

// CHECK-LABEL: func.func @chain
// CHECK: "tf.Cast"(%arg0) <{Truncate = false}> {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.Identity"({{.*}}) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.Identity"({{.*}}) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.AsString"
// CHECK-SAME: {_xla_outside_compilation = "host"}
// CHECK-NEXT: "tf.StringToNumber"({{.*}}) {_xla_outside_compilation = "host"}
func.func @chain(%arg0: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Cast"(%arg0) {Truncate = false} : (tensor<4xi32>) -> tensor<4xf32>
    %2 = "tf.Identity"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    %3 = "tf.Identity"(%2) : (tensor<4xf32>) -> tensor<4xf32>
    %4 = "tf.AsString"(%3) {_xla_outside_compilation = "host", fill = "", precision = -1 : i64, scientific = false, shortest = false, width = -1 : i64} : (tensor<4xf32>) -> tensor<4x!tf_type.string>
    %5 = "tf.StringToNumber"(%4) {_xla_outside_compilation = "host"} : (tensor<4x!tf_type.string>) -> tensor<4xf32>
    tf_device.return %5 : tensor<4xf32>
  }) : () -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// Not marked: an identity also used on the device (or by the cluster's
// return, or not used at all), one whose host user has a non-string
// _xla_outside_compilation, one fed by a device op (not at the head), and a
// tf.IdentityN (only tf.Cast and tf.Identity are expanded).

// CHECK-LABEL: func.func @not_marked
// CHECK: %[[A:.*]] = "tf.Identity"(%arg0) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"(%[[A]]) {_xla_outside_compilation = "host"}
// CHECK-NEXT: "tf.Abs"(%[[A]]) : (tensor<f32>)
// CHECK-NEXT: %[[B:.*]] = "tf.Identity"(%arg0) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"(%[[B]]) {_xla_outside_compilation = 1 : i64}
// CHECK-NEXT: %[[C:.*]] = "tf.Square"(%arg0) : (tensor<f32>)
// CHECK-NEXT: %[[D:.*]] = "tf.Identity"(%[[C]]) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"(%[[D]]) {_xla_outside_compilation = "host"}
// CHECK-NEXT: %[[E:.*]] = "tf.IdentityN"(%arg0) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"(%[[E]]) {_xla_outside_compilation = "host"}
// CHECK-NEXT: "tf.Identity"(%arg0) : (tensor<f32>)
// CHECK-NEXT: %[[F:.*]] = "tf.Identity"(%arg0) : (tensor<f32>)
// CHECK-NEXT: tf_device.return {{.*}}, %[[F]]
func.func @not_marked(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = "tf_device.cluster"() ({
    %1 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    %2 = "tf.Neg"(%1) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    %3 = "tf.Abs"(%1) : (tensor<f32>) -> tensor<f32>
    %4 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    %5 = "tf.Neg"(%4) {_xla_outside_compilation = 1} : (tensor<f32>) -> tensor<f32>
    %6 = "tf.Square"(%arg0) : (tensor<f32>) -> tensor<f32>
    %7 = "tf.Identity"(%6) : (tensor<f32>) -> tensor<f32>
    %8 = "tf.Neg"(%7) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    %9 = "tf.IdentityN"(%arg0) : (tensor<f32>) -> tensor<f32>
    %10 = "tf.Neg"(%9) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    %11 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    %12 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_device.return %3, %12 : tensor<f32>, tensor<f32>
  }) : () -> (tensor<f32>, tensor<f32>)
  func.return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

// Users count by themselves: a host op nested in control flow makes the
// identity feeding it eligible, as does an op with a region that is itself a
// host op (that op is no head: its regions use its own block arguments). A
// non-string _xla_outside_compilation on an identity is replaced by "". An
// identity fed by a host op at the head is at the head too; one fed by a
// host op that is not (it uses a device value from a region) is not.

// CHECK-LABEL: func.func @users
// CHECK: %[[A:.*]] = "tf.Identity"(%arg0) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.IfRegion"
// CHECK-NEXT: "tf.Neg"(%[[A]]) {_xla_outside_compilation = "host"}
// CHECK: %[[B:.*]] = "tf.Identity"(%arg0) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.WhileRegion"(%[[B]])
// CHECK: _xla_outside_compilation = "host"
// CHECK-NEXT: %[[C:.*]] = "tf.Identity"(%arg0) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.Neg"(%[[C]]) {_xla_outside_compilation = "host"}
// CHECK-NEXT: %[[D:.*]] = "tf.Abs"(%arg0) {_xla_outside_compilation = "host"}
// CHECK-NEXT: %[[E:.*]] = "tf.Identity"(%[[D]]) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.Neg"(%[[E]]) {_xla_outside_compilation = "host"}
// CHECK-NEXT: %[[DEV:.*]] = "tf.Square"(%arg0) : (tensor<f32>)
// CHECK-NEXT: %[[G:.*]] = "tf.IfRegion"
// CHECK: _xla_outside_compilation = "host"
// CHECK-NEXT: %[[H:.*]] = "tf.Identity"(%[[G]]) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"(%[[H]]) {_xla_outside_compilation = "host"}
func.func @users(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    %2 = "tf.IfRegion"(%arg1) ({
      %3 = "tf.Neg"(%1) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%3) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%arg0) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    %4 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    %5 = "tf.WhileRegion"(%4) ({
    ^bb0(%a: tensor<f32>):
      %c = "tf.Less"(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "tf.Yield"(%c) : (tensor<i1>) -> ()
    }, {
    ^bb0(%a: tensor<f32>):
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }) {is_stateless = true, _xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    %6 = "tf.Identity"(%arg0) {_xla_outside_compilation = 2} : (tensor<f32>) -> tensor<f32>
    %7 = "tf.Neg"(%6) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    %8 = "tf.Abs"(%arg0) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    %9 = "tf.Identity"(%8) : (tensor<f32>) -> tensor<f32>
    %10 = "tf.Neg"(%9) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    %11 = "tf.Square"(%arg0) : (tensor<f32>) -> tensor<f32>
    %12 = "tf.IfRegion"(%arg1) ({
      "tf.Yield"(%11) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%arg0) : (tensor<f32>) -> ()
    }) {is_stateless = true, _xla_outside_compilation = "host"} : (tensor<i1>) -> tensor<f32>
    %13 = "tf.Identity"(%12) : (tensor<f32>) -> tensor<f32>
    %14 = "tf.Neg"(%13) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %2 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Nested clusters go first: the inner identity is marked, which makes the
// outer identity feeding it eligible when the outer cluster is looked at.
// Casts and identities in control flow or outside clusters are left alone.

// CHECK-LABEL: func.func @nested
// CHECK: "tf.Identity"(%arg0) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: %[[A:.*]] = "tf.Identity"(%arg0) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: %[[B:.*]] = "tf.Identity"(%[[A]]) {_xla_outside_compilation = ""}
// CHECK-NEXT: "tf.Neg"(%[[B]]) {_xla_outside_compilation = "host"}
// CHECK: "tf.IfRegion"
// CHECK-NEXT: %[[C:.*]] = "tf.Identity"(%arg0) : (tensor<f32>)
// CHECK-NEXT: "tf.Neg"(%[[C]]) {_xla_outside_compilation = "host"}
func.func @nested(%arg0: tensor<f32>, %arg1: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %0 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Neg"(%0) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
  %2 = "tf_device.cluster"() ({
    %3 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
    %4 = "tf_device.cluster"() ({
      %5 = "tf.Identity"(%3) : (tensor<f32>) -> tensor<f32>
      %6 = "tf.Neg"(%5) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
      tf_device.return %6 : tensor<f32>
    }) : () -> tensor<f32>
    %7 = "tf.IfRegion"(%arg1) ({
      %8 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
      %9 = "tf.Neg"(%8) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%9) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%arg0) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    tf_device.return %4 : tensor<f32>
  }) : () -> tensor<f32>
  func.return %1, %2 : tensor<f32>, tensor<f32>
}

// -----

// Without clusters nothing changes.

// CHECK-LABEL: func.func @no_cluster
// CHECK-NEXT: "tf.Identity"(%arg0) : (tensor<f32>)
func.func @no_cluster(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Identity"(%arg0) : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Neg"(%0) {_xla_outside_compilation = "host"} : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
