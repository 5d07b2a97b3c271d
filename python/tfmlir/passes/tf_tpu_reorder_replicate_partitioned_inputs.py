"""Reorder replicated and partitioned input ops.

A ``tf.TPUReplicatedInput`` fed by one ``tf.TPUPartitionedInputV2`` per
replica (each grouping the per-core pieces of that replica) becomes one
``tf.TPUPartitionedInputV2`` fed by one ``tf.TPUReplicatedInput`` per core
(each grouping that core's pieces of every replica), the order TPU rewriting
expects. As TF 2.21's -tf-tpu-reorder-replicate-partitioned-inputs, for every
``tf.TPUReplicatedInput`` of a function (post-order) with at least one operand
defined by a ``tf.TPUPartitionedInputV2``:

1. Every operand must come from a ``tf.TPUPartitionedInputV2``. The number of
   cores per replica is ``num_cores_per_replica`` of the first
   ``tf.TPUReplicateMetadata`` in the replicated input's block (default 1), or
   without one the number of operands of the first partitioned input (which
   must then not be packed). With metadata, the first partitioned input must
   have one operand per core, or a single one when packed (``is_packed``).
   The other partitioned inputs must match the first: same ``partition_dims``,
   same packing, as many operands as expected, same ``_XlaSharding`` (absent
   and empty differ).
2. For each core, a new ``tf.TPUReplicatedInput`` (the old one's type and
   attributes) takes that core's operand of every partitioned input in
   replica order (the single operand of packed ones); when the partitioned
   inputs are packed and all give the same value, it takes that value once
   and gets ``is_packed = true``, else ``is_packed = false``.
3. A new ``tf.TPUPartitionedInputV2`` (the old one's type, the first
   partitioned input's attributes and location, ``is_packed = false``) takes
   the per-core replicated inputs and replaces the old replicated input,
   which is erased. The new ops are put where the old replicated input was.

Finally every ``tf.TPUPartitionedInputV2`` of the function without uses is
erased (also ones that were unused before).

Failures (TF's messages; the module is left as it was):

* "'tf.TPUReplicatedInput' op expects all inputs from 'tf.TPUPartitionedInputV2'
  ops" (at the replicated input);
* "num cores per replica unavailable, metadata missing?" (a packed first
  partitioned input without metadata), "expects <n> operands but found <m>",
  "expects partition_dims = <dims> but found <dims>", "packing should match
  across ops" (at the partitioned input);
* "... ops to have identical XLA sharding" (at the replicated input);
* a created ``tf.TPUPartitionedInputV2`` whose operand count does not fit its
  ``partition_dims`` (TF's verifier after the pass: "'tf.TPUPartitionedInputV2'
  op expected <n> inputs, got <m>");
* packed inputs with a negative ``num_cores_per_replica`` (TF aborts: "SmallVector
  unable to grow").

Only operands defined in the same function body count: in ``tf_executor``
form each op is in its own island and the pass changes nothing.
"""
from mlir import ir

from . import attributes
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import ops_named
from .lib.tpu_partitioned_ops import (IS_PACKED, NUM_CORES_PER_REPLICA, PARTITION_DIMS,
                                  PARTITIONED_INPUT_V2, REPLICATE_METADATA, REPLICATED_INPUT,
                                  XLA_SHARDING, attribute_dict, partition_dims_error)


@register_pass
class TPUReorderReplicatePartitionedInputsPass(Pass):
    argument = "tf-tpu-reorder-replicate-partitioned-inputs"
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        created = []
        metadata = {}  # block -> its first tf.TPUReplicateMetadata (one scan per block)
        for replicated in ops_named(func, REPLICATED_INPUT):
            defining = [_partitioned_input(value) for value in replicated.operands]
            if not any(op is not None for op in defining):
                continue
            block = replicated.block
            if block not in metadata:
                metadata[block] = _first_metadata(block)
            created.append(_reorder(replicated, defining, metadata[block]))
            erase_op(replicated)
        # TF's verifier, after the pass.
        for merged in created:
            error = partition_dims_error(merged)
            if error is not None:
                raise PassFailure(error, merged)
        for partitioned in ops_named(func, PARTITIONED_INPUT_V2):
            if not _has_uses(partitioned):
                erase_op(partitioned)


