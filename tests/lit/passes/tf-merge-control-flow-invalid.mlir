// RUN: tfmlir-opt %s -split-input-file -tf-merge-control-flow -verify-diagnostics

// Malformed ifs never reach the pass: the module is verified first.

func.func @branch_yields_wrong_count(%p: tensor<i1>) {
  "tf_device.cluster"() ({
    // expected-error@+1 {{'tf.IfRegion' op along control flow edge from Operation tf.Yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
    %0 = "tf.IfRegion"(%p) ({
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    tf_device.return
  }) : () -> ()
  func.return
}
