"""Propagates the device attribute on resources from callers to callees.

As TF 2.21's -tf-resource-device-inference, a module pass over the
``func.func`` ops directly in the module. Devices are recorded per function
and per resource, a resource being an id of TF's resource alias analysis
(:class:`~.analysis.side_effects.SideEffectAnalysis`: function arguments,
``tf.VarHandleOp`` by container/shared_name/device, forwarded through
``tf.Identity``/``tf.IdentityN``/``tf.Cast``, islands, ``tf_device.launch`` /
``tf_device.cluster`` results, calls and control flow passing a resource
through). Resources of unknown identity get no device.

Inside one function (:func:`_compute_in_function`):

* every resource argument with a string ``tf.device`` argument attribute
  records that device; one without (or with ``""``) gets ``tf.device`` set to
  the device recorded for its resource, if there is exactly one;
* then, visiting the ops in pre-order: a ``tf.VarHandleOp`` with a non-empty
  ``device`` records it for its resource; a ``tf.Identity`` without a
  non-empty ``device`` gets the device recorded for its resource result, if
  any; a ``tf.WhileRegion`` records the device of each resource result (the
  loop variables it may hold) for the matching argument of both regions,
  before the regions are visited.

Between functions: a worklist of the module's functions, in module order,
taken from the back. After a function is visited, its ``tf.While`` ops
(body, then cond), ``tf.If`` ops (then, else, given the inputs after the
condition) and calls (``func.call``, ``tf.PartitionedCall``,
``tf.StatefulPartitionedCall``, ``tf.LegacyCall``, ``tf.TPUPartitionedCall``,
``tf.RemoteCall``, ``tf_device.cluster_func``), in post-order, record the
device of each resource operand for the matching resource argument of the
callee; a callee that records anything new goes back on the worklist (unless
it is on it). A function declaration has no arguments to record.

Failures (the module is left unchanged):

* "Conflicting device assignment for resource" where a resource gets a second,
  different device: at the function (two of its arguments that are one
  resource, ``tf._resource_arg_unique_id``), at the ``tf.VarHandleOp``, at the
  ``tf.WhileRegion`` or at the caller;
* "Cannot propagate device attribute to callee: Unable to resolve call" at a
  call whose callee is not a ``func.func`` (a missing symbol, another op, a
  ``func.call_indirect``);
* where TF's process crashes: a call into a function nested in another module,
  a ``tf.While`` / ``tf.If`` whose branch is not a function of the module, a
  callee with more arguments than the caller passes.
"""
from mlir import ir

from .. import _tfmlir

from .analysis.executor import op_key
from .names import CALL_INDIRECT, CALLEE_ATTRS, FUNC, IF, WHILE, WHILE_REGION
from .analysis.side_effects import UNKNOWN_RESOURCE, SideEffectAnalysis, is_resource_type
from .analysis.symbols import module_body, symbol_ops
from .framework import MODULE, Pass, PassFailure, register_pass
from .lib.ir_helpers import arg_attr, set_arg_attr
from . import attributes

# Ops through which resources reach other functions (their devices propagate there).
_PROPAGATING = [WHILE, IF, CALL_INDIRECT, *CALLEE_ATTRS]

DEVICE_ATTR = "device"
FUNC_DEVICE_ATTR = "tf.device"
VAR_HANDLE = "tf.VarHandleOp"
IDENTITY = "tf.Identity"

CONFLICT = "Conflicting device assignment for resource"
UNRESOLVED = "Cannot propagate device attribute to callee: Unable to resolve call"


class _Devices:
    """The devices recorded for the resources of one function (TF's PerFunctionResult)."""

    __slots__ = ("analysis", "by_id")

    def __init__(self, analysis):
        self.analysis = analysis
        self.by_id = {}

    def device_for(self, value):
        """The one device recorded for `value`'s resource ids, or None (none, several, or an
        unknown resource)."""
        ids = self.analysis.resource_ids(value)
        if UNKNOWN_RESOURCE in ids:
            return None
        found = None
        for rid in ids:
            device = self.by_id.get(rid)
            if device is None:
                continue
            if found is None or found == device:
                found = device
                continue
            return None
        return found

    def add(self, value, device, at):
        """Records `device` for `value`'s resource ids; True if anything new was recorded.
        A different device recorded before fails at `at`."""
        ids = self.analysis.resource_ids(value)
        if UNKNOWN_RESOURCE in ids:
            return False
        changed = False
        for rid in sorted(ids):
            known = self.by_id.get(rid)
            if known is None:
                self.by_id[rid] = device
                changed = True
            elif known != device:
                raise PassFailure(CONFLICT, at)
        return changed


def _arguments(func):
    blocks = func.regions[0].blocks
    return list(blocks[0].arguments) if len(blocks) else []


