// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics -tf-functional-control-flow-to-regions=allow-passthrough-args

// With allow-passthrough-args, a GeneratorDataset whose functions are missing
// fails as in TF.

func.func @missing_functions() -> tensor<!tf_type.variant> {
  // expected-error@+1 {{'tf.GeneratorDataset' op failed to convert to region form}}
  %0 = "tf.GeneratorDataset"() {init_func = @nowhere, next_func = @nowhere, finalize_func = @nowhere, output_shapes = [#tf_type.shape<>], output_types = [!tf_type.string], metadata = "", operandSegmentSizes = array<i32: 0, 0, 0>} : () -> tensor<!tf_type.variant>
  func.return %0 : tensor<!tf_type.variant>
}

// -----

// One whose functions exist cannot be converted either: tfmlir's
// tf.GeneratorDatasetRegion has no regions (TF's has three). Nothing else in
// the module is converted.

func.func @generator(%x: tensor<f32>) -> tensor<!tf_type.variant> {
  // expected-error@+1 {{'tf.GeneratorDataset' op failed to convert to region form: tfmlir's tf.GeneratorDatasetRegion has no regions to hold the init/next/finalize calls}}
  %0 = "tf.GeneratorDataset"(%x) {init_func = @init, next_func = @next, finalize_func = @finalize, output_shapes = [#tf_type.shape<>], output_types = [!tf_type.string], metadata = "", operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<f32>) -> tensor<!tf_type.variant>
  func.return %0 : tensor<!tf_type.variant>
}
func.func private @init(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
func.func private @next(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
func.func private @finalize(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
