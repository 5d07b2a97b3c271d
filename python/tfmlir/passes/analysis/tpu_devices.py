"""TPU compilation and execution devices of a TPU computation, as TF's ``tpu_rewrite_device_util``
computes them.

* :func:`device_coordinates`: TF's ``GetDeviceCoordinates`` of a ``device_assignment`` array.
* :func:`compilation_and_execution_devices`: TF's ``GetTPUCompilationAndExecutionDevices``: the
  compilation device (the CPU of the first ``TPU_SYSTEM:0`` host) and, for every replica and
  logical core, the TPU device and its host CPU, from the module's ``tf.devices`` and the
  computation's ``num_replicas``, ``num_cores_per_replica``, ``topology`` (a serialized
  ``tensorflow.tpu.TopologyProto``) and device assignment. Without a topology the computation
  is replicated over the full mesh (one core per replica; one replica or one per TPU).
* :func:`replicated_host_alias`: TF's ``GetDeviceAliasForHostOfLogicalCore``.

Errors raise :class:`TPUDeviceError` with TF's status message (callers add TF's prefix).
"""
from dataclasses import replace

from mlir import ir

from ...device_names import is_complete_specification, name_to_string
from ...shapes import xla_protos

TOPOLOGY_ATTR = "topology"
DEVICE_ASSIGNMENT_ATTR = "device_assignment"
NUM_CORES_PER_REPLICA_ATTR = "num_cores_per_replica"
REPLICATED_HOST = "TPU_REPLICATED_HOST"
_TOPOLOGY_RANK = 4


class TPUDeviceError(Exception):
    """TF's status message for devices that cannot be assigned."""


def replicated_host_alias(core):
    """``TPU_REPLICATED_HOST_<core>``: the host of logical core `core` in a replicated cluster."""
    return f"{REPLICATED_HOST}_{core}"


def device_coordinates(array_attr):
    """The integers of a ``device_assignment`` ArrayAttr, or TPUDeviceError (TF's message)."""
    out = []
    for index, element in enumerate(ir.ArrayAttr(array_attr)):
        if not isinstance(element, ir.IntegerAttr):
            raise TPUDeviceError(f"bad '{DEVICE_ASSIGNMENT_ATTR}' attribute at index {index}, not an int")
        out.append(ir.IntegerAttr(element).value)
    return out


def _matching(devices, spec):
    return [device for device in devices if is_complete_specification(spec, device)]


def _system_devices(devices):
    """TF's ``GetTPUSystemDevices``: the ``TPU_SYSTEM:0`` devices (one job and replica), by task."""
    systems = [d for d in devices if d.has_type and d.type == "TPU_SYSTEM" and d.has_id and d.id == 0]
    if not systems:
        raise TPUDeviceError("no TPU_SYSTEM devices found")
    first = systems[0]
    for device in systems[1:]:
        if device.job != first.job:
            raise TPUDeviceError(f"found TPU_SYSTEM devices with conflicting jobs '{first.job}' and "
                                 f"'{device.job}'")
        if device.replica != first.replica:
            raise TPUDeviceError(f"found TPU_SYSTEM devices with conflicting replicas "
                                 f"'{first.replica}' and '{device.replica}'")
    return sorted(systems, key=lambda d: d.task)


def _tpu_devices(devices, systems):
    """TF's ``GetTPUDevices``: the TPU devices of each system device's host, by id."""
    per_host = []
    for system in systems:
        spec = replace(system, has_type=True, type="TPU", has_id=False)
        tpus = sorted(_matching(devices, spec), key=lambda d: d.id)
        if per_host and len(tpus) != len(per_host[0]):
            raise TPUDeviceError(f"expected the number of TPU devices per host to be "
                                 f"{len(per_host[0])}, got {len(tpus)}")
        per_host.append(tpus)
    return per_host


