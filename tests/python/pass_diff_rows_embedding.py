"""Differential rows: the TPU embedding passes and the ReduceDataset decomposition.

Inputs besides the common ones: the chunks of the ``-invalid.mlir`` lit files
and TPU embedding and ``tf.data`` reduce programs built by TF's Python
(``embedding``: tests/python/embedding_programs.py).
"""
from pass_diff import Row

_EXTRA = ("embedding", "invalid")

# TF's process dies on these inputs (a null function, an out-of-range operand or result, a cast
# to a shaped type of a type that is not, an op erased while still used); reading a result that
# does not exist is undefined behaviour and once in a while TF survives it with garbage.
_TF_CRASHES_DECOMPOSE = {
    "@tf_crash_missing_reduce_function(":
        "'tf.ReduceDataset' op reduce function @missing: no such symbol",
    "@tf_crash_element_not_shaped(":
        "a dataset argument of the reduce function is not of a shaped type",
    "@tf_crash_missing_state_operand(": "it has fewer operands than its dataset and 2 state values",
    "@tf_crash_missing_state_result(": "it has fewer results than its 2 state values",
    "@tf_crash_extra_result_used(": "a result beyond the state values is used",
}

ROWS = [
    Row("tf-rewrite-tpu-embedding-ops", "func.func(tf-rewrite-tpu-embedding-ops)", (), _EXTRA),
    Row("tf-tpu-update-embedding-enqueue-op-inputs",
        "func.func(tf-tpu-update-embedding-enqueue-op-inputs)", (), _EXTRA),
    Row("tf-decompose-reduce-dataset", "func.func(tf-decompose-reduce-dataset)", (), _EXTRA,
        _TF_CRASHES_DECOMPOSE),
]
