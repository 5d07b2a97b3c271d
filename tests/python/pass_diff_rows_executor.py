"""Differential rows: the executor passes and the executor <-> functional / TPU v1 conversions.

The TPU v1 island coarsening also runs on TPU programs: as users write them
(``tpu_programs``, raw TF1 imports: alone, after the attribute
canonicalization that precedes it in the bridge, and as TF's whole
``tf-replicated-clustering-bridge-v1``), with clusters formed
(``tpu_clusters``), the bridge and replicate programs of the device passes,
the corpus models marked for single-core TPU (``tpu``), and the chunks of its
``-invalid.mlir`` lit file.
"""
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

_V1_COARSENING = ("tf-executor-tpu-v1-island-coarsening",)
_V1_EXTRA = ("tpu", "tpu_programs", "tpu_clusters", "bridge", "replicate", "invalid")

# Ops whose shape functions tfmlir's tf-shape-inference lacks (it leaves their results unranked
# where TF refines them): the whole v1 composition, which runs shape inference, differs there
# before the TPU passes run.
_NO_SHAPE_FUNCTION = ("tf.QuantizeV2", "tf.Dequantize", "tf.StringSplitV2")


def _shape_inference_gap(text):
    missing = [name for name in _NO_SHAPE_FUNCTION if f'"{name}"' in text]
    return f"tf-shape-inference lacks the shape functions of {', '.join(missing)}" if missing else None


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
    Row("tf-executor-tpu-v1-island-coarsening", "tf-executor-tpu-v1-island-coarsening", _V1_COARSENING,
        _V1_EXTRA),
    Row("canonicalize-attributes+tpu-v1-island-coarsening",
        "func.func(tf-canonicalize-compile-and-replicate-attributes),tf-executor-tpu-v1-island-coarsening",
        _V1_COARSENING, _V1_EXTRA),
    # The named pipeline: TF's registered composition against tfmlir's (every pass in tfmlir).
    Row("tf-replicated-clustering-bridge-v1", "tf-replicated-clustering-bridge-v1",
        _V1_COARSENING + ("tf-executor-tpu-v1-island-outlining",), _V1_EXTRA,
        tf_cannot_run=_shape_inference_gap),
]
