// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-launch-to-device-attribute
// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-launch-to-device-attribute=legacy-graph-export=false

func.func @conflicting_device(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf_device.launch' op inner op has conflicting 'device' attribute, got 'GPU:0' but expected 'CPU:0'}}
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%arg0) {device = "GPU:0"} : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {device = "CPU:0"} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @bad_device(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf_device.launch' op inner op has bad 'device' attribute, got 2 : i64}}
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%arg0) {device = 2} : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {device = "CPU:0"} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// A nested launch on another device.
func.func @nested_conflict(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf_device.launch' op inner op has conflicting 'device' attribute, got 'TPU:1' but expected 'TPU:0'}}
  %0 = "tf_device.launch"() ({
    %1 = "tf_device.launch"() ({
      %2 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_device.return %2 : tensor<f32>
    }) {device = "TPU:1"} : () -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {device = "TPU:0"} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
