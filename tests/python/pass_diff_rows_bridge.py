"""Differential rows: the smaller passes of TF's clustering bridge that TF registers one by one.

Inputs besides the common ones: TPU programs as users write them
(``tpu_programs``: tests/python/tpu_bridge_programs.py, the raw imports the
bridge starts from), TPU programs with clusters formed (``tpu_clusters``),
the bridge and replicate programs of the device passes, the corpus models
marked for TPU (``tpu``) and the chunks of the ``-invalid.mlir`` lit files.
"""
from pass_diff import Row

_EXTRA = ("tpu", "tpu_programs", "tpu_clusters", "bridge", "replicate", "invalid")

# TF's process dies on this (it reads an attribute that is not a bool as a bool).
_TF_CRASHES_CANONICALIZE = {
    "@not_a_bool(": "'tf.Neg' op has a '_XlaMustCompile' attribute that is not a bool (1 : i32)",
}

ROWS = [
    Row("tf-canonicalize-compile-and-replicate-attributes",
        "func.func(tf-canonicalize-compile-and-replicate-attributes)", (), _EXTRA,
        _TF_CRASHES_CANONICALIZE),
]
