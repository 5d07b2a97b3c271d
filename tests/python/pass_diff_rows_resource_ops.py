"""Differential rows: the resource op decompositions (-tf-device-decompose-resource-ops and its in-cluster form).

Besides the common inputs (lit files of both passes, TF's samples, TF's outputs of
tf_cases, the corpus models), every row runs on TPU programs at the start of TF's
clustering bridge with their clusters formed (``tpu_clusters``; their optimizer steps are
the ops these passes decompose), the bridge and replicate programs of the device passes,
the corpus models marked for TPU and the chunks of the ``-invalid.mlir`` lit files.
"""
from pass_diff import Row

_FLAGS = ("tf-device-decompose-resource-ops", "tf-device-decompose-resource-ops-in-cluster")
_EXTRA = ("tpu", "tpu_clusters", "bridge", "replicate", "invalid")

# Inputs where TF's process dies (its builders get no result type, or GetScalarOfType meets
# an element type it has no constant for); tfmlir fails with the given diagnostic instead.
_TF_CRASHES = {
    "@not_broadcastable(": "non-broadcastable operands",
    "@quantized(": "no scalar constant of element type !tf_type.qint8",
    "@sub_not_broadcastable(": "non-broadcastable operands",
}
# The function pass also decomposes ops outside clusters.
_TF_CRASHES_FUNCTION = dict(_TF_CRASHES, **{"@unclustered_not_broadcastable(": "non-broadcastable operands"})

ROWS = [
    Row("tf-device-decompose-resource-ops-in-cluster", "tf-device-decompose-resource-ops-in-cluster",
        _FLAGS, _EXTRA, _TF_CRASHES),
    Row("tf-device-decompose-resource-ops", "func.func(tf-device-decompose-resource-ops)", _FLAGS,
        _EXTRA, _TF_CRASHES_FUNCTION),
]
