// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-validate-inputs

// An empty _tpu_replicate on the successor counts as none.

func.func @empty_successor_cluster(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
  %1 = "tf_device.launch"() ({
    // The parent op's results are the successors: here the launch's user.
    %2 = "tf.Abs"(%0) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %2 : tensor<f32>
  }) {device = ""} : () -> tensor<f32>
  // expected-warning @+1 {{cluster op = tf.Abs with cluster = c0 has successor as non cluster op tf.Sqrt}}
  %3 = "tf.Sqrt"(%1) {_tpu_replicate = ""} : (tensor<f32>) -> tensor<f32>
  // expected-error @-1 {{'tf.Sqrt' op TF2XLA TPU bridge input check: empty _tpu_replicate attr for op = tf.Sqrt}}
  func.return %3 : tensor<f32>
}

// -----

// Replicated inputs must have num_replicas operands (one when packed).

func.func @input_count(%a: tensor<f32>, %b: tensor<f32>) -> () {
  tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 3 : i64} : () -> ()
    // expected-error @+1 {{'tf.TPUReplicatedInput' op TF2XLA TPU bridge input check: number of inputs inconsistent. num_replicas=3 no. of inputs=2}}
    %in, %c1 = tf_executor.island wraps "tf.TPUReplicatedInput"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    // expected-error @+1 {{'tf.TPUReplicatedInput' op TF2XLA TPU bridge input check: packed with number of inputs not 1. num_replicas=3 no. of inputs=2}}
    %pk, %c2 = tf_executor.island wraps "tf.TPUReplicatedInput"(%a, %b) {is_packed = true} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    // The first failing operand ends the checks of an op: one user each.
    %x, %c3 = tf_executor.island wraps "tf.Neg"(%in) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    %y, %c4 = tf_executor.island wraps "tf.Neg"(%pk) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// An I/O op checked from two cluster ops is reported twice, as TF does.

func.func @reported_per_user(%a: tensor<f32>) -> () {
  tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 2 : i64} : () -> ()
    // (One expectation matches both diagnostics.)
    // expected-error @+1 {{number of inputs inconsistent. num_replicas=2 no. of inputs=1}}
    %in, %c1 = tf_executor.island wraps "tf.TPUReplicatedInput"(%a) : (tensor<f32>) -> tensor<f32>
    %x, %c2 = tf_executor.island wraps "tf.Neg"(%in) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    %y, %c3 = tf_executor.island wraps "tf.Abs"(%in) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Replicated outputs: num_replicas results, and the ops feeding them in the
// metadata's cluster (checked when a cluster op uses the output).

