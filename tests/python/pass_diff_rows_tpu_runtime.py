"""Differential rows: function passes of TF's TPU runtime lowering after tf-tpu-rewrite.

TF 2.21's pip build registers -tf-extract-tpu-copy-with-dynamic-shape-op and
-tf-tpu-colocate-composite-resource-ops (not -tf-embedding-program-key, whose
lit tests are the only check). Inputs besides the common ones: the chunks of
the ``-invalid.mlir`` lit files.
"""
from pass_diff import Row

# TF's behaviour is undefined on these (it reads a null launch after reporting that the copy is
# not in one; it reads past the empty TPU list of the first host); tfmlir fails with the message.
_TF_CRASHES_EXTRACT = {
    "@tf_crash_not_in_launch(": "TPUCopyWithDynamicShapeOp is not in a launch",
    "@tf_crash_no_tpu(": "no TPU device on the first TPU_SYSTEM host",
}

ROWS = [
    Row("tf-extract-tpu-copy-with-dynamic-shape-op",
        "func.func(tf-extract-tpu-copy-with-dynamic-shape-op)", (), ("invalid",), _TF_CRASHES_EXTRACT),
    Row("tf-tpu-colocate-composite-resource-ops", "func.func(tf-tpu-colocate-composite-resource-ops)",
        (), ("invalid",)),
]
