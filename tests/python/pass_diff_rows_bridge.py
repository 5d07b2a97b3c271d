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





def _no_tf_device_dialect(text):
    # TF's pass creates tf_device.launch ops without declaring the dialect: in a context that has
    # not loaded it (no tf_device op in the input) TF's process dies at the first launch.
    if "tf_device." not in text:
        return "TF crashes: tf_device dialect not loaded"
    return None


ROWS = [
    Row("tf-canonicalize-compile-and-replicate-attributes",
        "func.func(tf-canonicalize-compile-and-replicate-attributes)", (), _EXTRA,
        _TF_CRASHES_CANONICALIZE),
    Row("tf-device-attribute-to-launch", "func.func(tf-device-attribute-to-launch)",
        ("tf-device-attribute-to-launch", "tf-launch-to-device-attribute"), _EXTRA,
        tf_cannot_run=_no_tf_device_dialect),
    Row("tf-launch-to-device-attribute", "func.func(tf-launch-to-device-attribute)",
        ("tf-device-attribute-to-launch", "tf-launch-to-device-attribute"), _EXTRA),
    Row("tf-launch-to-device-attribute{legacy-graph-export=false}",
        "func.func(tf-launch-to-device-attribute{legacy-graph-export=false})",
        ("tf-launch-to-device-attribute",), _EXTRA),
    # TF's process dies on a callee it cannot look up (and on a callee without a body, below); a
    # _mirrored_variable_indices of strings it reads as integers (undefined behaviour, no error).
    Row("tf-annotate-parameter-replication", "tf-annotate-parameter-replication", (), _EXTRA,
        {"@nested_module(": "'tf_device.cluster_func' op callee @callee is not a function of the module",
         "@bad_indices(": "'tf_device.replicate' op '_mirrored_variable_indices' must be an array of "
                          "integers, got [\"a\"]"}),
    Row("tf-tpu-resource-read-for-write", "tf-tpu-resource-read-for-write", (), _EXTRA,
        {"@declaration(": "'tf_device.cluster_func' op callee @external is not a function of the "
                          "module with a body"}),
]
