"""Differential tests of tfmlir's Python passes against TensorFlow's C++ passes, driven by a table.

Each row of :data:`ROWS` is one pipeline; :mod:`pass_diff` supplies the inputs
(lit chunks of the row's passes, TF's reference samples, TF's own output for
tf_cases.py, the corpus models) and the comparison rules. Adding a pass to the
differential tests means adding a row here.
"""
import pytest

from conftest import have_tensorflow, require_tensorflow
from pass_diff import Row, compare, input_ids, input_text, lit_inputs, mark_single_core_tpu, run_tf_table


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

CASES = [(row, input_id) for row in ROWS for input_id in input_ids(row)]


@pytest.fixture(scope="session")
def tf_table(tf_outputs):
    require_tensorflow()
    return run_tf_table(ROWS, tf_outputs)


@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
@pytest.mark.parametrize("row,input_id", CASES, ids=[f"{r.name}-{i}" for r, i in CASES])
def test_matches_tensorflow(row, input_id, tf_table, tf_outputs):
    text = input_text(input_id, tf_outputs)
    compare(row, input_id, text, tf_table.get((row.name, input_id)),
            lambda message: pytest.fail(message, pytrace=False), pytest.skip)


def test_table_is_well_formed():
    import tf_cases

    names = [row.name for row in ROWS]
    assert len(names) == len(set(names))
    from tfmlir.passes import registered_passes
    for row in ROWS:
        for flag in row.lit_flags():
            assert flag in registered_passes(), (row.name, flag)
    # Guards against the parametrization silently shrinking.
    assert len(lit_inputs(_EXECUTOR_FLAGS)) >= 25
    assert len(lit_inputs(_CONVERSION_FLAGS)) >= 30
    assert len(tf_cases.CASES) >= 10


def test_tpu_marking_marks_islands():
    text = ('%o, %c = tf_executor.island wraps "tf.A"(%x) {device = ""} : (t) -> t\n' * 5)
    assert mark_single_core_tpu(text, every=5).count('_xla_compile_device_type = "TPU"') == 1
