"""Differential rows: the graph optimization passes of the seed list.

``tf-tensor-device-copy`` (identities between ops on one device), ``tf-materialize-passthrough-op``
(MLIR modules attached to ``tf.MlirPassthroughOp``), and the three passes that are rewrite
patterns under MLIR's greedy driver -- ``tf-gpu-op-fusion``, ``tf-lower-quantized``,
``tf-optimize`` -- whose results also hold the driver's folding, constant hoisting and dead
code removal (TF's folders and constant folding, tfmlir's on the tf dialect's hooks). Inputs
besides the common ones (lit chunks, TF's reference samples, ``tf_cases``, the corpus
models): TPU programs as users write them and after the bridge's device passes, control
flow v2 programs, and the ``-invalid.mlir`` lit chunks (error messages).
"""
from pass_diff import Row

_EXTRA = ("tpu_programs", "bridge", "control_flow", "invalid")


# TF's process dies where the attached module has no symbol "main" (its pass casts the missing
# symbol without checking it); tfmlir reports it.
_NO_MAIN = "MLIR Opaque Op expects a main() entry point"
_TF_CRASHES_PASSTHROUGH = {"@no_main(": _NO_MAIN, "@main_not_a_function(": _NO_MAIN, "@two_bad(": _NO_MAIN}
# TF's process dies where a Dequantize's ranges do not broadcast (its builders make an op
# without a type); tfmlir reports it.
_TF_CRASHES_LOWER_QUANTIZED = {"@ranges_not_broadcastable(": "cannot be lowered",
                               "@min_not_broadcastable(": "cannot be lowered"}
# Where TF's pass emits an error, it keeps the op and succeeds; tfmlir's fails (an error from a
# pass that succeeds aborts MLIR's Python bindings).
_EMITS_AND_SUCCEEDS = "TF emits the error, keeps the op and succeeds; tfmlir fails the pass"
_PASSTHROUGH_DIFFERENCES = {
    "lit:tf-materialize-passthrough-op-invalid.mlir#2": _EMITS_AND_SUCCEEDS,
    "lit:tf-materialize-passthrough-op-invalid.mlir#3": _EMITS_AND_SUCCEEDS,
    "lit:tf-materialize-passthrough-op-invalid.mlir#4": _EMITS_AND_SUCCEEDS,
    # The attached module holds an op of an unregistered dialect (the lit test allows them).
    "lit:tf-materialize-passthrough-op.mlir#0": _EMITS_AND_SUCCEEDS,
}

ROWS = [
    Row("tf-tensor-device-copy", "func.func(tf-tensor-device-copy)", (), _EXTRA),
    Row("tf-materialize-passthrough-op", "func.func(tf-materialize-passthrough-op)", (), _EXTRA,
        _TF_CRASHES_PASSTHROUGH, known_differences=_PASSTHROUGH_DIFFERENCES),
    Row("tf-gpu-op-fusion", "func.func(tf-gpu-op-fusion)", (), _EXTRA),
    Row("tf-lower-quantized", "func.func(tf-lower-quantized)", (), _EXTRA, _TF_CRASHES_LOWER_QUANTIZED),
    Row("tf-optimize", "func.func(tf-optimize)", (), _EXTRA),
]
