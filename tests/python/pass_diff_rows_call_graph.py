"""Differential rows: cloning functions until each has one use (-tf-guarantee-all-funcs-one-use).

Inputs besides the common ones: the pass's lit files (``-invalid`` too), the
``call_graph`` set (TF programs whose helpers are called from several places,
through tf.cond, loops, levels of helpers, a TF1 Defun and saved models:
tests/python/call_graph_programs.py) and the other generated sets (programs
without shared functions, which must come out unchanged).
"""
from pass_diff import Row

_FLAGS = ("tf-guarantee-all-funcs-one-use",)

# Inputs of the -invalid lit file where TF's result cannot be matched: TF is not run, tfmlir
# must fail with the given diagnostic and leave the module as it was.
_TF_UNMATCHED = {
    # Functions using themselves (not by calls), with several uses: TF's pass copies them
    # forever and never returns.
    "@never_ends_body": "cloning functions until each has one use would never end",
    "@self_named_leaf": "cloning functions until each has one use would never end",
    # Ops of dialects TF's context does not load (memref, llvm).
    "@foreign_global": "the pass cannot tell whether it is a call",
    "@foreign_function": "is a symbol with a region",
    # A reference inside a type: TF rewrites the type, which Python cannot rebuild.
    "@encoded_helper": "cannot be taken apart from Python",
}

ROWS = [
    Row("tf-guarantee-all-funcs-one-use", "tf-guarantee-all-funcs-one-use", _FLAGS,
        ("call_graph", "control_flow", "bridge", "replicate", "invalid"), _TF_UNMATCHED),
]
