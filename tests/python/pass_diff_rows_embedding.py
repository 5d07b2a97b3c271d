"""Differential rows: the TPU embedding passes and the ReduceDataset decomposition.

Inputs besides the common ones: the chunks of the ``-invalid.mlir`` lit files
and TPU embedding and ``tf.data`` reduce programs built by TF's Python
(``embedding``: tests/python/embedding_programs.py).
"""
from pass_diff import Row

_EXTRA = ("embedding", "invalid")

ROWS = [
    Row("tf-rewrite-tpu-embedding-ops", "func.func(tf-rewrite-tpu-embedding-ops)", (), _EXTRA),
    Row("tf-tpu-update-embedding-enqueue-op-inputs",
        "func.func(tf-tpu-update-embedding-enqueue-op-inputs)", (), _EXTRA),
]
