"""TensorFlow device names as TF's passes read them.

* :func:`parse_full_name` / :func:`is_tpu_replicated_core`: from :mod:`tfmlir.device_names`
  (the one parser of ``DeviceNameUtils::ParseFullName``).
* :func:`module_devices` / :func:`module_devices_error`: the devices of a module's
  ``tf.devices`` and the error TF's ``GetDevicesFromOp`` reports
  for a module's ``tf.devices`` attribute (a list of device names, or a
  dictionary keyed by them), or None when it is fine or absent.
* :func:`outside_compilation_host`: TF's ``GetHostDeviceOutsideComputation``,
  the host device that runs a ``tf_device.cluster``'s outside-compiled ops.
"""
from dataclasses import replace

from mlir import ir

from ...device_names import (TPU_REPLICATED_CORE, ParsedName, is_complete_specification,  # noqa: F401
                             is_tpu_replicated_core, name_to_string, parse_full_name)
from ..framework import PassFailure
from .names import CLUSTER, REPLICATE

__all__ = ["DEVICES_ATTR", "REPLICATED_HOST", "TPU_REPLICATED_CORE", "ParsedName", "is_tpu_replicated_core",
           "module_device_names", "module_devices", "module_devices_error", "outside_compilation_host",
           "parse_full_name"]

DEVICES_ATTR = "tf.devices"
REPLICATED_HOST = "TPU_REPLICATED_HOST_0"
NUM_CORES_PER_REPLICA_ATTR = "num_cores_per_replica"
TOPOLOGY_ATTR = "topology"
DEVICE_ASSIGNMENT_ATTR = "device_assignment"


def module_devices(module):
    """``(names, error)`` of `module`'s ``tf.devices`` as TF's ``GetDevicesFromOp`` reads it:
    the device names in order with their parsed forms (``[(name, ParsedName)]``), and the
    message of TF's error (without the ``'builtin.module' op`` prefix) or None."""
    attributes = module.operation.attributes
    if DEVICES_ATTR not in attributes:
        return [], None
    attr = attributes[DEVICES_ATTR]
    if isinstance(attr, ir.ArrayAttr):
        names = []
        for index, element in enumerate(ir.ArrayAttr(attr)):
            if not isinstance(element, ir.StringAttr):
                return [], f"bad '{DEVICES_ATTR}' attribute at index {index}, not a string"
            names.append(ir.StringAttr(element).value)
    elif isinstance(attr, ir.DictAttr):
        attr = ir.DictAttr(attr)
        names = [attr[index].name for index in range(len(attr))]
    else:
        return [], f"unsupported '{DEVICES_ATTR}' attribute"
    parsed = []
    for device in names:
        p = parse_full_name(device)
        if p is None:
            return [], f"bad '{DEVICES_ATTR}' attribute, '{device}', not a valid device"
        parsed.append((device, p))
    return parsed, None


def module_devices_error(module):
    """The message of TF's ``GetDevicesFromOp`` error for `module`'s ``tf.devices``, or None
    when the attribute is absent or valid."""
    return module_devices(module)[1]


def module_device_names(module):
    """The parsed names of the module's ``tf.devices`` (validated by :func:`module_devices_error`
    first), in order."""
    return [parsed for _name, parsed in module_devices(module)[0]]


def outside_compilation_host(cluster, devices):
    """TF's ``GetHostDeviceOutsideComputation``: the device that runs the outside-compiled ops
    of `cluster` (a ``tf_device.cluster``), given the module's parsed device names `devices`
    (:func:`module_device_names`); raises PassFailure at the cluster when there is none.

    * a cluster inside a ``tf_device.replicate``: ``TPU_REPLICATED_HOST_0`` (the host of
      logical core 0);
    * otherwise, when `devices` has a ``TPU`` device: the CPU:0 of the task of the first TPU
      device of the first ``TPU_SYSTEM:0`` task (TF's full-mesh assignment: the cluster needs
      a string ``topology`` and an array ``device_assignment``, both empty, and
      ``num_cores_per_replica`` 1; a TopologyProto assignment is not implemented);
    * otherwise: the ``CPU:0`` device of `devices` (a ``chief`` job's one wins when there
      are several).
    """
    if _inside(cluster, REPLICATE):
        return REPLICATED_HOST
    if any(device.has_type and device.type == "TPU" for device in devices):
        return _full_mesh_host(cluster, devices)
    host = None
    for device in devices:
        if device.has_type and device.type == "CPU" and device.id == 0:
            if host is None or device.job == "chief":
                host = name_to_string(device)
    if host is None:
        raise PassFailure(f"'{CLUSTER}' op cannot determine the host device for outside "
                          f"compilation: no CPU:0 device in the module's '{DEVICES_ATTR}'", cluster)
    return host


