"""Moves broadcasts from the host into XLA, as an ``XlaAllReduce`` of one real input and zeros.

A value defined outside a ``tf_device.replicate`` and used in a ``tf_device.cluster`` inside
it is sent by the host to every replica. As TF 2.21's -tf-xla-broadcast, such a value is
instead fed to replica 0 only, the other replicas get zeros made on their own host, and the
cluster sums them with ``tf.XlaAllReduce`` over all replicas (a broadcast over the faster
inter-device network).

For each ``tf_device.cluster`` of a function (in post-order) nested in a
``tf_device.replicate`` (the closest one is "the replicate", ``n`` replicas) and not in a
``tf_device.parallel_execute``:

1. The cluster needs an integer ``num_cores_per_replica``.
2. The broadcast values are the operands of ops nested in the cluster that are defined in a
   block of an op enclosing the replicate (not in the replicate itself), in first-use order
   of a post-order walk. Only values of static-shaped ranked tensor type with element type
   ``f32``, ``bf16``, ``f16`` or ``tf32`` are moved; others stay as they are.
3. For each moved value: the TPU devices of the replicas are computed as TF's
   ``GetTPUCompilationAndExecutionDevices`` (module ``tf.devices``, ``n``, the cluster's
   ``num_cores_per_replica``, ``topology`` and ``device_assignment``); one
   ``tf.TPUDummyInput`` (the value's type and ``shape``) is created before the replicate per
   distinct host of core 0 of replicas 1..n-1; the value and these zeros become a new
   replicated input (block argument after the existing replicated ones); right before the
   cluster a ``tf_device.launch`` on ``TPU_REPLICATED_HOST_0`` wraps a ``tf.Identity`` of the
   new argument; at the start of the cluster a ``tf.Const`` group assignment
   ``[[0, ..., n-1]]`` (``tensor<1xnxi32>``) and a ``tf.XlaAllReduce`` (``reduce_op = "Add"``,
   ``mode = "CrossReplica"``) of the launch's result are created. The dummy inputs, the
   identity and the launch carry ``_ici_weight_distribution_mlir_bridge_marker = true``.
4. The uses of moved values inside the cluster take the all-reduce results.

Failures (TF's diagnostics; the function is left unchanged):

* a cluster without integer ``num_cores_per_replica``: ``'tf_device.cluster' op requires
  attribute 'num_cores_per_replica'``;
* when a value is to be moved: a bad module ``tf.devices`` (at the module); no string
  ``topology`` or array ``device_assignment`` (``requires attribute ...``); a non-integer
  device coordinate (``error in fetching tpu device coordinates: ...``); devices that cannot
  be assigned (``error in fetching TPU compilation/execution devices: ...``, TF's messages of
  ``GetTPUCompilationAndExecutionDevices``).

Not as TF: TF reports every failing cluster of a function; the first one is reported here.
"""
from mlir import ir

from ..dialects import tf_device
from .analysis.devices import module_devices
from .analysis.executor import op_key
from .names import CLUSTER, CONST, LAUNCH, MODULE, PARALLEL_EXECUTE, REPLICATE
from .analysis.tpu_devices import (DEVICE_ASSIGNMENT_ATTR, NUM_CORES_PER_REPLICA_ATTR, TOPOLOGY_ATTR,
                                   TPUDeviceError, compilation_and_execution_devices,
                                   device_coordinates, replicated_host_alias)
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import add_replicated_inputs, enclosing_op, ops_named
from . import attributes
from .walk import ADVANCE, POST_ORDER

MARKER_ATTR = "_ici_weight_distribution_mlir_bridge_marker"
TPU_DUMMY_INPUT = "tf.TPUDummyInput"
IDENTITY = "tf.Identity"
XLA_ALL_REDUCE = "tf.XlaAllReduce"


@register_pass
class XlaBroadcastPass(Pass):
    argument = "tf-xla-broadcast"
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        module = enclosing_op(func, MODULE)
        if module is None:
            raise PassFailure("'func.func' op is not in a module", func)
        for cluster in ops_named(func.operation, CLUSTER):
            replicate = enclosing_op(cluster, REPLICATE)
            if replicate is None:
                continue
            _move_broadcasts(cluster, replicate, module)


def _ancestor_keys(op):
    keys = set()
    parent = op.operation.parent
    while parent is not None:
        parent = parent.operation
        keys.add(op_key(parent))
        parent = parent.parent
    return keys


def _scope_of(value):
    """The op owning the block that defines `value` (MLIR's ``getParentBlock()->getParentOp()``)."""
    block = value.owner if isinstance(value, ir.BlockArgument) else value.owner.operation.block
    return block.owner


def _dummy_shape(value_type):
    """The shape of the zeros for a value of `value_type` (TF's ``GetDummyParams``), or None
    when the value is not moved."""
    if not isinstance(value_type, ir.RankedTensorType):
        return None
    ranked = ir.RankedTensorType(value_type)
    element = ranked.element_type
    if not (isinstance(element, (ir.F32Type, ir.BF16Type, ir.F16Type, ir.FloatTF32Type))):
        return None
    shape = list(ranked.shape)
    if any(dim < 0 for dim in shape):
        return None
    return shape


def _location(value):
    if isinstance(value, ir.BlockArgument):
        return value.location
    return value.owner.operation.location