func.func @output_checks(%a: tensor<f32>) -> () {
  tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 2 : i64} : () -> ()
    // expected-error @+1 {{'tf.Neg' op TF2XLA TPU bridge input check: tf.TPUReplicatedOutput op has predecessor op tf.Neg with error: invalid _tpu_replicate attr. Expected attr: "c0", Actual attr: "c1"}}
    %x, %c1 = tf_executor.island wraps "tf.Neg"(%a) {_tpu_replicate = "c1"} : (tensor<f32>) -> tensor<f32>
    %o:2, %c2 = tf_executor.island wraps "tf.TPUReplicatedOutput"(%x) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %y, %c3 = tf_executor.island wraps "tf.Abs"(%o#0) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    // expected-error @+1 {{'tf.Sqrt' op TF2XLA TPU bridge input check: tf.TPUReplicatedOutput op has predecessor op tf.Sqrt with error: missing _tpu_replicate attr}}
    %z, %c4 = tf_executor.island wraps "tf.Sqrt"(%a) : (tensor<f32>) -> tensor<f32>
    // Its user is the replicated output itself (ops in islands use the values of other islands).
    // expected-error @+1 {{'tf.TPUReplicatedOutput' op TF2XLA TPU bridge input check: non-cluster op = tf.Sqrt has invalid successor op = tf.TPUReplicatedOutput}}
    %p:2, %c5 = tf_executor.island wraps "tf.TPUReplicatedOutput"(%z) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %w, %c6 = tf_executor.island wraps "tf.Abs"(%p#1) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    // expected-error @+1 {{'tf.TPUReplicatedOutput' op TF2XLA TPU bridge input check: number of outputs inconsistent. num_replicas=2 no. of outputs=3}}
    %q:3, %c7 = tf_executor.island wraps "tf.TPUReplicatedOutput"(%w) : (tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
    %v, %c8 = tf_executor.island wraps "tf.Abs"(%q#2) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Replicated inputs and outputs belong to clusters.

func.func @io_outside_clusters(%a: tensor<f32>) -> () {
  tf_executor.graph {
    // expected-error @+1 {{'tf.TPUReplicatedInput' op TF2XLA TPU bridge input check: non-cluster op = tf.Neg has invalid predecessor op = tf.TPUReplicatedInput}}
    %in, %c1 = tf_executor.island wraps "tf.TPUReplicatedInput"(%a) : (tensor<f32>) -> tensor<f32>
    %x, %c2 = tf_executor.island wraps "tf.Neg"(%in) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

func.func @output_of_non_cluster(%a: tensor<f32>) -> () {
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {device = ""} : () -> tensor<f32>
  // Both ops in the launch have the launch's users as successors.
  // expected-error @+2 {{'tf.TPUReplicatedOutput' op TF2XLA TPU bridge input check: non-cluster op = tf.Neg has invalid successor op = tf.TPUReplicatedOutput}}
  // expected-error @+1 {{'tf.TPUReplicatedOutput' op TF2XLA TPU bridge input check: non-cluster op = tf_device.return has invalid successor op = tf.TPUReplicatedOutput}}
  %2:2 = "tf.TPUReplicatedOutput"(%0) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}

// -----

// Partitioned inputs: num_cores_per_replica of them (TF's verifier checks a
// packed tf.TPUPartitionedInputV2 has one).

func.func @partitioned(%a: tensor<4xf32>) -> () {
  tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 1 : i64, num_cores_per_replica = 2 : i64} : () -> ()
    // expected-error @+1 {{'tf.TPUPartitionedInput' op TF2XLA TPU bridge input check: number of inputs inconsistent. num_cores_per_replica=2 no. of inputs=1}}
    %p, %c1 = tf_executor.island wraps "tf.TPUPartitionedInput"(%a) {partition_dim = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error @+1 {{'tf.TPUPartitionedInputV2' op TF2XLA TPU bridge input check: number of inputs inconsistent. num_cores_per_replica=2 no. of inputs=3}}
    %q, %c2 = tf_executor.island wraps "tf.TPUPartitionedInputV2"(%a, %a, %a) {partition_dims = [3], is_packed = false} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<12xf32>
    %x, %c3 = tf_executor.island wraps "tf.Neg"(%p) {_tpu_replicate = "c0"} : (tensor<4xf32>) -> tensor<4xf32>
    %y, %c4 = tf_executor.island wraps "tf.Neg"(%q) {_tpu_replicate = "c0"} : (tensor<12xf32>) -> tensor<12xf32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Ops that must be compiled (no soft placement) but carry strings; several
// errors are all reported. Single-core TPU programs are refused.

func.func @strings_and_single_core(%s: tensor<!tf_type.string>) -> () {
  tf_executor.graph {
    %m = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 1 : i64} : () -> ()
    // expected-error @+1 {{'tf.StringToNumber' op TF/XLA TPU bridge input check: found invalid op. Can't be both xla and non-xla}}
    %n, %c1 = tf_executor.island wraps "tf.StringToNumber"(%s) {_tpu_replicate = "c0", out_type = f32} : (tensor<!tf_type.string>) -> tensor<f32>
    // expected-error @+1 {{'tf.AsString' op TF/XLA TPU bridge input check: found invalid op. Can't be both xla and non-xla}}
    %t, %c2 = tf_executor.island wraps "tf.AsString"(%n) {_tpu_replicate = "c0"} : (tensor<f32>) -> tensor<!tf_type.string>
    // expected-warning @+2 {{cluster op = tf.StringToNumber with cluster = c0 has successor as non cluster op tf.Neg}}
    // expected-error @+1 {{'tf.Neg' op TF2XLA TPU bridge input check: found a single-core TPU graph}}
    %u, %c3 = tf_executor.island wraps "tf.Neg"(%n) {_xla_compile_device_type = "TPU"} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  func.return
}

// -----

// Shardings (serialized xla.OpSharding): MAXIMAL needs one device within the
// cores of a replica; a TUPLE needs one element per result.

func.func @shardings(%a: tensor<f32>) -> () {
  "tf.TPUReplicateMetadata"() {_tpu_replicate = "c0", num_replicas = 1 : i64, num_cores_per_replica = 2 : i64} : () -> ()
  // expected-error @+1 {{'tf.Neg' op TF2XLA TPU bridge input check: invalid sharding device 2 for num_cores_per_replica = 2}}
  %0 = "tf.Neg"(%a) {_tpu_replicate = "c0", _XlaSharding = "\08\01\1A\01\01\22\01\02"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.Abs' op TF/XLA TPU bridge input check: There must be exactly 1 device for MAXIMAL sharding. Number of devices assigned are 0}}
  %1 = "tf.Abs"(%a) {_tpu_replicate = "c0", sharding = "\08\01"} : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'tf.Sqrt' op TF2XLA TPU bridge input check: invalid no. of tuple shardings 2 for arity = 1}}
  %2 = "tf.Sqrt"(%a) {_XlaSharding = "\08\02\2A\00\2A\00"} : (tensor<f32>) -> tensor<f32>
  // Not a proto: not checked.
  %3 = "tf.Exp"(%a) {_tpu_replicate = "c0", _XlaSharding = "\FF"} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

// Where TF's process crashes: a metadata op without a cluster name.

func.func @metadata_without_cluster() -> () {
  // expected-error @+1 {{'tf.TPUReplicateMetadata' op attribute '_tpu_replicate' is not a string attribute}}
  "tf.TPUReplicateMetadata"() {num_replicas = 1 : i64} : () -> ()
  func.return
}

// -----

// Where TF's process crashes: a cluster name that is not a string.

func.func @cluster_not_a_string(%a: tensor<f32>) -> () {
  // expected-error @+1 {{'tf.Neg' op attribute '_tpu_replicate' is not a string attribute}}
  %0 = "tf.Neg"(%a) {_tpu_replicate = 1 : i64} : (tensor<f32>) -> tensor<f32>
  func.return
}
