"""Every private jaxlib entry point tfmlir uses, in one place, behind a version check.

tfmlir compiles StableHLO with XLA through PJRT as jaxlib ships it. The
pieces it needs -- parsing in jaxlib's own MLIR context, ``compile_and_load``
with Python host callbacks, ``execute_sharded``, compile options with a
device assignment -- are not jax's public API, so they may change with any
release: the versions are pinned in pyproject.toml and checked here, and no
other module touches ``jax._src`` or ``jaxlib``.
"""
import atexit
import os
import threading

import numpy as np

from . import cache

SUPPORTED_JAX = "0.10.2"

_lock = threading.Lock()
_state = {}
_exit_hooks = []


def on_exit(hook):
    """Runs `hook` at interpreter exit before jax tears its backends down: executables holding
    Python host callbacks must be gone by then (else a fatal PyGILState_Release)."""
    _exit_hooks.append(hook)


def _run_exit_hooks():
    for hook in reversed(_exit_hooks):
        try:
            hook()
        except Exception:
            pass


class JaxlibVersionError(ImportError):
    """The installed jax/jaxlib is not the version these entry points were written for."""


def _load():
    with _lock:
        if _state:
            return _state
        try:
            import jax
            import jaxlib
        except ImportError as err:
            raise JaxlibVersionError(
                f"tfmlir.runtime needs jax=={SUPPORTED_JAX} and jaxlib=={SUPPORTED_JAX} "
                f"(pip install 'tfmlir[runtime]'): {err}") from None
        found = (jax.__version__, jaxlib.__version__)
        if os.environ.get("TFMLIR_ALLOW_OTHER_JAXLIB") != "1" and found != (SUPPORTED_JAX, SUPPORTED_JAX):
            raise JaxlibVersionError(
                f"tfmlir.runtime uses private jaxlib entry points written for jax/jaxlib "
                f"{SUPPORTED_JAX}; found jax {found[0]}, jaxlib {found[1]} "
                f"(set TFMLIR_ALLOW_OTHER_JAXLIB=1 to try anyway)")
        # Replicas run on XLA CPU devices, which must exist before the CPU
        # backend starts: ask for several (they are cheap) unless told otherwise.
        if not _backend_started(jax):
            jax.config.update("jax_num_cpu_devices", int(os.environ.get("TFMLIR_CPU_DEVICES", "8")))
            # The runtime waits for every execution's results: a single-device execution runs
            # in the calling thread instead of being handed to a dispatch thread and waited for
            # (that hand-off cost 10-70 us per execution, more on busy cores). Set
            # JAX_CPU_ENABLE_ASYNC_DISPATCH to choose otherwise.
            if "JAX_CPU_ENABLE_ASYNC_DISPATCH" not in os.environ:
                try:
                    jax.config.update("jax_cpu_enable_async_dispatch", False)
                except AttributeError:  # another jax (TFMLIR_ALLOW_OTHER_JAXLIB) without the flag
                    pass
        from jax._src import core as jax_core
        from jax._src.array import ArrayImpl
        from jax._src.interpreters import mlir as jax_mlir
        from jax._src.lib import xla_client
        from jax._src.lib.mlir import ir as jax_ir
        from jax.extend import backend as jax_backend

        _state.update(jax=jax, jax_mlir=jax_mlir, xla_client=xla_client, jax_ir=jax_ir,
                      jax_backend=jax_backend, jax_core=jax_core, array_type=ArrayImpl)
        # Registered after jax's own exit handlers, so it runs before them.
        atexit.register(_run_exit_hooks)
        return _state


