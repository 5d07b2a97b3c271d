// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-embedding-program-key | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-embedding-program-key -mlir-print-debuginfo -mlir-print-local-scope 2>/dev/null | FileCheck %s --check-prefix=LOC

// The compile launch comes first: the preprocessing ops (mini_batch_splits or
// mini_batch_in_csr) take its program as operand 0, nothing moves.

// CHECK-LABEL: func @compile_first
func.func @compile_first(%row: tensor<16xi32>, %col: tensor<16xi32>, %gain: tensor<16xf32>) {
  // CHECK:      %[[COMPILE:.*]]:2 = "tf_device.launch"
  // CHECK-NEXT:   "tf._TPUCompileMlir"
  // CHECK:      "tf_device.launch"
  // CHECK-NEXT:   %[[KEY:.*]] = "tf.Const"
  // CHECK-NEXT:   %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MAX_IDS:.*]], %[[MAX_UNIQUES:.*]] = "tf.GetMinibatchSplitsWithPhysicalReplica"(%[[COMPILE]]#1,
  // CHECK-NEXT:   "tf.StoreMinibatchStatisticsInFdo"(%[[COMPILE]]#1, %[[MAX_IDS]], %[[MAX_UNIQUES]])
  // CHECK-NEXT:   "tf.GetMinibatchesInCsrWithPhysicalReplica"(%[[COMPILE]]#1,
  // CHECK-NEXT:   tf_device.return
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  "tf_device.launch"() ({
    %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
    %0:7 = "tf.GetMinibatchSplitsWithPhysicalReplica"(%key, %row, %col, %gain) {sample_count = 16 : i64, num_replica = 2 : i64, table_vocab_size = 100 : i64, feature_width = 8 : i64, num_sc_per_chip = 4 : i64, table_name = "t", mini_batch_splits = ""} : (tensor<1x!tf_type.string>, tensor<16xi32>, tensor<16xi32>, tensor<16xf32>) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<i64>, tensor<*xi32>, tensor<i32>, tensor<i32>)
    "tf.StoreMinibatchStatisticsInFdo"(%key, %0#5, %0#6) {sample_count = 16 : i64, num_replica = 2 : i64, feature_width = 8 : i64, num_sc_per_chip = 4 : i64, table_name = "t", mini_batch_splits = ""} : (tensor<1x!tf_type.string>, tensor<i32>, tensor<i32>) -> ()
    %1:7 = "tf.GetMinibatchesInCsrWithPhysicalReplica"(%key, %0#0, %0#1, %0#2, %0#3, %0#4) {sample_count = 16 : i64, num_replica = 2 : i64, max_minibatches_per_sc = 4 : i64, max_ids_per_chip_per_sample = 8 : i64, table_vocab_size = 100 : i64, feature_width = 8 : i64, num_sc_per_chip = 4 : i64, table_name = "t", mini_batch_in_csr = ""} : (tensor<1x!tf_type.string>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<i64>, tensor<*xi32>) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<i32>, tensor<i32>, tensor<i32>)
    tf_device.return
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> ()
  func.return
}

// -----

// The host launch comes first: the mini_batch_splits op and the ops using its
// results, transitively, move to a new launch after the compile launch (its
// location); the rest stays in a new launch in the old one's place. Each new
// launch returns its values used outside it; the users of the old launch's
// results use the new launches' results, or the function argument the old
// launch passed through.

// CHECK-LABEL: func @host_launch_first
// LOC-LABEL: func @host_launch_first
// LOC: "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
// LOC: }) : () -> (tensor<1x!tf_type.string>, tensor<i32>, tensor<i32>) loc("host")
// LOC: "tf._TPUCompileMlir"
// LOC: }) : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>) loc("compile")
// LOC-NEXT: "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
// LOC: tf_device.return {{.*}} loc("compile")
// LOC-NEXT: }) : () -> (tensor<i32>, tensor<i32>) loc("compile")
// CHECK-SAME: (%[[ARG:.*]]: tensor<i32>)
func.func @host_launch_first(%arg: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) {
  // CHECK-NEXT: %[[KEPT:.*]]:3 = "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT:   %[[KEY:.*]] = "tf.Const"() <{value = dense<""> : tensor<1x!tf_type.string>}>
  // CHECK-NEXT:   %[[X:.*]] = "tf.Neg"(%[[ARG]])
  // CHECK-NEXT:   %[[Y:.*]] = "tf.Abs"(%[[ARG]])
  // CHECK-NEXT:   tf_device.return %[[KEY]], %[[X]], %[[Y]] : tensor<1x!tf_type.string>, tensor<i32>, tensor<i32>
  // CHECK-NEXT: }) : () -> (tensor<1x!tf_type.string>, tensor<i32>, tensor<i32>)
  // CHECK-NEXT: "tf.Identity"(%[[KEPT]]#2)
  // CHECK-NEXT: %[[COMPILE:.*]]:2 = "tf_device.launch"
  // CHECK-NEXT:   "tf._TPUCompileMlir"
  // CHECK-NEXT:   tf_device.return
  // CHECK-NEXT: })
  // CHECK-NEXT: %[[MOVED:.*]]:2 = "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT:   %[[A:.*]] = "tf.OpA"(%[[COMPILE]]#1, %[[KEPT]]#1) {mini_batch_splits = ""}
  // CHECK-NEXT:   %[[B:.*]] = "tf.OpB"(%[[A]], %[[KEPT]]#1)
  // CHECK-NEXT:   %[[C:.*]] = "tf.OpC"(%[[COMPILE]]#1, %[[B]]) {mini_batch_in_csr = ""}
  // CHECK-NEXT:   "tf.OpD"(%[[C]])
  // CHECK-NEXT:   tf_device.return %[[B]], %[[C]] : tensor<i32>, tensor<i32>
  // CHECK-NEXT: }) : () -> (tensor<i32>, tensor<i32>)
  // CHECK-NEXT: return %[[MOVED]]#1, %[[KEPT]]#2, %[[ARG]], %[[MOVED]]#0
  %0:4 = "tf_device.launch"() ({
    %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
    %x = "tf.Neg"(%arg) : (tensor<i32>) -> tensor<i32>
    %a = "tf.OpA"(%key, %x) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>, tensor<i32>) -> tensor<i32>
    %b = "tf.OpB"(%a, %x) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %y = "tf.Abs"(%arg) : (tensor<i32>) -> tensor<i32>
    %c = "tf.OpC"(%key, %b) {mini_batch_in_csr = ""} : (tensor<1x!tf_type.string>, tensor<i32>) -> tensor<i32>
    "tf.OpD"(%c) : (tensor<i32>) -> ()
    tf_device.return %c, %y, %arg, %b : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0", _other = "dropped"} : () -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) loc("host")
  %1 = "tf.Identity"(%0#1) : (tensor<i32>) -> tensor<i32>
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>) loc("compile")
  func.return %0#0, %0#1, %0#2, %0#3 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
}

// -----

// Two independent mini_batch_splits ops in one launch move one after the other;
// each new launch goes right after the compile launch, so the second one
// comes first. The launch left behind keeps the placeholder.

// CHECK-LABEL: func @two_moves
func.func @two_moves() {
  // CHECK-NEXT: "tf_device.launch"() <{device = "/job:worker/replica:0/task:0/device:CPU:0"}> ({
  // CHECK-NEXT:   %[[KEY:.*]] = "tf.Const"
  // CHECK-NEXT:   tf_device.return %[[KEY]]
  // CHECK-NEXT: }) : () -> tensor<1x!tf_type.string>
  // CHECK-NEXT: %[[COMPILE:.*]]:2 = "tf_device.launch"
  // CHECK-NEXT:   "tf._TPUCompileMlir"
  // CHECK-NEXT:   tf_device.return
  // CHECK-NEXT: })
  // CHECK-NEXT: "tf_device.launch"
  // CHECK-NEXT:   "tf.OpB"(%[[COMPILE]]#1)
  // CHECK-NEXT:   tf_device.return
  // CHECK-NEXT: })
  // CHECK-NEXT: "tf_device.launch"
  // CHECK-NEXT:   "tf.OpA"(%[[COMPILE]]#1)
  // CHECK-NEXT:   tf_device.return
  // CHECK-NEXT: })
  "tf_device.launch"() ({
    %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
    "tf.OpA"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> ()
    "tf.OpB"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> ()
    tf_device.return
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> ()
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  func.return
}

// -----

// A mini_batch_splits op outside any launch: the compile launch following it
// in its block moves right before it.

// CHECK-LABEL: func @standalone_op
func.func @standalone_op(%arg: tensor<i32>) {
  // CHECK-NEXT: "tf.Const"
  // CHECK-NEXT: %[[COMPILE:.*]]:2 = "tf_device.launch"
  // CHECK-NEXT:   "tf._TPUCompileMlir"
  // CHECK-NEXT:   tf_device.return
  // CHECK-NEXT: })
  // CHECK-NEXT: "tf.OpA"(%[[COMPILE]]#1)
  // CHECK-NEXT: "tf.Neg"
  // CHECK-NEXT: return
  %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  "tf.OpA"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> ()
  %n = "tf.Neg"(%arg) : (tensor<i32>) -> tensor<i32>
  %s, %p = "tf_device.launch"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  func.return
}

// -----

// The program comes out of a replicate as replica 0's result; a compile op
// not in a launch counts as a predecessor too; inside the replicate an op
// takes the compile launch's own result. A compile op whose program does not
// reach the op's scope is skipped.

// CHECK-LABEL: func @replicated_compile
func.func @replicated_compile() {
  // CHECK:      %[[REP:.*]]:4 = tf_device.replicate
  // CHECK-NEXT:   %[[INNER:.*]]:2 = "tf_device.launch"
  // CHECK:        "tf_device.launch"
  // CHECK-NEXT:     "tf.Const"
  // CHECK-NEXT:     "tf.OpB"(%[[INNER]]#1) {mini_batch_splits = ""}
  // CHECK:      "tf.OpA"(%[[REP]]#2) {mini_batch_in_csr = ""}
  %0:4 = tf_device.replicate {n = 2 : i32} {
    %s, %p = "tf_device.launch"() ({
      %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
      tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
    }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    "tf_device.launch"() ({
      %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
      "tf.OpB"(%key) {mini_batch_splits = ""} : (tensor<1x!tf_type.string>) -> ()
      tf_device.return
    }) {device = "TPU_REPLICATED_HOST_0"} : () -> ()
    tf_device.return %s, %p : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }
  %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  "tf.OpA"(%key) {mini_batch_in_csr = ""} : (tensor<1x!tf_type.string>) -> ()
  func.return
}

// CHECK-LABEL: func @bare_compile
func.func @bare_compile() {
  // CHECK:      tf_device.replicate
  // CHECK-NEXT:   "tf_device.launch"
  // CHECK-NEXT:     "tf._TPUCompileMlir"() <{metadata = "unreturned"
  // CHECK:      %{{.*}}, %[[PROGRAM:.*]] = "tf._TPUCompileMlir"() <{metadata = "bare"
  // CHECK:      "tf.OpA"(%[[PROGRAM]])
  tf_device.replicate {n = 2 : i32} {
    %s, %p = "tf_device.launch"() ({
      %status1, %program1 = "tf._TPUCompileMlir"() {metadata = "unreturned", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
      tf_device.return %status1, %program1 : tensor<!tf_type.string>, tensor<3x!tf_type.string>
    }) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return
  }
  %status, %program = "tf._TPUCompileMlir"() {metadata = "bare", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  "tf.OpA"(%key) {mini_batch_in_csr = ""} : (tensor<1x!tf_type.string>) -> ()
  func.return
}

// -----

// A program key that is not a tf.Const is no placeholder: without a compile
// op it stays as it is.

// CHECK-LABEL: func @key_from_argument
func.func @key_from_argument(%key: tensor<3x!tf_type.string>) {
  // CHECK-NEXT: "tf.OpA"(%arg0) {mini_batch_splits = ""}
  "tf.OpA"(%key) {mini_batch_splits = ""} : (tensor<3x!tf_type.string>) -> ()
  func.return
}

// -----

// A compile op returned by a wrapper that is neither a launch nor a
// replicate is reported (as TF) and skipped; the next one is taken.

// CHECK-LABEL: func @unsupported_wrapper
func.func @unsupported_wrapper() {
  // expected-error @+1 {{'tf_device.cluster' op Unsupported wrapper op.}}
  %0:2 = "tf_device.cluster"() ({
    %status, %program = "tf._TPUCompileMlir"() {metadata = "m", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
    tf_device.return %status, %program : tensor<!tf_type.string>, tensor<3x!tf_type.string>
  }) : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  // CHECK: %{{.*}}, %[[PROGRAM:.*]] = "tf._TPUCompileMlir"() <{metadata = "second"
  // CHECK: "tf.OpA"(%[[PROGRAM]])
  %status, %program = "tf._TPUCompileMlir"() {metadata = "second", mlir_module = "p"} : () -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)
  %key = "tf.Const"() {value = dense<""> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  "tf.OpA"(%key) {mini_batch_in_csr = ""} : (tensor<1x!tf_type.string>) -> ()
  func.return
}
