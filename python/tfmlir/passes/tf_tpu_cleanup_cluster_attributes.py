"""Eliminate _replication_info and other attributes from ops in a cluster

Once ops are clustered, the attributes that placed them in a TPU cluster are no
longer needed. As TF 2.21's -tf-tpu-cleanup-cluster-attributes, for every op
nested (at any depth) in a ``tf_device.cluster`` -- nested modules included --
and every op of a function reachable from one through calls (``func.call``,
``tf.PartitionedCall``, ``tf.StatefulPartitionedCall``, ``tf.LegacyCall``,
``tf.TPUPartitionedCall``, ``tf.RemoteCall``, ``tf_device.cluster_func``;
callees of calls in callees too, looked up from the call's module, nested
references included), other than the ``tf_device.cluster`` ops themselves:

* ``_replication_info``, ``_xla_compile_device_type`` and ``_class`` are
  removed;
* a string ``device`` is removed unless it names a ``TPU_REPLICATED_CORE``
  device (TF's device name parser: ``/job:w/replica:0/task:0/device:
  TPU_REPLICATED_CORE:0`` or ``/device:TPU_REPLICATED_CORE`` keep it, a bare
  ``TPU_REPLICATED_CORE:0`` does not parse and loses it) or the op is a
  ``tf_device.launch``.

The clusters keep their own attributes, and so do ops outside clusters and
functions reached only through ``tf.If`` / ``tf.While`` / ``tf.Case`` branch
attributes (not calls). A function reached from several clusters is cleaned
once (TF reports an error diagnostic for it but succeeds).

Failures, before anything changes:

* the module's ``tf.devices`` is not a list of device names or a dictionary
  keyed by them (TF's messages, at the module);
* a ``tf_device.launch_func`` reached whose ``device`` is not a
  TPU_REPLICATED_CORE device: TF removes its required ``device`` and the
  result does not verify (``'tf_device.launch_func' op requires attribute
  'device'``);
* a reached call whose callee cannot be walked: not found, not a
  ``func.func``, a declaration without a body, or a ``func.call_indirect``
  (TF's process crashes on these).
"""
from mlir import ir

from .analysis.calls import CALL_INDIRECT, CALLEE_ATTRS, nearest_module, resolve_callee
from .analysis.devices import is_tpu_replicated_core, module_devices_error
from .analysis.executor import op_key
from .names import CLUSTER, LAUNCH, LAUNCH_FUNC, MODULE
from .framework import Pass, register_pass
from .lib.ir_helpers import enclosing_op, ops_named, ops_with_attributes

REPLICATION_INFO_ATTR = "_replication_info"
COMPILE_DEVICE_TYPE_ATTR = "_xla_compile_device_type"
CLASS_ATTR = "_class"
DEVICE_ATTR = "device"
_REMOVED = (REPLICATION_INFO_ATTR, COMPILE_DEVICE_TYPE_ATTR, CLASS_ATTR)


@register_pass
class TPUCleanupClusterAttributesPass(Pass):
    argument = "tf-tpu-cleanup-cluster-attributes"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        module = module.operation
        error = module_devices_error(module)
        if error is not None:
            self.fail(f"'{MODULE}' op {error}", module)
        ops = reachable_from_clusters(module, _REMOVED + (DEVICE_ATTR,))
        replicated = {}  # device string -> is a TPU_REPLICATED_CORE device
        plan = []  # (op, attribute names to remove)
        for op in ops:
            name = op.name
            if name == CLUSTER:
                continue
            attributes = op.attributes
            removed = [attr for attr in _REMOVED if attr in attributes]
            if DEVICE_ATTR in attributes and name != LAUNCH:
                device = attributes[DEVICE_ATTR]
                if isinstance(device, ir.StringAttr):
                    device = ir.StringAttr(device).value
                    keep = replicated.get(device)
                    if keep is None:
                        keep = replicated[device] = is_tpu_replicated_core(device)
                    if not keep:
                        if name == LAUNCH_FUNC:
                            self.fail(f"'{LAUNCH_FUNC}' op requires attribute '{DEVICE_ATTR}'", op)
                        removed.append(DEVICE_ATTR)
            if removed:
                plan.append((op, removed))
        for op, removed in plan:
            attributes = op.attributes
            for attr in removed:
                if attr in attributes:  # an op reached twice lost it already
                    del attributes[attr]


def reachable_from_clusters(module, attribute_names):
    """The ops carrying one of `attribute_names` among the ops nested in the
    ``tf_device.cluster`` ops under `module` (themselves included) and the ops of the functions
    reachable from them through calls, in no set order (an op of a cluster inside a reached
    function comes twice). Native queries collect them (only the ops found become Python
    objects). Raises PassFailure for a reached call whose callee has no body to walk."""
    wanted = list(attribute_names)
    call_names = list(CALLEE_ATTRS) + [CALL_INDIRECT]
    ops = []
    calls = []
    for cluster in ops_named(module, CLUSTER):
        if enclosing_op(cluster, CLUSTER) is not None:
            continue  # collected with the outermost cluster
        ops.extend(ops_with_attributes(cluster, wanted))
        calls.extend(ops_named(cluster, call_names))
    tables = {}  # op_key of a symbol table -> {name: op}
    modules = {}  # op_key of an op -> its closest enclosing module
    walked = set()  # op_key of the callees walked already
    while calls:
        call = calls.pop()
        callee = resolve_callee(call, nearest_module(call, modules), tables)
        key = op_key(callee)
        if key in walked:
            continue
        walked.add(key)
        ops.extend(op for op in ops_with_attributes(callee, wanted) if op != callee)
        calls.extend(op for op in ops_named(callee, call_names) if op != callee)
    return ops
