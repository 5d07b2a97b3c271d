// RUN: tfmlir-opt %s -tf-tpu-extract-head-tail-outside-compilation -tf-tpu-extract-outside-compilation | FileCheck %s
// RUN: tfmlir-opt %s --pass-pipeline='builtin.module(tf-tpu-extract-head-tail-outside-compilation,tf-tpu-extract-outside-compilation)' | FileCheck %s

// The seed's names of the passes TF 2.21 renamed run TF's passes.

// CHECK-LABEL: func @head_and_middle
module attributes {tf.devices = ["/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:TPU_SYSTEM:0", "/job:worker/replica:0/task:0/device:TPU:0"]} {
  func.func @head_and_middle(%arg0: tensor<f32>) -> tensor<f32> {
    // CHECK: "tf_device.launch"
    // CHECK-NEXT: "tf.Identity"
    // CHECK: "tf_device.parallel_execute"
    // CHECK: "tf._XlaRecvAtHost"
    // CHECK: "tf._XlaHostComputeMlir"
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Identity"(%arg0) {_xla_outside_compilation = "0"} : (tensor<f32>) -> tensor<f32>
      %2 = "tf.Neg"(%1) : (tensor<f32>) -> tensor<f32>
      %3 = "tf.Identity"(%2) {_xla_outside_compilation = "1"} : (tensor<f32>) -> tensor<f32>
      %4 = "tf.Abs"(%3) : (tensor<f32>) -> tensor<f32>
      tf_device.return %4 : tensor<f32>
    }) {num_cores_per_replica = 1 : i64, topology = "", device_assignment = []} : () -> tensor<f32>
    func.return %0 : tensor<f32>
  }
}