def _execution_hosts(cluster, replicate, module):
    """The host of core 0 of every replica, or PassFailure with TF's diagnostic."""
    devices, error = module_devices(module)
    if error is not None:
        raise PassFailure(error, module)
    cores = attributes.integer(cluster, NUM_CORES_PER_REPLICA_ATTR)
    if cores is None:
        raise PassFailure(f"'{CLUSTER}' op requires attribute '{NUM_CORES_PER_REPLICA_ATTR}'", cluster)
    topology = attributes.string_bytes(cluster, TOPOLOGY_ATTR)
    if topology is None:
        raise PassFailure(f"'{CLUSTER}' op requires attribute '{TOPOLOGY_ATTR}'", cluster)
    assignment = attributes.get(cluster, DEVICE_ASSIGNMENT_ATTR)
    if not isinstance(assignment, ir.ArrayAttr):
        raise PassFailure(f"'{CLUSTER}' op requires attribute '{DEVICE_ASSIGNMENT_ATTR}'", cluster)
    try:
        coordinates = device_coordinates(assignment)
    except TPUDeviceError as error:
        raise PassFailure(f"error in fetching tpu device coordinates: {error}", cluster) from None
    try:
        _, execution = compilation_and_execution_devices(
            [parsed for _name, parsed in devices], attributes.integer(replicate, "n"), cores, topology,
            coordinates)
    except TPUDeviceError as error:
        raise PassFailure(f"error in fetching TPU compilation/execution devices: {error}",
                          cluster) from None
    return [row[0][1] for row in execution]


def _move_broadcasts(cluster, replicate, module):
    if enclosing_op(cluster, PARALLEL_EXECUTE) is not None:
        return  # as TF (b/325153657)
    if attributes.integer(cluster, NUM_CORES_PER_REPLICA_ATTR) is None:
        raise PassFailure(f"'{CLUSTER}' op requires attribute '{NUM_CORES_PER_REPLICA_ATTR}'", cluster)
    outer = _ancestor_keys(replicate)
    broadcasts = {}  # value -> its uses in the cluster, in first-use order
    cluster_key = op_key(cluster)

    def visit(op):
        op = op.operation
        if op_key(op) == cluster_key:
            return ADVANCE
        for index, value in enumerate(op.operands):
            if op_key(_scope_of(value)) in outer:
                broadcasts.setdefault(value, []).append((op, index))
        return ADVANCE

    cluster.operation.walk(visit, POST_ORDER)
    moved = [(value, shape) for value, shape in
             ((value, _dummy_shape(value.type)) for value in broadcasts) if shape is not None]
    if not moved:
        return
    hosts = _execution_hosts(cluster, replicate, module)
    n = len(hosts)
    context = cluster.context
    true = ir.BoolAttr.get(True, context)
    groups = []
    before_replicate = ir.InsertionPoint(replicate)
    for value, shape in moved:
        zeros = {}
        inputs = [value]
        shape_attr = ir.Attribute.parse(f"#tf_type.shape<{'x'.join(map(str, shape))}>", context)
        for host in hosts[1:]:
            if host not in zeros:
                zeros[host] = ir.Operation.create(
                    TPU_DUMMY_INPUT, results=[value.type],
                    attributes={"shape": shape_attr, MARKER_ATTR: true},
                    loc=_location(value), ip=before_replicate).results[0]
            inputs.append(zeros[host])
        groups.append((inputs, value.type))
    replicate, arguments = add_replicated_inputs(replicate, groups)

    body = cluster.regions[0].blocks[0]
    first = body.operations[0]
    before_cluster = ir.InsertionPoint(cluster)
    group_type = ir.RankedTensorType.get([1, n], ir.IntegerType.get_signless(32, context))
    group_value = ir.Attribute.parse(
        f"dense<[[{', '.join(str(i) for i in range(n))}]]> : {group_type}", context)
    new_values = {}
    for (value, _shape), argument in zip(moved, arguments):
        loc = _location(value)
        launch = ir.Operation.create(
            LAUNCH, results=[argument.type],
            attributes={"device": ir.StringAttr.get(replicated_host_alias(0), context), MARKER_ATTR: true},
            regions=1, loc=loc, ip=before_cluster)
        launch_block = launch.regions[0].blocks.append()
        identity = ir.Operation.create(IDENTITY, results=[argument.type], operands=[argument],
                                       attributes={MARKER_ATTR: true}, loc=loc,
                                       ip=ir.InsertionPoint(launch_block))
        tf_device.ReturnOp([identity.results[0]], loc=loc,
                            ip=ir.InsertionPoint(launch_block))
        const = ir.Operation.create(CONST, results=[group_type], attributes={"value": group_value},
                                    loc=loc, ip=ir.InsertionPoint(first))
        reduce = ir.Operation.create(
            XLA_ALL_REDUCE, results=[argument.type], operands=[launch.results[0], const.results[0]],
            attributes={"reduce_op": ir.StringAttr.get("Add", context),
                        "mode": ir.StringAttr.get("CrossReplica", context)},
            loc=loc, ip=ir.InsertionPoint(first))
        new_values[value] = reduce.results[0]
    for value, uses in broadcasts.items():
        new = new_values.get(value)
        if new is None:
            continue
        for op, index in uses:
            op.operands[index] = new
