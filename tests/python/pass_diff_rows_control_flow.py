"""Differential rows: functional <-> region control flow and dropping While shape invariants.

Every row reads the lit inputs of the four passes, the common inputs and the
``control_flow`` set (Keras / tf.function programs with tf.cond, tf.while_loop and
tf.switch_case converted by TF in functional and region form, and a TPU program
after TF's clustering bridge).
"""
from pass_diff import Row

CONTROL_FLOW_FLAGS = ("tf-functional-control-flow-to-regions", "tf-region-control-flow-to-functional",
                      "tf-drop-while-shape-invariant",
                      "tf-drop-while-shape-invariant-in-device-cluster")
_EXTRA = ("control_flow",)

ROWS = [
    Row("tf-functional-control-flow-to-regions", "tf-functional-control-flow-to-regions",
        CONTROL_FLOW_FLAGS, _EXTRA),
    Row("tf-functional-control-flow-to-regions-passthrough",
        "tf-functional-control-flow-to-regions{allow-passthrough-args}", CONTROL_FLOW_FLAGS, _EXTRA),
    Row("tf-region-control-flow-to-functional", "tf-region-control-flow-to-functional",
        CONTROL_FLOW_FLAGS, _EXTRA),
    # Both directions in turn (TF's passes compose the same way).
    Row("functional-to-regions-and-back",
        "tf-functional-control-flow-to-regions,tf-region-control-flow-to-functional",
        CONTROL_FLOW_FLAGS, _EXTRA),
    Row("regions-to-functional-and-back",
        "tf-region-control-flow-to-functional,tf-functional-control-flow-to-regions",
        CONTROL_FLOW_FLAGS, _EXTRA),
    Row("tf-drop-while-shape-invariant", "func.func(tf-drop-while-shape-invariant)",
        CONTROL_FLOW_FLAGS, _EXTRA),
    Row("tf-drop-while-shape-invariant-in-device-cluster",
        "func.func(tf-drop-while-shape-invariant-in-device-cluster)", CONTROL_FLOW_FLAGS, _EXTRA),
]
