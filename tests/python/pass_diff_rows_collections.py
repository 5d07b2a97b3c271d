"""Differential rows: the collection decompositions (tensor lists, tensor arrays).

Inputs besides the common ones: the chunks of the ``-invalid.mlir`` lit files (errors must
be TF's), programs with control flow v2 (``control_flow``: loops and conditionals carrying
tensor lists, as TF's importer writes them) and programs whose functions are used several
times (``call_graph``).
"""
from pass_diff import Row

_EXTRA = ("invalid", "control_flow", "call_graph")

ROWS = [
    Row("tf-tensor-list-ops-decomposition", "tf-tensor-list-ops-decomposition", (), _EXTRA),
]
