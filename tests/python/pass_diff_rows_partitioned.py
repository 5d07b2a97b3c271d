"""Differential rows: the passes rewriting TPU partitioned inputs and outputs.

Besides the common inputs, every row runs on the chunks of its ``-invalid.mlir``
lit files (``invalid``), TPU programs with partitioned inputs and outputs as
TF's Python builds them (``tpu_partitioned``: tests/python/tpu_partitioned_programs.py),
the TPU programs of the other TPU rows and the corpus models marked for TPU (``tpu``).
"""
from pass_diff import Row

_EXTRA = ("tpu", "tpu_clusters", "replicate", "tpu_partitioned", "invalid")

# Inputs TF mishandles, so TF is not run on them: its process dies (out-of-bounds accesses in
# the C++ passes), aborts, or its pass reads memory as the wrong type or stops half way and
# still succeeds. tfmlir fails with the given diagnostic and leaves the module as it was.
_TF_CRASHES_CONVERSION = {
    "@tf_crash_negative_dim(": "neither -1 nor a dimension",
    "@tf_crash_resource_without_subtype(": "a resource operand without a subtype",
    "@tf_crash_no_operands(": "has no operands",
}

_TF_CRASHES_REORDER = {
    "@tf_crash_negative_cores(": "for packed inputs (TF aborts here",
}

_TF_CRASHES_RESOURCE = {
    "@tf_crash_read_without_sharding(": "has no _XlaSharding",
    "@tf_crash_not_a_resource(": "is not a resource",
    "@tf_crash_negative_cores(": "for a packed variable",
}

_TF_CRASHES_DYNAMIC = {
    "@tf_crash_annotation_outside_launch(": "is not inside a 'tf_device.launch'",
    "@tf_crash_launch_returns_argument(": "returns a block argument",
    "@tf_crash_declaration(": "a function declaration without a body",
    "@tf_crash_too_few_arguments(": "but its callee has 1 arguments",
}

ROWS = [
    Row("tf-tpu-partitioned-op-conversion", "func.func(tf-tpu-partitioned-op-conversion)",
        extra=_EXTRA, tf_crashes=_TF_CRASHES_CONVERSION),
    Row("tf-tpu-reorder-replicate-partitioned-inputs",
        "func.func(tf-tpu-reorder-replicate-partitioned-inputs)", extra=_EXTRA,
        tf_crashes=_TF_CRASHES_REORDER),
    Row("tf-tpu-resource-partition", "func.func(tf-tpu-resource-partition)", extra=_EXTRA,
        tf_crashes=_TF_CRASHES_RESOURCE),
    Row("tf-tpu-annotate-dynamic-shape-inputs", "tf-tpu-annotate-dynamic-shape-inputs",
        extra=_EXTRA, tf_crashes=_TF_CRASHES_DYNAMIC),
    # The two as TF's bridge runs them, on the inputs of both.
    Row("tpu-partitioned-op-conversion+reorder",
        "func.func(tf-tpu-partitioned-op-conversion),"
        "func.func(tf-tpu-reorder-replicate-partitioned-inputs)",
        extra=("tpu_partitioned", "invalid"),
        tf_crashes={**_TF_CRASHES_CONVERSION, **_TF_CRASHES_REORDER}),
]
