"""Differential rows: passes of TF's legalization to XLA that run before ``xla-legalize-tf``.

TF's ``CreateConvertMlirToXlaHloPipeline`` prepares a device program with these
(tfmlir's runtime runs them in process before TensorFlow's child legalizes):
``tf-replicate-tensor-list-init-ops`` gives each use of a TensorList creation op its own.
Inputs besides the common ones: control flow v2 programs (TensorLists carried through
loops), TPU programs as users write them and the ``-invalid.mlir`` lit chunks.
"""
from pass_diff import Row

ROWS = [
    Row("tf-replicate-tensor-list-init-ops", "func.func(tf-replicate-tensor-list-init-ops)", (),
        ("control_flow", "tpu_programs", "invalid")),
]
