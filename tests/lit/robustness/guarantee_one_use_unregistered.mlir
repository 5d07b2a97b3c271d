// RUN: tfmlir-opt %s -split-input-file --allow-unregistered-dialect -verify-diagnostics -tf-guarantee-all-funcs-one-use | FileCheck %s

// -tf-guarantee-all-funcs-one-use with ops of unregistered dialects. An op
// with one region may be a symbol table: MLIR cannot tell which symbols the
// ops inside it use (its symbol-use walk asserts), so the pass fails there and
// changes nothing.

func.func @opaque_region() {
  // expected-error @+1 {{'test.scope' op has a region and its dialect is not registered: it may be a symbol table, so the uses of symbols inside it are unknown}}
  "test.scope"() ({
    "test.ref"() {fn = @leaf} : () -> ()
    "test.end"() : () -> ()
  }) : () -> ()
  func.call @leaf() : () -> ()
  func.return
}
func.func private @leaf() {
  func.return
}

// -----

// Other unregistered ops are ordinary users, and ops with several regions are
// walked like registered ones (the last region first).

// CHECK-LABEL: func.func @opaque_users
// CHECK: "test.use"() {fn = @leaf}
// CHECK: "test.two"() ({
// CHECK-NEXT: call @leaf_1()
// CHECK: }, {
// CHECK-NEXT: call @leaf_0()
// CHECK: func.func private @leaf_0()
// CHECK: func.func private @leaf_1()
func.func @opaque_users() {
  "test.use"() {fn = @leaf} : () -> ()
  "test.two"() ({
    func.call @leaf() : () -> ()
    "test.end"() : () -> ()
  }, {
    func.call @leaf() : () -> ()
    "test.end"() : () -> ()
  }) : () -> ()
  func.return
}
func.func private @leaf() {
  func.return
}
