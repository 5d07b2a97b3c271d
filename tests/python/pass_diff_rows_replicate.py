"""Differential rows: the tf_device replicate passes and IfRegion merging."""
from pass_diff import Row

_FLAGS = ("tf-replicate-invariant-op-hoisting", "tf-hoist-replicate-invariant-resource-writes",
          "tf-device-mark-input-output-aliases", "tf-merge-control-flow")

# Inputs where TensorFlow 2.21's hoisting changes the program's meaning; tfmlir keeps the
# op in the replicate (the lit tests check what it does).
_TF_WRONG_HOISTING = {
    # TF hoists a read of an outer variable in front of a write to it in the replicate.
    "@side_effect_order_kept": "TF hoists a read past a write to the same variable",
    # TF hoists a launch holding a _TPUDeviceOrdinalPlaceholder (replica dependent).
    "@nested_ordinal_placeholder_stays": "TF hoists an op holding a device ordinal placeholder",
}


def _tf_wrong_hoisting(text):
    for marker, reason in _TF_WRONG_HOISTING.items():
        if marker in text:
            return reason
    return None


ROWS = [
    Row("tf-replicate-invariant-op-hoisting", "func.func(tf-replicate-invariant-op-hoisting)", _FLAGS,
        ("replicate",), tf_cannot_run=_tf_wrong_hoisting),
    Row("tf-hoist-replicate-invariant-resource-writes",
        "func.func(tf-hoist-replicate-invariant-resource-writes)", _FLAGS, ("replicate",)),
    Row("tf-device-mark-input-output-aliases", "tf-device-mark-input-output-aliases", _FLAGS,
        ("replicate",)),
    Row("tf-merge-control-flow", "tf-merge-control-flow", _FLAGS, ("replicate",)),
    Row("replicate-passes", "func.func(tf-hoist-replicate-invariant-resource-writes,"
        "tf-replicate-invariant-op-hoisting),tf-device-mark-input-output-aliases,tf-merge-control-flow",
        _FLAGS, ("replicate",), tf_cannot_run=_tf_wrong_hoisting),
]
