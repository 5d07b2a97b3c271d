"""Differential rows: promoting resources and variable handles to function arguments.

-tf-promote-resources-to-args (default functions, and ``functions=step,reader`` as the
option's lit file uses it) and -tf-promote-var-handles-to-args. Inputs besides the common
ones: the passes' lit files (``-invalid`` too), programs with control flow v2 (functional
If / While and calls reading and writing variables: ``control_flow``) and programs whose
functions are used several times (``call_graph``); for -tf-promote-var-handles-to-args also
TPU programs at the stage where the bridge lifts resources (``tpu_resources``) and the
clustering bridge's programs (``bridge``).

-tf-promote-resources-to-args runs on the entry functions of saved models (TF2XLA, TFLite),
before any device cluster is formed: on TPU bridge programs whose variables are read only in
a ``tf_device.cluster`` TF's process dies (the variable's argument is erased while the reads
in the cluster still use it; tfmlir fails with a diagnostic saying so), so that row leaves
out the ``tpu_resources`` and ``bridge`` sets; its -invalid lit file has the case.
"""
from pass_diff import Row

_PROMOTE = ("tf-promote-resources-to-args",)
_VAR_HANDLES = ("tf-promote-var-handles-to-args",)

# Inputs where TF's process dies: tfmlir fails with the given diagnostic.
_TF_CRASHES = {
    'shared_name = "read_in_cluster_only"': "TensorFlow crashes here",
    "then_branch = @both_ways": "TensorFlow crashes here",
}

ROWS = [
    Row("tf-promote-resources-to-args", "tf-promote-resources-to-args", _PROMOTE,
        ("control_flow", "call_graph", "invalid"), _TF_CRASHES),
    Row("tf-promote-resources-to-args-functions",
        "tf-promote-resources-to-args{functions=step,reader}", _PROMOTE, ("invalid",)),
    Row("tf-promote-var-handles-to-args", "tf-promote-var-handles-to-args", _VAR_HANDLES,
        ("control_flow", "call_graph", "tpu_resources", "bridge", "invalid")),
]
