"""Differential rows: upstream passes whose result depends on the dialects' interfaces.

``canonicalize`` exercises the folders, the canonicalization patterns and the
tf dialect's constant-folding hook (TF folds any op on constant operands with
its kernels; tfmlir through :mod:`tfmlir.constant_folding`); ``inline`` the
inliner interfaces of tf, tf_device and tf_executor (legality, call
conversions, the multi-device placement of inlined bodies). Inputs besides the
common ones: the lit tests of these passes (``pass_diff.UPSTREAM_LIT``) and
programs of TF's bridge and control flow (not the ``call_graph`` programs for
``inline``: their functions call each other recursively, and the inliner
-- TF's as upstream's -- does not finish on them).
"""
from pass_diff import Row

ROWS = [
    Row("canonicalize", "func.func(canonicalize)", ("canonicalize",),
        ("tpu", "tpu_programs", "tpu_clusters", "bridge", "replicate", "control_flow")),
    Row("inline", "inline", ("inline",), ("control_flow", "tpu_programs")),
]