def join_distributed(coordinator: str, num_processes: int, process_id: int, *, timeout_s: float = 60.0,
                     heartbeat_s: int = 10):
    """Joins a job of `num_processes` processes on PJRT's distributed runtime (XLA's coordination
    service, as ``jax.distributed`` uses it; process 0 runs the service at `coordinator`,
    ``host:port``), with gloo collectives between the processes' CPU devices. Must come before
    any device is used in this process (the CPU client is created for the job).

    A coordinator that does not answer within `timeout_s` is a TimeoutError (checked before
    XLA's client connects: XLA's own failure to connect ends the process). Once joined, a
    process of the job that stops sending heartbeats for `heartbeat_s` seconds makes XLA end
    every other process of the job (XLA's coordination service; there is no way to turn that
    into an exception with this jaxlib) -- run the job's processes as children of a process
    that watches them (:func:`tfmlir.runtime.distributed.launch`).
    """
    import socket
    import time

    s = _load()
    jax = s["jax"]
    if _backend_started(jax):
        raise RuntimeError("join the distributed job before any device is used in this process")
    if not 0 <= process_id < num_processes:
        raise ValueError(f"process id {process_id} is not in [0, {num_processes})")
    host, _, port = coordinator.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"the coordinator address '{coordinator}' is not host:port")
    if process_id != 0:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with socket.create_connection((host, int(port)), timeout=1.0):
                    break
            except OSError as exc:
                if time.monotonic() >= deadline:
                    raise TimeoutError(f"the coordinator {coordinator} did not answer within {timeout_s:g} s "
                                       f"({exc.strerror or exc})") from None
                time.sleep(0.1)
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    try:
        jax.distributed.initialize(coordinator, num_processes=num_processes, process_id=process_id,
                                   initialization_timeout=max(1, int(timeout_s)),
                                   heartbeat_timeout_seconds=heartbeat_s,
                                   shutdown_timeout_seconds=max(1, int(timeout_s)))
    except Exception as exc:  # noqa: BLE001 - jaxlib's errors
        raise RuntimeError(f"joining the distributed job at {coordinator} as process {process_id} of "
                           f"{num_processes} failed: {exc}") from None


def leave_distributed():
    """Leaves the job joined by :func:`join_distributed` (waits for the other processes)."""
    _load()["jax"].distributed.shutdown()


def process_index(platform: str = "cpu") -> int:
    """This process's index in the job (0 outside one)."""
    return backend(platform).process_index()


def global_devices(platform: str = "cpu"):
    """Every device of the job, this process's and the others' (by id)."""
    return sorted(backend(platform).devices(), key=lambda d: d.id)


_IN_JOB = []  # the answer of in_job() once devices are in use (a job is joined before that)


def in_job() -> bool:
    """Whether this process joined a job of several processes (:func:`join_distributed`)."""
    if _IN_JOB:
        return _IN_JOB[0]
    if not _state:
        return False
    from jax._src import distributed
    joined = distributed.global_state.client is not None and (distributed.global_state.num_processes or 1) > 1
    if _backend_started(_state["jax"]):
        _IN_JOB.append(joined)
    return joined


def local_positions(count: int, platform: str = "cpu"):
    """The positions among the first `count` devices for replicas (:func:`device_count`'s) that
    are this process's: all of them outside a job."""
    if not in_job():
        return list(range(count))
    me = process_index(platform)
    return [k for k, d in enumerate(global_devices(platform)[:count]) if d.process_index == me]


def job_put(key: str, data: bytes):
    """Publishes `data` under `key` in the job's key-value store (XLA's coordination service)."""
    from jax._src import distributed
    distributed.global_state.client.key_value_set_bytes(key, data)


def job_get(key: str, timeout_s: float) -> bytes:
    """What a process of the job published under `key`, waiting at most `timeout_s` seconds
    (TimeoutError then)."""
    from jax._src import distributed
    try:
        return distributed.global_state.client.blocking_key_value_get_bytes(key, int(timeout_s * 1000))
    except Exception as exc:  # noqa: BLE001 - jaxlib's errors
        if "DEADLINE_EXCEEDED" in str(exc) or "deadline" in str(exc).lower():
            raise TimeoutError(f"nothing was published under '{key}' within {timeout_s:g} s") from None
        raise


def _backend_started(jax) -> bool:
    from jax._src import xla_bridge

    return bool(getattr(xla_bridge, "_backends", None))


def platform_error(platform: str):
    """None if XLA has `platform` here, else why not."""
    try:
        backend(platform)
        return None
    except RuntimeError as exc:
        return str(exc).split(". ")[-1] if "Platforms present" in str(exc) else str(exc)


def backend(platform: str = "cpu"):
    """The PJRT client of `platform` ("cpu", "gpu")."""
    return _load()["jax_backend"].get_backend(platform)


def device_count(platform: str = "cpu") -> int:
    """How many XLA devices of `platform` there are for replicas (one per device): this process's,
    or in a job of several processes (:func:`join_distributed`) the job's."""
    client = backend(platform)
    return len(client.devices() if in_job() else client.local_devices())


