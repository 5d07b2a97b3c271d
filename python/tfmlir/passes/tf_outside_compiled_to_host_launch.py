"""Wraps each op with the _xla_outside_compilation attribute in a tf_device.launch on its host.

Outside-compiled ops of a TPU computation run on the host; this pass makes the
placement explicit, as TF's -tf-outside-compiled-to-host-launch (removed in TF
2.21) did. Every op carrying a string ``_xla_outside_compilation`` that is
nested (at any depth: inside ``tf.IfRegion`` / ``tf.WhileRegion`` bodies too)
in a ``tf_device.cluster``, or in a function reachable from one through calls
(``func.call``, ``tf.PartitionedCall``, ``tf.StatefulPartitionedCall``,
``tf.LegacyCall``, ``tf.TPUPartitionedCall``, ``tf.RemoteCall``,
``tf_device.cluster_func``; not ``tf.If`` / ``tf.While`` / ``tf.Case`` branch
attributes), is moved alone into a new ``tf_device.launch`` put where it was:
one launch per op, even for ops sharing an ``_xla_outside_compilation`` value.
The launch returns the op's results through ``tf_device.return`` and takes
over their uses; the op loses ``_xla_outside_compilation`` and ``device``.
An op belongs to its innermost cluster.

The launch's ``device`` is the cluster's host for outside compilation (TF's
``GetHostDeviceOutsideComputation``, from the module's ``tf.devices``):

* a cluster inside a ``tf_device.replicate``: ``TPU_REPLICATED_HOST_0`` (the
  host of logical core 0; TF before 2.12 wrote ``TPU_REPLICATED_HOST``);
* otherwise, when ``tf.devices`` lists a ``TPU`` device: the CPU:0 of the task
  of the first TPU device of the first ``TPU_SYSTEM:0`` task (TF's full-mesh
  assignment: the cluster needs a string ``topology`` and an array
  ``device_assignment``, both empty, and ``num_cores_per_replica`` 1);
* otherwise: the ``CPU:0`` device of ``tf.devices`` (a ``chief`` job's one
  wins when there are several).

Ops outside clusters, and clusters without outside-compiled ops, are left
alone (TF determined a host for every cluster, failing on ones that needed
none).

Failures, before anything changes:

* the module's ``tf.devices`` is not a list of device names or a dictionary
  keyed by them (TF's messages, at the module);
* no host device can be determined for a cluster holding outside-compiled
  ops (at the cluster), including a non-empty ``topology`` (TopologyProto
  device assignment is not implemented here);
* a function holding outside-compiled ops is reachable from several clusters
  (TF's message, at the function): it would need one host per cluster;
* a reached call whose callee cannot be walked: not found, not a
  ``func.func``, a declaration, a ``func.call_indirect`` (TF crashes);
* an outside-compiled ``tf_device.cluster`` or block terminator, which cannot
  be wrapped in a launch.
"""
from .analysis.calls import CALL_INDIRECT, CALLEE_ATTRS, nearest_module, resolve_callee
from .analysis.devices import module_device_names, module_devices_error, outside_compilation_host
from .analysis.executor import op_key
from .analysis.outside_compilation import OUTSIDE_COMPILATION_ATTR, is_outside_compiled
from .names import CLUSTER, FUNC, LAUNCH, MODULE
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import wrap_op_in_launch
from .walk import ADVANCE, PRE_ORDER, SKIP

DEVICE_ATTR = "device"

_SHARED = "shared"  # state of a function reached from several clusters


