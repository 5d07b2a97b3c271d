// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-mark-ops-for-outside-compilation

// Without soft placement every uncompilable op is reported (TF's message).

func.func @strict(%arg0: tensor<!tf_type.string>) {
  "tf_device.cluster"() ({
    // expected-error @+1 {{'tf.Unknown' op isn't compilable for TPU device. enable soft_device_placement option to run on CPU}}
    "tf.Unknown"() : () -> ()
    // expected-error @+1 {{'tf.StringToNumber' op isn't compilable for TPU device. enable soft_device_placement option to run on CPU}}
    %0 = "tf.StringToNumber"(%arg0) {out_type = f32} : (tensor<!tf_type.string>) -> tensor<f32>
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// A bool false is no soft placement either.

func.func @strict_false(%arg0: tensor<i1>) {
  "tf_device.cluster"() ({
    "tf.IfRegion"(%arg0) ({
      // expected-error @+1 {{'tf.Unknown' op isn't compilable for TPU device}}
      "tf.Unknown"() : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : (tensor<i1>) -> ()
    tf_device.return
  }) {allow_soft_placement = false} : () -> ()
  func.return
}