def compile(stablehlo_text: str, *, platform: str = "cpu", num_replicas: int = 1, num_partitions: int = 1,
            device_ids=None, host_callbacks=()):
    """Compiles StableHLO text for `num_replicas` replicas of `num_partitions` partitions each.

    With `num_partitions` > 1 XLA's SPMD partitioner splits the program by the
    ``mhlo.sharding`` attributes of ``main``'s arguments and results and of
    its sharding custom calls; `device_ids` (num_replicas rows of
    num_partitions XLA device ids: the device of replica r, partition p) is
    the device assignment, devices 0..R*P-1 row-major when None (with one
    partition: the replicas on the first `num_replicas` devices).

    Returns (executable, devices (in the executable's order: replica-major,
    partition-minor), (argument types, result types) of ``main`` as MLIR type
    strings, {argument index: result index} of its ``tf.aliasing_output``
    attributes)), all read from the same parse.
    """
    s = _load()
    client = backend(platform)
    # In a job of several processes the replicas span the job's devices (by id); each process
    # then places and gets its own devices' shards (process_local_placer).
    local = client.local_devices()
    available = global_devices(platform) if len(client.devices()) > len(local) else local
    count = num_replicas * num_partitions
    if len(available) < count:
        what = (f"{num_replicas} replicas" if num_partitions == 1 else
                f"{num_replicas} replica(s) of {num_partitions} partitions")
        raise ValueError(f"{what} need {count} {platform} devices, {len(available)} are available")
    if device_ids is None:
        devices = available[:count]
        ids = [[devices[r * num_partitions + p].id for p in range(num_partitions)] for r in range(num_replicas)]
    else:
        ids = [[int(i) for i in row] for row in device_ids]
        by_id = {d.id: d for d in available}
        if len(ids) != num_replicas or any(len(row) != num_partitions for row in ids):
            raise ValueError(f"the device assignment {ids} is not {num_replicas} x {num_partitions}")
        flat = [i for row in ids for i in row]
        if len(set(flat)) != len(flat) or any(i not in by_id for i in flat):
            raise ValueError(f"the device assignment {ids} must name distinct {platform} devices of "
                             f"{sorted(by_id)}")
        devices = [by_id[i] for i in flat]
    with s["jax_mlir"].make_ir_context():
        module = s["jax_ir"].Module.parse(stablehlo_text)
        signature = _main_signature(module, s["jax_ir"])
    xc = s["xla_client"]
    options = xc.CompileOptions()
    assignment = xc.DeviceAssignment.create(np.array(ids, dtype=np.int64).reshape(num_replicas, num_partitions))
    options.num_replicas = num_replicas
    options.device_assignment = assignment
    build = options.executable_build_options
    build.num_replicas = num_replicas
    build.device_assignment = assignment
    if num_partitions > 1:
        options.num_partitions = num_partitions
        build.num_partitions = num_partitions
        build.use_spmd_partitioning = True
        # The program carries GSPMD's mhlo.sharding attributes (XLA falls back to GSPMD's
        # propagation for them anyway, with a warning).
        build.use_shardy_partitioner = False
    device_list = xc.DeviceList(tuple(devices))
    # The on-disk cache holds executables without host callbacks (those hold Python objects), of
    # one process (an executable of a job's devices is compiled by each of its processes).
    store = cache.default() if not host_callbacks and len(available) == len(local) else None
    if store is not None:
        entry = cache.key("executable", *_compiler_identity(client, devices), str(num_replicas),
                          *((f"partitions={num_partitions}", f"assignment={ids}") if num_partitions > 1 else ()),
                          stablehlo_text)
        data = store.get("executable", entry)
        if data is not None:
            try:
                return client.deserialize_executable(data, device_list, options), devices, signature
            except Exception:  # noqa: BLE001 - jaxlib's errors: an entry this XLA cannot load
                pass
    executable = client.compile_and_load(module, device_list, options,
                                         host_callbacks=list(host_callbacks))
    if store is not None:
        try:
            data = client.serialize_executable(executable)
        except Exception:  # noqa: BLE001 - an executable XLA cannot serialize is not cached
            data = None
        if data is not None:
            store.put("executable", entry, data)
    return executable, devices, signature