def _full_mesh_host(cluster, devices):
    """The host of core 0 of a non-replicated cluster when ``tf.devices`` has TPUs (TF's
    ``GetTPUCompilationAndExecutionDevices`` with one replica, full-mesh case only)."""
    def fail(message):
        raise PassFailure(f"'{CLUSTER}' op {message}", cluster)

    attributes = cluster.attributes
    if TOPOLOGY_ATTR not in attributes or not isinstance(attributes[TOPOLOGY_ATTR], ir.StringAttr):
        fail(f"requires attribute '{TOPOLOGY_ATTR}'")
    if (DEVICE_ASSIGNMENT_ATTR not in attributes
            or not isinstance(attributes[DEVICE_ASSIGNMENT_ATTR], ir.ArrayAttr)):
        fail(f"requires attribute '{DEVICE_ASSIGNMENT_ATTR}'")
    assignment = ir.ArrayAttr(attributes[DEVICE_ASSIGNMENT_ATTR])
    for index, element in enumerate(assignment):
        if not isinstance(element, ir.IntegerAttr):
            fail(f"error in fetching tpu device coordinates: bad '{DEVICE_ASSIGNMENT_ATTR}' "
                 f"attribute at index {index}, not an int")
    prefix = "error in fetching TPU compilation/execution devices: "
    systems = [d for d in devices if d.has_type and d.type == "TPU_SYSTEM" and d.has_id and d.id == 0]
    if not systems:
        fail(prefix + "no TPU_SYSTEM devices found")
    for device in systems[1:]:
        if device.job != systems[0].job:
            fail(prefix + f"found TPU_SYSTEM devices with conflicting jobs '{systems[0].job}' and "
                 f"'{device.job}'")
        if device.replica != systems[0].replica:
            fail(prefix + f"found TPU_SYSTEM devices with conflicting replicas "
                 f"'{systems[0].replica}' and '{device.replica}'")
    systems.sort(key=lambda d: d.task)  # stable, as TF's std::sort on equal tasks is not
    counts = []
    first = None
    for system in systems:
        spec = replace(system, type="TPU", has_id=False)
        tpus = sorted((d for d in devices if is_complete_specification(spec, d)), key=lambda d: d.id)
        if first is None:
            first = tpus
        counts.append(len(tpus))
        if len(tpus) != counts[0]:
            fail(prefix + f"expected the number of TPU devices per host to be {counts[0]}, got "
                 f"{len(tpus)}")
    topology = ir.StringAttr(attributes[TOPOLOGY_ATTR]).value
    if topology:
        fail(f"cannot determine the host device for outside compilation: a non-empty "
             f"'{TOPOLOGY_ATTR}' is not supported")
    if len(assignment):
        fail(prefix + f"'{DEVICE_ASSIGNMENT_ATTR}' must not be set when '{TOPOLOGY_ATTR}' is not set")
    cores = 1
    if NUM_CORES_PER_REPLICA_ATTR in attributes and isinstance(
            attributes[NUM_CORES_PER_REPLICA_ATTR], ir.IntegerAttr):
        cores = ir.IntegerAttr(attributes[NUM_CORES_PER_REPLICA_ATTR]).value
    if cores != 1:
        fail(prefix + f"'{NUM_CORES_PER_REPLICA_ATTR}' must be equal to 1, got {cores}")
    if not first:
        fail("cannot determine the host device for outside compilation: no TPU device on the "
             "first TPU_SYSTEM task")
    host = replace(first[0], type="CPU", id=0)
    if not any(is_complete_specification(host, d) for d in devices):
        fail(f"cannot determine the host device for outside compilation: Can't find device: "
             f"{name_to_string(host)} in the devices list.")
    return name_to_string(host)


def _inside(op, name):
    parent = op.operation.parent
    while parent is not None:
        parent = parent.operation
        if parent.name == name:
            return True
        parent = parent.parent
    return False
