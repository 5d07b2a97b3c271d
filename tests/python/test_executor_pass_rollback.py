"""Failing executor conversions leave the IR unchanged (each reported with TF's diagnostic)."""
import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
from pass_diff import lit_inputs, run_ours

_LIT_INPUTS = lit_inputs(["tf-executor-tpu-v1-island-inlining"])
PIPELINES = {
    "tf-executor-to-functional-conversion": "func.func(tf-executor-to-functional-conversion)",
    "tf-executor-tpu-v1-island-inlining": "tf-executor-tpu-v1-island-inlining",
}


# -- failures leave the IR unchanged ------------------------------------------------

# Every kind of island the undo path of tf-executor-to-functional-conversion has
# to restore: multi-op islands, islands yielding values defined outside them
# (an argument, another island's output), a graph fetching an argument, a
# nested graph; then a lifted op using a control token makes the pass fail.
_UNDO_INPUT = r'''
func.func @f(%arg0: tensor<i32>, %arg1: tensor<i1>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %g:3 = tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Identity"(%arg0) : (tensor<i32>) -> tensor<i32>
    %b:2, %bc = tf_executor.island(%ac) {
      %0 = "tf.Neg"(%a) : (tensor<i32>) -> tensor<i32>
      %1 = "tf.AddV2"(%0, %a) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tf_executor.yield %arg0, %1 : tensor<i32>, tensor<i32>
    }
    %c, %cc = tf_executor.island {
      tf_executor.yield %a : tensor<i32>
    }
    %d, %dc = tf_executor.island {
      %w = "tf.WhileRegion"(%b#1) <{is_stateless = true, parallel_iterations = 10 : i64}> ({
      ^bb0(%x: tensor<i32>):
        %lt = "tf.Less"(%x, %c) : (tensor<i32>, tensor<i32>) -> tensor<i1>
        "tf.Yield"(%lt) : (tensor<i1>) -> ()
      }, {
      ^bb0(%y: tensor<i32>):
        %inner = tf_executor.graph {
          %io, %ic = tf_executor.island wraps "tf.AddV2"(%y, %b#0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
          tf_executor.fetch %io : tensor<i32>
        }
        "tf.Yield"(%inner) : (tensor<i32>) -> ()
      }) : (tensor<i32>) -> tensor<i32>
      tf_executor.yield %w : tensor<i32>
    }
    %e, %ec = tf_executor.island {
      %2 = "tf.Foo"(%d, %bc) : (tensor<i32>, !tf_executor.control) -> tensor<i32>
      tf_executor.yield %2 : tensor<i32>
    }
    tf_executor.fetch %arg0, %e, %c, %bc : tensor<i32>, tensor<i32>, tensor<i32>, !tf_executor.control
  }
  %r = "tf.Identity"(%g#2) : (tensor<i32>) -> tensor<i32>
  func.return %g#0, %g#1, %r : tensor<i32>, tensor<i32>, tensor<i32>
}
'''


def _run_and_snapshot(text, pipeline):
    from tfmlir.passes import framework

    ctx = ir.Context()
    module = ir.Module.parse(text, ctx)
    before = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)
    with pytest.raises(ir.MLIRError) as failure:
        framework.run(module, f"builtin.module({pipeline})")
    after = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)
    module.operation.verify()
    return before, after, [d.message for d in failure.value.error_diagnostics]


def test_executor_to_functional_failure_restores_function():
    before, after, errors = _run_and_snapshot(
        _UNDO_INPUT, PIPELINES["tf-executor-to-functional-conversion"])
    assert "'tf.Foo' op uses the control result of a tf_executor.island" in errors[0]
    assert after == before


def test_executor_to_functional_undo_case_without_bad_use_matches_expectation():
    # The same input without the bad use lifts fine (the undo path is not taken).
    text = _UNDO_INPUT.replace('"tf.Foo"(%d, %bc) : (tensor<i32>, !tf_executor.control)',
                              '"tf.Foo"(%d) : (tensor<i32>)')
    result = run_ours(text, PIPELINES["tf-executor-to-functional-conversion"])
    assert result["ok"], result
    assert "tf_executor" not in result["text"]


def test_v1_control_flow_failure_leaves_function_unchanged():
    text = _UNDO_INPUT.replace(
        "    tf_executor.fetch %arg0",
        "    %s:3 = \"tf_executor.Switch\"(%a, %arg1) : (tensor<i32>, tensor<i1>) -> "
        "(tensor<i32>, tensor<i32>, !tf_executor.control)\n    tf_executor.fetch %arg0")
    before, after, errors = _run_and_snapshot(text, PIPELINES["tf-executor-to-functional-conversion"])
    assert "'tf_executor.Switch' op is not supported for lifting" in errors[0]
    assert after == before


def test_inlining_failure_leaves_module_unchanged():
    text = _LIT_INPUTS[next(k for k, v in _LIT_INPUTS.items()
                            if "Two calls of one outlined function" in v)]
    before, after, errors = _run_and_snapshot(text, PIPELINES["tf-executor-tpu-v1-island-inlining"])
    assert "Failed to inline" in errors[0]
    assert after == before


_V1_COARSENING_INPUT = r'''
func.func @merges(%arg0: tensor<i32>) {
  tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Neg"(%arg0) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<i32>) -> tensor<i32>
    %b, %bc = tf_executor.island wraps "tf.Neg"(%a) {_replication_info = "a", _xla_compile_device_type = "TPU"} : (tensor<i32>) -> tensor<i32>
    %o:2, %oc = tf_executor.island {
      %i = "tf.Identity"(%arg0) : (tensor<i32>) -> tensor<i32>
      %n = "tf.Neg"(%i) : (tensor<i32>) -> tensor<i32>
      tf_executor.yield %i, %n : tensor<i32>, tensor<i32>
    }
    tf_executor.fetch
  }
  func.return
}
func.func @skipped() {
  tf_executor.graph {
    tf_executor.fetch
  }
  func.return
}
func.func @calls_skipped(%arg0: tensor<i32>) {
  tf_executor.graph {
    %c = tf_executor.island wraps "tf.TPUPartitionedCall"(%arg0) <{f = @skipped}> : (tensor<i32>) -> ()
    tf_executor.fetch
  }
  func.return
}
func.func @cycle(%arg0: tensor<i32>) {
  tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Neg"(%arg0) {_xla_compile_device_type = "TPU"} : (tensor<i32>) -> tensor<i32>
    %h, %hc = tf_executor.island wraps "tf.Abs"(%a) : (tensor<i32>) -> tensor<i32>
    %b, %bc = tf_executor.island wraps "tf.Neg"(%h) {_xla_compile_device_type = "TPU"} : (tensor<i32>) -> tensor<i32>
    tf_executor.fetch
  }
  func.return
}
'''


def test_v1_island_coarsening_failure_leaves_module_unchanged():
    # The functions before the failing one were merged, cleaned of Identity ops and marked
    # _skip_island_outlining: all of it is undone.
    before, after, errors = _run_and_snapshot(_V1_COARSENING_INPUT, "tf-executor-tpu-v1-island-coarsening")
    assert "Merging island failed" in errors[0]
    assert after == before
    fine = _V1_COARSENING_INPUT[:_V1_COARSENING_INPUT.index("func.func @cycle")]
    result = run_ours(fine, "tf-executor-tpu-v1-island-coarsening")
    assert result["ok"], result
    assert "_skip_island_outlining = true" in result["text"] and '"tf.Identity"' not in result["text"]
