"""Rewrites partitioned ops into their V2 form.

``tf.TPUPartitionedInput`` / ``tf.TPUPartitionedOutput`` partition along one
dimension (``partition_dim``, -1: not partitioned); their V2 forms carry one
partition count per dimension. As TF 2.21's -tf-tpu-partitioned-op-conversion,
in each function:

* The number of cores comes from the function's ``tf.TPUReplicateMetadata``
  (searched at any depth) when there is exactly one, from its
  ``num_cores_per_replica`` attribute as written (an absent attribute counts
  as unknown, not as its default 1).
* Every ``tf.TPUPartitionedInput`` and ``tf.TPUPartitionedOutput`` (post-order)
  is replaced by a ``tf.TPUPartitionedInputV2`` / ``tf.TPUPartitionedOutputV2``
  with the same operands and result types, at the same place and location:
  ``partition_dims`` is empty for ``partition_dim = -1``, else one 1 per
  dimension of the (first) operand's type with the number of cores at
  ``partition_dim`` (for a resource operand, the type of the resource's
  value). The input gets ``is_packed = false``; both keep ``_XlaSharding`` and
  ``_XlaShardingV2``. All other attributes (``device``, ...) are dropped.

Failures (TF's messages, at the op; the module is left as it was):

* "cannot convert op with unranked or non-tensor input type '<type>'.";
* "cannot partition '<type>' (rank = <r>) along dimension <d>.";
* a partitioning (``partition_dim`` other than -1) without a number of cores
  (no or several ``tf.TPUReplicateMetadata``, or one without
  ``num_cores_per_replica``): TF's pass fails without a diagnostic;
* a created ``tf.TPUPartitionedInputV2`` whose number of operands is not the
  number of cores: "'tf.TPUPartitionedInputV2' op expected <n> inputs, got
  <m>" (TF's verifier, after the pass);
* inputs TF's process crashes on: a ``partition_dim`` below -1, a resource
  operand without a subtype, a ``tf.TPUPartitionedInput`` without operands.

A failure in a function is found after the conversions before it in the same
function, as in TF; TF verifies the created ops only when every function
converted (here each function is checked after its own conversions).
"""
from mlir import ir

from . import attributes
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import ops_named
from .lib.tpu_partitioned_ops import (IS_PACKED, NUM_CORES_PER_REPLICA, PARTITION_DIMS,
                                  PARTITIONED_INPUT, PARTITIONED_INPUT_V2, PARTITIONED_OUTPUT,
                                  PARTITIONED_OUTPUT_V2, REPLICATE_METADATA, SHARDING_ATTRS,
                                  i64_array, partition_dims_error, quoted, resource_subtypes)

PARTITION_DIM = "partition_dim"


@register_pass
class TPUPartitionedOpConversionPass(Pass):
    argument = "tf-tpu-partitioned-op-conversion"
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        metadata = ops_named(func, REPLICATE_METADATA)
        num_cores = attributes.integer(metadata[0], NUM_CORES_PER_REPLICA) if len(metadata) == 1 else None
        created = []
        for op in ops_named(func, (PARTITIONED_INPUT, PARTITIONED_OUTPUT)):
            created.append(_convert(op, num_cores, len(metadata)))
        for new in created:
            if new.name == PARTITIONED_INPUT_V2:
                error = partition_dims_error(new)
                if error is not None:
                    raise PassFailure(error, new)


def _convert(op, num_cores, metadata_count):
    name = op.name
    is_input = name == PARTITIONED_INPUT
    partition_dim = attributes.integer(op, PARTITION_DIM)
    if partition_dim is None:
        partition_dim = 0
    replicated = partition_dim == -1
    if not replicated and num_cores is None:
        why = (f"{metadata_count} 'tf.TPUReplicateMetadata' ops" if metadata_count != 1
               else "a 'tf.TPUReplicateMetadata' without num_cores_per_replica")
        raise PassFailure(f"'{name}' op partitions along dimension {partition_dim} but the number "
                          f"of cores per replica is unknown ({why} in the function; TF's pass "
                          f"fails without a diagnostic)", op)
    if partition_dim < -1:
        raise PassFailure(f"'{name}' op has partition_dim = {partition_dim}, neither -1 nor a "
                          f"dimension (TF's process crashes here)", op)
    operands = list(op.operands)
    if not operands:
        raise PassFailure(f"'{name}' op has no operands (TF's process crashes here)", op)
    first_type = operands[0].type
    subtypes = resource_subtypes(first_type)
    if subtypes is not None:
        if not subtypes:
            raise PassFailure(f"'{name}' op has a resource operand without a subtype, "
                              f"{quoted(first_type)} (TF's process crashes here)", op)
        first_type = subtypes[0]
    if not isinstance(first_type, ir.RankedTensorType):
        shown = quoted(first_type) if isinstance(first_type, ir.ShapedType) else "'<<NULL TYPE>>'"
        raise PassFailure(f"cannot convert op with unranked or non-tensor input type {shown}.", op)
    rank = first_type.rank
    if rank <= partition_dim:
        raise PassFailure(f"cannot partition {quoted(first_type)} (rank = {rank}) along dimension "
                          f"{partition_dim}.", op)
    dims = [] if replicated else [1] * rank
    if not replicated:
        dims[partition_dim] = num_cores
    context = op.context
    new_attributes = {PARTITION_DIMS: i64_array(dims, context)}
    if is_input:
        new_attributes[IS_PACKED] = ir.BoolAttr.get(False, context)
    for sharding in SHARDING_ATTRS:
        value = attributes.get(op, sharding)
        if value is not None:
            new_attributes[sharding] = value
    new = ir.Operation.create(PARTITIONED_INPUT_V2 if is_input else PARTITIONED_OUTPUT_V2,
                              results=[r.type for r in op.results], operands=operands,
                              attributes=new_attributes, loc=op.location, ip=ir.InsertionPoint(op))
    for old, replacement in zip(op.results, new.results):
        old.replace_all_uses_with(replacement)
    erase_op(op)
    return new
