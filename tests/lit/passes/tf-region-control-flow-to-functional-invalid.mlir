// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-region-control-flow-to-functional

// tfmlir's tf.GeneratorDatasetRegion has no regions (TF's has three holding
// the init/next/finalize bodies): it cannot be converted and the pass fails
// with the module unchanged (TF cannot parse such an op at all).

func.func @generator(%x: tensor<f32>) -> tensor<!tf_type.variant> {
  // expected-error@+1 {{'tf.GeneratorDatasetRegion' op failed to convert to functional form (tfmlir's tf.GeneratorDatasetRegion has no regions)}}
  %0 = "tf.GeneratorDatasetRegion"(%x) {output_shapes = [#tf_type.shape<>], output_types = [!tf_type.string], metadata = "", operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<f32>) -> tensor<!tf_type.variant>
  func.return %0 : tensor<!tf_type.variant>
}
