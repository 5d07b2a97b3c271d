"""TensorFlow device names as TF's passes read them.

* :func:`parse_full_name` / :func:`is_tpu_replicated_core`: from :mod:`tfmlir.device_names`
  (the one parser of ``DeviceNameUtils::ParseFullName``).
* :func:`module_devices` / :func:`module_devices_error`: the devices of a module's
  ``tf.devices`` and the error TF's ``GetDevicesFromOp`` reports
  for a module's ``tf.devices`` attribute (a list of device names, or a
  dictionary keyed by them), or None when it is fine or absent.
* :func:`host_device_outside_computation` / :func:`device_to_host_map`: the host devices
  of a cluster's outside compilation (TF's ``GetHostDeviceOutsideComputation`` /
  ``GetDeviceToHostMap``), raising :class:`HostDeviceError` with TF's diagnostic.
* :func:`non_replicated_tpu0` / :func:`cpu_device_name`: the first TPU of the module's devices
  (TF's ``GetNonReplicatedTPU0``, raising :class:`HostDeviceError` with TF's diagnostic) and the
  CPU:0 device of a device's host (``DeviceNameUtils::DeviceNameToCpuDeviceName``).
"""
from dataclasses import replace

from mlir import ir

from ..framework import PassFailure
from .tpu_devices import (TPUDeviceError, _system_devices, _tpu_devices, compilation_and_execution_devices,
                          device_coordinates)
from ...device_names import (TPU_REPLICATED_CORE, ParsedName, is_complete_specification,  # noqa: F401
                             is_tpu_replicated_core, name_to_string, parse_full_name)

__all__ = ["DEVICES_ATTR", "TPU_REPLICATED_CORE", "HostDeviceError", "ParsedName", "device_to_host_map",
           "generic_host", "has_tpu_device", "host_device_outside_computation", "is_tpu_replicated_core",
           "module_device_names", "module_devices", "outside_compilation_host", "module_devices_error", "num_cores_per_replica",
           "non_replicated_tpu0", "cpu_device_name", "parse_full_name",
           "replicated_host_alias"]

DEVICES_ATTR = "tf.devices"


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


# --- hosts of outside compilation (TF's tpu_rewrite_device_util) -------------------------------

CLUSTER_OP = "tf_device.cluster"
REPLICATE_OP = "tf_device.replicate"
NUM_CORES_PER_REPLICA_ATTR = "num_cores_per_replica"
TOPOLOGY_ATTR = "topology"
DEVICE_ASSIGNMENT_ATTR = "device_assignment"
REPLICATED_HOST = "TPU_REPLICATED_HOST"


class HostDeviceError(Exception):
    """No host can be determined for a cluster: the message is TF's diagnostic at the cluster
    (with the ``'tf_device.cluster' op`` prefix where TF emits an op error)."""


def replicated_host_alias(core):
    """TF's ``GetDeviceAliasForHostOfLogicalCore``: ``TPU_REPLICATED_HOST_<core>``."""
    return f"{REPLICATED_HOST}_{core}"


def has_tpu_device(devices):
    """TF's ``HasTPUDevice`` over parsed device names."""
    return any(device.has_type and device.type == "TPU" for device in devices)


def _in_replicate(cluster):
    parent = cluster.operation.parent
    while parent is not None:
        parent = parent.operation
        if parent.name == REPLICATE_OP:
            return True
        parent = parent.parent
    return False


def num_cores_per_replica(cluster):
    """TF's ``GetNumCoresPerReplica``: the cluster's integer ``num_cores_per_replica``, or 1."""
    attributes = cluster.operation.attributes
    if NUM_CORES_PER_REPLICA_ATTR in attributes and isinstance(
            attributes[NUM_CORES_PER_REPLICA_ATTR], ir.IntegerAttr):
        return ir.IntegerAttr(attributes[NUM_CORES_PER_REPLICA_ATTR]).value
    return 1


def generic_host(devices):
    """TF's ``GetHostDeviceOutsideCompilationInGenericPipeline``: the CPU:0 device (a ``chief``
    job's one wins when there are several), or HostDeviceError."""
    host = None
    for device in devices:
        if device.has_type and device.type == "CPU" and device.id == 0:
            if host is None or device.job == "chief":
                host = name_to_string(device)
    if host is None:
        raise HostDeviceError(f"'{CLUSTER_OP}' op cannot determine the host device for outside "
                              f"compilation: no CPU:0 device in the module's '{DEVICES_ATTR}'")
    return host


