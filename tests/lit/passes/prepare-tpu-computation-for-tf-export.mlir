// RUN: tfmlir-opt %s -split-input-file -prepare-tpu-computation-for-tf-export | FileCheck %s

// Argument shardings: a non-empty string sharding becomes a tf.XlaSharding
// that every other use of the argument reads; the attribute goes away (empty
// strings too), a sharding that is not a string stays, other attributes stay.

// CHECK-LABEL: func @shardings
// CHECK-SAME: (%[[A:[a-z0-9]+]]: tensor<8x4xf32>, %[[B:[a-z0-9]+]]: tensor<4xi32> {tf.keep = 7 : i64}, %[[C:[a-z0-9]+]]: tensor<4xi32>, %[[D:[a-z0-9]+]]: tensor<f32> {mhlo.sharding = 5 : i64})
func.func @shardings(%a: tensor<8x4xf32> {mhlo.sharding = "\08\02\1A\01"}, %b: tensor<4xi32> {mhlo.sharding = "", tf.keep = 7 : i64}, %c: tensor<4xi32> {mhlo.sharding = "\08\01"}, %d: tensor<f32> {mhlo.sharding = 5 : i64}) -> (tensor<8x4xf32>, tensor<4xi32>, tensor<f32>) {
  // CHECK-NEXT: %[[SA:.*]] = "tf.XlaSharding"(%[[A]]) <{_XlaSharding = "\08\02\1A\01", sharding = "\08\02\1A\01"}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK-NEXT: %[[SC:.*]] = "tf.XlaSharding"(%[[C]]) <{_XlaSharding = "\08\01", sharding = "\08\01"}> : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NEXT: %[[N:.*]] = "tf.Neg"(%[[SA]])
  // CHECK-NEXT: %[[ADD:.*]] = "tf.AddV2"(%[[B]], %[[SC]])
  // CHECK-NEXT: return %[[N]], %[[ADD]], %[[D]]
  %0 = "tf.Neg"(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = "tf.AddV2"(%b, %c) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %0, %1, %d : tensor<8x4xf32>, tensor<4xi32>, tensor<f32>
}

// Once no argument attribute is left, arg_attrs goes; the sharding of an
// argument nothing uses is created and, unused, removed again (dead code).

// CHECK-LABEL: func @only_shardings
// CHECK-SAME: (%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NOT: XlaSharding
// CHECK: return
func.func @only_shardings(%a: tensor<2xf32> {mhlo.sharding = ""}, %b: tensor<2xf32> {mhlo.sharding = "\08\01"}) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

// A declaration keeps only what is not a sharding.
// CHECK-LABEL: func private @declared(tensor<2xf32>, tensor<2xf32> {tf.keep})
func.func private @declared(tensor<2xf32> {mhlo.sharding = ""}, tensor<2xf32> {mhlo.sharding = "", tf.keep})

// -----

// _XlaHostComputeMlir becomes XlaHostCompute; its host function is cloned
// after the function holding it, receiving the op's operands from the device
// and sending the function's results back. Unranked and dynamic result
// shapes become #tf_type.shape attributes; the op's other attributes go.

// CHECK-LABEL: func @host_compute
func.func @host_compute(%x: tensor<?x2xf32>, %y: tensor<*xi32>) -> (tensor<?x2xf32>, tensor<*xi32>) {
  // CHECK: %[[HC:.*]]:2 = "tf.XlaHostCompute"(%arg0, %arg1) <{ancestors = [], cost_estimate_ns = 1000000 : i64, key = "", recv_key = "to_device", send_key = "to_host", shape_inference_graph = @host_func, shapes = [#tf_type.shape<?x2>, #tf_type.shape<*>], tpu_core = 0 : i64}>
  // CHECK-SAME: _xla_original_oc_node_name = "tf.XlaHostCompute", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  // CHECK-NOT: _xla_outside_compilation
  // CHECK-NOT: device
  // CHECK-SAME: (tensor<?x2xf32>, tensor<*xi32>) -> (tensor<?x2xf32>, tensor<*xi32>)
  %0:2 = "tf._XlaHostComputeMlir"(%x, %y) {send_key = "to_host", recv_key = "to_device", _xla_outside_compilation = "oc0", device = "/job:worker/device:CPU:0", host_mlir_module = "module {\0A  func.func @host_func(%a: tensor<?x2xf32>, %b: tensor<*xi32>) -> (tensor<?x2xf32>, tensor<*xi32>) {\0A    %n = \22tf.Neg\22(%a) : (tensor<?x2xf32>) -> tensor<?x2xf32>\0A    func.return %n, %b : tensor<?x2xf32>, tensor<*xi32>\0A  }\0A}\0A"} : (tensor<?x2xf32>, tensor<*xi32>) -> (tensor<?x2xf32>, tensor<*xi32>)
  // CHECK-NEXT: return %[[HC]]#0, %[[HC]]#1
  func.return %0#0, %0#1 : tensor<?x2xf32>, tensor<*xi32>
}
// CHECK-NEXT: }
// CHECK-NEXT: func @host_func(%{{.*}}: tensor<?x2xf32>, %{{.*}}: tensor<*xi32>) -> (tensor<?x2xf32>, tensor<*xi32>)
// CHECK-NEXT: %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"() : () -> tensor<3x!tf_type.string>
// CHECK-NEXT: %[[RECV:.*]]:2 = "tf._XlaRecvAtHost"(%[[KEY]]) <{device_ordinal = 0 : i64, device_type = "TPU", key = "to_host"}> : (tensor<3x!tf_type.string>) -> (tensor<?x2xf32>, tensor<*xi32>)
// CHECK-NEXT: %[[NEG:.*]] = "tf.Neg"(%[[RECV]]#0)
// CHECK-NEXT: "tf._XlaSendFromHost"(%[[NEG]], %[[RECV]]#1, %[[KEY]]) <{device_ordinal = 0 : i64, device_type = "TPU", key = "to_device"}>
// CHECK-NEXT: return %[[NEG]], %[[RECV]]#1

// -----

// Two host computations in one function, the name host_func taken already:
// MLIR's driver rewrites the later op first, so it gets host_func_0 and the
// earlier one host_func_1 (put right after the function, before the other).
// The token chain follows the ops' order in the block.

// CHECK-LABEL: func @two_host_computes
func.func @two_host_computes(%x: tensor<i32>) -> tensor<i32> {
  // CHECK: "tf.XlaHostCompute"(%arg0) <{{{.*}}shape_inference_graph = @host_func_1{{.*}}}> {_xla_original_oc_node_name = "tf.XlaHostCompute", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  // CHECK: "tf.XlaHostCompute"(%{{.*}}) <{{{.*}}shape_inference_graph = @host_func_0{{.*}}}> {_xla_original_oc_node_name = "tf.XlaHostCompute1", _xla_token_input_nodes = ["tf.XlaHostCompute"]}
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s1", recv_key = "r1", host_mlir_module = "module {\0A  func.func @host_func(%a: tensor<i32>) -> tensor<i32> {\0A    func.return %a : tensor<i32>\0A  }\0A}\0A"} : (tensor<i32>) -> tensor<i32>
  %1 = "tf._XlaHostComputeMlir"(%0) {send_key = "s2", recv_key = "r2", host_mlir_module = "module {\0A  func.func @host_func(%a: tensor<i32>) -> tensor<i32> {\0A    %b = \22tf.Abs\22(%a) : (tensor<i32>) -> tensor<i32>\0A    func.return %b : tensor<i32>\0A  }\0A}\0A"} : (tensor<i32>) -> tensor<i32>
  func.return %1 : tensor<i32>
}
// CHECK: func @host_func_1
// CHECK: key = "s1"
// CHECK: key = "r1"
// CHECK: func @host_func_0
// CHECK: key = "s2"
// CHECK: "tf.Abs"
// CHECK: key = "r2"
// CHECK: func private @host_func()
func.func private @host_func()

// -----

// With manual_sharding the op stays as it is (and is no communication op).

// CHECK-LABEL: func @manual_sharding
func.func @manual_sharding(%x: tensor<i32>) -> tensor<f32> {
  // CHECK: "tf._XlaHostComputeMlir"(%arg0) <{host_mlir_module = "", manual_sharding = true, recv_key = "r", send_key = "s"}> : (tensor<i32>) -> tensor<f32>
  // CHECK-NOT: _xla_token_input_nodes
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s", recv_key = "r", host_mlir_module = "", manual_sharding = true} : (tensor<i32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Send/recv keys get the old bridge's suffixes; in each region the ops get a
// chain of token inputs; names come from name locations (else op names), made
// unique across the module.

// CHECK-LABEL: func @send_recv
func.func @send_recv(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: "tf.XlaSendToHost"(%arg0) <{key = "first_dtoh_0"}> {_xla_original_oc_node_name = "tf.XlaSendToHost", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  "tf.XlaSendToHost"(%x) {key = "first"} : (tensor<2xf32>) -> ()
  // CHECK: "tf.XlaRecvFromHost"() <{key = "second_htod_0", shape = #tf_type.shape<2>}> {_xla_original_oc_node_name = "recv", _xla_token_input_nodes = ["tf.XlaSendToHost"]}
  %0 = "tf.XlaRecvFromHost"() {key = "second", shape = #tf_type.shape<2>} : () -> tensor<2xf32> loc("recv")
  // CHECK: "tf.XlaSendToHost"(%{{.*}}) <{key = "third_dtoh_0"}> {_xla_original_oc_node_name = "tf.XlaSendToHost1", _xla_token_input_nodes = ["recv"]}
  "tf.XlaSendToHost"(%0) {key = "third"} : (tensor<2xf32>) -> ()
  // CHECK: "tf.XlaRecvFromHost"() <{key = "fourth_htod_0", shape = #tf_type.shape<2>}> {_xla_original_oc_node_name = "recv1", _xla_token_input_nodes = ["tf.XlaSendToHost1"]}
  %1 = "tf.XlaRecvFromHost"() {key = "fourth", shape = #tf_type.shape<2>} : () -> tensor<2xf32> loc("recv")
  func.return %1 : tensor<2xf32>
}

// -----

// Region control flow: the region holding a communication op and the op
// owning that region get tokens; a region op without one gets none.

// CHECK-LABEL: func @regions
func.func @regions(%p: tensor<i1>, %x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK: "tf.IfRegion"(%arg0) <{is_stateless = true}>
  // CHECK-NOT: _xla_token_input_nodes
  %0 = "tf.IfRegion"(%p) ({
    %a = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  // CHECK: }) : (tensor<i1>) -> tensor<f32>
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  // CHECK: "tf.WhileRegion"
  %1 = "tf.WhileRegion"(%x) ({
  ^bb0(%c: tensor<f32>):
    %t = "tf.Less"(%c, %x) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "tf.Yield"(%t) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<f32>):
    // CHECK: "tf.IfRegion"
    %2 = "tf.IfRegion"(%p) ({
      "tf.Yield"(%b) : (tensor<f32>) -> ()
    }, {
      // CHECK: "tf.XlaRecvFromHost"() <{key = "in_else_htod_0", shape = #tf_type.shape<>}> {_xla_original_oc_node_name = "tf.XlaRecvFromHost", _xla_token_input_nodes = ["_xla_token_arg_node"]}
      %r = "tf.XlaRecvFromHost"() {key = "in_else", shape = #tf_type.shape<>} : () -> tensor<f32>
      "tf.Yield"(%r) : (tensor<f32>) -> ()
    // CHECK: }) {_xla_original_oc_node_name = "tf.IfRegion", _xla_token_input_nodes = ["_xla_token_arg_node"]} : (tensor<i1>) -> tensor<f32>
    }) {is_stateless = false} : (tensor<i1>) -> tensor<f32>
    "tf.Yield"(%2) : (tensor<f32>) -> ()
  // CHECK: }) {_xla_original_oc_node_name = "tf.WhileRegion", _xla_token_input_nodes = ["_xla_token_arg_node"]} : (tensor<f32>) -> tensor<f32>
  }) {is_stateless = false} : (tensor<f32>) -> tensor<f32>
  func.return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// Calls: every op using a function with communication ops (and so on up the
// call chain) gets tokens; a call of a function without one gets none.

// CHECK-LABEL: func @caller
func.func @caller(%x: tensor<i32>) -> tensor<i32> {
  // CHECK: "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @middle}> {_xla_original_oc_node_name = "tf.StatefulPartitionedCall", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  %0 = "tf.StatefulPartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @middle} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func @middle
func.func @middle(%x: tensor<i32>) -> tensor<i32> {
  // CHECK: "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @plain}> : (tensor<i32>) -> tensor<i32>
  %0 = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @plain} : (tensor<i32>) -> tensor<i32>
  // CHECK: "tf.PartitionedCall"(%{{.*}}) <{config = "", config_proto = "", executor_type = "", f = @talks}> {_xla_original_oc_node_name = "tf.PartitionedCall", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  %1 = "tf.PartitionedCall"(%0) {config = "", config_proto = "", executor_type = "", f = @talks} : (tensor<i32>) -> tensor<i32>
  // CHECK: "tf.LegacyCall"(%{{.*}}) <{f = @talks}> {_xla_original_oc_node_name = "tf.LegacyCall", _xla_token_input_nodes = ["tf.PartitionedCall"]}
  %2 = "tf.LegacyCall"(%1) {f = @talks} : (tensor<i32>) -> tensor<i32>
  func.return %2 : tensor<i32>
}

// CHECK-LABEL: func @plain
// CHECK-NOT: _xla_token_input_nodes
func.func @plain(%x: tensor<i32>) -> tensor<i32> {
  %0 = "tf.Abs"(%x) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func @talks
func.func @talks(%x: tensor<i32>) -> tensor<i32> {
  // CHECK: "tf.XlaSendToHost"(%arg0) <{key = "out_dtoh_0"}> {_xla_original_oc_node_name = "tf.XlaSendToHost", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  "tf.XlaSendToHost"(%x) {key = "out"} : (tensor<i32>) -> ()
  // CHECK: "tf.XlaRecvFromHost"() <{key = "in_htod_0", shape = #tf_type.shape<>}> {_xla_original_oc_node_name = "tf.XlaRecvFromHost", _xla_token_input_nodes = ["tf.XlaSendToHost"]}
  %0 = "tf.XlaRecvFromHost"() {key = "in", shape = #tf_type.shape<>} : () -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// A function listed by tf.XlaCallModule holding an XlaHostCompute: the
// XlaCallModule gets tokens, the XlaHostCompute's own ones are replaced.

// CHECK-LABEL: func @call_module
func.func @call_module(%x: tensor<i32>) {
  // CHECK: "tf.XlaCallModule"(%arg0)
  // CHECK-SAME: {_xla_original_oc_node_name = "tf.XlaCallModule", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  "tf.XlaCallModule"(%x) {Sout = [], dim_args_spec = [], function_list = [@with_host_compute], module = "", platforms = [], version = 5 : i64} : (tensor<i32>) -> ()
  func.return
}

// CHECK-LABEL: func private @with_host_compute
func.func private @with_host_compute(%x: tensor<i32>) {
  // CHECK: "tf.XlaHostCompute"(%arg0)
  // CHECK-SAME: {_xla_original_oc_node_name = "tf.XlaHostCompute", _xla_token_input_nodes = ["_xla_token_arg_node"]}
  "tf.XlaHostCompute"(%x) {ancestors = [], key = "k", recv_key = "", send_key = "", shape_inference_graph = @shapes, shapes = [], _xla_original_oc_node_name = "old", _xla_token_input_nodes = ["older"]} : (tensor<i32>) -> ()
  func.return
}

func.func private @shapes(%x: tensor<i32>) {
  func.return
}

// -----

// The patterns run with MLIR's greedy driver on the whole module, which also
// folds constants and removes dead ops everywhere, as in TF.

// CHECK-LABEL: func @folded
func.func @folded(%x: tensor<2xf32>) -> tensor<i32> {
  // CHECK-NEXT: %[[C:.*]] = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
  // CHECK-NEXT: return %[[C]]
  %a = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %b = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %c = "tf.AddV2"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %unused = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %c : tensor<i32>
}

// -----

// A host function may itself hold an _XlaHostComputeMlir: once cloned into
// the module it is rewritten too, and its communication ops get tokens. (Name
// locations keep the names apart: TF names ops region by region in an order
// of its own, so equal names in two regions may be numbered either way.)

// CHECK-LABEL: func @nested_host_compute
// CHECK: "tf.XlaHostCompute"(%arg0) <{{{.*}}send_key = "s1", shape_inference_graph = @host_func, {{.*}}}> {_xla_original_oc_node_name = "outer", _xla_token_input_nodes = ["_xla_token_arg_node"]}
// CHECK: func @host_func
// CHECK-NEXT: %[[KEY:.*]] = "tf._XlaCompileMlirPlaceholderProgramKey"
// CHECK-NEXT: %[[RECV:.*]] = "tf._XlaRecvAtHost"(%[[KEY]]) <{{{.*}}key = "s1"}>
// CHECK-NEXT: %[[INNER:.*]] = "tf.XlaHostCompute"(%[[RECV]]) <{{{.*}}send_key = "s2", shape_inference_graph = @host_func_0, {{.*}}}> {_xla_original_oc_node_name = "inner", _xla_token_input_nodes = ["_xla_token_arg_node"]}
// CHECK-NEXT: "tf.XlaSendToHost"(%[[INNER]]) <{key = "kk_dtoh_0"}> {_xla_original_oc_node_name = "tf.XlaSendToHost", _xla_token_input_nodes = ["inner"]}
// CHECK-NEXT: "tf._XlaSendFromHost"(%[[INNER]], %[[KEY]]) <{{{.*}}key = "r1"}>
// CHECK: func @host_func_0
// CHECK: "tf._XlaRecvAtHost"({{.*}}) <{{{.*}}key = "s2"}>
func.func @nested_host_compute(%x: tensor<i32>) -> tensor<i32> {
  %0 = "tf._XlaHostComputeMlir"(%x) {send_key = "s1", recv_key = "r1", host_mlir_module = "module {\0A  func.func @host_func(%a: tensor<i32>) -> tensor<i32> {\0A    %b = \22tf._XlaHostComputeMlir\22(%a) {send_key = \22s2\22, recv_key = \22r2\22, host_mlir_module = \22module {\\0A  func.func @host_func(%q: tensor<i32>) -> tensor<i32> {\\0A    func.return %q : tensor<i32>\\0A  }\\0A}\\0A\22} : (tensor<i32>) -> tensor<i32> loc(\22inner\22)\0A    \22tf.XlaSendToHost\22(%b) {key = \22kk\22} : (tensor<i32>) -> ()\0A    func.return %b : tensor<i32>\0A  }\0A}\0A"} : (tensor<i32>) -> tensor<i32> loc("outer")
  func.return %0 : tensor<i32>
}

// -----

// The greedy driver also hoists constants to the start of the function,
// before the tf.XlaSharding ops the pass put there.

// CHECK-LABEL: func @hoisted_constant
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() <{value = dense<1> : tensor<i32>}>
// CHECK-NEXT: %[[S:.*]] = "tf.XlaSharding"(%arg0)
// CHECK-NEXT: "tf.AddV2"(%[[S]], %[[C]])
func.func @hoisted_constant(%x: tensor<i32> {mhlo.sharding = "\08\01"}) -> tensor<i32> {
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %a = "tf.AddV2"(%x, %c) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  func.return %a : tensor<i32>
}