def _partitioned_input(value):
    if isinstance(value, ir.OpResult) and value.owner.name == PARTITIONED_INPUT_V2:
        return value.owner.operation
    return None


def _has_uses(op):
    return any(True for result in op.results for _ in result.uses)


def _string_or_none(op, name):
    attr = attributes.get(op, name)
    return ir.StringAttr(attr).value_bytes if isinstance(attr, ir.StringAttr) else attr


def _first_metadata(block):
    for op in block.operations:
        if op.operation.name == REPLICATE_METADATA:
            return op.operation
    return None


def _reorder(replicated, partitioned_inputs, metadata):
    if any(op is None for op in partitioned_inputs):
        raise PassFailure(f"'{REPLICATED_INPUT}' op expects all inputs from "
                          f"'{PARTITIONED_INPUT_V2}' ops", replicated)
    first = partitioned_inputs[0]
    dims = attributes.get(first, PARTITION_DIMS)
    sharding = _string_or_none(first, XLA_SHARDING)
    packed = attributes.boolean(first, IS_PACKED, False)
    first_count = len(first.operands)
    num_cores = first_count
    if metadata is not None:
        num_cores = attributes.integer(metadata, NUM_CORES_PER_REPLICA)
        if num_cores is None:
            num_cores = 1
    elif packed:
        raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op num cores per replica unavailable, "
                          f"metadata missing?", first)
    # TF counts in size_t.
    expected = 1 if packed else num_cores % (1 << 64)
    if metadata is not None and expected != first_count:
        raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op expects {expected} operands but found "
                          f"{first_count}", first)
    for other in partitioned_inputs[1:]:
        other_dims = attributes.get(other, PARTITION_DIMS)
        count = len(other.operands)
        if other_dims != dims:
            raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op expects partition_dims = {dims} but "
                              f"found {other_dims}", other)
        if attributes.boolean(other, IS_PACKED, False) != packed:
            raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op packing should match across ops", other)
        if count != expected:
            raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op expects {expected} operands but found "
                              f"{count}", other)
        if _string_or_none(other, XLA_SHARDING) != sharding:
            raise PassFailure(f"'{REPLICATED_INPUT}' op expects all inputs from "
                              f"'{PARTITIONED_INPUT_V2}' ops to have identical XLA sharding",
                              replicated)
    if num_cores < 0:
        raise PassFailure(f"'{REPLICATE_METADATA}' op has num_cores_per_replica = {num_cores} "
                          f"for packed inputs (TF aborts here: SmallVector unable to grow)", metadata)

    per_core = [[] for _ in range(num_cores)]
    for partitioned in partitioned_inputs:
        operands = list(partitioned.operands)
        for core in range(num_cores):
            per_core[core].append(operands[0] if packed else operands[core])

    context = replicated.context
    result_type = replicated.results[0].type
    replicated_attributes = attribute_dict(replicated)
    at = ir.InsertionPoint(replicated)
    new_replicated = []
    for operands in per_core:
        core_packed = packed and all(value == operands[0] for value in operands)
        if core_packed:
            operands = operands[:1]
        replicated_attributes[IS_PACKED] = ir.BoolAttr.get(core_packed, context)
        new_replicated.append(ir.Operation.create(
            REPLICATED_INPUT, results=[result_type], operands=operands, attributes=replicated_attributes,
            loc=replicated.location, ip=at))
    first_attributes = attribute_dict(first)
    first_attributes[IS_PACKED] = ir.BoolAttr.get(False, context)
    merged = ir.Operation.create(
        PARTITIONED_INPUT_V2, results=[result_type], operands=[op.result for op in new_replicated],
        attributes=first_attributes, loc=first.location, ip=at)
    replicated.result.replace_all_uses_with(merged.result)
    return merged
