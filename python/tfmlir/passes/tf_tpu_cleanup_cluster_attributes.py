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

from .analysis.devices import is_tpu_replicated_core, module_devices_error
from .analysis.executor import op_key
from .analysis.names import CALL, CLUSTER, CLUSTER_FUNC, FUNC, LAUNCH, LAUNCH_FUNC, MODULE
from .analysis.symbols import symbol_ops
from .framework import Pass, PassFailure, register_pass

REPLICATION_INFO_ATTR = "_replication_info"
COMPILE_DEVICE_TYPE_ATTR = "_xla_compile_device_type"
CLASS_ATTR = "_class"
DEVICE_ATTR = "device"
_REMOVED = (REPLICATION_INFO_ATTR, COMPILE_DEVICE_TYPE_ATTR, CLASS_ATTR)

# Ops of TF's CallOpInterface (and func.call) -> the attribute naming the callee.
CALLEE_ATTRS = {CALL: "callee", CLUSTER_FUNC: "func", "tf.PartitionedCall": "f",
                "tf.StatefulPartitionedCall": "f", "tf.LegacyCall": "f", "tf.TPUPartitionedCall": "f",
                "tf.RemoteCall": "f"}
CALL_INDIRECT = "func.call_indirect"

_POST_ORDER = ir.WalkOrder.POST_ORDER
_PRE_ORDER = ir.WalkOrder.PRE_ORDER
_ADVANCE = ir.WalkResult.ADVANCE
_SKIP = ir.WalkResult.SKIP


@register_pass
class TPUCleanupClusterAttributesPass(Pass):
    argument = "tf-tpu-cleanup-cluster-attributes"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")
    rollback_on_failure = False  # every failure is found before the first change

    def run_on_operation(self, module):
        module = module.operation
        error = module_devices_error(module)
        if error is not None:
            self.fail(f"'{MODULE}' op {error}", module)
        ops = reachable_from_clusters(module)
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


def reachable_from_clusters(module):
    """The ops nested in the ``tf_device.cluster`` ops under `module` (themselves included) and
    the ops of the functions reachable from them through calls, in no set order (an op of a
    cluster inside a reached function comes twice). Raises PassFailure for a reached call whose
    callee has no body to walk."""
    ops = []
    calls = []

    def collect(op):
        op = op.operation
        ops.append(op)
        name = op.name
        if name in CALLEE_ATTRS or name == CALL_INDIRECT:
            calls.append(op)
        return _ADVANCE

    def outermost(op):
        op = op.operation
        if op.name == CLUSTER:
            op.walk(collect, _POST_ORDER)
            return _SKIP
        return _ADVANCE

    module.walk(outermost, _PRE_ORDER)
    tables = {}  # op_key of a symbol table -> {name: op}
    modules = {}  # op_key of an op -> its closest enclosing module
    walked = set()  # op_key of the callees walked already
    while calls:
        call = calls.pop()
        callee = _callee(call, _nearest_module(call, modules), tables)
        key = op_key(callee)
        if key in walked:
            continue
        walked.add(key)
        for block in callee.regions[0].blocks:
            for op in block.operations:
                op.operation.walk(collect, _POST_ORDER)
    return ops


def _callee(call, table, tables):
    """The ``func.func`` `call` calls (MLIR's call graph resolution: the callee is looked up from
    `table`, the call's closest module), or PassFailure."""
    name = call.name
    if name == CALL_INDIRECT:
        raise PassFailure(f"cannot follow '{name}' from a tf_device.cluster: its callee is a value, "
                          f"not a symbol", call)
    attr = call.attributes[CALLEE_ATTRS[name]]
    if isinstance(attr, ir.FlatSymbolRefAttr):
        path = [ir.FlatSymbolRefAttr(attr).value]
    elif isinstance(attr, ir.SymbolRefAttr):
        path = list(ir.SymbolRefAttr(attr).value)
    else:
        raise PassFailure(f"cannot follow '{name}' from a tf_device.cluster: its callee is not a "
                          f"symbol reference", call)
    reference = "::".join("@" + part for part in path)
    found = None
    if table is not None:
        found = _lookup(table, path[0], tables)
        for part in path[1:]:
            if found is None or found.name != MODULE:
                found = None
                break
            found = _lookup(found, part, tables)
    if found is None:
        problem = "no such symbol"
    elif found.name != FUNC:
        problem = f"'{found.name}' is not a func.func"
    elif not len(found.regions[0].blocks):
        problem = "a function declaration without a body"
    else:
        return found
    raise PassFailure(f"cannot follow '{name}' from a tf_device.cluster into {reference}: {problem}",
                      call)


def _nearest_module(op, modules):
    """The closest module around `op`; `modules` (op_key -> module) remembers the answer for
    every ancestor passed, so that all lookups together visit each op once."""
    chain = []
    found = None
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        key = op_key(parent)
        if key in modules:
            found = modules[key]
            break
        if parent.name == MODULE:
            found = parent
            break
        chain.append(key)
        parent = parent.parent
    for key in chain:
        modules[key] = found
    return found


def _lookup(table, name, tables):
    key = op_key(table)
    symbols = tables.get(key)
    if symbols is None:
        symbols = tables[key] = symbol_ops(table)
    return symbols.get(name)