@register_pass
class OutsideCompiledToHostLaunchPass(Pass):
    argument = "tf-outside-compiled-to-host-launch"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        module = module.operation
        error = module_devices_error(module)
        if error is not None:
            self.fail(f"'{MODULE}' op {error}", module)
        outermost_clusters = []

        def outermost(op):
            op = op.operation
            if op.name == CLUSTER:
                outermost_clusters.append(op)
                return SKIP  # nested clusters are registered by the scan
            return ADVANCE

        module.walk(outermost, PRE_ORDER)
        clusters = []  # [cluster op, its outside-compiled ops, its calls]
        for cluster in outermost_clusters:
            _scan_cluster(cluster, clusters)
        if not clusters:
            return

        # Functions reached through calls: each one's state is the cluster reaching it, or
        # _SHARED once a second cluster reaches it (then its callees are reached again as
        # shared); a function changes state at most twice.
        functions = {}  # op_key -> [func op, outside-compiled ops, calls, state]
        tables, modules = {}, {}
        pending = [(call, index) for index, entry in enumerate(clusters) for call in entry[2]]
        while pending:
            call, owner = pending.pop()
            callee = resolve_callee(call, nearest_module(call, modules), tables)
            key = op_key(callee)
            info = functions.get(key)
            if info is None:
                oc_ops, calls = [], []
                _scan_ops(_body_ops(callee), oc_ops, calls, None)
                info = functions[key] = [callee, oc_ops, calls, None]
            state = info[3]
            if state == owner or state == _SHARED:
                continue
            info[3] = owner if state is None else _SHARED
            pending.extend((nested, info[3]) for nested in info[2])

        per_cluster = [list(entry[1]) for entry in clusters]
        for callee, oc_ops, _, state in functions.values():
            if not oc_ops:
                continue
            if state == _SHARED:
                self.fail(f"'{FUNC}' op The same function is reachable from multiple TPU "
                          f"Clusters.", callee)
            per_cluster[state].extend(oc_ops)

        devices = module_device_names(module)
        plan = []
        for (cluster, _, _), oc_ops in zip(clusters, per_cluster):
            if not oc_ops:
                continue
            for op in oc_ops:
                _check_wrappable(op)
            plan.append((outside_compilation_host(cluster, devices), oc_ops))
        for host, oc_ops in plan:
            for op in oc_ops:
                attributes = op.attributes
                for attr in (OUTSIDE_COMPILATION_ATTR, DEVICE_ATTR):
                    if attr in attributes:
                        del attributes[attr]
                wrap_op_in_launch(op, host)


def _body_ops(op):
    return [nested.operation for region in op.regions for block in region.blocks
            for nested in block.operations]


def _scan_cluster(cluster, clusters):
    """Registers `cluster` (and the clusters nested in it) in `clusters`, collecting the
    outside-compiled ops and calls each one owns."""
    if is_outside_compiled(cluster):
        raise PassFailure(f"cannot wrap a '{CLUSTER}' carrying '{OUTSIDE_COMPILATION_ATTR}' in a "
                          f"'{LAUNCH}'", cluster)
    entry = [cluster, [], []]
    clusters.append(entry)
    _scan_ops(_body_ops(cluster), entry[1], entry[2], clusters)


def _scan_ops(roots, oc_ops, calls, clusters):
    """Collects the outside-compiled ops and calls among `roots` and the ops nested in them into
    `oc_ops` / `calls`. A nested cluster owns its own ops: it is registered in `clusters`, or
    skipped when `clusters` is None (a function's clusters are found by the module walk).
    Iterative: the depth of nesting costs no Python stack."""
    stack = list(reversed(roots))
    while stack:
        op = stack.pop()
        name = op.name
        if name == CLUSTER:
            if clusters is not None:
                _scan_cluster(op, clusters)
            continue
        if is_outside_compiled(op):
            oc_ops.append(op)
        if name in CALLEE_ATTRS or name == CALL_INDIRECT:
            calls.append(op)
        if len(op.regions):
            stack.extend(reversed(_body_ops(op)))


def _check_wrappable(op):
    ops = op.block.operations
    if op_key(ops[len(ops) - 1].operation) == op_key(op):
        raise PassFailure(f"cannot wrap the block terminator '{op.name}' carrying "
                          f"'{OUTSIDE_COMPILATION_ATTR}' in a '{LAUNCH}'", op)
