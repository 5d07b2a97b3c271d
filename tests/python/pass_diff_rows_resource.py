"""Differential rows: the resource passes of TF's clustering bridge (op lifting, device inference).

Inputs besides the common ones: TPU programs at the stage where the bridge runs
these passes (``tpu_resources``: tests/python/tpu_resource_programs.py, TF's
registered bridge passes run up to the pass), TPU programs with clusters formed
(``tpu_clusters``), TPU programs as users write them (``tpu_programs``), the
bridge and replicate programs of the device passes, control flow v2 programs,
programs whose functions are used several times, the corpus models marked for
TPU (``tpu``) and the chunks of the ``-invalid.mlir`` lit files.
"""
from pass_diff import Row

_EXTRA = ("tpu", "tpu_resources", "tpu_clusters", "tpu_programs", "bridge", "replicate",
          "control_flow", "call_graph", "invalid")

# Inputs where TF's process dies (a call into a function of a nested module: TF looks the
# callee up among the module's own functions only); tfmlir fails with the given diagnostic.
_TF_CRASHES_DEVICE_INFERENCE = {
    "@nested_callee(": "calls a function nested in another module",
}

# tf-resource-op-lifting: tfmlir does not lift through functional control flow and calls
# (tf.If/tf.Case/tf.While/tf.PartitionedCall/tf.StatefulPartitionedCall under a cluster; the
# bridge turns them into regions and inlines calls first), so its row leaves out the TPU programs
# with clusters formed at the start of the bridge (tpu_clusters), whose clusters call functions
# and hold tf.If (tests/lit/passes/unsupported-tf-resource-op-lifting.mlir checks the diagnostic).
_EXTRA_LIFTING = ("tpu", "tpu_resources", "tpu_programs", "bridge", "replicate", "control_flow",
                  "call_graph", "invalid")

ROWS = [
    Row("tf-resource-op-lifting", "tf-resource-op-lifting", (), _EXTRA_LIFTING),
    Row("tf-resource-device-inference", "tf-resource-device-inference", (), _EXTRA,
        _TF_CRASHES_DEVICE_INFERENCE),
]