def _compute_in_function(func, devices):
    """In-function propagation (TF's ComputeResourceDevicesInComputation)."""
    for arg in _arguments(func):
        if not is_resource_type(arg.type):
            continue
        attr = arg_attr(func, arg.arg_number, FUNC_DEVICE_ATTR)
        device = ir.StringAttr(attr).value if isinstance(attr, ir.StringAttr) else ""
        if not device:
            found = devices.device_for(arg)
            if found is not None:
                set_arg_attr(func, arg.arg_number, FUNC_DEVICE_ATTR, ir.StringAttr.get(found))
            continue
        devices.add(arg, device, func)
    # The ops the propagation acts on, in pre-order (one native walk).
    for op in _tfmlir.ops_named(func.operation, [VAR_HANDLE, IDENTITY, WHILE_REGION], "pre"):
        name = op.name
        if name == VAR_HANDLE:
            device = attributes.string(op, DEVICE_ATTR, "")
            if device:
                for result in op.results:
                    if is_resource_type(result.type):
                        devices.add(result, device, op)
        elif name == IDENTITY:
            if attributes.string(op, DEVICE_ATTR, ""):
                continue
            for result in op.results:
                if not is_resource_type(result.type):
                    continue
                found = devices.device_for(result)
                if found is not None:
                    op.attributes[DEVICE_ATTR] = ir.StringAttr.get(found)
        elif name == WHILE_REGION:
            for result in op.results:
                if not is_resource_type(result.type):
                    continue
                found = devices.device_for(result)
                if found is None:
                    continue
                for region in op.regions:
                    args = region.blocks[0].arguments
                    if result.result_number < len(args):
                        devices.add(args[result.result_number], found, op)


def _symbol_ref_name(attr):
    if isinstance(attr, ir.FlatSymbolRefAttr):
        return ir.FlatSymbolRefAttr(attr).value, True
    if isinstance(attr, ir.SymbolRefAttr):
        return str(attr), False
    return None, False


@register_pass
class ResourceDeviceInferencePass(Pass):
    argument = "tf-resource-device-inference"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        module = module.operation
        analysis = SideEffectAnalysis(module)
        symbols = symbol_ops(module)
        funcs = [op.operation for op in module_body(module).operations if op.operation.name == FUNC]
        results = {op_key(func): _Devices(analysis) for func in funcs}
        worklist = list(funcs)
        queued = set(results)

        def branch(op, attr_name):
            attributes = op.attributes
            name, flat = _symbol_ref_name(attributes[attr_name]) if attr_name in attributes else (None, False)
            callee = symbols.get(name) if flat else None
            if callee is None or callee.name != FUNC:
                raise PassFailure(f"'{op.name}' op: its '{attr_name}' is not a function of the "
                                  f"module (TensorFlow crashes here)", op)
            return callee

        def propagate(caller, operands, callees, devices):
            for callee in callees:
                callee_devices = results.get(op_key(callee))
                if callee_devices is None:
                    raise PassFailure(f"'{caller.name}' op calls a function nested in another "
                                      f"module (TensorFlow crashes here)", caller)
                changed = False
                for arg in _arguments(callee):
                    if not is_resource_type(arg.type):
                        continue
                    if arg.arg_number >= len(operands):
                        raise PassFailure(f"'{caller.name}' op passes {len(operands)} operands to a "
                                          f"function of more arguments (TensorFlow crashes here)",
                                          caller)
                    device = devices.device_for(operands[arg.arg_number])
                    if device is None:
                        continue
                    if callee_devices.add(arg, device, caller):
                        changed = True
                key = op_key(callee)
                if changed and key not in queued:
                    queued.add(key)
                    worklist.append(callee)

        while worklist:
            func = worklist.pop()
            key = op_key(func)
            queued.discard(key)
            devices = results[key]
            _compute_in_function(func, devices)
            # The ops that pass resources on to functions, in post-order (one native walk).
            for op in _tfmlir.ops_named(func.operation, _PROPAGATING, "post"):
                name = op.name
                if name == WHILE:
                    propagate(op, list(op.operands), [branch(op, "body"), branch(op, "cond")],
                              devices)
                elif name == IF:
                    propagate(op, list(op.operands)[1:],
                              [branch(op, "then_branch"), branch(op, "else_branch")], devices)
                elif name in CALLEE_ATTRS or name == CALL_INDIRECT:
                    callee = None
                    attr_name = CALLEE_ATTRS.get(name)
                    if attr_name is not None and attr_name in op.attributes:
                        ref, flat = _symbol_ref_name(op.attributes[attr_name])
                        if flat:
                            callee = symbols.get(ref)
                        elif ref is not None:
                            callee = _nested_callee(module, ref)
                    if callee is None or callee.name != FUNC:
                        raise PassFailure(UNRESOLVED, op)
                    propagate(op, list(op.operands), [callee], devices)


def _nested_callee(module, ref):
    """The op a nested reference ``@a::@b`` names from `module`, or None."""
    table = module
    found = None
    for part in ref.split("::"):
        part = part.strip().lstrip("@").strip('"')
        if table is None or table.name != MODULE:
            return None
        found = symbol_ops(table).get(part)
        table = found
    return found
