// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-tpu-annotate-dynamic-shape-inputs

func.func @tf_crash_annotation_outside_launch(%a: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{'tf.TPUAnnotateTensorsWithDynamicShape' op is not inside a 'tf_device.launch'}}
  %0 = "tf.TPUAnnotateTensorsWithDynamicShape"(%a) : (tensor<8xi32>) -> tensor<8xi32>
  func.return %0 : tensor<8xi32>
}

// -----

func.func @tf_crash_launch_returns_argument(%a: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{'tf_device.launch' op returns a block argument as the value of operand #0 of a TPU cluster_func}}
  %0 = "tf_device.launch"() ({
    tf_device.return %a : tensor<8xi32>
  }) {device = ""} : () -> tensor<8xi32>
  %1 = "tf_device.cluster_func"(%0) {_replication_info = "c", func = @f} : (tensor<8xi32>) -> tensor<8xi32>
  func.return %1 : tensor<8xi32>
}

func.func @f(%a: tensor<8xi32>) -> tensor<8xi32> {
  func.return %a : tensor<8xi32>
}

// -----

func.func @tf_crash_declaration(%a: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{'tf_device.cluster_func' op calls @decl: a function declaration without a body}}
  %1 = "tf_device.cluster_func"(%a) {_replication_info = "c", func = @decl} : (tensor<8xi32>) -> tensor<8xi32>
  func.return %1 : tensor<8xi32>
}

func.func private @decl(%a: tensor<8xi32>) -> tensor<8xi32>

// -----

func.func @tf_crash_too_few_arguments(%a: tensor<8xi32>) {
  %0 = "tf_device.launch"() ({
    %1 = "tf.TPUAnnotateTensorsWithDynamicShape"(%a) : (tensor<8xi32>) -> tensor<8xi32>
    tf_device.return %1 : tensor<8xi32>
  }) {device = ""} : () -> tensor<8xi32>
  // expected-error @+1 {{marks operand #1 as dynamic but its callee has 1 arguments}}
  "tf_device.cluster_func"(%a, %0) {_replication_info = "c", func = @g} : (tensor<8xi32>, tensor<8xi32>) -> ()
  func.return
}

func.func @g(%a: tensor<8xi32>) {
  func.return
}
