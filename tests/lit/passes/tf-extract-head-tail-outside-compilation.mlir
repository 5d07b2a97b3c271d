// RUN: tfmlir-opt %s -split-input-file -tf-extract-head-tail-outside-compilation | FileCheck %s
// RUN: tfmlir-opt %s -split-input-file -tf-extract-head-tail-outside-compilation -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// Head: an outside-compiled op fed only from outside the cluster moves into a
// launch on the host (the CPU:0 of the first TPU's task) before the cluster,
// losing _xla_outside_compilation; its other attributes stay. Its users in
// the cluster take the launch's result.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0"]} {
  // CHECK-LABEL: func @head_op
  func.func @head_op(%arg0: tensor<i32>) -> tensor<i32> {
    // CHECK:      %[[L:.*]] = "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:   %[[A:.*]] = "tf.Abs"(%arg0) {keep = 1 : i32} : (tensor<i32>) -> tensor<i32>
    // CHECK-NEXT:   tf_device.return %[[A]] : tensor<i32>
    // CHECK-NEXT: }) : () -> tensor<i32>
    // CHECK-NEXT: %[[C:.*]] = "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%[[L]])
    // CHECK-NEXT:   tf_device.return %[[N]]
    // CHECK-NEXT: }) {device_assignment = [], num_cores_per_replica = 1 : i64, topology = ""}
    // CHECK-NEXT: return %[[C]]
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc", keep = 1 : i32} : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Neg"(%1) : (tensor<i32>) -> tensor<i32>
      tf_device.return %2 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // Several head ops share one launch, in order; only results used outside
  // the head ops are returned. An op fed by a device op and used by one
  // stays.
  // CHECK-LABEL: func @head_chain
  func.func @head_chain(%arg0: tensor<i32>) -> tensor<i32> {
    // CHECK:      %[[L:.*]] = "tf_device.launch"()
    // CHECK-NEXT:   %[[A:.*]] = "tf.Abs"(%arg0)
    // CHECK-NEXT:   %[[B:.*]] = "tf.Sign"(%[[A]])
    // CHECK-NEXT:   %[[F:.*]] = "tf.ZerosLike"(%arg0)
    // CHECK-NEXT:   tf_device.return %[[B]] : tensor<i32>
    // CHECK-NEXT: })
    // CHECK-NEXT: "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%[[L]])
    // CHECK-NEXT:   %[[S:.*]] = "tf.Square"(%[[N]]) {_xla_outside_compilation = "oc"}
    // CHECK-NEXT:   %[[I:.*]] = "tf.Identity"(%[[S]]) : (tensor<i32>) -> tensor<i32>
    // CHECK-NEXT:   tf_device.return %[[I]]
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Sign"(%1) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %3 = "tf.Neg"(%2) : (tensor<i32>) -> tensor<i32>
      %4 = "tf.Square"(%3) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %5 = "tf.ZerosLike"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %6 = "tf.Identity"(%4) : (tensor<i32>) -> tensor<i32>
      tf_device.return %6 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // A value of a head op the cluster returned is no longer returned: its
  // users take the launch's result; the cluster keeps its other results in
  // order (duplicates too when no tail op moves).
  // CHECK-LABEL: func @head_returned
  func.func @head_returned(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) {
    // CHECK:      %[[L:.*]] = "tf_device.launch"()
    // CHECK:      %[[C:.*]]:2 = "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%[[L]])
    // CHECK-NEXT:   tf_device.return %[[N]], %[[N]] : tensor<i32>, tensor<i32>
    // CHECK:      return %[[C]]#0, %[[L]], %[[C]]#1, %[[L]]
    %0:4 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Neg"(%1) : (tensor<i32>) -> tensor<i32>
      tf_device.return %2, %1, %2, %1 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>)
    func.return %0#0, %0#1, %0#2, %0#3 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
  }

  // A region op at the head moves whole; its block arguments used inside it
  // do not hold it back. Nested ops keep their own markers.
  // CHECK-LABEL: func @head_region_op
  func.func @head_region_op(%arg0: tensor<i32>) -> tensor<i32> {
    // CHECK:      %[[L:.*]] = "tf_device.launch"()
    // CHECK-NEXT:   %[[W:.*]] = "tf.WhileRegion"(%arg0) <{is_stateless = true}>
    // CHECK:          "tf.Neg"(%{{.*}}) {_xla_outside_compilation = "inner"}
    // CHECK:        }) : (tensor<i32>) -> tensor<i32>
    // CHECK-NEXT:   tf_device.return %[[W]]
    // CHECK:      "tf_device.cluster"() ({
    // CHECK-NEXT:   "tf.Square"(%[[L]])
    %0 = "tf_device.cluster"() ({
      %1 = "tf.WhileRegion"(%arg0) ({
      ^bb0(%a: tensor<i32>):
        %c = "tf.ToBool"(%a) : (tensor<i32>) -> tensor<i1>
        "tf.Yield"(%c) : (tensor<i1>) -> ()
      }, {
      ^bb0(%a: tensor<i32>):
        %n = "tf.Neg"(%a) {_xla_outside_compilation = "inner"} : (tensor<i32>) -> tensor<i32>
        "tf.Yield"(%n) : (tensor<i32>) -> ()
      }) {is_stateless = true, _xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Square"(%1) : (tensor<i32>) -> tensor<i32>
      tf_device.return %2 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // A region op whose nested op uses a device value of the cluster is no
  // head op.
  // CHECK-LABEL: func @head_blocked_by_nested_use
  // CHECK-NOT:   tf_device.launch
  // CHECK:       return
  func.func @head_blocked_by_nested_use(%arg0: tensor<i1>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg1) : (tensor<i32>) -> tensor<i32>
      %2 = "tf.IfRegion"(%arg0) ({
        %3 = "tf.Abs"(%1) : (tensor<i32>) -> tensor<i32>
        "tf.Yield"(%3) : (tensor<i32>) -> ()
      }, {
        "tf.Yield"(%arg1) : (tensor<i32>) -> ()
      }) {is_stateless = true, _xla_outside_compilation = "oc"} : (tensor<i1>) -> tensor<i32>
      %4 = "tf.Square"(%2) : (tensor<i32>) -> tensor<i32>
      tf_device.return %4 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // Tail: an outside-compiled op whose results only leave the cluster moves
  // into a launch after it; the cluster returns the device values it needs
  // (after its former results, without duplicates), the launch returns what
  // the cluster returned of it.
  // CHECK-LABEL: func @tail_ops
  func.func @tail_ops(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
    // CHECK:      %[[C:.*]]:3 = "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%arg0)
    // CHECK-NEXT:   %[[S:.*]] = "tf.Square"(%arg0)
    // CHECK-NEXT:   %[[F:.*]] = "tf.ZerosLike"(%arg0)
    // CHECK-NEXT:   tf_device.return %[[N]], %[[F]], %[[S]] : tensor<i32>, tensor<i32>, tensor<i32>
    // CHECK-NEXT: }) {device_assignment = [], num_cores_per_replica = 1 : i64, topology = ""} : () -> (tensor<i32>, tensor<i32>, tensor<i32>)
    // CHECK-NEXT: %[[L:.*]] = "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
    // CHECK-NEXT:   %[[A:.*]] = "tf.AddV2"(%[[C]]#2, %arg0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    // CHECK-NEXT:   %[[M:.*]] = "tf.Mul"(%[[A]], %[[C]]#0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    // CHECK-NEXT:   tf_device.return %[[M]] : tensor<i32>
    // CHECK-NEXT: }) : () -> tensor<i32>
    // CHECK-NEXT: return %[[C]]#0, %[[L]], %[[C]]#1
    %0:3 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Square"(%arg0) : (tensor<i32>) -> tensor<i32>
      %3 = "tf.AddV2"(%2, %arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %4 = "tf.ZerosLike"(%arg0) : (tensor<i32>) -> tensor<i32>
      %5 = "tf.Mul"(%3, %1) {_xla_outside_compilation = "oc"} : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tf_device.return %1, %5, %4 : tensor<i32>, tensor<i32>, tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> (tensor<i32>, tensor<i32>, tensor<i32>)
    func.return %0#0, %0#1, %0#2 : tensor<i32>, tensor<i32>, tensor<i32>
  }

  // Returned values from outside the cluster, and duplicates, are dropped
  // once something moved; a tail result only the cluster returned (and
  // nobody used) is still returned by the launch.
  // CHECK-LABEL: func @tail_aliases
  func.func @tail_aliases(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
    // CHECK:      %[[C:.*]] = "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%arg0)
    // CHECK-NEXT:   tf_device.return %[[N]] : tensor<i32>
    // CHECK-NEXT: })
    // CHECK-NEXT: %[[L:.*]] = "tf_device.launch"()
    // CHECK-NEXT:   %[[A:.*]] = "tf.Abs"(%[[C]])
    // CHECK-NEXT:   tf_device.return %[[A]] : tensor<i32>
    // CHECK-NEXT: }) : () -> tensor<i32>
    // CHECK-NEXT: return %arg0, %[[C]], %[[C]]
    %0:4 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg0) : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Abs"(%1) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return %arg0, %1, %1, %2 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>)
    func.return %0#0, %0#1, %0#2 : tensor<i32>, tensor<i32>, tensor<i32>
  }

  // A tail region op takes the device values its nested ops use from the
  // cluster's new results.
  // CHECK-LABEL: func @tail_region_op
  func.func @tail_region_op(%arg0: tensor<i1>, %arg1: tensor<i32>) {
    // CHECK:      %[[C:.*]] = "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%arg1)
    // CHECK-NEXT:   tf_device.return %[[N]] : tensor<i32>
    // CHECK:      "tf_device.launch"()
    // CHECK-NEXT:   "tf.IfRegion"(%arg0) <{is_stateless = true}> ({
    // CHECK-NEXT:     "tf.Abs"(%[[C]])
    // CHECK:        tf_device.return
    // CHECK-NEXT: }) : () -> ()
    "tf_device.cluster"() ({
      %1 = "tf.Neg"(%arg1) : (tensor<i32>) -> tensor<i32>
      "tf.IfRegion"(%arg0) ({
        %3 = "tf.Abs"(%1) : (tensor<i32>) -> tensor<i32>
        "tf.Yield"() : () -> ()
      }, {
        "tf.Yield"() : () -> ()
      }) {is_stateless = true, _xla_outside_compilation = "oc"} : (tensor<i1>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    func.return
  }

  // Head and tail in one cluster: an op fed only by head ops is a head op
  // too, wherever it is; one in the middle stays.
  // CHECK-LABEL: func @head_and_tail
  func.func @head_and_tail(%arg0: tensor<i32>) -> tensor<i32> {
    // CHECK:      %[[H:.*]]:2 = "tf_device.launch"()
    // CHECK-NEXT:   %[[A:.*]] = "tf.Abs"(%arg0)
    // CHECK-NEXT:   %[[I:.*]] = "tf.Identity"(%[[A]])
    // CHECK-NEXT:   tf_device.return %[[A]], %[[I]]
    // CHECK:      %[[C:.*]]:2 = "tf_device.cluster"() ({
    // CHECK-NEXT:   %[[N:.*]] = "tf.Neg"(%[[H]]#0)
    // CHECK-NEXT:   %[[S:.*]] = "tf.Sign"(%[[N]]) {_xla_outside_compilation = "oc"}
    // CHECK-NEXT:   %[[Q:.*]] = "tf.Square"(%[[S]])
    // CHECK-NEXT:   tf_device.return %[[Q]], %[[N]]
    // CHECK:      %[[T:.*]] = "tf_device.launch"()
    // CHECK-NEXT:   %[[M:.*]] = "tf.Mul"(%[[C]]#0, %[[C]]#1)
    // CHECK-NEXT:   %[[AD:.*]] = "tf.AddV2"(%[[M]], %[[H]]#1)
    // CHECK-NEXT:   tf_device.return %[[AD]]
    // CHECK:      return %[[T]]
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Neg"(%1) : (tensor<i32>) -> tensor<i32>
      %3 = "tf.Sign"(%2) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %4 = "tf.Square"(%3) : (tensor<i32>) -> tensor<i32>
      %5 = "tf.Mul"(%4, %2) {_xla_outside_compilation = "oc"} : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %6 = "tf.Identity"(%1) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      %7 = "tf.AddV2"(%5, %6) {_xla_outside_compilation = "oc"} : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tf_device.return %7 : tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }

  // Side effects: an outside-compiled op whose nearest control predecessor
  // stays on the device cannot move to the head, nor one whose nearest
  // control successor stays to the tail.
  // CHECK-LABEL: func @side_effects_middle
  // CHECK-NOT:   tf_device.launch
  // CHECK:       return
  func.func @side_effects_middle(%arg0: tensor<!tf_type.resource<tensor<i32>>>) {
    "tf_device.cluster"() ({
      %1 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<i32>>>) -> tensor<i32>
      "tf.AssignVariableOp"(%arg0, %1) {_xla_outside_compilation = "oc"} : (tensor<!tf_type.resource<tensor<i32>>>, tensor<i32>) -> ()
      %2 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<i32>>>) -> tensor<i32>
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    func.return
  }

  // Side-effecting ops at the head and the tail move when their neighbours
  // in the chain of effects move too; ops on other resources do not matter.
  // CHECK-LABEL: func @side_effects_ends
  func.func @side_effects_ends(%arg0: tensor<!tf_type.resource<tensor<i32>>>, %arg1: tensor<!tf_type.resource<tensor<i32>>>) {
    // CHECK:      "tf_device.launch"()
    // CHECK-NEXT:   %[[R:.*]] = "tf.ReadVariableOp"(%arg0)
    // CHECK-NEXT:   "tf.AssignVariableOp"(%arg0, %[[R]])
    // CHECK-NEXT:   tf_device.return
    // CHECK:      %[[C:.*]] = "tf_device.cluster"() ({
    // CHECK-NEXT:   "tf.ReadVariableOp"(%arg1)
    // CHECK-NEXT:   %[[R2:.*]] = "tf.ReadVariableOp"(%arg0)
    // CHECK-NEXT:   tf_device.return %[[R2]]
    // CHECK:      "tf_device.launch"()
    // CHECK-NEXT:   "tf.AssignVariableOp"(%arg0, %[[C]])
    // CHECK-NEXT:   tf_device.return
    "tf_device.cluster"() ({
      %1 = "tf.ReadVariableOp"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<!tf_type.resource<tensor<i32>>>) -> tensor<i32>
      %2 = "tf.ReadVariableOp"(%arg1) : (tensor<!tf_type.resource<tensor<i32>>>) -> tensor<i32>
      "tf.AssignVariableOp"(%arg0, %1) {_xla_outside_compilation = "oc"} : (tensor<!tf_type.resource<tensor<i32>>>, tensor<i32>) -> ()
      %3 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<i32>>>) -> tensor<i32>
      "tf.AssignVariableOp"(%arg0, %3) {_xla_outside_compilation = "oc"} : (tensor<!tf_type.resource<tensor<i32>>>, tensor<i32>) -> ()
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    func.return
  }

  // TPU embedding ops do not hold others back, and are not held back by
  // their own predecessors.
  // CHECK-LABEL: func @embedding_ops
  func.func @embedding_ops(%arg0: tensor<!tf_type.string>) {
    // CHECK:      "tf_device.launch"()
    // CHECK-NEXT:   "tf.EnqueueTPUEmbeddingArbitraryTensorBatch"
    // CHECK-NEXT:   "tf.Print"
    // CHECK-NEXT:   tf_device.return
    // CHECK:      "tf_device.cluster"() ({
    // CHECK-NEXT:   "tf.Const"
    // CHECK-NEXT:   "tf.Assert"
    // CHECK-NEXT:   "tf.RecvTPUEmbeddingActivations"
    // CHECK-NEXT:   tf_device.return
    "tf_device.cluster"() ({
      %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
      "tf.Assert"(%t, %arg0) {summarize = 3 : i64} : (tensor<i1>, tensor<!tf_type.string>) -> ()
      "tf.EnqueueTPUEmbeddingArbitraryTensorBatch"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<!tf_type.string>) -> ()
      %0 = "tf.RecvTPUEmbeddingActivations"() {config = "c"} : () -> tensor<2xf32>
      %1 = "tf.Print"(%arg0) {_xla_outside_compilation = "oc", message = "m"} : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
      tf_device.return
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
    func.return
  }

  // Ops marked for map outside compilation stay (whatever the bool), as do
  // ops whose marker is not a string; then nothing changes, aliased outputs
  // included.
  // CHECK-LABEL: func @not_candidates
  // CHECK-NOT:   tf_device.launch
  // CHECK:       %[[C:.*]]:2 = "tf_device.cluster"
  // CHECK:       tf_device.return %{{.*}}, %arg0
  // CHECK:       return %[[C]]#0, %[[C]]#1
  func.func @not_candidates(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %0:2 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc", _xla_map_outside_compilation = false} : (tensor<i32>) -> tensor<i32>
      %2 = "tf.Neg"(%1) {_xla_outside_compilation = 0 : i32} : (tensor<i32>) -> tensor<i32>
      tf_device.return %2, %arg0 : tensor<i32>, tensor<i32>
    }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> (tensor<i32>, tensor<i32>)
    func.return %0#0, %0#1 : tensor<i32>, tensor<i32>
  }

  // The new cluster keeps every attribute and the location of the old one;
  // the launches take the cluster's location.
  // CHECK-LABEL: func @attributes_and_locations
  // CHECK:       "tf_device.cluster"() <{policy = "p"}>
  // CHECK:       }) {_other = "x", device_assignment = [], num_cores_per_replica = 1 : i64, topology = ""} : () -> ()
  // LOC-LABEL:   func @attributes_and_locations
  // LOC:         "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}>
  // LOC-NEXT:      "tf.Abs"{{.*}} loc("abs")
  // LOC-NEXT:      tf_device.return {{.*}} loc("cluster")
  // LOC-NEXT:    }) : () -> tensor<i32> loc("cluster")
  // LOC-NEXT:    "tf_device.cluster"() <{policy = "p"}>
  // LOC-NEXT:      tf_device.return loc("return")
  // LOC-NEXT:    }) {{.*}} loc("cluster")
  func.func @attributes_and_locations(%arg0: tensor<i32>) {
    "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32> loc("abs")
      tf_device.return %1 : tensor<i32> loc("return")
    }) {policy = "p", _other = "x", num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> (tensor<i32>) loc("cluster")
    func.return
  }
}

// -----

// Inside a tf_device.replicate the host is TPU_REPLICATED_HOST_0.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0", "/job:w/replica:0/task:0/device:TPU:1"]} {
  // CHECK-LABEL: func @replicated
  func.func @replicated(%arg0: tensor<i32>, %arg1: tensor<i32>) {
    // CHECK:      tf_device.replicate([%arg0, %arg1] as %[[RI:.*]]: tensor<i32>)
    // CHECK-NEXT:   %[[H:.*]] = "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}>
    // CHECK-NEXT:     "tf.Abs"(%[[RI]])
    // CHECK:        %[[C:.*]] = "tf_device.cluster"()
    // CHECK-NEXT:     %[[N:.*]] = "tf.Neg"(%[[H]])
    // CHECK-NEXT:     tf_device.return %[[N]]
    // CHECK:        "tf_device.launch"() <{device = "TPU_REPLICATED_HOST_0"}>
    // CHECK-NEXT:     "tf.Sign"(%[[C]])
    tf_device.replicate([%arg0, %arg1] as %ri: tensor<i32>) {n = 2 : i32} {
      "tf_device.cluster"() ({
        %1 = "tf.Abs"(%ri) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
        %2 = "tf.Neg"(%1) : (tensor<i32>) -> tensor<i32>
        %3 = "tf.Sign"(%2) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
        tf_device.return
      }) {num_cores_per_replica = 1, topology = "", device_assignment = []} : () -> ()
      tf_device.return
    }
    func.return
  }
}

// -----

// Without TPU devices, the CPU:0 device is the host; a chief job's wins.

module attributes {tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", "/job:chief/replica:0/task:0/device:CPU:0", "/job:w/replica:0/task:0/device:CPU:1"]} {
  // CHECK-LABEL: func @generic_host
  // CHECK:       "tf_device.launch"() <{device = "/job:chief/replica:0/task:0/device:CPU:0"}>
  func.func @generic_host(%arg0: tensor<i32>) {
    "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
      tf_device.return
    }) : () -> ()
    func.return
  }

  // A cluster without outside compilation needs no host and stays as it is.
  // CHECK-LABEL: func @untouched
  // CHECK:       %[[C:.*]]:2 = "tf_device.cluster"
  // CHECK:       tf_device.return %{{.*}}, %arg0
  func.func @untouched(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %0:2 = "tf_device.cluster"() ({
      %1 = "tf.Abs"(%arg0) : (tensor<i32>) -> tensor<i32>
      tf_device.return %1, %arg0 : tensor<i32>, tensor<i32>
    }) : () -> (tensor<i32>, tensor<i32>)
    func.return %0#0, %0#1 : tensor<i32>, tensor<i32>
  }
}