def _host_of(tpu, devices):
    """TF's ``GetCPUHostDeviceForTPUDevice`` (multiple local CPU devices off: CPU:0)."""
    host = replace(tpu, type="CPU", id=0)
    if not _matching(devices, host):
        # TF dereferences the failed status here (a crash); reported as its message instead.
        raise TPUDeviceError(f"Can't find device: {name_to_string(host)} in the devices list.")
    return name_to_string(host)


def _full_mesh(num_replicas, num_cores_per_replica, tpus, devices):
    per_task = len(tpus[0])
    if not per_task and num_replicas == 1 and num_cores_per_replica == 1:
        # TF indexes past the empty device list here; reported instead.
        raise TPUDeviceError("no TPU devices found")
    total = len(tpus) * per_task
    if num_replicas != 1 and num_replicas != total:
        raise TPUDeviceError(f"'num_replicas' must be equal to 1 or {total}, got {num_replicas}")
    if num_cores_per_replica != 1:
        raise TPUDeviceError(f"'num_cores_per_replica' must be equal to 1, got {num_cores_per_replica}")
    out = []
    for replica in range(num_replicas):
        tpu = tpus[replica // per_task][replica % per_task]
        out.append([(name_to_string(tpu), _host_of(tpu, devices))])
    return out


def _int32(value):
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _topology(data, num_tasks, per_task):
    """TF's ``ParseTopologyAttr``: {(x, y, z, core): (task, device)} and the mesh shape."""
    try:
        message = xla_protos.fields(data)
        mesh = [_int32(v) for v in xla_protos.repeated_int64(message, 1)]
        tasks = _int32(xla_protos.int64(message, 2))
        tpus_per_task = _int32(xla_protos.int64(message, 3))
        coordinates = [_int32(v) for v in xla_protos.repeated_int64(message, 4)]
    except xla_protos.ProtoError:
        raise TPUDeviceError(f"failed to parse '{TOPOLOGY_ATTR}' attribute to TopologyProto") from None
    if len(mesh) != _TOPOLOGY_RANK:
        raise TPUDeviceError(f"'{TOPOLOGY_ATTR}' 'mesh_shape' must be rank {_TOPOLOGY_RANK}, got rank "
                             f"{len(mesh)}")
    for index, dim in enumerate(mesh):
        if dim <= 0:
            raise TPUDeviceError(f"'{TOPOLOGY_ATTR}' 'mesh_shape' dimension {index} must be positive, "
                                 f"got {dim}")
    if tasks != num_tasks:
        raise TPUDeviceError(f"number of tasks from available TPU devices must be 'num_tasks' in "
                             f"'{TOPOLOGY_ATTR}' ({tasks}), got {num_tasks}")
    if tpus_per_task != per_task:
        raise TPUDeviceError(f"number of TPU devices available per task must be "
                             f"'num_tpu_devices_per_task' in '{TOPOLOGY_ATTR}' ({tpus_per_task}), "
                             f"got {per_task}")
    expected = num_tasks * per_task * _TOPOLOGY_RANK
    if len(coordinates) != expected:
        raise TPUDeviceError(f"length of 'device_coordinates' in '{TOPOLOGY_ATTR}' must be "
                             f"'num_tasks' * 'num_tpus_per_task' * {_TOPOLOGY_RANK} ({num_tasks} * "
                             f"{per_task} * {_TOPOLOGY_RANK}), got {len(coordinates)}")
    placed = {}
    pos = 0
    for task in range(num_tasks):
        for device in range(per_task):
            coordinate = tuple(coordinates[pos:pos + 4])
            pos += 4
            _check_bounds(TOPOLOGY_ATTR, coordinate, mesh)
            if coordinate in placed:
                raise TPUDeviceError(f"'{TOPOLOGY_ATTR}' has duplicate device coordinate "
                                     f"({', '.join(map(str, coordinate))})")
            placed[coordinate] = (task, device)
    return placed, mesh


def _check_bounds(attribute, coordinate, mesh):
    if any(c < 0 or c >= bound for c, bound in zip(coordinate, mesh)):
        raise TPUDeviceError(f"device coordinate ({', '.join(map(str, coordinate))}) in '{attribute}' "
                             f"is outside of mesh shape ({', '.join(map(str, mesh))})")


def _general(num_replicas, num_cores_per_replica, tpus, devices, topology, assignment):
    placed, mesh = _topology(topology, len(tpus), len(tpus[0]))
    expected = num_replicas * num_cores_per_replica * _TOPOLOGY_RANK
    if len(assignment) != expected:
        raise TPUDeviceError(f"length of '{DEVICE_ASSIGNMENT_ATTR}' must be 'num_replicas' * "
                             f"'num_cores_per_replica' * {_TOPOLOGY_RANK} ({num_replicas} * "
                             f"{num_cores_per_replica} * {_TOPOLOGY_RANK}), got {len(assignment)}")
    used = set()
    out = []
    ids = []
    pos = 0
    for _replica in range(num_replicas):
        row = []
        id_row = []
        for _core in range(num_cores_per_replica):
            coordinate = tuple(assignment[pos:pos + 4])
            pos += 4
            _check_bounds(DEVICE_ASSIGNMENT_ATTR, coordinate, mesh)
            task_and_device = placed.get(coordinate)
            text = ", ".join(map(str, coordinate))
            if task_and_device is None:
                raise TPUDeviceError(f"no TPU device found for '{DEVICE_ASSIGNMENT_ATTR}' device "
                                     f"coordinate ({text})")
            if coordinate in used:
                raise TPUDeviceError(f"'{DEVICE_ASSIGNMENT_ATTR}' has duplicate device coordinate ({text})")
            used.add(coordinate)
            tpu = tpus[task_and_device[0]][task_and_device[1]]
            row.append((name_to_string(tpu), _host_of(tpu, devices)))
            # XLA's device id: the coordinate from major to minor (z, y, x, core).
            x, y, z, core = coordinate
            id_row.append((x + mesh[0] * (y + mesh[1] * z)) * mesh[3] + core)
        out.append(row)
        ids.append(id_row)
    return out, ids


def compilation_and_execution_devices(devices, num_replicas, num_cores_per_replica, topology,
                                      assignment):
    """TF's ``GetTPUCompilationAndExecutionDevices``.

    `devices`: parsed device names (the module's ``tf.devices``); `topology`: the bytes of the
    ``topology`` attribute; `assignment`: the device assignment coordinates. Returns
    ``(compilation device, [[(tpu device, host device)] per logical core] per replica)``, or
    raises TPUDeviceError with TF's message.
    """
    systems = _system_devices(devices)
    tpus = _tpu_devices(devices, systems)
    compilation = name_to_string(replace(systems[0], type="CPU"))
    if not topology:
        if assignment:
            raise TPUDeviceError(f"'{DEVICE_ASSIGNMENT_ATTR}' must not be set when '{TOPOLOGY_ATTR}' "
                                 f"is not set")
        return compilation, _full_mesh(num_replicas, num_cores_per_replica, tpus, devices)
    return compilation, _general(num_replicas, num_cores_per_replica, tpus, devices, topology,
                                 assignment)[0]


def device_assignment(devices, num_replicas, num_cores_per_replica, topology, assignment):
    """:func:`compilation_and_execution_devices` with the XLA device assignment TF puts in the
    compile metadata: ``(compilation device, devices, ids)`` where ``ids[replica][core]`` is the
    XLA device id of each TPU (from its topology coordinate), or None without a topology."""
    if not topology:
        compilation, execution = compilation_and_execution_devices(
            devices, num_replicas, num_cores_per_replica, topology, assignment)
        return compilation, execution, None
    systems = _system_devices(devices)
    tpus = _tpu_devices(devices, systems)
    compilation = name_to_string(replace(systems[0], type="CPU"))
    execution, ids = _general(num_replicas, num_cores_per_replica, tpus, devices, topology, assignment)
    return compilation, execution, ids
