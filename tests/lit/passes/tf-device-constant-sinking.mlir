// RUN: tfmlir-opt %s -split-input-file -tf-device-constant-sinking | FileCheck %s

// A constant used once (by the cluster) moves in; one used more than once
// outside the cluster too is cloned (the original stays); a second use in the
// same cluster takes the same clone, and the original goes when nothing else
// uses it. Sunk constants are at the start of the body, the last one first
// used on top. Other values are left alone.

// CHECK-LABEL: func.func @sink
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[KEPT:.*]] = "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[N:.*]] = "tf.Neg"
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: %[[C3:.*]] = "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[C2:.*]] = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[C1:.*]] = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[A:.*]] = "tf.Mul"(%[[X]], %[[C1]])
// CHECK-NEXT: %[[B:.*]] = "tf.Mul"(%[[A]], %[[C2]])
// CHECK-NEXT: %[[C:.*]] = "tf.AddV2"(%[[B]], %[[C2]])
// CHECK-NEXT: %[[D:.*]] = "tf.AddV2"(%[[C]], %[[C3]])
// CHECK-NEXT: %[[E:.*]] = "tf.Sub"(%[[D]], %[[N]])
// CHECK-NEXT: tf_device.return %[[E]]
// CHECK: return %{{.*}}, %[[KEPT]]
func.func @sink(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %three = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %n = "tf.Neg"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %r = "tf_device.cluster"() ({
    %a = "tf.Mul"(%x, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %b = "tf.Mul"(%a, %two) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %c = "tf.AddV2"(%b, %two) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %d = "tf.AddV2"(%c, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %e = "tf.Sub"(%d, %n) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    tf_device.return %e : tensor<8xf32>
  }) : () -> tensor<8xf32>
  func.return %r, %three : tensor<8xf32>, tensor<f32>
}

// -----

// Uses in nested regions count, in post-order (the IfRegion's own operand
// after its branches). Nested clusters go first: the inner cluster takes a
// clone of a constant the outer one uses too; then the outer one, now the
// only user, takes the constant itself. Two clusters sharing a constant:
// the first gets a clone, the second the original.

// CHECK-LABEL: func.func @nested
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: %[[P:.*]] = "tf.Const"() <{value = dense<true> : tensor<i1>}>
// CHECK-NEXT: %[[K:.*]] = "tf.Const"() <{value = dense<5> : tensor<i32>}>
// CHECK-NEXT: "tf.IfRegion"(%[[P]])
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: %[[K1:.*]] = "tf.Const"() <{value = dense<5> : tensor<i32>}>
// CHECK-NEXT: "tf.AddV2"(%arg0, %[[K1]])
// CHECK: "tf.Yield"
// CHECK: "tf.Yield"(%[[K]])
// CHECK-LABEL: func.func @shared
// CHECK-NEXT: "tf_device.cluster"
// CHECK-NEXT: "tf.Const"() <{value = dense<7> : tensor<i32>}>
// CHECK: "tf_device.cluster"
// CHECK-NEXT: "tf.Const"() <{value = dense<7> : tensor<i32>}>
// CHECK-NOT: "tf.Const"
// CHECK: return
func.func @nested(%arg0: tensor<i32>) -> tensor<i32> {
  %k = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %p = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0 = "tf_device.cluster"() ({
    %1 = "tf.IfRegion"(%p) ({
      %2 = "tf_device.cluster"() ({
        %3 = "tf.AddV2"(%arg0, %k) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        tf_device.return %3 : tensor<i32>
      }) : () -> tensor<i32>
      "tf.Yield"(%2) : (tensor<i32>) -> ()
    }, {
      "tf.Yield"(%k) : (tensor<i32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
    tf_device.return %1 : tensor<i32>
  }) : () -> tensor<i32>
  func.return %0 : tensor<i32>
}
func.func @shared(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %k = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Mul"(%arg0, %k) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tf_device.return %1 : tensor<i32>
  }) : () -> tensor<i32>
  %2 = "tf_device.cluster"() ({
    %3 = "tf.Mul"(%0, %k) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tf_device.return %3 : tensor<i32>
  }) : () -> tensor<i32>
  func.return %0, %2 : tensor<i32>, tensor<i32>
}

// -----

// In an island: a constant of the same island is sunk (cloned: a launch uses
// it too, and launches take no constants); the result of another island is
// not a tf.Const, nor is a tf._HostConst: both are left alone.

// CHECK-LABEL: func.func @islands
// CHECK: %[[O:.*]], %{{.*}} = tf_executor.island wraps "tf.Const"
// CHECK: tf_executor.island {
// CHECK-NEXT: %[[H:.*]] = "tf._HostConst"
// CHECK-NEXT: %[[K:.*]] = "tf.Const"
// CHECK-NEXT: "tf_device.launch"
// CHECK-NEXT: "tf.Neg"(%[[K]])
// CHECK: "tf_device.cluster"
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-NEXT: "tf.AddN"(%[[O]], %[[C]], %[[H]]
func.func @islands() -> tensor<f32> {
  %g = tf_executor.graph {
    %o, %c = tf_executor.island wraps "tf.Const"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
    %r, %c2 = tf_executor.island {
      %h = "tf._HostConst"() {value = dense<5.0> : tensor<f32>} : () -> tensor<f32>
      %k = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
      %l = "tf_device.launch"() ({
        %m = "tf.Neg"(%k) : (tensor<f32>) -> tensor<f32>
        tf_device.return %m : tensor<f32>
      }) {device = "/device:CPU:0"} : () -> tensor<f32>
      %s = "tf_device.cluster"() ({
        %t = "tf.AddN"(%o, %k, %h, %l) : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
        tf_device.return %t : tensor<f32>
      }) : () -> tensor<f32>
      tf_executor.yield %s : tensor<f32>
    }
    tf_executor.fetch %r : tensor<f32>
  }
  func.return %g : tensor<f32>
}
