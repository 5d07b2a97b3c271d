"""Differential rows: -tf-tpu-space-to-depth-pass.

Inputs besides the common ones: the chunks of the pass's lit files (host inputs
of a training-loop step, replicated inputs, filter gradients, block sizes 2 to
4, and the convolutions, strides, shapes, devices and callees the pass leaves
alone; ``-verify.mlir``: rewrites whose result does not verify, where TF's
verifier and tfmlir report the same first error), TPU programs as users write
them (``tpu_programs``), TPU programs with clusters formed (``tpu_clusters``),
the bridge and replicate programs of the device passes and the corpus models
marked for TPU (``tpu``). The ``-invalid.mlir`` chunks are left out: TF's
process crashes on one, and on the others TF builds types with impossible
sizes that tfmlir refuses instead (see the pass's docstring).
"""
from pass_diff import Row

_EXTRA = ("tpu", "tpu_programs", "tpu_clusters", "bridge", "replicate")

ROWS = [
    Row("tf-tpu-space-to-depth-pass", "tf-tpu-space-to-depth-pass", (), _EXTRA),
]
