// RUN: tfmlir-opt %s -split-input-file -tf-executor-to-functional-conversion | FileCheck %s --check-prefix=LIFT
// RUN: tfmlir-opt %s -split-input-file -tf-executor-tpu-v1-island-outlining | FileCheck %s --check-prefix=OUTLINE
// A tf_executor.graph can be an op of an island body itself (not inside a
// launch or a region op). It is a graph like any other: it is lifted (its
// ops then belong to the enclosing island, lifted next) and its TPU islands
// are outlined. Such graphs used to be skipped.

// LIFT-LABEL: func @graph_in_island_body
// LIFT-NEXT:    %[[N:.*]] = "tf.Neg"(%arg0)
// LIFT-NEXT:    %[[A:.*]] = "tf.Abs"(%[[N]])
// LIFT-NEXT:    %[[E:.*]] = "tf.Exp"(%[[A]])
// LIFT-NEXT:    return %[[E]]
func.func @graph_in_island_body(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %a, %ca = tf_executor.island {
      %g = tf_executor.graph {
        %b, %cb = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
        %c, %cc = tf_executor.island wraps "tf.Abs"(%b) : (tensor<f32>) -> tensor<f32>
        tf_executor.fetch %c : tensor<f32>
      }
      %e = "tf.Exp"(%g) : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %e : tensor<f32>
    }
    tf_executor.fetch %a : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// OUTLINE-LABEL: func @tpu_island_in_graph_in_island_body
// OUTLINE:         tf_executor.island {
// OUTLINE-NEXT:      tf_executor.graph {
// OUTLINE-NEXT:        tf_executor.island wraps "tf.PartitionedCall"(%arg0) <{{.*}}f = @_tpu_v1_compat_outlined::@_tpu_v1_compat_outlined_func0}>
// OUTLINE:       module @_tpu_v1_compat_outlined
// OUTLINE-NEXT:    func.func nested @_tpu_v1_compat_outlined_func0
// OUTLINE-NEXT:      "tf.TPUReplicateMetadata"
// OUTLINE-NEXT:      "tf.Neg"
func.func @tpu_island_in_graph_in_island_body(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %a, %ca = tf_executor.island {
      %g = tf_executor.graph {
        %b, %cb = tf_executor.island {
          "tf.TPUReplicateMetadata"() <{num_replicas = 1 : i64}> {_tpu_replicate = "cluster"} : () -> ()
          %n = "tf.Neg"(%arg0) {_tpu_replicate = "cluster"} : (tensor<f32>) -> tensor<f32>
          tf_executor.yield %n : tensor<f32>
        }
        tf_executor.fetch %b : tensor<f32>
      }
      %e = "tf.Exp"(%g) : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %e : tensor<f32>
    }
    tf_executor.fetch %a : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
