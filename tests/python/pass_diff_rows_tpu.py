"""Differential rows: the TPU cluster attribute passes (cleanup, host computation expansion).

Besides the common inputs, every row runs on TPU programs at the start of TF's
clustering bridge with their clusters formed (``tpu_clusters``:
tests/python/tpu_cluster_programs.py, formed by tfmlir's -tf-tpu-cluster-formation;
the ``.kept`` variants keep the cluster ops' attributes, the ``.expansion``
variants are TF's own input of the expansion pass), the bridge and replicate programs of the
device passes, the corpus models marked for TPU (``tpu``) and the chunks of
the ``-invalid.mlir`` lit files (``invalid``).
"""
from pass_diff import Row

_FLAGS = ("tf-tpu-cleanup-cluster-attributes", "tf-tpu-host-computation-expansion")
_EXTRA = ("tpu", "tpu_clusters", "bridge", "replicate", "invalid")

# Inputs where TF's process dies (segmentation fault: its call graph walk follows a callee it
# cannot resolve); tfmlir fails with the given diagnostic and leaves the module as it was.
_TF_CRASHES_CLEANUP = {
    "@declaration(": "into @external: a function declaration without a body",
    "@declaration_behind_a_call(": "into @external_too: a function declaration without a body",
    "@missing_remote_callee(": "into @missing: no such symbol",
    "@remote_callee_is_a_module(": "into @not_a_function: 'builtin.module' is not a func.func",
    "@remote_callee_path_through_a_function(": "into @g::@h: no such symbol",
    "@indirect(": "its callee is a value, not a symbol",
}

ROWS = [
    Row("tf-tpu-cleanup-cluster-attributes", "tf-tpu-cleanup-cluster-attributes", _FLAGS, _EXTRA,
        _TF_CRASHES_CLEANUP),
    Row("tf-tpu-host-computation-expansion", "func.func(tf-tpu-host-computation-expansion)", _FLAGS,
        _EXTRA),
    Row("tpu-cleanup+host-computation-expansion",
        "tf-tpu-cleanup-cluster-attributes,func.func(tf-tpu-host-computation-expansion)", _FLAGS,
        ("tpu_clusters",), _TF_CRASHES_CLEANUP),
]
