"""Differential rows: the executor passes and the executor <-> functional / TPU v1 conversions."""
from pass_diff import Row


def _break_up_without_tf_ops(text):
    # TF 2.21's break-up pass creates tf.NoOp/tf.Identity ops without declaring the tf
    # dialect as a dependency: when the input has no tf op the dialect is not loaded and TF
    # fails ("created with unregistered dialect") or crashes (segfault) when it populates an
    # empty island. Not a behaviour to match.
    return "tf dialect not loaded in TF's context" if '"tf.' not in text else None


_EXECUTOR_FLAGS = ("tf-executor-island-coarsening", "tf-executor-graph-pruning", "tf-executor-break-up-islands")
_CONVERSION_FLAGS = ("tf-executor-to-functional-conversion", "tf-functional-to-executor-conversion",
                     "tf-verify-for-export", "tf-executor-tpu-v1-island-outlining",
                     "tf-executor-tpu-v1-island-inlining")

# TF's process dies on these malformed inputs; tfmlir fails with the given diagnostic.
_TF_CRASHES = {
    # A lifted op uses an island's control token: TF erases the graph while the token is
    # still used; tfmlir reports the op.
    "tf-executor-to-functional-conversion": {
        "@control_token_as_operand": "uses the control result of a tf_executor.island"},
    # Two calls of one outlined function: TF inlines the body (moved, not cloned) and erases
    # the callee, then dereferences it for the second call; tfmlir fails before any change.
    "tf-executor-tpu-v1-island-inlining": {
        "Two calls of one outlined function": "Failed to inline: the function was inlined already"},
}

ROWS = [
    Row("coarsening", "func.func(tf-executor-island-coarsening)", _EXECUTOR_FLAGS),
    Row("pruning", "func.func(tf-executor-graph-pruning)", _EXECUTOR_FLAGS),
    Row("pruning-preserve", "func.func(tf-executor-graph-pruning{ops-to-preserve=tf.Preserved,tf.Abs})",
        _EXECUTOR_FLAGS),
    Row("pruning-preserve-islands", "func.func(tf-executor-graph-pruning{ops-to-preserve=tf_executor.island})",
        _EXECUTOR_FLAGS),
    Row("break-up", "tf-executor-break-up-islands", _EXECUTOR_FLAGS, tf_cannot_run=_break_up_without_tf_ops),
    Row("coarsening+break-up", "func.func(tf-executor-island-coarsening),tf-executor-break-up-islands",
        _EXECUTOR_FLAGS, tf_cannot_run=_break_up_without_tf_ops),
    Row("tf-executor-to-functional-conversion", "func.func(tf-executor-to-functional-conversion)",
        _CONVERSION_FLAGS, ("tpu",), _TF_CRASHES["tf-executor-to-functional-conversion"]),
    Row("tf-functional-to-executor-conversion", "func.func(tf-functional-to-executor-conversion)",
        _CONVERSION_FLAGS, ("tpu",)),
    Row("tf-verify-for-export", "tf-verify-for-export", _CONVERSION_FLAGS, ("tpu",)),
    Row("tf-executor-tpu-v1-island-outlining", "tf-executor-tpu-v1-island-outlining", _CONVERSION_FLAGS,
        ("tpu",)),
    Row("tf-executor-tpu-v1-island-inlining", "tf-executor-tpu-v1-island-inlining", _CONVERSION_FLAGS,
        ("tpu",), _TF_CRASHES["tf-executor-tpu-v1-island-inlining"]),
    Row("outlining+inlining", "tf-executor-tpu-v1-island-outlining,tf-executor-tpu-v1-island-inlining",
        _CONVERSION_FLAGS, ("tpu",)),
]