def host_device_outside_computation(cluster, devices):
    """TF's ``GetHostDeviceOutsideComputation`` for `cluster` (`devices`: the parsed names of the
    module's ``tf.devices``): ``TPU_REPLICATED_HOST_0`` inside a ``tf_device.replicate``, the
    host of core 0 when there are TPU devices, else the generic CPU:0 host."""
    if _in_replicate(cluster):
        return replicated_host_alias(0)
    if has_tpu_device(devices):
        return _full_mesh_hosts(cluster, devices)[0]
    return generic_host(devices)


def outside_compilation_host(cluster, devices):
    """:func:`host_device_outside_computation`, failing the pass at `cluster` (PassFailure with
    TF's diagnostic) when there is no host."""
    try:
        return host_device_outside_computation(cluster, devices)
    except HostDeviceError as error:
        raise PassFailure(str(error), cluster) from None


def device_to_host_map(cluster, devices):
    """TF's ``GetDeviceToHostMap``: the host of each logical core of `cluster`
    (``TPU_REPLICATED_HOST_<core>`` for every core when replicated; the full-mesh host of the
    one core when there are TPU devices; else the generic CPU:0 host)."""
    if _in_replicate(cluster):
        return [replicated_host_alias(core) for core in range(num_cores_per_replica(cluster))]
    if has_tpu_device(devices):
        return _full_mesh_hosts(cluster, devices)
    return [generic_host(devices)]


def _full_mesh_hosts(cluster, devices):
    """The hosts of the cores of a non-replicated cluster when ``tf.devices`` has TPUs (TF's
    ``GetTPUCompilationAndExecutionDevices`` with one replica; full-mesh case only, which has
    one core)."""
    def fail(message, op_error=False):
        raise HostDeviceError(f"'{CLUSTER_OP}' op {message}" if op_error else message)

    attributes = cluster.operation.attributes
    if TOPOLOGY_ATTR not in attributes or not isinstance(attributes[TOPOLOGY_ATTR], ir.StringAttr):
        fail(f"requires attribute '{TOPOLOGY_ATTR}'", True)
    if (DEVICE_ASSIGNMENT_ATTR not in attributes
            or not isinstance(attributes[DEVICE_ASSIGNMENT_ATTR], ir.ArrayAttr)):
        fail(f"requires attribute '{DEVICE_ASSIGNMENT_ATTR}'", True)
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
    topology = ir.StringAttr(attributes[TOPOLOGY_ATTR]).value_bytes
    cores = num_cores_per_replica(cluster)
    if topology:
        # A device assignment over the topology's cores (model parallelism): the host of each
        # core's TPU.
        try:
            _, execution = compilation_and_execution_devices(
                devices, 1, cores, topology, device_coordinates(assignment))
        except TPUDeviceError as error:
            fail(prefix + str(error))
        return [host for _, host in execution[0]]
    if len(assignment):
        fail(prefix + f"'{DEVICE_ASSIGNMENT_ATTR}' must not be set when '{TOPOLOGY_ATTR}' is not set")
    if cores != 1:
        fail(prefix + f"'{NUM_CORES_PER_REPLICA_ATTR}' must be equal to 1, got {cores}")
    if not first:
        fail("cannot determine the host device for outside compilation: no TPU device on the "
             "first TPU_SYSTEM task", True)
    host = replace(first[0], type="CPU", id=0)
    if not any(is_complete_specification(host, d) for d in devices):
        fail(f"cannot determine the host device for outside compilation: Can't find device: "
             f"{name_to_string(host)} in the devices list.", True)
    return [name_to_string(host)]


def non_replicated_tpu0(devices):
    """TF's ``GetNonReplicatedTPU0`` over `devices` (the parsed names of the module's
    ``tf.devices``): the name of the first TPU of the first ``TPU_SYSTEM:0`` host, or
    HostDeviceError with TF's diagnostic at the module."""
    prefix = "'builtin.module' op "
    try:
        systems = _system_devices(devices)
    except TPUDeviceError as error:
        raise HostDeviceError(f"{prefix}error in fetching TPU_SYSTEM devices: {error}") from None
    try:
        tpus = _tpu_devices(devices, systems)
    except TPUDeviceError as error:
        raise HostDeviceError(f"{prefix}error in fetching TPU devices: {error}") from None
    if not tpus[0]:
        # TF reads past the empty list of the first host's TPUs here.
        raise HostDeviceError(f"{prefix}error in fetching TPU devices: no TPU device on the "
                              f"first TPU_SYSTEM host")
    return name_to_string(tpus[0][0])


def cpu_device_name(device):
    """``DeviceNameUtils::DeviceNameToCpuDeviceName``: `device` (a full name) with its type and
    id replaced by ``CPU:0``, or None when it does not parse."""
    parsed = parse_full_name(device)
    if parsed is None:
        return None
    return name_to_string(replace(parsed, has_type=True, type="CPU", has_id=True, id=0))
