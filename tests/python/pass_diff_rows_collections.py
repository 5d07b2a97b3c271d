"""Differential rows: the collection decompositions (tensor lists, tensor arrays, stacks).

Inputs besides the common ones: the chunks of the ``-invalid.mlir`` lit files (errors must
be TF's), programs with control flow v2 (``control_flow``: loops and conditionals carrying
tensor lists, as TF's importer writes them) and programs whose functions are used several
times (``call_graph``).
"""
from pass_diff import Row

_EXTRA = ("invalid", "control_flow", "call_graph")

# Inputs where TF's process dies: a public callee calling a function (TF looks for gradient
# uses in its copy before the copy joins the module, and dereferences the callee it cannot
# find); tfmlir fails with a diagnostic saying so.
_TF_CRASHES_TENSOR_ARRAY = {
    "@outer_calling_inner(": "TensorFlow crashes here",
}

ROWS = [
    Row("tf-tensor-list-ops-decomposition", "tf-tensor-list-ops-decomposition", (), _EXTRA),
    Row("tf-tensor-array-ops-decomposition", "tf-tensor-array-ops-decomposition", (), _EXTRA,
        _TF_CRASHES_TENSOR_ARRAY),
    Row("tf-stack-ops-decomposition", "tf-stack-ops-decomposition", (), _EXTRA),
]
