"""Partitions unpartitioned resource read/write to partitioned resource variables.

TPU programs read and write a partitioned variable through the
``tf.TPUPartitionedInputV2`` grouping its per-core resource handles; for XLA's
SPMD partitioning each read and write must go to the per-core handles. As TF
2.21's -tf-tpu-resource-partition, for every ``tf_device.cluster_func`` of a
function (post-order) with ``use_spmd_for_xla_partitioning = true``:

1. Writes: a result of the cluster_func (of its enclosing
   ``tf_device.parallel_execute``, if any) used only as the value of a
   ``tf.AssignVariableOp`` whose resource comes from a
   ``tf.TPUPartitionedInputV2`` whose operands all are resources with one
   subtype becomes the operand of a new ``tf.TPUPartitionedOutputV2`` (the
   partitioned input's ``partition_dims`` and shardings, the cluster_func's
   location) with one result per core (the operands' subtypes), each assigned
   (``validate_shape = false``) to that core's handle; the write is erased.
   The cores are the cluster_func's ``num_cores_per_replica``, or the number of
   operands; a packed input (``is_packed``, one handle for all cores) needs
   the attribute and repeats its handle.
2. Reads: an operand of the cluster_func read by a ``tf.ReadVariableOp`` from
   such a ``tf.TPUPartitionedInputV2`` is replaced by a new
   ``tf.TPUPartitionedInputV2`` (same attributes; result: the read's type) of
   one ``tf.ReadVariableOp`` per distinct handle, put before the old
   partitioned input. Other cluster_funcs using the read use the new op too;
   any other user (outside compiled code) gets the first handle's read, which
   needs an ``_XlaSharding`` of REPLICATED type and an input neither packed
   nor holding a handle on a ``COMPOSITE`` device (a defining op's
   ``device``, or the function argument's ``tf.device``). The old read is
   erased, and the old partitioned input when unused.
3. A ``tf_device.parallel_execute`` that held the cluster_func and has one
   region is unwrapped: its first op takes its place and results.

Failures (TF's messages; the module is left as it was): "'tf.TPUPartitionedInputV2'
op num cores per replica unavailable" (packed, no ``num_cores_per_replica``),
"... op expects <n> operands but found <m>", "... variable used in outside
compiled code is only supported with REPLICATED sharding" / "... with UNPACKED
ops (wrap value in tf.identity ordisable packing in TPUStrategy)" and
"Expected 2 ops in parallel_execute.". Inputs TF mishandles fail too: a
partitioned read without ``_XlaSharding`` or a one-region parallel_execute
whose first op has other results than it (TF's process crashes), a
``tf.TPUPartitionedInputV2`` operand that is not a resource (TF reads it as
one), packed writes with a negative ``num_cores_per_replica`` (TF's pass
aborts half way and returns the half-rewritten module as a success).
"""
from mlir import ir

from ..shapes.xla_protos import SHARDING_REPLICATED, op_sharding_type
from . import attributes
from .names import ASSIGN_VARIABLE, CLUSTER_FUNC, FUNC, PARALLEL_EXECUTE, READ_VARIABLE
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import enclosing_op, ops_named, remove_singleton_parallel_execute
from .lib.tpu_partitioned_ops import (IS_PACKED, NUM_CORES_PER_REPLICA, PARTITION_DIMS,
                                  PARTITIONED_INPUT_V2, PARTITIONED_OUTPUT_V2, SHARDING_ATTRS,
                                  XLA_SHARDING, resource_subtypes)

USE_SPMD_ATTR = "use_spmd_for_xla_partitioning"
VALIDATE_SHAPE = "validate_shape"
FUNC_DEVICE_ATTR = "tf.device"


@register_pass
class TPUResourcePartitionPass(Pass):
    argument = "tf-tpu-resource-partition"
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        for cluster_func in ops_named(func, CLUSTER_FUNC):
            _partition(cluster_func)


def _defining(value, name):
    if isinstance(value, ir.OpResult) and value.owner.name == name:
        return value.owner.operation
    return None


def _uses(value):
    return [(use.owner.operation, use.operand_number) for use in value.uses]


def _single_subtypes(partitioned):
    """The subtype of each operand of `partitioned`, or None if one has not exactly one."""
    subtypes = []
    for index, value in enumerate(partitioned.operands):
        found = resource_subtypes(value.type)
        if found is None:
            raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op operand #{index} is not a resource, "
                              f"{value.type} (TF's pass reads it as one: undefined behaviour)", partitioned)
        if len(found) != 1:
            return None
        subtypes.append(found[0])
    return subtypes


def _partition(cluster_func):
    spmd = attributes.get(cluster_func, USE_SPMD_ATTR)
    if not (isinstance(spmd, ir.BoolAttr) and ir.BoolAttr(spmd).value):
        return
    cores_attr = attributes.get(cluster_func, NUM_CORES_PER_REPLICA)
    cores_attr = ir.IntegerAttr(cores_attr).value if isinstance(cores_attr, ir.IntegerAttr) else None
    parallel_execute = enclosing_op(cluster_func, PARALLEL_EXECUTE)
    outputs = (parallel_execute or cluster_func).results
    for result in list(outputs):
        _partition_write(cluster_func, result, cores_attr)
    for index in range(len(cluster_func.operands)):
        _partition_read(cluster_func, cluster_func.operands[index])
    if parallel_execute is not None:
        remove_singleton_parallel_execute(parallel_execute)


