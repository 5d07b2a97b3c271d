// RUN: tfmlir-opt %s -split-input-file -tfrt-lower-cluster-to-runtime-ops-tpu | FileCheck %s

// TF's runtime lowering after clustering: the TPU rewrite, symbol-dce (the outlined callee
// goes), the compile and its assert hoisted out of the replicate (replica invariant), the
// variable read merged into TPUExecuteAndUpdateVariables.

// CHECK-LABEL: func.func @replicated
// CHECK:       "tf_device.launch"() <{device = "/job:localhost/replica:0/task:0/device:CPU:0"}> ({
// CHECK-NEXT:    "tf._TPUCompileMlir"()
// CHECK:       "tf.TPUCompileSucceededAssert"
// CHECK:       tf_device.replicate
// CHECK:         "tf_device.launch"() <{device = "TPU_REPLICATED_CORE_0"}> ({
// CHECK-NEXT:      "tf.TPUExecuteAndUpdateVariables"(%{{.*}}, %{{.*}}, %{{.*}}) <{device_var_reads_indices = [1], device_var_updates_indices = [0]}>
// CHECK-NOT:   func.func private @tpu
module attributes {tf.versions = {producer = 888 : i32}, tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0", "/job:localhost/replica:0/task:0/device:TPU:1"]} {
  func.func @replicated(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<!tf_type.resource<tensor<4xf32>>>) {
    tf_device.replicate([%arg0, %arg1] as %ri: tensor<4xf32>, %arg2 as %rv: tensor<!tf_type.resource<tensor<4xf32>>>) {n = 2 : i32} {
      %read = "tf.ReadVariableOp"(%rv) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32>
      %new = "tf_device.cluster_func"(%ri, %read) {_replication_info = "c", _xla_compile_device_type = "TPU", func = @tpu, num_cores_per_replica = 1 : i64, step_marker_location = "", topology = "", device_assignment = [], input_sharding_configuration = ["", ""], output_sharding_configuration = [""], use_spmd_for_xla_partitioning = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "tf.AssignVariableOp"(%rv, %new) {validate_shape = false} : (tensor<!tf_type.resource<tensor<4xf32>>>, tensor<4xf32>) -> ()
      tf_device.return
    }
    func.return
  }
  func.func private @tpu(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "tf.Add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    func.return %0 : tensor<4xf32>
  }
}
