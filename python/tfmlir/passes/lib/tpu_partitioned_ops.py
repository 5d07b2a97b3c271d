"""Shared pieces of the passes that rewrite TF's TPU partitioned inputs and outputs.

``tf.TPUPartitionedInput(V2)`` groups the per-core pieces of a value that XLA
partitions across the cores of one replica; ``tf.TPUPartitionedOutput(V2)``
splits a result into them. These helpers build the V2 ops as TF's C++ builders
do and check them as TF's op verifier does (tfmlir's dialect does not verify
``tf.TPUPartitionedInputV2``; TF verifies the ops a pass creates after it).
"""
from mlir import ir

from ... import irsafe
from .. import attributes

PARTITIONED_INPUT = "tf.TPUPartitionedInput"
PARTITIONED_INPUT_V2 = "tf.TPUPartitionedInputV2"
PARTITIONED_OUTPUT = "tf.TPUPartitionedOutput"
PARTITIONED_OUTPUT_V2 = "tf.TPUPartitionedOutputV2"
REPLICATED_INPUT = "tf.TPUReplicatedInput"
REPLICATE_METADATA = "tf.TPUReplicateMetadata"

XLA_SHARDING = "_XlaSharding"
XLA_SHARDING_V2 = "_XlaShardingV2"
SHARDING_ATTRS = (XLA_SHARDING, XLA_SHARDING_V2)
PARTITION_DIMS = "partition_dims"
IS_PACKED = "is_packed"
NUM_CORES_PER_REPLICA = "num_cores_per_replica"




def attribute_dict(op):
    """All of `op`'s attributes, inherent and discardable (MLIR's ``getAttrs()``), by name."""
    return irsafe.attribute_dict(op.operation)






def i64_array(values, context=None):
    i64 = ir.IntegerType.get_signless(64, context)
    return ir.ArrayAttr.get([ir.IntegerAttr.get(i64, v) for v in values], context)


def partition_dims_error(op):
    """TF's verifier of ``tf.TPUPartitionedInputV2`` on `op`: its message, or None.

    The number of inputs must be the product of ``partition_dims`` (1 when
    packed), unless ``partition_dims`` is empty and the op is not packed.
    """
    dims = attributes.get(op, PARTITION_DIMS)
    values = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(dims)] if dims is not None else []
    num_partitions = 1
    for value in values:
        num_partitions *= value
    # TF multiplies in a C++ int.
    num_partitions = (num_partitions + (1 << 31)) % (1 << 32) - (1 << 31)
    packed = attributes.boolean(op, IS_PACKED, False)
    expected = 1 if packed else num_partitions
    count = len(op.operation.operands)
    if (not values and not packed) or count == expected:
        return None
    return f"'{PARTITIONED_INPUT_V2}' op expected {expected} inputs, got {count}"


def resource_subtypes(value_type):
    """The subtypes of a ``tensor<!tf_type.resource<...>>`` type, or None if it is no resource."""
    from ...dialects import tf_type

    if not isinstance(value_type, ir.ShapedType):
        return None
    element = value_type.element_type
    if not tf_type.ResourceType.isinstance(element):
        return None
    return list(tf_type.ResourceType(element).subtypes)


def quoted(type_):
    """A type as MLIR diagnostics print it (``'tensor<2xf32>'``)."""
    return f"'{type_}'"


def op_label(op):
    return irsafe.op_name(op.operation)
