// RUN: tfmlir-opt %s -split-input-file -tf-executor-island-coarsening | FileCheck %s --check-prefix=COARSEN
// RUN: tfmlir-opt %s -split-input-file -tf-executor-graph-pruning | FileCheck %s --check-prefix=PRUNE
// RUN: tfmlir-opt %s -split-input-file -tf-executor-graph-pruning=ops-to-preserve=tf.Sqrt | FileCheck %s --check-prefix=KEEP
// Graphs nested in islands (through tf_device.launch): each graph is scanned
// once, and uses of a graph's values from inside deeper graphs still link
// the islands holding them.

// The only uses of %p are inside nested graphs (two levels down): they make
// the island holding the nest a consumer of %p, so the two merge.
// COARSEN-LABEL: func @cross_graph_uses
// COARSEN:      tf_executor.graph {
// COARSEN-NEXT:   %[[OUT:.*]], %{{.*}} = tf_executor.island {
// COARSEN-NEXT:     %[[P:.*]] = "tf.Neg"(%arg0)
// COARSEN-NEXT:     %[[L:.*]] = "tf_device.launch"()
// COARSEN:              "tf.AddV2"(%[[P]], %{{.*}})
// COARSEN:          %[[E:.*]] = "tf.Exp"(%[[L]])
// COARSEN-NEXT:     tf_executor.yield %[[E]] : tensor<f32>
// COARSEN-NEXT:   }
// COARSEN-NEXT:   tf_executor.fetch %[[OUT]] : tensor<f32>
// PRUNE-LABEL: func @cross_graph_uses
// PRUNE: "tf.AddV2"
// PRUNE: "tf.Exp"
func.func @cross_graph_uses(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %p, %cp = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %a, %ca = tf_executor.island {
      %l = "tf_device.launch"() ({
        %g = tf_executor.graph {
          %q, %cq = tf_executor.island wraps "tf.Abs"(%p) : (tensor<f32>) -> tensor<f32>
          %r, %cr = tf_executor.island {
            %l2 = "tf_device.launch"() ({
              %g2 = tf_executor.graph {
                %s, %cs = tf_executor.island wraps "tf.AddV2"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
                tf_executor.fetch %s : tensor<f32>
              }
              tf_device.return %g2 : tensor<f32>
            }) {device = ""} : () -> tensor<f32>
            tf_executor.yield %l2 : tensor<f32>
          }
          tf_executor.fetch %r : tensor<f32>
        }
        tf_device.return %g : tensor<f32>
      }) {device = ""} : () -> tensor<f32>
      tf_executor.yield %l : tensor<f32>
    }
    %b, %cb = tf_executor.island wraps "tf.Exp"(%a) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %b : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// Pruning innermost first: the inner graphs are pruned, then the island
// holding them is unreachable and goes with them (it used to be visited
// again after it was erased).
// PRUNE-LABEL: func @unreachable_nest
// PRUNE:      tf_executor.graph {
// PRUNE-NEXT:   %[[R:.*]], %{{.*}} = tf_executor.island wraps "tf.Neg"(%arg0)
// PRUNE-NEXT:   tf_executor.fetch %[[R]] : tensor<f32>
// PRUNE-NEXT: }
// KEEP-LABEL: func @unreachable_nest
// KEEP: "tf.Abs"
// KEEP: "tf.Exp"
// KEEP: "tf.Sqrt"
func.func @unreachable_nest(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %r, %cr = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %u, %cu = tf_executor.island {
      %l = "tf_device.launch"() ({
        %g = tf_executor.graph {
          %v, %cv = tf_executor.island wraps "tf.Abs"(%r) : (tensor<f32>) -> tensor<f32>
          %w, %cw = tf_executor.island {
            %l2 = "tf_device.launch"() ({
              %g2 = tf_executor.graph {
                %x, %cx = tf_executor.island wraps "tf.Exp"(%v) : (tensor<f32>) -> tensor<f32>
                %y, %cy = tf_executor.island wraps "tf.Sqrt"(%x) : (tensor<f32>) -> tensor<f32>
                tf_executor.fetch %x : tensor<f32>
              }
              tf_device.return %g2 : tensor<f32>
            }) {device = ""} : () -> tensor<f32>
            tf_executor.yield %l2 : tensor<f32>
          }
          tf_executor.fetch %v : tensor<f32>
        }
        tf_device.return %g : tensor<f32>
      }) {device = ""} : () -> tensor<f32>
      tf_executor.yield %l : tensor<f32>
    }
    tf_executor.fetch %r : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// An op that must execute, inside a nested graph, keeps the island holding
// that graph (and only what it needs in there).
// PRUNE-LABEL: func @must_execute_inside
// PRUNE:      tf_executor.island wraps "tf.Neg"
// PRUNE-NEXT: tf_executor.island {
// PRUNE:        tf_executor.island wraps "tf.Abs"
// PRUNE-NEXT:   tf_executor.island wraps "tf.CheckNumerics"
// PRUNE-NEXT:   tf_executor.fetch
// PRUNE-NOT:  "tf.Exp"
// PRUNE-NOT:  "tf.Sqrt"
// PRUNE:      return
func.func @must_execute_inside(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %r, %cr = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %u, %cu = tf_executor.island {
      %l = "tf_device.launch"() ({
        %g = tf_executor.graph {
          %v, %cv = tf_executor.island wraps "tf.Abs"(%r) : (tensor<f32>) -> tensor<f32>
          %w, %cw = tf_executor.island wraps "tf.CheckNumerics"(%v) {message = "m"} : (tensor<f32>) -> tensor<f32>
          %z, %cz = tf_executor.island wraps "tf.Exp"(%v) : (tensor<f32>) -> tensor<f32>
          tf_executor.fetch %v : tensor<f32>
        }
        tf_device.return %g : tensor<f32>
      }) {device = ""} : () -> tensor<f32>
      tf_executor.yield %l : tensor<f32>
    }
    %d, %cd = tf_executor.island wraps "tf.Sqrt"(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %r : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
