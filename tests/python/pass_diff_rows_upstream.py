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

# Where canonicalization (on its own, or as the inliner's default pipeline) is known to differ
# from TF's: not the interfaces, but folds and patterns tfmlir has and TF has not, or the reverse.
_REGIONS = "TF's canonicalization of region control flow (tf.IfRegion / tf.CaseRegion) is not tfmlir's"
_RNN = ("TF's canonicalization of this Keras RNN in region form differs from tfmlir's "
        "(not analysed further)")
_COMMON = {"cf:while_nested_cond_regions": _REGIONS, "cf:keras_rnn_regions": _RNN}
_CANONICALIZE = dict(_COMMON, **{
    "lit:canonicalize.mlir#0": "hand-written folds TF does not make (x - x -> 0 for integers, ...)",
})

ROWS = [
    Row("canonicalize", "func.func(canonicalize)", ("canonicalize",),
        ("tpu", "tpu_programs", "tpu_clusters", "bridge", "replicate", "control_flow"),
        known_differences=_CANONICALIZE),
    Row("inline", "inline", ("inline",), ("control_flow", "tpu_programs"), known_differences=_COMMON),
]
