// RUN: tfmlir-opt %s -split-input-file -tf-merge-control-flow | FileCheck %s

// Ifs on one predicate merge: branch ops in order, the first if's function
// names, is_stateless only if all are; results used outside the ifs stay
// results (in order), results used only by a later if are replaced there.

// CHECK-LABEL: func @merged
// CHECK:      tf_device.cluster
// CHECK:        %[[IF:[0-9]+]]:2 = "tf.IfRegion"(%{{.*}}) <{_else_func_name = "else0", _then_func_name = "then0", is_stateless = false}>
// CHECK-NEXT:     %[[A:[0-9]+]] = "tf.OpA"()
// CHECK-NEXT:     %[[B:[0-9]+]] = "tf.OpB"(%[[A]])
// CHECK-NEXT:     %[[C:[0-9]+]] = "tf.OpC"()
// CHECK-NEXT:     "tf.Yield"(%[[B]], %[[C]])
// CHECK:          %[[D:[0-9]+]] = "tf.OpD"()
// CHECK-NEXT:     %[[E:[0-9]+]] = "tf.OpE"(%[[D]])
// CHECK-NEXT:     %[[F:[0-9]+]] = "tf.OpF"()
// CHECK-NEXT:     "tf.Yield"(%[[E]], %[[F]])
// CHECK-NOT:    "tf.IfRegion"
// CHECK:        "tf.Use"(%[[IF]]#0, %[[IF]]#1)
func.func @merged(%p: tensor<i1>) {
  "tf_device.cluster"() ({
    %0 = "tf.IfRegion"(%p) ({
      %a = "tf.OpA"() : () -> tensor<f32>
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }, {
      %d = "tf.OpD"() : () -> tensor<f32>
      "tf.Yield"(%d) : (tensor<f32>) -> ()
    }) {is_stateless = true, _then_func_name = "then0", _else_func_name = "else0", device = "dropped"} : (tensor<i1>) -> tensor<f32>
    %1 = "tf.IfRegion"(%p) ({
      %b = "tf.OpB"(%0) : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%b) : (tensor<f32>) -> ()
    }, {
      %e = "tf.OpE"(%0) : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%e) : (tensor<f32>) -> ()
    }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
    %2 = "tf.IfRegion"(%p) ({
      %c = "tf.OpC"() : () -> tensor<i32>
      "tf.Yield"(%c) : (tensor<i32>) -> ()
    }, {
      %f = "tf.OpF"() : () -> tensor<i32>
      "tf.Yield"(%f) : (tensor<i32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
    "tf.Use"(%1, %2) : (tensor<f32>, tensor<i32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// Different predicates, different blocks, and ifs outside a cluster stay.

// CHECK-LABEL: func @not_merged
// CHECK-COUNT-2: "tf.IfRegion"(%arg0)
// CHECK:      tf_device.cluster
// CHECK-COUNT-3: "tf.IfRegion"
func.func @not_merged(%p: tensor<i1>, %q: tensor<i1>) {
  "tf.IfRegion"(%p) ({
    "tf.OpA"() : () -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = true} : (tensor<i1>) -> ()
  "tf.IfRegion"(%p) ({
    "tf.OpB"() : () -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = true} : (tensor<i1>) -> ()
  "tf_device.cluster"() ({
    "tf.IfRegion"(%p) ({
      "tf.OpA"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    "tf.IfRegion"(%q) ({
      "tf.OpB"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    "tf_device.launch"() ({
      "tf.IfRegion"(%p) ({
        "tf.OpC"() : () -> ()
        "tf.Yield"() : () -> ()
      }, {
        "tf.Yield"() : () -> ()
      }) {is_stateless = true} : (tensor<i1>) -> ()
      tf_device.return
    }) {device = "d"} : () -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// An op between the ifs that uses the first if and feeds the second keeps
// them apart; so does a read between them ordered after a write in the first.
// The two ifs in the middle merge.

// CHECK-LABEL: func @dependencies
// CHECK:      tf_device.cluster
// CHECK:        "tf.IfRegion"
// CHECK:        "tf.Neg"
// CHECK-NEXT:   "tf.IfRegion"
// CHECK-NEXT:     "tf.OpB"
// CHECK-NEXT:     "tf.Const"
// CHECK-NEXT:     "tf.AssignVariableOp"
// CHECK:        "tf.ReadVariableOp"
// CHECK-NEXT:   "tf.IfRegion"
// CHECK-NEXT:     "tf.OpC"
func.func @dependencies(%p: tensor<i1>, %v: tensor<*x!tf_type.resource<tensor<f32>>>) {
  "tf_device.cluster"() ({
    %0 = "tf.IfRegion"(%p) ({
      %a = "tf.OpA"() : () -> tensor<f32>
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }, {
      %a = "tf.OpA"() : () -> tensor<f32>
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    %m = "tf.Neg"(%0) : (tensor<f32>) -> tensor<f32>
    "tf.IfRegion"(%p) ({
      "tf.OpB"(%m) : (tensor<f32>) -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    "tf.IfRegion"(%p) ({
      %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
      "tf.AssignVariableOp"(%v, %c) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : (tensor<i1>) -> ()
    %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    "tf.IfRegion"(%p) ({
      "tf.OpC"(%r) : (tensor<f32>) -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// Ops between the ifs that depend on the first one (data or side effects) and
// that the second does not need move after the merged if.

// CHECK-LABEL: func @moved_after
// CHECK:      tf_device.cluster
// CHECK-NEXT:   %[[C:.*]] = "tf.Const"
// CHECK-NEXT:   %[[IF:[0-9]+]]:2 = "tf.IfRegion"
// CHECK:        "tf.AssignVariableOp"
// CHECK-NEXT:   %[[READ:.*]] = "tf.ReadVariableOp"
// CHECK-NEXT:   "tf.Use"(%[[IF]]#0, %[[READ]], %[[IF]]#1)
func.func @moved_after(%p: tensor<i1>, %v: tensor<*x!tf_type.resource<tensor<f32>>>) {
  "tf_device.cluster"() ({
    %0 = "tf.IfRegion"(%p) ({
      %a = "tf.OpA"() : () -> tensor<f32>
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }, {
      %a = "tf.OpA"() : () -> tensor<f32>
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    "tf.AssignVariableOp"(%v, %0) : (tensor<*x!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    %r = "tf.ReadVariableOp"(%v) : (tensor<*x!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %1 = "tf.IfRegion"(%p) ({
      %b = "tf.OpB"(%c) : (tensor<f32>) -> tensor<f32>
      "tf.Yield"(%b) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%c) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    "tf.Use"(%0, %r, %1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// Two predicates interleaved: each group merges on its own.

// CHECK-LABEL: func @interleaved
// CHECK:      tf_device.cluster
// CHECK:        "tf.IfRegion"(%arg0)
// CHECK-NEXT:     "tf.OpA"
// CHECK-NEXT:     "tf.OpC"
// CHECK:        "tf.IfRegion"(%arg1)
// CHECK-NEXT:     "tf.OpB"
// CHECK-NEXT:     "tf.OpD"
// CHECK-NOT:    "tf.IfRegion"
func.func @interleaved(%p: tensor<i1>, %q: tensor<i1>) {
  "tf_device.cluster"() ({
    "tf.IfRegion"(%p) ({
      "tf.OpA"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    "tf.IfRegion"(%q) ({
      "tf.OpB"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    "tf.IfRegion"(%p) ({
      "tf.OpC"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    "tf.IfRegion"(%q) ({
      "tf.OpD"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}
