// RUN: tfmlir-opt %s -split-input-file -tf-executor-functionalize-control-flow -verify-diagnostics

// A Merge of two values no Switch decides between.
func.func @merge_without_switch(%x: tensor<f32>, %y: tensor<f32>) -> tensor<*xf32> {
  %r = tf_executor.graph {
    // expected-error@+1 {{no Switch decides between its inputs}}
    %m:3 = tf_executor.Merge %x, %y : (tensor<f32>, tensor<f32>) -> (tensor<*xf32>, tensor<i32>, !tf_executor.control) {N = 2 : i64, T = f32}
    tf_executor.fetch %m#0 : tensor<*xf32>
  }
  func.return %r : tensor<*xf32>
}

// -----

// A branch value reaching the fetch without a Merge (deadness escaping the cond).
func.func @dead_value_escapes(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %r = tf_executor.graph {
    %s:3 = tf_executor.Switch %x, %p : tensor<f32> {T = f32} loc("cond/Switch")
    // expected-error@+1 {{its value is live under a branch of the Switch predicate (an argument) and reaches the graph's fetch without a Merge}}
    %n:2 = tf_executor.island wraps "tf.Neg"(%s#1) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %n#0 : tensor<f32>
  }
  func.return %r : tensor<f32>
}

// -----

// An op reading both outputs of one Switch: never live.
func.func @opposite_branches(%p: tensor<i1>, %x: tensor<f32>) -> tensor<*xf32> {
  %r = tf_executor.graph {
    %s:3 = tf_executor.Switch %x, %p : tensor<f32> {T = f32} loc("cond/Switch")
    // expected-error@+1 {{its inputs are live under opposite branches of the Switch predicate}}
    %a:2 = tf_executor.island wraps "tf.AddV2"(%s#0, %s#1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %m:3 = tf_executor.Merge %a#0, %s#1 : (tensor<f32>, tensor<f32>) -> (tensor<*xf32>, tensor<i32>, !tf_executor.control) {N = 2 : i64, T = f32}
    tf_executor.fetch %m#0 : tensor<*xf32>
  }
  func.return %r : tensor<*xf32>
}

// -----

// A Merge's value_index in use.
func.func @value_index_used(%p: tensor<i1>, %x: tensor<f32>) -> tensor<i32> {
  %r = tf_executor.graph {
    %s:3 = tf_executor.Switch %x, %p : tensor<f32> {T = f32} loc("cond/Switch")
    // expected-error@+1 {{output of index (1) of a Merge is used}}
    %m:3 = tf_executor.Merge %s#0, %s#1 : (tensor<f32>, tensor<f32>) -> (tensor<*xf32>, tensor<i32>, !tf_executor.control) {N = 2 : i64, T = f32}
    tf_executor.fetch %m#1 : tensor<i32>
  }
  func.return %r : tensor<i32>
}

// -----

// A loop without LoopCond.
func.func @loop_without_loop_cond(%x: tensor<i32>) {
  tf_executor.graph {
    %src:3 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32}
    // expected-error@+1 {{loop 'loop' has no LoopCond node}}
    %e:2 = tf_executor.Enter %x frame "loop" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32}
    %m:3 = tf_executor.Merge %e#0, %src#0 : tensor<*xi32> {N = 2 : i64, T = i32}
    tf_executor.NextIteration.Sink [%src#1] %m#0 : tensor<*xi32> {T = i32}
    tf_executor.fetch
  }
  func.return
}

// -----

// A value leaving a loop frame without an Exit.
func.func @escapes_frame(%x: tensor<i32>, %n: tensor<i32>) -> tensor<*xi32> {
  %r = tf_executor.graph {
    %src:3 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32}
    %e:2 = tf_executor.Enter %x frame "loop" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32}
    %en:2 = tf_executor.Enter %n frame "loop" constant : tensor<i32> {T = i32}
    %m:3 = tf_executor.Merge %e#0, %src#0 : tensor<*xi32> {N = 2 : i64, T = i32}
    %less:2 = tf_executor.island wraps "tf.Less"(%m#0, %en#0) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
    %lc:2 = tf_executor.LoopCond %less#0 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control)
    %sw:3 = tf_executor.Switch %m#0, %lc#0 : tensor<*xi32> {T = i32}
    %exit:2 = tf_executor.Exit %sw#0 : tensor<*xi32> {T = i32}
    %id:2 = tf_executor.island wraps "tf.Identity"(%sw#1) : (tensor<*xi32>) -> tensor<*xi32>
    tf_executor.NextIteration.Sink [%src#1] %id#0 : tensor<*xi32> {T = i32}
    // expected-error@+1 {{uses values of two control-flow frames}}
    %leak:2 = tf_executor.island wraps "tf.AddV2"(%exit#0, %id#0) : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32>
    tf_executor.fetch %leak#0 : tensor<*xi32>
  }
  func.return %r : tensor<*xi32>
}

// -----

// The loop body reading a loop variable before its Switch.
func.func @body_uses_merge(%x: tensor<i32>, %n: tensor<i32>) -> tensor<*xi32> {
  %r = tf_executor.graph {
    %src:3 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32}
    %e:2 = tf_executor.Enter %x frame "loop" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32}
    %en:2 = tf_executor.Enter %n frame "loop" constant : tensor<i32> {T = i32}
    // expected-error@+1 {{the loop body uses a loop variable before its Switch}}
    %m:3 = tf_executor.Merge %e#0, %src#0 : tensor<*xi32> {N = 2 : i64, T = i32}
    %less:2 = tf_executor.island wraps "tf.Less"(%m#0, %en#0) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
    %lc:2 = tf_executor.LoopCond %less#0 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control)
    %sw:3 = tf_executor.Switch %m#0, %lc#0 : tensor<*xi32> {T = i32}
    %exit:2 = tf_executor.Exit %sw#0 : tensor<*xi32> {T = i32}
    %add:2 = tf_executor.island wraps "tf.AddV2"(%m#0, %sw#1) : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32>
    tf_executor.NextIteration.Sink [%src#1] %add#0 : tensor<*xi32> {T = i32}
    tf_executor.fetch %exit#0 : tensor<*xi32>
  }
  func.return %r : tensor<*xi32>
}

// -----

// One frame entered from two different frames.
func.func @frame_entered_twice(%x: tensor<i32>) {
  tf_executor.graph {
    %ea:2 = tf_executor.Enter %x frame "a" constant : tensor<i32> {T = i32}
    %a:2 = tf_executor.island wraps "tf.Identity"(%ea#0) : (tensor<i32>) -> tensor<i32>
    %eb:2 = tf_executor.Enter %x frame "b" constant : tensor<i32> {T = i32}
    %b:2 = tf_executor.island wraps "tf.Identity"(%eb#0) : (tensor<i32>) -> tensor<i32>
    %e1:2 = tf_executor.Enter %a#0 frame "inner" constant : tensor<i32> {T = i32}
    // expected-error@+1 {{frame 'inner' is entered from two frames ('a' and 'b')}}
    %e2:2 = tf_executor.Enter %b#0 frame "inner" constant : tensor<i32> {T = i32}
    tf_executor.fetch
  }
  func.return
}
