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
_IDENTITY = "tfmlir folds tf.Identity(tf.Identity(x)); TF's dialect has no such pattern"
_FUNCTIONAL = "TF's canonicalization of tf.If / tf.While / tf.Case (attributes, operands) is not tfmlir's"
_REGIONS = "TF's canonicalization of region control flow (tf.IfRegion / tf.CaseRegion) is not tfmlir's"
_DYNAMIC_CONST = ("TF materializes folded constants with the op's dynamic result type; tfmlir's "
                  "materializer builds only constants of the value's own type")
_COMMON = {
    "tf:resources_functional": _IDENTITY, "tf:resources_functional_debug": _IDENTITY,
    "tf:v2_control_flow_functional": _FUNCTIONAL, "tf:v2_control_flow_raw": _FUNCTIONAL,
    "tf:v2_control_flow_raw_debug": _FUNCTIONAL, "tpub:outside_in_cond": _FUNCTIONAL,
    "cf:keras_cond_switch_functional": _FUNCTIONAL, "cf:while_nested_cond_functional": _FUNCTIONAL,
    "cf:keras_cond_switch_regions": _REGIONS, "cf:while_nested_cond_regions": _REGIONS,
    "cf:keras_rnn_functional": _DYNAMIC_CONST, "cf:keras_rnn_regions": _DYNAMIC_CONST,
}
_CANONICALIZE = dict(_COMMON, **{
    "lit:canonicalize.mlir#0": "hand-written folds TF does not make (x - x -> 0 for integers, ...)",
    "replicate:conds_dependent": _REGIONS, "replicate:conds_same_predicate": _REGIONS,
    **{f"tpuc:{name}{suffix}": "tf.Identity ops and op order differ from TF's canonicalization "
                               "(not analysed further)"
       for name in ("replicate_head_casts", "rewrite_cond_calls", "two_computations")
       for suffix in ("", ".kept", ".expansion")},
})

ROWS = [
    Row("canonicalize", "func.func(canonicalize)", ("canonicalize",),
        ("tpu", "tpu_programs", "tpu_clusters", "bridge", "replicate", "control_flow"),
        known_differences=_CANONICALIZE),
    Row("inline", "inline", ("inline",), ("control_flow", "tpu_programs"), known_differences=_COMMON),
]