def partition_main(stablehlo_text: str, arguments, results) -> str:
    """`stablehlo_text` with ``main``'s arguments and results given the shardings of a
    partitioned (SPMD) compilation, in the per-device form the runtime exchanges.

    `arguments` / `results`: per argument / result of ``main``, (serialized
    xla.OpSharding, tiles) where tiles is None (the value is whole on every
    device: replicated or maximal) or the number of tiles of each dimension:
    ``main`` then takes / returns each device's tile (every dimension divided
    by its tiles, rounded up), marked ``{manual}``, and converts it to the full
    value with the sharding (``SPMDShardToFullShape``; a result: ``Sharding``
    then ``SPMDFullToShardShape``), as jax's shard_map does. Every
    ``mhlo.sharding`` of ``main``'s signature is replaced by the given one.
    (Besides giving the devices' shapes in ``main``'s signature, manual results
    are what PJRT's executable wrapper accepts with replicas: a tiled result
    with more than one replica aborts it.)
    """
    s = _load()
    ir = s["jax_ir"]
    with s["jax_mlir"].make_ir_context(), ir.Location.unknown():
        module = ir.Module.parse(stablehlo_text)
        main = _main(module, ir)
        if main is None:
            raise ValueError("the device program has no function @main")
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        inputs, outputs = list(ftype.inputs), list(ftype.results)
        if len(arguments) != len(inputs) or len(results) != len(outputs):
            raise ValueError(f"@main takes {len(inputs)} argument(s) and returns {len(outputs)}; "
                             f"{len(arguments)} and {len(results)} shardings were given")
        block = main.regions[0].blocks[0]
        manual = ir.StringAttr.get("{manual}")

        def shard_type(t, tiles, what):
            ranked = ir.RankedTensorType(t)
            shape = list(ranked.shape)
            if len(tiles) != len(shape) or any(ir.ShapedType.is_dynamic_size(d) for d in shape):
                raise ValueError(f"{what} {t} cannot be split into {tiles} tiles")
            return ir.RankedTensorType.get([-(-d // n) for d, n in zip(shape, tiles)], ranked.element_type)

        def attrs_with(old, sharding):
            entries = {} if old is None else {a.name: a.attr for a in ir.DictAttr(old)}
            entries["mhlo.sharding"] = sharding
            return ir.DictAttr.get(entries)

        old_args = list(ir.ArrayAttr(main.attributes["arg_attrs"])) if "arg_attrs" in main.attributes else []
        old_results = list(ir.ArrayAttr(main.attributes["res_attrs"])) if "res_attrs" in main.attributes else []
        new_inputs, arg_attrs = [], []
        for i, (data, tiles) in enumerate(arguments):
            sharding = ir.StringAttr.get(bytes(data))
            t = inputs[i]
            if tiles is not None:
                argument = block.arguments[i]
                shard = shard_type(t, tiles, f"argument {i}")
                argument.set_type(shard)
                ip = ir.InsertionPoint.at_block_begin(block)
                full = ir.Operation.create(
                    "stablehlo.custom_call", results=[t], operands=[argument],
                    attributes={"call_target_name": ir.StringAttr.get("SPMDShardToFullShape"),
                                "mhlo.sharding": sharding}, loc=argument.location, ip=ip)
                argument.replace_all_uses_except(full.result, full)
                t, sharding = shard, manual
            new_inputs.append(t)
            arg_attrs.append(attrs_with(old_args[i] if i < len(old_args) else None, sharding))
        terminator = list(block.operations)[-1]
        new_outputs, res_attrs = [], []
        for j, (data, tiles) in enumerate(results):
            sharding = ir.StringAttr.get(bytes(data))
            t = outputs[j]
            if tiles is not None:
                shard = shard_type(t, tiles, f"result {j}")
                ip = ir.InsertionPoint(terminator)
                value = terminator.operands[j]
                marked = ir.Operation.create(
                    "stablehlo.custom_call", results=[t], operands=[value],
                    attributes={"call_target_name": ir.StringAttr.get("Sharding"), "mhlo.sharding": sharding},
                    loc=terminator.location, ip=ip)
                local = ir.Operation.create(
                    "stablehlo.custom_call", results=[shard], operands=[marked.result],
                    attributes={"call_target_name": ir.StringAttr.get("SPMDFullToShardShape"),
                                "mhlo.sharding": manual}, loc=terminator.location, ip=ip)
                terminator.operands[j] = local.result
                t, sharding = shard, manual
            new_outputs.append(t)
            res_attrs.append(attrs_with(old_results[j] if j < len(old_results) else None, sharding))
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(new_inputs, new_outputs))
        main.attributes["arg_attrs"] = ir.ArrayAttr.get(arg_attrs)
        main.attributes["res_attrs"] = ir.ArrayAttr.get(res_attrs)
        module.operation.verify()
        return module.operation.get_asm(enable_debug_info=True)


def _compiler_identity(client, devices):
    """What an executable compiled here depends on besides its program and replica count:
    jax/jaxlib, the platform and its version, the devices, XLA_FLAGS and the host CPU (XLA:CPU
    compiles for the CPU it runs on)."""
    import jaxlib

    return (_load()["jax"].__version__, jaxlib.__version__, client.platform, client.platform_version,
            ",".join(f"{d.id}:{d.device_kind}" for d in devices), os.environ.get("XLA_FLAGS", ""),
            _host_cpu())


_HOST_CPU = []


def _host_cpu():
    if not _HOST_CPU:
        import platform

        found = f"{platform.machine()} {platform.processor()}"
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith(("model name", "flags", "Features")):
                        found += "|" + line.strip()
                    if line.strip() == "":
                        break  # the first processor describes them all
        except OSError:
            pass
        _HOST_CPU.append(found)
    return _HOST_CPU[0]


def _main_signature(module, jax_ir):
    main = _main(module, jax_ir)
    if main is None:
        raise ValueError("the device program has no function @main")
    ftype = jax_ir.FunctionType(jax_ir.TypeAttr(main.attributes["function_type"]).value)
    return ([str(t) for t in ftype.inputs], [str(t) for t in ftype.results],
            _argument_attribute(main, "tf.aliasing_output", jax_ir))


def _main(module, jax_ir):
    for op in module.body.operations:
        if op.operation.name == "func.func" and jax_ir.StringAttr(op.attributes["sym_name"]).value == "main":
            return op
    return None


def _argument_attribute(main, name, jax_ir):
    found = {}
    if main is None or "arg_attrs" not in main.attributes:
        return found
    for i, attrs in enumerate(jax_ir.ArrayAttr(main.attributes["arg_attrs"])):
        attrs = jax_ir.DictAttr(attrs)
        if name in attrs:
            found[i] = jax_ir.IntegerAttr(attrs[name]).value
    return found


def callback_target(platform):
    """The custom-call target of jaxlib's Python host callbacks on `platform`."""
    return {"cpu": "xla_ffi_python_cpu_callback", "gpu": "xla_ffi_python_gpu_callback"}[platform]


def argument_placer(arguments, devices, copied=()):
    """A function putting one execution's arguments on `devices`.

    `arguments`: [(shape, numpy dtype)] of the executable's arguments. The
    function takes per argument a list of per-replica numpy arrays (already
    checked against `arguments`) and returns what :func:`execute` takes: one
    transfer call per argument, no dtype canonicalization (64-bit values stay
    64-bit whatever jax's x64 setting). On the CPU an array aligned as XLA
    needs (64 bytes) is not copied: the device buffer aliases its memory and
    keeps it alive, and it must not change while the execution runs (which
    :func:`execute` waits for). Other arrays, and arguments whose index is in
    `copied` (the program may write them: ``tf.aliasing_output``), are copied
    during the call (XLA's own fallback for unaligned arrays is slower).
    """
    s = _load()
    xc, core = s["xla_client"], s["jax_core"]
    from jax.sharding import Mesh, NamedSharding, PartitionSpec, SingleDeviceSharding

    devices = list(devices)
    n = len(devices)
    put = xc.batched_device_put
    alias, copy = xc.HostBufferSemantics.ZERO_COPY, xc.HostBufferSemantics.IMMUTABLE_ONLY_DURING_CALL
    may_alias = [i not in copied for i in range(len(arguments))]
    if n == 1:
        # One replica: the argument itself, on the one device.
        sharding = SingleDeviceSharding(devices[0])
        avals = [core.ShapedArray(tuple(shape), np.dtype(dtype)) for shape, dtype in arguments]

        def place(columns):
            placed = []
            for aval, column, may in zip(avals, columns, may_alias):
                value = column[0]
                if type(value) is not np.ndarray:  # a device array of this device: as it is
                    placed.append(value)
                    continue
                how = alias if may and not value.__array_interface__["data"][0] % _ALIGNMENT else copy
                placed.append(put(aval, sharding, column, devices, True, False, how, True))
            return placed
        return place
    # Replicas: one global array sharded over a 1-D mesh, replica i's value as shard i.
    sharding = NamedSharding(Mesh(np.array(devices), ("replica",)), PartitionSpec("replica"))
    avals = [core.ShapedArray((n,) + tuple(shape), np.dtype(dtype)) for shape, dtype in arguments]

    def place_replicated(columns):
        placed = []
        for aval, column, may in zip(avals, columns, may_alias):
            pointers = [value.__array_interface__["data"][0] for value in column]
            if may and not any(p % _ALIGNMENT for p in pointers):
                how, shards = alias, [value[None] for value in column]
            else:
                # A copying transfer must not hold one host buffer twice (jaxlib fails with
                # bad_function_call): a value shared by replicas is copied for the later ones.
                how, shards, seen = copy, [], set()
                for value, p in zip(column, pointers):
                    shards.append((value.copy() if p in seen else value)[None])
                    seen.add(p)
            placed.append(put(aval, sharding, shards, devices, True, False, how, True))
        return placed
    return place_replicated


_ALIGNMENT = 64  # what XLA:CPU needs to use a host buffer in place


def process_local_placer(arguments, devices):
    """:func:`argument_placer` for an executable whose devices span several processes of a job:
    the function takes per argument the values of this process's devices (in `devices` order)
    and makes the global arrays :func:`execute` takes, this process's shards only (copied)."""
    s = _load()
    jax = s["jax"]
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    devices = list(devices)
    mine = [d for d in devices if d.process_index == process_index(devices[0].platform)]
    sharding = NamedSharding(Mesh(np.array(devices), ("replica",)), PartitionSpec("replica"))

    def place(columns):
        placed = []
        for (shape, dtype), column in zip(arguments, columns):
            if len(column) != len(mine):
                raise ValueError(f"{len(column)} value(s) for this process's {len(mine)} device(s)")
            shards = [jax.device_put(np.ascontiguousarray(value, dtype=dtype)[None], device)
                      for value, device in zip(column, mine)]
            placed.append(jax.make_array_from_single_device_arrays(
                (len(devices),) + tuple(shape), sharding, shards))
        return placed
    return place, mine


def replicated_argument(per_replica, devices):
    """One argument of a replicated execution: replica i gets ``per_replica[i]`` (numpy arrays)."""
    values = [np.asarray(v) for v in per_replica]
    return argument_placer([(values[0].shape, values[0].dtype)], devices, copied=(0,))([values])[0]


def execute(executable, arguments, keep=()):
    """Runs `executable` on device arguments; returns per output a list of per-replica numpy arrays
    (read-only views of the result buffers where the device is the CPU), and, for the outputs
    whose index is in `keep`, {index: the per-replica device arrays} (to pass to later
    executions as they are)."""
    results = executable.execute_sharded(arguments)
    outputs = results.disassemble_into_single_device_arrays()
    kept = {k: list(outputs[k]) for k in keep}
    return [[np.asarray(shard) for shard in out] for out in outputs], kept


def is_device_array(value):
    """True for an array jaxlib holds on a device (what :func:`execute` keeps)."""
    return isinstance(value, _load()["array_type"])


# -- Used by runtime/graph_route.py ------------------------------------------

def main_signature(stablehlo_text: str):
    """(argument types, result types) of ``main`` in `stablehlo_text`, parsed in jaxlib's context."""
    s = _load()
    with s["jax_mlir"].make_ir_context() as context:
        context.allow_unregistered_dialects = True
        arguments, results, _aliases = _main_signature(s["jax_ir"].Module.parse(stablehlo_text), s["jax_ir"])
        return arguments, results


def walk_stablehlo(stablehlo_text: str, visit):
    """Parses `stablehlo_text` in jaxlib's context (unregistered dialects allowed) and calls
    `visit(op, jax_ir)` on every op (MLIR's post-order); jaxlib's MLIRError when it does not
    parse."""
    s = _load()
    jax_ir = s["jax_ir"]
    with s["jax_mlir"].make_ir_context() as context:
        context.allow_unregistered_dialects = True
        module = jax_ir.Module.parse(stablehlo_text)

        def each(op):
            visit(op, jax_ir)
            return jax_ir.WalkResult.ADVANCE

        module.operation.walk(each)


def hlo_to_stablehlo(hlo_module_proto: bytes) -> str:
    """StableHLO text (with locations) of a serialized HloModuleProto, converted by jaxlib's XLA."""
    s = _load()
    from jax._src.lib import _jax

    bytecode = _jax.mlir.hlo_to_stablehlo(hlo_module_proto)
    with s["jax_mlir"].make_ir_context():
        return s["jax_ir"].Module.parse(bytecode).operation.get_asm(enable_debug_info=True)