def _partition_write(cluster_func, result, cores_attr):
    uses = _uses(result)
    if len(uses) != 1:
        return
    assign, operand_number = uses[0]
    if assign.name != ASSIGN_VARIABLE or operand_number != 1:
        return
    partitioned = _defining(assign.operands[0], PARTITIONED_INPUT_V2)
    if partitioned is None:
        return
    subtypes = _single_subtypes(partitioned)
    if subtypes is None:
        return
    inputs = list(partitioned.operands)
    packed = attributes.boolean(partitioned, IS_PACKED, False)
    num_cores = len(inputs)
    if cores_attr is not None:
        # TF reads it into a C++ int.
        num_cores = (cores_attr + (1 << 31)) % (1 << 32) - (1 << 31)
    elif packed:
        raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op num cores per replica unavailable",
                          partitioned)
    expected = 1 if packed else num_cores
    if cores_attr is not None and expected != len(inputs):
        raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op expects {expected} operands but found "
                          f"{len(inputs)}", partitioned)
    if num_cores < 0:
        raise PassFailure(f"'{CLUSTER_FUNC}' op has num_cores_per_replica = {num_cores} for a "
                          f"packed variable (TF's pass gives up half way here)", cluster_func)
    handles = [inputs[0] if packed else inputs[i] for i in range(num_cores)]
    types = [subtypes[0] if packed else subtypes[i] for i in range(num_cores)]
    new_attributes = {PARTITION_DIMS: attributes.get(partitioned, PARTITION_DIMS)}
    for name in SHARDING_ATTRS:
        value = attributes.get(partitioned, name)
        if value is not None:
            new_attributes[name] = value
    at = ir.InsertionPoint(assign)
    split = ir.Operation.create(PARTITIONED_OUTPUT_V2, results=types, operands=[result],
                                attributes={k: v for k, v in new_attributes.items() if v is not None},
                                loc=cluster_func.location, ip=at)
    no_validation = {VALIDATE_SHAPE: ir.BoolAttr.get(False, assign.context)}
    for handle, value in zip(handles, split.results):
        ir.Operation.create(ASSIGN_VARIABLE, operands=[handle, value], attributes=no_validation,
                            loc=assign.location, ip=at)
    erase_op(assign)


def _partition_read(cluster_func, value):
    read = _defining(value, READ_VARIABLE)
    if read is None:
        return
    partitioned = _defining(read.operands[0], PARTITIONED_INPUT_V2)
    if partitioned is None or _single_subtypes(partitioned) is None:
        return
    packed = attributes.boolean(partitioned, IS_PACKED, False)
    func = enclosing_op(partitioned, FUNC)
    at = ir.InsertionPoint(partitioned)
    reads = {}  # handle -> its new read, in first-use order
    partitioned_reads = []
    for handle in partitioned.operands:
        packed = packed or _is_composite(_device_of(func, handle))
        if handle not in reads:
            subtype = resource_subtypes(handle.type)[0]
            reads[handle] = ir.Operation.create(READ_VARIABLE, results=[subtype], operands=[handle],
                                                loc=read.location, ip=at).result
        partitioned_reads.append(reads[handle])
    new_attributes = {}
    for name in (PARTITION_DIMS, IS_PACKED) + SHARDING_ATTRS:
        attr = attributes.get(partitioned, name)
        if attr is not None:
            new_attributes[name] = attr
    new_partitioned = ir.Operation.create(
        PARTITIONED_INPUT_V2, results=[read.result.type], operands=partitioned_reads,
        attributes=new_attributes, loc=partitioned.location, ip=at)
    sharding = attributes.get(partitioned, XLA_SHARDING)
    if not isinstance(sharding, ir.StringAttr):
        raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op has no {XLA_SHARDING} (TF's process "
                          f"crashes here)", partitioned)
    replicated = op_sharding_type(ir.StringAttr(sharding).value_bytes) == SHARDING_REPLICATED
    for user, operand_number in _uses(read.result):
        if user.name == CLUSTER_FUNC:
            user.operands[operand_number] = new_partitioned.result
            continue
        if not replicated:
            raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op TPUPartitionedInputV2 variable used "
                              f"in outside compiled code is only supported with REPLICATED "
                              f"sharding", partitioned)
        if packed:
            raise PassFailure(f"'{PARTITIONED_INPUT_V2}' op TPUPartitionedInputV2 variable used "
                              f"in outside compiled code is only supported with UNPACKED ops "
                              f"(wrap value in tf.identity ordisable packing in TPUStrategy)",
                              partitioned)
        user.operands[operand_number] = partitioned_reads[0]
    erase_op(read)
    if not any(True for result in partitioned.results for _ in result.uses):
        erase_op(partitioned)


def _device_of(func, value):
    """TF's GetDeviceOfResource: the defining op's ``device``, or the ``tf.device`` of an argument
    of the function's entry block; None otherwise."""
    if isinstance(value, ir.OpResult):
        return attributes.get(value.owner, "device")
    if func is None or value.owner != func.regions[0].blocks[0]:
        return None
    arg_attrs = attributes.get(func, "arg_attrs")
    if arg_attrs is None:
        return None
    attrs = ir.DictAttr(ir.ArrayAttr(arg_attrs)[value.arg_number])
    if FUNC_DEVICE_ATTR not in attrs:
        return None
    device = attrs[FUNC_DEVICE_ATTR]
    return device if isinstance(device, ir.StringAttr) else None


def _is_composite(device):
    return isinstance(device, ir.StringAttr) and "COMPOSITE" in ir.StringAttr(device).value
