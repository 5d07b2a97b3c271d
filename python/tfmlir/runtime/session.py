"""``ProgramSession``: a bridged TensorFlow program run with TF1 session semantics.

The program is a module whose ``main`` holds TensorFlow's bridged form (after
``tf-tpu-rewrite``): ``_TPUCompileMlir`` with the device program,
``TPUExecute(AndUpdateVariables)``, ``tf_device.replicate``/
``parallel_execute``/``launch``, host transfers and ordinary host ops, in
functional or ``tf_executor`` form. Building a session compiles the host side
into a plan (:mod:`.host`) and legalizes every device program with
TensorFlow's passes (:mod:`.legalize`) -- anything that cannot run is an
error here, before anything runs. :meth:`ProgramSession.run` then runs the part of
``main`` the fetches and targets need: device programs on XLA (PJRT), host
computations as XLA host callbacks meeting the host threads mid-computation,
host ops on TensorFlow's kernels, variables kept across calls.
"""
import itertools
import sys
import threading
import time
import weakref

import numpy as np

from .. import device_names, irsafe
from ..driver import device_list
from . import _jaxlib
from . import device as _device
from . import host as H
from . import host_transfer
from ..tfcore.tensor_names import parse_tensor_name
from .errors import ProgramError, RunError

_sessions = itertools.count(1)
_program_sessions = itertools.count(1)
_OBJECT = np.dtype(object)
_live = weakref.WeakSet()

# The devices of a session: the host, the TPU system and one TPU core per XLA device.
def _release_all():
    for session in list(_live):
        try:
            session.close()
        except Exception:
            pass


_jaxlib.on_exit(_release_all)


def _rows_text(rows):
    if rows is None:
        return "(not 2-D)"
    text = str([list(r) for r in rows[:8]])
    return text if len(rows) <= 8 else text[:-1] + ", ...]"


class _Status:
    """What ``_TPUCompileMlir``'s first result carries: the compilation went through."""


class ProgramKey:
    """A ``_TPUCompileMlir`` program key: the compiled device program it names (and the
    compile op's record: what its metadata says), for logical core `core` (program#core)."""

    def __init__(self, program, compiled=None, core=0):
        self.program = program
        self.compiled = compiled
        self.core = core


class _Compiled:
    """One ``_TPUCompileMlir`` op: its device program (legalized on first use, after the checks
    of the ops using it) and what its metadata asks for (`replicas`: the metadata's num_replicas,
    None when it gives none; `args`: its argument count, None when it describes none)."""
    __slots__ = ("where", "text", "session", "replicas", "args", "_program", "ordinals", "transfers",
                 "signature", "cores", "layout", "executes")

    def __init__(self, where_, text, session, replicas, args, layout=None):
        self.where, self.text, self.session, self.replicas, self.args = where_, text, session, replicas, args
        self._program = None
        self.ordinals = set()   # TPU device ordinals the unreplicated TPUExecutes of it run on
        self.transfers = []     # (where, device_ordinal, replicas) of its _XlaRecvAtHost/_XlaSendFromHost
        self.signature = None   # the device program's main: [(type text, facts)] of inputs, of results
        self.layout = layout    # _Partitioning of a program of several cores per replica, else None
        self.cores = layout.cores if layout is not None else 1
        self.executes = []      # (core, (parallel_execute, region) or None, where) of its TPUExecutes

    def check_transfers(self):
        """A host transfer with a fixed ``device_ordinal`` meets the program only on that device
        (TensorFlow's rendezvous is per device): it must be the device the program runs on."""
        if not self.ordinals:
            return
        for where_, ordinal, replicas in self.transfers:
            if replicas > 1:
                raise ProgramError(f"{where_}: a fixed device_ordinal ({ordinal}) inside a replicate of "
                                   f"{replicas} serves one replica; replicated programs use "
                                   "_XlaRecvAtHostV2/_XlaSendFromHostV2 with _TPUDeviceOrdinalPlaceholder")
            if ordinal not in self.ordinals:
                devices = ", ".join(f"TPU:{k}" for k in sorted(self.ordinals))
                raise ProgramError(f"{where_}: device_ordinal = {ordinal}, but the program of {self.where} "
                                   f"runs on {devices}: nothing would meet this transfer")

    @property
    def program(self):
        if self._program is None:
            self._program = self.session._device_program(self.text, self.where, self.layout)
        return self._program

    def check_executes(self):
        """The TPUExecutes of a program of several cores per replica meet for one execution:
        exactly one per logical core, each in its own region of one tf_device.parallel_execute
        (else some would wait for cores that never come)."""
        if self.layout is None or not self.executes:
            return
        cores = sorted(core for core, _, _ in self.executes)
        places = {place for _, place, _ in self.executes}
        parents = {place[0] if place is not None else None for place in places}
        if cores != list(range(self.cores)) or len(places) != self.cores or len(parents) != 1 or None in parents:
            listed = "; ".join(f"core {core}: {w}" for core, _, w in self.executes)
            raise ProgramError(
                f"{self.where}: the program runs on {self.cores} cores per replica, which execute it "
                f"together: it needs one TPUExecute per core, each in its own region of one "
                f"tf_device.parallel_execute (found {listed})")

    def check_replicas(self, n, where_, error):
        if self.replicas is not None and self.replicas != n:
            raise error(f"{where_}: the program of {self.where} is compiled for {self.replicas} replica(s) "
                        f"(its metadata's num_replicas) but runs on {n}")


class _Partitioning:
    """How the C logical cores of a model-parallel program (num_cores_per_replica = C > 1) share
    its arguments and results, from its TPUCompileMetadataProto, as tf-tpu-rewrite distributed
    them over the cores' TPUExecutes (``xla_protos.sharding_cores``).

    The C TPUExecutes of one replica run as one execution of the program compiled by XLA's SPMD
    partitioner (partition c = core c). Core c's TPUExecute takes the arguments i whose sharding
    involves core c (in order): a replicated argument whole, a split one core c's tile, a
    MAXIMAL one only on its core; partition c's argument i is core c's operand where it takes
    i, else the owning core's (XLA's partitioner reads a maximal argument on its device only,
    but every partition has the full shape). Results likewise: core c returns the results whose
    sharding involves it (tiles of split results, replicated results whole, maximal ones on
    their core).
    """

    def __init__(self, meta, signature, where_):
        from ..passes.lib import tpu_tiles
        from ..shapes import xla_protos

        cores = self.cores = meta.num_cores_per_replica
        inputs, results = signature if signature is not None else (None, None)
        if inputs is None:
            raise ProgramError(f"{where_}: the device program's @main cannot be read, so its "
                               f"{cores} cores' shares of it cannot be told")
        if len(meta.retvals) != len(results):
            raise ProgramError(f"{where_}: the metadata describes {len(meta.retvals)} result(s), the device "
                               f"program's @main returns {len(results)}: a program of {cores} cores per "
                               "replica needs every result's sharding")

        def share(sharding_message, what, facts):
            data = sharding_message.SerializeToString()
            sharding = xla_protos.parse_op_sharding(data)
            if sharding is None:
                raise ProgramError(f"{where_}: the sharding of {what} is not an xla.OpSharding")
            names = xla_protos.SHARDING_TYPES
            kind = names[sharding.type] if 0 <= sharding.type < len(names) else f"type-{sharding.type}"
            held = xla_protos.sharding_cores(sharding, cores)
            if held is None or sharding.last_tile_dims:
                raise ProgramError(f"{where_}: {what} has a {kind} sharding"
                                   f"{' with last_tile_dims' if held is not None else ''}; the runtime "
                                   "runs replicated, maximal and tiled shardings")
            if any(not 0 <= c < cores for c in held):
                raise ProgramError(f"{where_}: the {kind} sharding of {what} names core(s) {held}; the "
                                   f"program has {cores} cores per replica")
            tiles = None
            if xla_protos.is_split(sharding):
                if sorted(held) != list(range(cores)):
                    raise ProgramError(f"{where_}: the tiled sharding of {what} assigns its tiles to cores "
                                       f"{held}; XLA's partitioner needs each of the {cores} cores once")
                shape = facts[1] if facts is not None else None
                if shape is None or any(d < 0 for d in shape):
                    raise ProgramError(f"{where_}: {what} is tiled but has no static shape")
                try:
                    split = tpu_tiles.split_dimensions(sharding)
                except tpu_tiles.TileError as exc:
                    raise ProgramError(f"{where_}: {what}: {exc}") from None
                dims = len(sharding.tile_assignment_dimensions) - (1 if sharding.replicate_on_last_tile_dim else 0)
                if dims != len(shape):
                    raise ProgramError(f"{where_}: the tiled sharding of {what} has {dims} tile dimension(s) "
                                       f"for a rank-{len(shape)} value")
                tiles = tuple(split.get(d, 1) for d in range(len(shape)))
                held = sorted(set(held))
            elif sharding.type == xla_protos.SHARDING_REPLICATED:
                data = b"\x08\x00"  # {replicated} (an empty message reads as that too, explicitly)
            return data, tiles, held

        self.arguments, self.results = [], []   # per argument / result: (sharding, tiles or None)
        self.arg_cores, self.result_cores = [], []
        self.arg_facts = []  # per argument: (DataType, per-core shape) as the cores' TPUExecutes take it
        for i, (arg, (_t, facts)) in enumerate(zip(meta.args, inputs)):
            data, tiles, held = share(arg.sharding, f"argument {i}", facts)
            self.arguments.append((data, tiles))
            self.arg_cores.append(held)
            if facts is not None and tiles is not None:
                facts = (facts[0], tuple(-(-d // n) for d, n in zip(facts[1], tiles)))
            self.arg_facts.append(facts)
        for j, (retval, (_t, facts)) in enumerate(zip(meta.retvals, results)):
            data, tiles, held = share(retval.sharding, f"result {j}", facts)
            self.results.append((data, tiles))
            self.result_cores.append(held)
        self.core_args = [[i for i, held in enumerate(self.arg_cores) if c in held] for c in range(cores)]
        self.core_results = [[j for j, held in enumerate(self.result_cores) if c in held] for c in range(cores)]
        # Partition c's argument i: (core, position in that core's operands).
        self.sources = []
        for c in range(cores):
            row = []
            for i, held in enumerate(self.arg_cores):
                owner = c if c in held else held[0]
                row.append((owner, self.core_args[owner].index(i)))
            self.sources.append(row)
        self.assignment = None  # [replica][core] -> XLA device id, from the metadata
        if meta.HasField("device_assignment"):
            computations = meta.device_assignment.computation_devices
            replicas = meta.device_assignment.replica_count
            self.assignment = [[int(computations[c].replica_device_ids[r]) for c in range(cores)]
                               for r in range(replicas)]
        self.key = (tuple(self.arguments), tuple(self.results),
                    None if self.assignment is None else tuple(map(tuple, self.assignment)))


class _PlaceholderKey:
    """``_XlaCompileMlirPlaceholderProgramKey``: host transfers use rendezvous keys, not this."""


class DeviceProgram:
    """One ``_TPUCompileMlir`` device program: legalized and host transfers made callbacks
    when the session is built; compiled per replica count on first use."""

    def __init__(self, session, text, where_, layout=None):
        self.session = weakref.ref(session)
        self.where = where_
        self.layout = layout
        t0 = time.perf_counter()
        self.source = _device.DeviceProgram(text)
        try:
            stablehlo = self.source.stablehlo
        except Exception as exc:
            raise ProgramError(f"{where_}: the device program cannot be compiled: {exc}") from None
        try:
            self.text, self.groups = host_transfer.rewrite(
                stablehlo, platform=session.platform, core=0 if layout is not None else None)
        except host_transfer.HostTransferError as exc:
            raise ProgramError(f"{where_}: {exc}") from None
        if layout is not None:
            try:
                self.text = _jaxlib.partition_main(self.text, layout.arguments, layout.results)
            except Exception as exc:  # noqa: BLE001 - ValueError, or jaxlib's MLIR errors
                raise ProgramError(f"{where_}: the device program cannot be partitioned over "
                                   f"{layout.cores} cores: {exc}") from None
        # Cross-replica collectives, checked per replica count before XLA compiles.
        self.collectives = _device.collectives(self.text)
        session._timings["legalize"] += time.perf_counter() - t0
        self._executables = {}
        self._lock = threading.Lock()

    def executable(self, num_replicas):
        with self._lock:
            found = self._executables.get(num_replicas)
            if found is None:
                for name, location, kind, rows in self.collectives:
                    problem = _device.collective_problem(kind, rows, num_replicas)
                    if problem is not None:
                        what = "replica_groups" if kind == "groups" else "source_target_pairs"
                        raise ProgramError(
                            f"{self.where}: the device program's '{name}' at {location} cannot run on "
                            f"{num_replicas} replica(s): its {what} {_rows_text(rows)} are invalid: "
                            f"{problem} (a CrossReplicaSum's group_assignment must partition the "
                            "replicas into groups of equal size)")
                session = self.session()
                t0 = time.perf_counter()
                callbacks = [self._callback(g) for g in self.groups]
                partitions, ids = 1, None
                if self.layout is not None:
                    partitions, ids = self.layout.cores, self.layout.assignment
                    if ids is not None and len(ids) != num_replicas:
                        ids = None  # (the replica count is checked against the metadata's)
                try:
                    found = _device.Executable(self.text, num_replicas, callbacks, session.platform,
                                               num_partitions=partitions, device_ids=ids)
                except Exception as exc:  # noqa: BLE001 - XLA's parser/compiler errors, of jaxlib's classes
                    raise ProgramError(f"{self.where}: the device program cannot be compiled: {exc}") from None
                took = time.perf_counter() - t0
                session._timings["compile"] += took
                cores = f" x {self.layout.cores} cores" if self.layout is not None else ""
                session._progress(f"compiled the device program of {self.where} for {num_replicas} "
                                  f"replica(s){cores} in {took:.2f} s", took)
                self._executables[num_replicas] = found
            return found

    def _callback(self, group):
        session_ref = self.session
        expected = [_device.type_info(t) for t in group.recv_types]
        label = f"host computation '{group.send_key or group.recv_key}'"

        def callback(token, *arguments):
            t0 = time.perf_counter()
            session = session_ref()
            state = session._run if session is not None else None
            if state is None:
                raise RunError(f"{label} called outside Session.run")
            try:
                replica = int(np.asarray(arguments[-1]))
                participant = state.device_participant.get(replica)
                if group.send_key is not None:
                    state.put(group.send_key, replica, [np.asarray(a) for a in arguments[:-1]],
                              f"the device program (replica {replica})")
                outputs = []
                if group.echo:
                    outputs = [np.asarray(a) for a in arguments[:-1]]
                elif group.recv_key is not None:
                    values, origin = state.get(group.recv_key, replica, participant,
                                               f"the device program's {label}")
                    if len(values) != len(expected):
                        raise RunError(f"{origin} sent {len(values)} value(s) under '{group.recv_key}', the "
                                       f"device program expects {len(expected)}")
                    for k, (value, (shape, dtype)) in enumerate(zip(values, expected)):
                        if value.dtype != dtype or value.shape != shape:
                            raise RunError(
                                f"{origin} sent {value.dtype.name}{list(value.shape)} as value {k} of "
                                f"'{group.recv_key}'; the device program expects {dtype.name}{list(shape)}")
                        outputs.append(value)
                return (token, *outputs)
            except BaseException as exc:
                state.fail(exc if not isinstance(exc, H.Aborted) else RunError("aborted"))
                raise
            finally:
                with state.cond:
                    state.callbacks += 1
                    state.callback_seconds += time.perf_counter() - t0

        return callback

    def run(self, executable, per_replica, state, where_, keep=None):
        """The per-replica results of `executable` on `per_replica` arguments; with `keep` (one
        replica): (results, placed arguments, {kept result index: device array}) instead."""
        session = self.session()
        t0 = time.perf_counter()
        try:
            if keep is not None:
                return executable.run_single(per_replica[0], keep)
            return executable.run(per_replica)
        except _device.DeviceProgramError as exc:
            raise RunError(f"{where_}: {exc}") from None
        except H.Aborted:
            raise
        except Exception as exc:
            if state.error is not None:
                raise state.error from None
            raise RunError(f"{where_}: XLA execution failed: {exc}") from None
        finally:
            session._timings["execute"] += time.perf_counter() - t0
            session._timings["executions"] += 1

    def run_partitioned(self, executable, everyone, state, where_):
        """One execution of a model-parallel program: `everyone[r * C + c]` is what core c of
        replica r offers (its TPUExecute's operands); returns each one's results."""
        layout = self.layout
        cores = layout.cores
        per_device = []
        for k in range(len(everyone)):
            r, c = divmod(k, cores)
            per_device.append([everyone[r * cores + owner][position] for owner, position in layout.sources[c]])
        outputs = self.run(executable, per_device, state, where_)
        return [[outputs[k][j] for j in layout.core_results[k % cores]] for k in range(len(everyone))]

    def release(self):
        with self._lock:
            for e in self._executables.values():
                e.release()
            self._executables.clear()


class _Compile(H.Step):
    __slots__ = ("outs", "compiled")

    def __init__(self, where_, compiled, outs):
        self.where, self.outs, self.compiled = where_, outs, compiled

    def run(self, frame, ctx):
        frame[self.outs[0]] = _Status()
        program = self.compiled.program
        for core, slot in enumerate(self.outs[1:]):
            frame[slot] = ProgramKey(program, self.compiled, core)


class _CompileAssert(H.Step):
    __slots__ = ("status",)

    def __init__(self, where_, status):
        self.where, self.status = where_, status

    def run(self, frame, ctx):
        if not isinstance(frame[self.status], _Status):
            raise RunError(f"{self.where}: the operand is not a _TPUCompileMlir status")


class _Execute(H.Step):
    """``TPUExecute`` / ``TPUExecuteAndUpdateVariables`` on the current replica."""
    __slots__ = ("args", "key", "outs", "resources", "merged_updates")

    def __init__(self, where_, args, key, outs, resources, merged_updates):
        self.where, self.args, self.key, self.outs = where_, args, key, outs
        self.resources = resources            # operand index -> dtype enum of the variable
        self.merged_updates = merged_updates  # operand index -> program output index (merged form)

    def run(self, frame, ctx):
        key = frame[self.key]
        if not isinstance(key, ProgramKey):
            raise RunError(f"{self.where}: the program key operand is not a _TPUCompileMlir program key")
        if key.compiled is not None and key.compiled.layout is not None:
            return self._run_partitioned(frame, ctx, key)
        program = key.program
        group = ctx.group
        if key.compiled is not None:
            key.compiled.check_replicas(group.n if group is not None else 1, self.where, RunError)
        executable = program.executable(group.n if group is not None else 1)
        if group is None and _jaxlib.in_job():
            return self._run_in_job(frame, ctx, program, executable)
        if self.resources and group is None:
            keys = [H.RESIDENT.key_of(frame[self.args[i]]) for i in self.resources]
            if None not in keys and len(set(keys)) == len(keys):
                return self._run_resident(frame, ctx, program, executable, dict(zip(self.resources, keys)))
        if not self.resources:
            if group is None:
                return self._run_values(frame, ctx, program, executable)
            values = [H.to_numpy(frame[slot]) for slot in self.args]
        else:
            values = self._read_operands(frame)
        ctx.run.device_participant[ctx.replica] = ctx.participant
        if group is not None:
            outputs = group.execute(ctx.replica, values,
                                    lambda all_args: program.run(executable, all_args, ctx.run, self.where))
        else:
            outputs = program.run(executable, [values], ctx.run, self.where)[0]
        self._set_results(frame, self._assign_updates(frame, outputs, self._updates(executable)))

    def _run_in_job(self, frame, ctx, program, executable):
        """One replica in a job of several processes: the process of its device runs it and the
        others take its results (every process assigns the variable updates, so all keep the same
        variables)."""
        from . import distributed
        key = ctx.session.exchange_key(self.where)
        if executable.local:
            values = self._read_operands(frame)
            ctx.run.device_participant[ctx.replica] = ctx.participant
            outputs = program.run(executable, [values], ctx.run, self.where)[0]
            distributed.exchange(key, {0: outputs}, 1)
        else:
            outputs = distributed.exchange(key, {}, 1)[0]
        self._set_results(frame, self._assign_updates(frame, outputs, self._updates(executable)))

    def _read_operands(self, frame):
        """The operands as numpy arrays, a resource operand's variable read by TensorFlow."""
        values = []
        for i, slot in enumerate(self.args):
            v = frame[slot]
            if i in self.resources:
                H.RESIDENT.before_host_use(v, True)
                v = H.eager(self.where, "ReadVariableOp", 1, [v], ("dtype", self.resources[i]))[0]
            values.append(H.to_numpy(v))
        return values

    def _assign_updates(self, frame, outputs, updates):
        """Assigns the variable updates among `outputs` (`updates`: resource operand index ->
        output index) to their variables; returns the other outputs."""
        if not self.resources:  # no variables, no updates (merged updates are of resource operands)
            return outputs
        for arg, out in updates.items():
            tensor = H.to_tensor(outputs[out])
            H.RESIDENT.before_host_use(frame[self.args[arg]], False)
            H.eager(self.where, "AssignVariableOp", 0, [frame[self.args[arg]], tensor],
                    ("dtype", self.resources[arg], "validate_shape", False))
        updated = set(updates.values())
        return [o for k, o in enumerate(outputs) if k not in updated]

    def _updates(self, executable, layout=None, core=0):
        """{resource operand index: program output index} of the variables the program writes
        (with `layout`: of core `core`'s operands and results)."""
        updates = dict(self.merged_updates)
        for arg, out in executable.aliases.items():
            if layout is not None:
                if arg not in layout.core_args[core] or out not in layout.core_results[core]:
                    continue
                arg, out = layout.core_args[core].index(arg), layout.core_results[core].index(out)
            if arg in self.resources and arg not in updates:
                updates[arg] = out
        return updates

    def _run_partitioned(self, frame, ctx, key):
        """Core `key.core` of a model-parallel program: the C cores' TPUExecutes of every replica
        meet (R x C threads) and one of them runs the program once, partitioned by XLA
        (:meth:`DeviceProgram.run_partitioned`). Variables are read from TensorFlow and their
        updates assigned back (no device-resident copies)."""
        compiled, core = key.compiled, key.core
        layout = compiled.layout
        group = ctx.group
        replicas = group.n if group is not None else 1
        compiled.check_replicas(replicas, self.where, RunError)
        program = key.program
        executable = program.executable(replicas)
        taken = layout.core_args[core]
        if len(self.args) != len(taken):
            raise RunError(f"{self.where}: core {core} of the program of {compiled.where} takes {len(taken)} "
                           f"argument(s) (the program's {taken}), the op has {len(self.args)}")
        values = self._read_operands(frame)
        meeting = ctx.run.meeting(compiled, replicas * layout.cores)
        outputs = meeting.execute(ctx.replica * layout.cores + core, values,
                                  lambda everyone: program.run_partitioned(executable, everyone, ctx.run,
                                                                           self.where))
        updates = self._updates(executable, layout, core)
        self._set_results(frame, self._assign_updates(frame, outputs, updates))

    def _set_results(self, frame, rest):
        if len(rest) != len(self.outs):
            raise RunError(f"{self.where}: the device program returns {len(rest)} value(s) besides "
                           f"variable updates, the op has {len(self.outs)} result(s)")
        for slot, value in zip(self.outs, rest):
            frame[slot] = value  # numpy; a TensorFlow op taking it converts it (host.eager)

    def _run_values(self, frame, ctx, program, executable):
        """One replica, no resource operands: variables' device copies go in as they are, and
        a value a ReadVariableOp just read from TensorFlow leaves its device copy behind as the
        variable's (host.ResidentVariables), so the next step does not read it again."""
        devices = tuple(executable.devices)
        values, reads = [], {}
        for slot in self.args:
            v = frame[slot]
            if type(v) is not np.ndarray:
                found = H.RESIDENT.read_of(v)
                if found is not None and len(values) not in executable.aliases:
                    reads[len(values)] = found
                if not H._is_device_array(v):
                    v = H.to_numpy(v)
            values.append(v)
        ctx.run.device_participant[ctx.replica] = ctx.participant
        outputs, placed, _ = program.run(executable, [values], ctx.run, self.where, keep=())
        for i, (key, handle, dtype) in reads.items():
            H.RESIDENT.put(key, handle, dtype, devices, placed[i], False)
        self._set_results(frame, outputs)

    def _run_resident(self, frame, ctx, program, executable, keys):
        """One replica whose variables (`keys`: operand index -> variable) are all known: each
        is read from its device copy when it has one (else from TensorFlow, and kept on the
        device afterwards), and the program's updates stay on the device (host.ResidentVariables
        writes them back when the host needs them)."""
        devices = tuple(executable.devices)
        updates = self._updates(executable)
        values, fresh = [], []
        for i, slot in enumerate(self.args):
            v = frame[slot]
            key = keys.get(i)
            if key is not None:
                array = H.RESIDENT.get(key, devices)
                if array is not None:
                    values.append(array)  # the device copy, as it is
                    continue
                H.RESIDENT.before_host_use(v, True)  # a copy on other devices is written back
                v = H.eager(self.where, "ReadVariableOp", 1, [v], ("dtype", self.resources[i]))[0]
                fresh.append(i)
            values.append(H.to_numpy(v))
        ctx.run.device_participant[ctx.replica] = ctx.participant
        outputs, placed, kept = program.run(executable, [values], ctx.run, self.where,
                                            keep=tuple(updates.values()))
        for i in fresh:
            if i not in updates:
                H.RESIDENT.put(keys[i], frame[self.args[i]], self.resources[i], devices, placed[i], False)
        for arg, out in updates.items():
            H.RESIDENT.put(keys[arg], frame[self.args[arg]], self.resources[arg], devices, kept[out], True)
        updated = set(updates.values())
        self._set_results(frame, [o for k, o in enumerate(outputs) if k not in updated])


class _TPUSteps:
    """The bridged TPU ops, for :class:`host.Builder`."""

    _NOT_BRIDGED = ("tf.TPUReplicatedInput", "tf.TPUReplicatedOutput", "tf.TPUReplicateMetadata",
                    "tf.TPUPartitionedCall", "tf._XlaHostComputeMlir", "tf.TPUCompile",
                    "tf.ConfigureDistributedTPU")

    def __init__(self, session):
        self.session = session
        self._compiled = {}  # _TPUCompileMlir operation -> _Compiled
        self._devices = None  # [(name, ParsedName)] launches may name

    def device_set(self):
        """The devices a launch may name: the module's ``tf.devices`` where it lists them (the
        device set TensorFlow's bridge assigned from), else the session's own."""
        if self._devices is None:
            from mlir import ir
            attributes = self.session.module.operation.attributes
            names = None
            if "tf.devices" in attributes:
                listed = attributes["tf.devices"]
                if isinstance(listed, ir.DictAttr):
                    names = [key for key, _ in irsafe.attribute_items(listed)]
                elif isinstance(listed, ir.ArrayAttr):
                    names = []
                    for a in listed:
                        data = _string_attr(a, "module attribute 'tf.devices'").value_bytes
                        try:
                            names.append(data.decode("utf-8"))
                        except UnicodeDecodeError:
                            raise ProgramError(f"module attribute 'tf.devices': {data[:60]!r} is not "
                                               "UTF-8 text") from None
                else:
                    raise ProgramError("module attribute 'tf.devices' is neither a list nor a dictionary "
                                       "of device names")
            if names is None:
                names = device_list(self.max_replicas())
            parsed = []
            for name in names:
                p = device_names.parse_full_name(name)
                if p is None:
                    raise ProgramError(f"module attribute 'tf.devices': '{name}' is not a TensorFlow "
                                       "device name")
                parsed.append((name, p))
            self._devices = parsed
        return self._devices

    def launch_devices(self, builder, op, w):
        """The devices `op` (a ``tf_device.launch``) names, checked: each parses and is a device
        of the session (TensorFlow places a launch on its device or fails). A replicated alias
        (``TPU_REPLICATED_CORE_0``) stands for the devices its replicate lists."""
        if "device" not in op.attributes:
            return []
        device = _str(op, "device")
        if not device:
            return []
        names = builder.replicate_devices.get(device, [device])
        for name in names:
            parsed = device_names.parse_full_name(name)
            if parsed is None:
                raise ProgramError(f"{w}: device '{name}' is not a TensorFlow device name")
            if not any(device_names.is_complete_specification(parsed, d) for _, d in self.device_set()):
                have = ", ".join(n for n, _ in self.device_set()[:6])
                more = ", ..." if len(self.device_set()) > 6 else ""
                raise ProgramError(f"{w}: no device of the session matches '{name}' (it has {have}{more})")
        return names

    def max_replicas(self):
        """How many replicas can run: one per XLA device of the session's platform."""
        return _jaxlib.device_count(self.session.platform)

    def devices_text(self, available):
        extra = " (TFMLIR_CPU_DEVICES sets how many, before jax starts)" if self.session.platform == "cpu" else ""
        return f"the {self.session.platform} platform has {available}{extra}"

    def step(self, builder, op, name, w, fname, func, ins, outs):
        from mlir import ir
        if name == "tf._TPUCompileMlir":
            compiled = self._compile_record(op, w)
            if len(outs) - 1 != compiled.cores:
                if compiled.layout is None and len(outs) > 2:
                    raise ProgramError(f"{w}: {len(outs) - 1} program keys (cores per replica) but no "
                                       "metadata telling how the cores share the program's arguments and "
                                       "results")
                raise ProgramError(f"{w}: {len(outs) - 1} program key(s), but the metadata's "
                                   f"num_cores_per_replica is {compiled.cores}")
            return _Compile(w, compiled, outs)
        if name == "tf.TPUCompileSucceededAssert":
            return _CompileAssert(w, ins[0])
        if name in ("tf.TPUExecute", "tf.TPUExecuteAndUpdateVariables"):
            operands = list(op.operands)
            resources = {}
            for i, v in enumerate(operands[:-1]):
                if H.type_info(v.type)[0] is None and "resource" in str(v.type):
                    sub = H.resource_subtype(v.type)
                    if sub is None:
                        raise ProgramError(f"{w}: resource operand {i} has no subtype (dtype unknown)")
                    resources[i] = H.dtype_enum(sub)
            merged = {}
            if name == "tf.TPUExecuteAndUpdateVariables":
                reads = [int(ir.IntegerAttr(a).value) for a in op.attributes["device_var_reads_indices"]]
                updates = [int(ir.IntegerAttr(a).value) for a in op.attributes["device_var_updates_indices"]]
                if len(reads) != len(updates) or set(reads) != set(resources):
                    raise ProgramError(f"{w}: device_var_reads_indices {reads} must list the resource "
                                       f"operands {sorted(resources)}, one update index each")
                merged = {r: u for r, u in zip(reads, updates) if u >= 0}
            self._check_execute_device(builder, op, w)
            compiled, core = self._key_source(op.operands[len(operands) - 1], w)
            if compiled is not None:
                compiled.check_replicas(builder.replicas, w, ProgramError)
                if builder.replicas == 1:
                    compiled.ordinals.add(_launch_ordinal(op, w))
                layout = compiled.layout
                if layout is None:
                    if compiled.args is not None and compiled.args != len(operands) - 1:
                        raise ProgramError(f"{w}: {len(operands) - 1} program argument(s), the metadata of "
                                           f"{compiled.where} describes {compiled.args}")
                    _check_execute_operands(operands[:-1], compiled, w)
                else:
                    if core is None or not 0 <= core < layout.cores:
                        raise ProgramError(f"{w}: its program key is not one of the {layout.cores} keys of "
                                           f"{compiled.where}")
                    taken = layout.core_args[core]
                    if len(operands) - 1 != len(taken):
                        raise ProgramError(f"{w}: {len(operands) - 1} program argument(s), but core {core} of "
                                           f"the program of {compiled.where} takes {len(taken)} (the program's "
                                           f"arguments {taken}, by their shardings)")
                    _check_execute_operands(operands[:-1], compiled, w,
                                            [(i, layout.arg_facts[i]) for i in taken])
                    compiled.executes.append((core, _parallel_region(op), w))
                compiled.program.executable(builder.replicas)  # compile now: errors before anything runs
            return _Execute(w, ins[:-1], ins[-1], outs, resources, merged)
        if name in ("tf._XlaRecvAtHost", "tf._XlaSendFromHost"):
            self._fixed_ordinal(builder, op, name, w)
        if name == "tf._XlaRecvAtHost":
            return H.RecvAtHost(w, _str(op, "key"), None, outs, [r.type for r in op.results])
        if name == "tf._XlaRecvAtHostV2":
            return H.RecvAtHost(w, _str(op, "key"), ins[-1], outs, [r.type for r in op.results])
        if name == "tf._XlaSendFromHost":
            return H.SendFromHost(w, _str(op, "key"), None, ins[:-1])
        if name == "tf._XlaSendFromHostV2":
            return H.SendFromHost(w, _str(op, "key"), ins[-1], ins[:-2])
        if name == "tf._XlaCompileMlirPlaceholderProgramKey":
            return H.Constant(w, _PlaceholderKey(), outs[0])
        if name == "tf._TPUDeviceOrdinalPlaceholder":
            return H.DeviceOrdinal(w, outs[0])
        if name in _PARTITIONED_DATA_OPS:
            return _partitioned_step(op, name, w, ins, outs)
        if name in self._NOT_BRIDGED:
            raise ProgramError(f"{w}: the program is not TPU-rewritten; the runtime takes programs after "
                               "tf-tpu-rewrite")
        return None

    def _check_execute_device(self, builder, op, w):
        """A TPUExecute runs on a TPU core the session has: its launch names TPU devices whose
        ordinals are XLA devices of the session's platform."""
        parent = op.parent
        if parent is None or irsafe.op_name(parent) != "tf_device.launch":
            return
        available = self.max_replicas()
        for name in self.launch_devices(builder, parent, w):
            parsed = device_names.parse_full_name(name)
            if parsed.has_type and parsed.type != "TPU":
                raise ProgramError(f"{w}: runs on '{name}'; TPUExecute has a kernel for TPU devices only")
            if parsed.has_id and parsed.id >= available:
                raise ProgramError(f"{w}: runs on '{name}', but TPU cores are XLA devices and "
                                   f"{self.devices_text(available)}")

    def _compile_record(self, op, w):
        """The :class:`_Compiled` of a ``_TPUCompileMlir`` op, made once: its metadata parsed and
        checked against the device program's signature before the program is legalized."""
        op = op.operation
        found = self._compiled.get(op)
        if found is None:
            meta = self._check_metadata(op, w)
            text = _str(op, "mlir_module")
            try:
                signature = _main_signature(text, w)
            except ProgramError:
                if meta is not None:
                    raise
                signature = None  # the legalization reports what is wrong with the program
            if meta is not None:
                _check_signature(meta, signature, w)
            replicas = meta.num_replicas if meta is not None and meta.num_replicas > 0 else None
            args = len(meta.args) if meta is not None and meta.args else None
            layout = None
            if meta is not None and meta.num_cores_per_replica > 1:
                layout = _Partitioning(meta, signature, w)
            found = self._compiled[op] = _Compiled(w, text, self.session, replicas, args, layout)
            found.signature = signature
        return found

    def legalize_all(self):
        """Checks the host transfers' device ordinals, then legalizes the device programs no
        TPUExecute has compiled yet (errors when the session is built, not when it runs)."""
        for compiled in self._compiled.values():
            compiled.check_transfers()
            compiled.check_executes()
        for compiled in self._compiled.values():
            compiled.program

    def _fixed_ordinal(self, builder, op, name, w):
        from mlir import ir
        ordinal = 0
        if "device_ordinal" in op.attributes:
            try:
                ordinal = int(ir.IntegerAttr(op.attributes["device_ordinal"]).value)
            except (ValueError, TypeError):
                raise ProgramError(f"{w}: device_ordinal is not an integer") from None
        if ordinal < 0:
            raise ProgramError(f"{w}: device_ordinal = {ordinal}")
        key = op.operands[len(op.operands) - 1]
        compiled, _core = self._key_source(key, w)
        if compiled is not None:
            compiled.transfers.append((w, ordinal, builder.replicas))

    def _key_source(self, key, w):
        """(the :class:`_Compiled` of the compile op a program key operand comes from (through
        launches and Identity), the logical core of the key (program#core), None when that is
        not a program key), or (None, None) if it cannot be told before running."""
        from mlir import ir
        value = key
        for _ in range(100):
            owner = value.owner
            if isinstance(owner, ir.Block):
                return None, None
            owner = owner.operation
            name = irsafe.op_name(owner)
            if name == "tf._TPUCompileMlir":
                index = list(owner.results).index(value)
                return self._compile_record(owner, H.where(owner)), (index - 1 if index > 0 else None)
            if name == "tf_device.launch":
                index = list(owner.results).index(value)
                value = list(owner.regions[0].blocks[0].operations)[-1].operands[index]
            elif name == "tf.Identity":
                value = owner.operands[0]
            elif name == "tf_executor.island":
                index = list(owner.results).index(value)
                terminator = list(owner.regions[0].blocks[0].operations)[-1]
                value = terminator.operands[index]
            else:
                return None, None
        return None, None

    def _check_metadata(self, op, w):
        """The op's TPUCompileMetadataProto (None when it has none), checked for what the
        runtime can run."""
        if "metadata" not in op.attributes:
            return None
        data = _string_attr(op.attributes["metadata"], f"{w}: 'metadata'").value_bytes
        if not data:
            return None
        from ..passes.analysis import tpu_protos

        try:
            meta = tpu_protos.parse_metadata(data)
        except ValueError as exc:
            raise ProgramError(f"{w}: the metadata is not a TPUCompileMetadataProto: {exc}") from None
        if meta.num_replicas < 0:
            raise ProgramError(f"{w}: the metadata's num_replicas is {meta.num_replicas}")
        if meta.num_cores_per_replica < 0:
            raise ProgramError(f"{w}: the metadata's num_cores_per_replica is {meta.num_cores_per_replica}")
        available = self.max_replicas()
        cores = max(meta.num_cores_per_replica, 1)
        if meta.num_replicas > available:
            raise ProgramError(f"{w}: the metadata asks for {meta.num_replicas} replicas, but replicas run "
                               f"one per XLA device and {self.devices_text(available)}")
        if max(meta.num_replicas, 1) * cores > available:
            raise ProgramError(f"{w}: the metadata asks for {max(meta.num_replicas, 1)} replica(s) of {cores} "
                               f"cores, but every core of every replica runs on an XLA device of its own "
                               f"({max(meta.num_replicas, 1) * cores} needed) and {self.devices_text(available)}")
        if meta.HasField("device_assignment"):
            self._check_device_assignment(meta, w, available)
        return meta

    def _check_device_assignment(self, meta, w, available):
        """xla.DeviceAssignmentProto: replica_count x computation_count device ids, each an XLA
        device of the session, none used twice (as XLA's DeviceAssignment requires)."""
        assignment = meta.device_assignment
        what = f"{w}: the metadata's device_assignment"
        replicas, computations = assignment.replica_count, assignment.computation_count
        if meta.num_replicas > 0 and replicas != meta.num_replicas:
            raise ProgramError(f"{what} has replica_count {replicas}, num_replicas is {meta.num_replicas}")
        cores = max(meta.num_cores_per_replica, 1)
        if computations != cores:
            raise ProgramError(f"{what} has computation_count {computations}, num_cores_per_replica is {cores}")
        if len(assignment.computation_devices) != computations:
            raise ProgramError(f"{what} lists {len(assignment.computation_devices)} computation(s) for "
                               f"computation_count {computations}")
        seen = set()
        for c, devices in enumerate(assignment.computation_devices):
            ids = list(devices.replica_device_ids)
            if len(ids) != replicas:
                raise ProgramError(f"{what} gives computation {c} {len(ids)} device(s) for {replicas} replicas")
            for device_id in ids:
                if not 0 <= device_id < available:
                    raise ProgramError(f"{what} names device {device_id}; {self.devices_text(available)}")
                if device_id in seen:
                    raise ProgramError(f"{what} names device {device_id} twice")
                seen.add(device_id)

    def variable_attrs(self, op, attrs):
        """A VarHandleOp's variable lives in the session's container (sessions do not share
        variables); an empty shared_name is the node's name, as in a TensorFlow graph."""
        d = dict(zip(attrs[::2], attrs[1::2]))
        if not d.get("container"):
            d["container"] = self.session._container
        if not d.get("shared_name"):
            d["shared_name"] = H._exporter._name_from_loc(op.location, "VarHandleOp")
        self.session._variables.add((d["container"], d["shared_name"], d.get("dtype")))
        return [x for kv in sorted(d.items()) for x in kv]


# The partitioned input/output ops tf-tpu-rewrite leaves on the host (when they are not the
# computation's own operands or results: then the rewrite uses their parts directly).
_PARTITIONED_DATA_OPS = ("tf.TPUPartitionedInput", "tf.TPUPartitionedInputV2", "tf.TPUPartitionedOutput",
                         "tf.TPUPartitionedOutputV2")


def _partitioned_step(op, name, w, ins, outs):
    """A TPU partitioned input or output op left on the host, as the data movement it stands for:
    the tiles of a value over the logical cores, row-major over ``partition_dims`` (V1: split
    along ``partition_dim``; -1: not split)."""
    from mlir import ir

    attributes = op.attributes
    if name.endswith("V2"):
        dims = [int(ir.IntegerAttr(a).value) for a in ir.ArrayAttr(attributes["partition_dims"])]
    else:
        axis = int(ir.IntegerAttr(attributes["partition_dim"]).value) if "partition_dim" in attributes else 0
        count = len(ins) if "Input" in name else len(outs)
        dims = None if axis < 0 else (axis, count)
    for value in list(op.operands) + list(op.results):
        if "resource" in str(value.type):
            raise ProgramError(f"{w}: partitioned resources (TPU variables split over cores) are not "
                               f"supported on the host")
    if "Input" in name:
        packed = bool(ir.BoolAttr(attributes["is_packed"]).value) if "is_packed" in attributes else False
        return _PartitionedInput(w, ins, outs[0], dims, packed)
    return _PartitionedOutput(w, ins[0], outs, dims)


def _tile_grid(dims, rank, w):
    """[(axis, tiles)] of a V2 ``partition_dims`` list or a V1 (axis, count) pair."""
    if dims is None:
        return []
    if isinstance(dims, tuple):
        axis, count = dims
        if axis >= rank:
            raise RunError(f"{w}: partition_dim {axis} of a rank-{rank} value")
        return [(axis, count)]
    if len(dims) != rank:
        raise RunError(f"{w}: partition_dims {dims} for a rank-{rank} value")
    return [(axis, n) for axis, n in enumerate(dims) if n > 1]


class _PartitionedInput(H.Step):
    """``TPUPartitionedInput(V2)`` on the host: the full value assembled from its tiles (a packed
    input is every core's tile)."""
    __slots__ = ("ins", "out", "dims", "packed")

    def __init__(self, where_, ins, out, dims, packed):
        self.where, self.ins, self.out, self.dims, self.packed = where_, ins, out, dims, packed

    def run(self, frame, ctx):
        tiles = [H.to_numpy(frame[slot]) for slot in self.ins]
        grid = _tile_grid(self.dims, tiles[0].ndim, self.where)
        count = int(np.prod([n for _, n in grid])) if grid else 1
        if self.packed:
            tiles = tiles * count
        elif grid and len(tiles) != count:
            raise RunError(f"{self.where}: {len(tiles)} input(s) for {count} tiles")
        for axis, n in reversed(grid):
            tiles = [np.concatenate(tiles[i:i + n], axis=axis) for i in range(0, len(tiles), n)]
        frame[self.out] = tiles[0]


class _PartitionedOutput(H.Step):
    """``TPUPartitionedOutput(V2)`` on the host: the value cut into its tiles."""
    __slots__ = ("input", "outs", "dims")

    def __init__(self, where_, input_, outs, dims):
        self.where, self.input, self.outs, self.dims = where_, input_, outs, dims

    def run(self, frame, ctx):
        value = H.to_numpy(frame[self.input])
        tiles = [value]
        for axis, n in _tile_grid(self.dims, value.ndim, self.where):
            if value.shape[axis] % n:
                raise RunError(f"{self.where}: dimension {axis} of size {value.shape[axis]} does not split "
                               f"into {n} equal tiles")
            tiles = [part for tile in tiles for part in np.split(tile, n, axis=axis)]
        if len(tiles) == 1:
            tiles = tiles * len(self.outs)  # not split: every output is the value
        if len(tiles) != len(self.outs):
            raise RunError(f"{self.where}: {len(tiles)} tiles for {len(self.outs)} outputs")
        for slot, tile in zip(self.outs, tiles):
            frame[slot] = tile


def _launch_ordinal(op, w):
    """The TPU device ordinal of the launch around a TPUExecute (0 when it names none: the
    runtime runs an unreplicated program on its first device)."""
    import re
    parent = op.parent
    if parent is None or irsafe.op_name(parent) != "tf_device.launch" or "device" not in parent.attributes:
        return 0
    device = _str(parent, "device")
    match = re.search(r"/device:TPU:(\d+)$", device)
    return int(match.group(1)) if match else 0


def _shape_text(dims):
    return "[*]" if dims is None else "[" + ", ".join("?" if d < 0 else str(d) for d in dims) + "]"


def _tensor_facts(t):
    """(DataType enum, shape or None) of a tensor type (a resource's subtype for resources), or
    None where the exporter has no DataType for it (XLA's legalization reports those)."""
    from ..exporters import graphdef as exporter
    from ..tfcore import tf_types

    try:
        sub = H.resource_subtype(t) if H.dtype_enum(t) == tf_types.DT_RESOURCE else t
        if sub is None:
            return None
        return H.dtype_enum(sub), exporter._tensor_info(sub)[1]
    except Exception:
        return None


def _shapes_conflict(a, b):
    return len(a) != len(b) or any(x >= 0 and y >= 0 and x != y for x, y in zip(a, b))


def _main_signature(text, w):
    """The device program `text`'s ``main``: [(type text, facts)] of its inputs and of its results."""
    from mlir import ir

    from .. import parse_module

    context = ir.Context()
    try:
        module = parse_module(text, context)
        irsafe.check_utf8(module.operation, "tfmlir.runtime")
    except Exception as exc:  # the parser's and the UTF-8 guard's errors
        raise ProgramError(f"{w}: the device program ('mlir_module') does not parse: "
                           f"{H._first_line(exc)}") from None
    main = None
    for op in module.body.operations:
        if irsafe.op_name(op) == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
            main = op
    if main is None:
        raise ProgramError(f"{w}: the device program ('mlir_module') has no function @main")
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    return [(str(t), _tensor_facts(t)) for t in ftype.inputs], [(str(t), _tensor_facts(t)) for t in ftype.results]


def _check_signature(meta, signature, w):
    """ProgramError unless the TPUCompileMetadataProto `meta` describes the arguments (count, dtype,
    shape) and results (count) of the device program's ``main`` (`signature`, from
    :func:`_main_signature`), as TensorFlow compiles the program with the metadata's argument shapes."""
    from ..tfcore import tf_types

    inputs, results = signature
    if len(meta.args) != len(inputs):
        raise ProgramError(f"{w}: the metadata describes {len(meta.args)} argument(s), the device "
                           f"program's @main takes {len(inputs)}")
    if meta.retvals and len(meta.retvals) != len(results):
        raise ProgramError(f"{w}: the metadata describes {len(meta.retvals)} result(s), the device "
                           f"program's @main returns {len(results)}")
    for i, (arg, (t, facts)) in enumerate(zip(meta.args, inputs)):
        if facts is None:
            continue
        enum, shape = facts
        if arg.dtype and arg.dtype != enum:
            raise ProgramError(f"{w}: the metadata says argument {i} is {tf_types.dtype_name(arg.dtype)}, "
                               f"the device program's @main takes {t}")
        given = None if arg.shape.unknown_rank else [int(d.size) for d in arg.shape.dim]
        if given is None or shape is None:
            continue
        if _shapes_conflict(given, shape):
            raise ProgramError(f"{w}: the metadata gives argument {i} the shape {_shape_text(given)}, the "
                               f"device program's @main takes {t}")


def _check_execute_operands(operands, compiled, w, core_inputs=None):
    """ProgramError unless TPUExecute's program operands fit the device program's ``main``
    (count; dtype and static dimensions of each), as TensorFlow checks them at execution.
    `core_inputs`: for one core of a model-parallel program, [(program argument index, (DataType,
    the core's shape))] of the arguments the core takes."""
    if compiled.signature is None:
        return
    inputs, _ = compiled.signature
    if core_inputs is not None:
        for k, (value, (i, facts)) in enumerate(zip(operands, core_inputs)):
            given = _tensor_facts(value.type)
            if facts is None or given is None:
                continue
            if given[0] != facts[0] or (given[1] is not None and facts[1] is not None
                                        and _shapes_conflict(given[1], facts[1])):
                raise ProgramError(f"{w}: operand {k} is {value.type}, but its core's share of argument {i} "
                                   f"({inputs[i][0]}) of the device program of {compiled.where} is "
                                   f"{_shape_text(facts[1])}")
        return
    if len(operands) != len(inputs):
        raise ProgramError(f"{w}: {len(operands)} program argument(s), the device program of "
                           f"{compiled.where} takes {len(inputs)}")
    for i, (value, (t, facts)) in enumerate(zip(operands, inputs)):
        given = _tensor_facts(value.type)
        if facts is None or given is None:
            continue
        if given[0] != facts[0] or (given[1] is not None and facts[1] is not None
                                    and _shapes_conflict(given[1], facts[1])):
            raise ProgramError(f"{w}: operand {i} is {value.type}, the device program of {compiled.where} "
                               f"takes {t}")


def _parallel_region(op):
    """(the tf_device.parallel_execute, its region index) the TPUExecute `op` runs in (directly or
    in a launch), or None."""
    child = op.parent if op.parent is not None and irsafe.op_name(op.parent) == "tf_device.launch" else op
    parent = child.parent
    if parent is None or irsafe.op_name(parent) != "tf_device.parallel_execute":
        return None
    child = child.operation
    for k, region in enumerate(parent.regions):
        for block in region.blocks:
            if any(inner.operation == child for inner in block.operations):
                return parent.operation, k
    return None


def _string_attr(attr, what):
    from mlir import ir
    try:
        return ir.StringAttr(attr)
    except ValueError:
        raise ProgramError(f"{what} is not a string attribute") from None


def _str(op, key):
    """The text of string attribute `key` of `op` (ProgramError if it is missing, of another
    kind or not UTF-8: programs are input, so their attributes are checked)."""
    w = H.where(op)
    if key not in op.attributes:
        raise ProgramError(f"{w}: no '{key}' attribute")
    data = _string_attr(op.attributes[key], f"{w}: '{key}'").value_bytes
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProgramError(f"{w}: '{key}' is not UTF-8 text") from None


def _entry_names(entry, key):
    """tf.entry_function's `key` ("inputs"/"outputs") as text ("" when absent)."""
    if key not in entry:
        return ""
    data = _string_attr(entry[key], f"@main's tf.entry_function '{key}'").value_bytes
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProgramError(f"@main's tf.entry_function '{key}' is not UTF-8 text") from None


def _names_of(text):
    return [n for n in text.split(",")] if text else []


class SessionBase:
    """What every session of the runtime has: ``with`` closes it, a session dropped is closed,
    and :meth:`sync_variables`. Subclasses define ``close()``."""

    def sync_variables(self):
        """Writes the values device executions left in variables back to TensorFlow (they stay
        on the device between executions; host ops of a run get them written back first)."""
        sync_variables()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class ProgramSession(SessionBase):
    """Runs a bridged program (``mlir.ir.Module`` or MLIR text; entry ``main``).

    Holds variables and compiled executables across :meth:`run` calls.
    ``device``: "cpu" or "gpu" (XLA's platform for the device programs; the
    host side always runs on TensorFlow's CPU kernels). ``progress``: print a
    line per compile to stderr (None: only for compiles over a second).
    ``container``: the resource container of the program's variables (default: one
    of the session's own); sessions given the same container share variables.

    ``tfmlir.runtime.Session`` (:mod:`.api`) is this class for a bridged program, and a
    :class:`tfmlir.runtime.graph_session.GraphSession` (which holds one of these per
    signature) for a TensorFlow GraphDef.
    """

    def __init__(self, module, *, device="cpu", progress=None, container=None):
        if device not in ("cpu", "gpu"):
            raise ValueError(f"device must be 'cpu' or 'gpu', not {device!r}")
        self.platform = device
        self.progress = progress
        self._timings = dict(legalize=0.0, compile=0.0, execute=0.0, callback=0.0, executions=0, callbacks=0)
        self._container = container or f"tfmlir_session_{next(_sessions)}"
        # Keys of the values processes of a job exchange (runtime.distributed): the same on every
        # process, which builds the same sessions and runs the same steps in the same order.
        self._serial = next(_program_sessions)
        from .distributed import JobFeeds
        self._job_feeds = JobFeeds(f"program_session_{self._serial}", device)
        self._exchanges = {}
        self._exchange_lock = threading.Lock()
        self._variables = set()
        self._handles = []  # variable handles the plan keeps (host.ResidentVariables knows them)
        self._programs = {}
        self._run = None
        self._lock = threading.Lock()
        self._closed = False
        self._feed_info = {}   # input index -> (dtype, shape, all dims known) of its type
        self._run_plans = {}   # (fetches, targets) -> what Session.run runs for them
        self._feed_index = {}  # fed name -> input index
        why = _jaxlib.platform_error(device)
        if why is not None:
            raise ProgramError(f"no {device} platform for the device programs: {why}")
        self.module, self._context = _as_module(module)
        _live.add(self)
        try:
            self._build()
        except BaseException:
            self.close()
            raise

    # --- building ---------------------------------------------------------------------------------
    def exchange_key(self, where_):
        """A key for the values the step at `where_` exchanges between the processes of a job,
        new each time the step runs."""
        with self._exchange_lock:
            count = self._exchanges.get(where_, 0)
            self._exchanges[where_] = count + 1
        return f"tfmlir/{self._serial}/{where_}/{count}"

    def _device_program(self, text, w, layout=None):
        key = (text, None if layout is None else layout.key)
        program = self._programs.get(key)
        if program is None:
            program = self._programs[key] = DeviceProgram(self, text, w, layout)
        return program

    def _progress(self, line, seconds):
        if self.progress or (self.progress is None and seconds >= 1.0):
            print(f"tfmlir.runtime: {line}", file=sys.stderr, flush=True)

    def _build(self):
        from mlir import ir
        builder = H.Builder(self.module, _TPUSteps(self))
        main = builder.funcs.get("main")
        if main is None:
            raise ProgramError("the program has no function @main")
        self._builder = builder
        plan = H.FunctionPlan("main")  # main is planned unit by unit below
        builder.plans["main"] = plan
        builder.slot_of["main"] = {}
        blocks = list(main.regions[0].blocks)
        if len(blocks) != 1:
            raise ProgramError("@main must have one block")
        block = blocks[0]
        ops = [op.operation for op in block.operations]
        ret = ops[-1]
        body = ops[:-1]
        executor = len(body) == 1 and body[0].name == "tf_executor.graph"
        results = list(ret.operands)
        if executor:
            graph = body[0]
            gops = [op.operation for op in graph.regions[0].blocks[0].operations]
            fetch = gops[-1]
            units = gops[:-1]
            fetched = list(fetch.operands)
            data_fetch = [v for v in fetched if not H._is_control(v)]
            by_result = {r: data_fetch[i] for i, r in enumerate(graph.results)}
            results = [by_result.get(v, v) for v in results]
            all_roots = fetched
        else:
            units = body
            all_roots = None
        self._arg_slots = [builder.slot("main", a) for a in block.arguments]
        self._units = []
        for op in units:
            self._units.append(builder.op(op, "main", main))
        builder.tpu.legalize_all()
        self._result_slots = [builder.slot("main", v) for v in results]
        # Dependencies between units (data, control, captured values; stateful order).
        producer = {}
        for a, arg in enumerate(block.arguments):
            producer[arg] = ("arg", a)
        for u, op in enumerate(units):
            for r in op.results:
                producer[r] = ("unit", u)
        self._producer = producer
        # Dependencies between units: data, control tokens and values captured by regions.
        # As in a TF1 session, only these decide what runs; needed units run in program order.
        self._deps = []
        self._uses_args = []
        for u, op in enumerate(units):
            deps, args = set(), set()

            def visit(inner):
                for v in inner.operands:
                    p = producer.get(v)
                    if p is not None:
                        (deps if p[0] == "unit" else args).add(p[1])
                for region in inner.regions:
                    for b in region.blocks:
                        for x in b.operations:
                            visit(x.operation)

            visit(op)
            deps.discard(u)
            self._deps.append(deps)
            self._uses_args.append(args)
        self._all_roots = [producer.get(v) for v in all_roots] if all_roots is not None else None
        # Names.
        entry = main.attributes["tf.entry_function"] if "tf.entry_function" in main.attributes else None
        inputs, outputs = [], []
        if entry is not None:
            d = irsafe.attribute_dict(ir.DictAttr(entry))
            inputs = _names_of(_entry_names(d, "inputs"))
            outputs = _names_of(_entry_names(d, "outputs"))
        self.input_names = [parse_tensor_name(inputs[i])[0] if i < len(inputs) else f"arg{i}"
                            for i in range(len(self._arg_slots))]
        self.output_names = [outputs[i] if i < len(outputs) else f"output{i}" for i in range(len(results))]
        self._results = results
        self._nodes = H.node_names(main)
        self._top = {op: u for u, op in enumerate(units)}
        # Resource arguments are variables of the session.
        self._arg_types = [a.type for a in block.arguments]
        self._arg_handles = {}
        for i, t in enumerate(self._arg_types):
            if H.type_info(t)[0] is None and "resource" in str(t):
                sub = H.resource_subtype(t)
                if sub is None:
                    raise ProgramError(f"argument {i} ('{self.input_names[i]}') is a resource without a subtype")
                enum = H.dtype_enum(sub)
                shape = H.type_info(sub)[1]
                handle = H.variable_handle(self._container, self.input_names[i], enum,
                                           None if shape is None else [None if d < 0 else d for d in shape])
                self._variables.add((self._container, self.input_names[i], enum))
                self._arg_handles[i] = (handle, enum)
                H.RESIDENT.register(handle, self._container, self.input_names[i])
                self._handles.append(handle)

    # --- running ----------------------------------------------------------------------------------
    def _resolve(self, name, what):
        """(slot, unit or None, arg index or None) of a fetched/fed tensor name."""
        if name in self.output_names:
            i = self.output_names.index(name)
            v = self._results[i]
            return self._value(v, name)
        node, index = parse_tensor_name(name)
        if node in self.input_names and index == 0:
            a = self.input_names.index(node)
            return self._arg_slots[a], None, a
        if node in self.output_names and index == 0:
            return self._resolve(node, what)
        op = self._nodes.get(node)
        if op is None:
            raise RunError(f"{what} '{name}': the program has no input, output or node of that name")
        results = [r for r in op.results if not H._is_control(r)]
        if not 0 <= index < len(results):
            raise RunError(f"{what} '{name}': node '{node}' has {len(results)} output(s)")
        return self._value(results[index], name, op)

    def _value(self, v, name, op=None):
        p = self._producer.get(v)
        if p is not None and p[0] == "arg":
            return self._arg_slots[p[1]], None, p[1]
        if op is None:
            op = v.owner
        unit = self._unit_of(op, name)
        slots = self._builder.slot_of["main"]
        if v not in slots:
            raise RunError(f"'{name}' is not computed by the program")
        return slots[v], unit, None

    def _unit_of(self, op, name):
        op = op.operation if hasattr(op, "operation") else op
        node = op
        while node is not None and node not in self._top:
            parent = node.parent
            if parent is None:
                break
            pname = parent.name
            if pname in ("tf_device.replicate", "tf.WhileRegion", "tf.IfRegion", "tf.CaseRegion",
                         "tf_device.parallel_execute"):
                raise RunError(f"'{name}' is computed inside {pname}; fetch the results of the {pname}")
            node = parent
        if node is None or node not in self._top:
            raise RunError(f"'{name}' is not computed at the top level of @main")
        return self._top[node]

    def _closure(self, roots):
        needed = set()
        stack = [u for u in roots if u is not None]
        while stack:
            u = stack.pop()
            if u in needed:
                continue
            needed.add(u)
            stack.extend(self._deps[u])
        return needed

    def run(self, fetches=None, feeds=None, targets=None):
        """Runs what `fetches` and `targets` need; returns the fetched values as numpy arrays.

        Names as in the original graph: ``"out0"`` or ``"out0:0"`` (the
        ``tf.entry_function`` names of ``main``'s inputs and outputs, node names
        otherwise). `feeds` maps input names to values; `targets` (names of
        nodes) run for their effects first. Without `fetches`, all of
        ``main``'s outputs are fetched.
        """
        if self._closed:
            raise RunError("the session is closed")
        feeds = dict(feeds or {})
        if self._job_feeds is not None:
            feeds = self._job_feeds.of_this_run(feeds)
        if isinstance(fetches, str):
            fetches = [fetches]
        if isinstance(targets, str):
            targets = [targets]
        with self._lock:
            frame = [None] * len(self._builder.slot_of["main"])
            key = (None if fetches is None else tuple(fetches), tuple(targets or ()))
            try:
                plan = self._run_plans.get(key)
            except TypeError:  # unhashable names: resolved (and refused) below, not kept
                plan, key = None, None
            if plan is None:
                plan = self._run_plan(fetches, targets)
                if key is not None:
                    if len(self._run_plans) >= 256:
                        self._run_plans.clear()
                    self._run_plans[key] = plan
            fetches, fetch_at, order, needed_args = plan
            fed = {}
            for name, value in feeds.items():
                a = self._feed_index.get(name)
                if a is None:
                    node, index = parse_tensor_name(name)
                    if node not in self.input_names or index != 0:
                        raise RunError(f"feed '{name}': only the program's inputs "
                                       f"({', '.join(self.input_names)}) can be fed")
                    a = self._feed_index[name] = self.input_names.index(node)
                fed[a] = value
            for a in sorted(needed_args | set(fed)):
                frame[self._arg_slots[a]] = self._argument(a, fed)
            state = H.RunState()
            ctx = H.Context(self, state, 0, None, state.new_participant(0))
            self._run = state
            try:
                for u in order:
                    self._units[u].run(frame, ctx)
            except H.Aborted:
                raise (state.error or RunError("the run was aborted")) from None
            finally:
                self._run = None
                H.RESIDENT.end_run()
                self._timings["callback"] += state.callback_seconds
                self._timings["callbacks"] += state.callbacks
            out = []
            for (slot, _, _), name in zip(fetch_at, fetches):
                value = frame[slot]
                if value is None:
                    raise RunError(f"fetch '{name}' was not computed")
                if isinstance(value, (ProgramKey, _Status, _PlaceholderKey)):
                    raise RunError(f"fetch '{name}' is a TPU program key, not a tensor")
                if isinstance(value, np.ndarray):
                    # A fed array or a device result: the caller gets a copy of its own, a
                    # scalar as a numpy scalar (as TensorFlow's .numpy() gives them).
                    out.append(value.copy() if value.ndim else value[()])
                    continue
                out.append(_fetched(value, name))
            return out

    def _run_plan(self, fetches, targets):
        """(fetch names, their (slot, unit, arg), units to run in order, arguments they read) of a
        run with `fetches` and `targets`; kept per (fetches, targets)."""
        whole = fetches is None and not targets
        if fetches is None:
            fetches = list(self.output_names) if whole else []
        fetch_at = [self._resolve(f, "fetch") for f in fetches]
        target_units = []
        for t in targets or ():
            op = self._nodes.get(parse_tensor_name(t)[0])
            if op is None:
                raise RunError(f"target '{t}': the program has no node of that name")
            target_units.append(self._unit_of(op, t))
        roots = [u for _, u, _ in fetch_at]
        if whole and self._all_roots is not None:
            roots += [p[1] for p in self._all_roots if p is not None and p[0] == "unit"]
        elif whole:
            roots += list(range(len(self._units)))  # a function runs all its ops
        first = sorted(self._closure(target_units))
        then = sorted(self._closure(roots) - set(first))
        needed_args = {a for _, _, a in fetch_at if a is not None}
        for u in first + then:
            needed_args |= self._uses_args[u]
        return list(fetches), fetch_at, first + then, needed_args

    def _argument(self, a, fed):
        name = self.input_names[a]
        t = self._arg_types[a]
        if a in self._arg_handles:
            handle, enum = self._arg_handles[a]
            if a in fed:
                value = self._convert(fed[a], H.resource_subtype(t), name)
                H.RESIDENT.before_host_use(handle, False)
                H._TF.execute("AssignVariableOp", 0, [handle, value], ("dtype", enum, "validate_shape", False),
                              H._TF.ctx)
            return handle
        if a not in fed:
            raise RunError(f"input '{name}' must be fed")
        value = fed[a]
        if isinstance(value, (np.ndarray, np.generic)):
            info = self._feed_info.get(a)
            if info is None:
                dtype, shape = H.type_info(t)
                static = shape is not None and all(d >= 0 for d in shape)
                info = self._feed_info[a] = (dtype, shape, static)
            dtype, shape, static = info
            if dtype is not None and dtype != _OBJECT and value.dtype == dtype and (
                    value.shape == shape if static else shape is None or (
                        len(shape) == value.ndim and all(d < 0 or d == n for d, n in zip(shape, value.shape)))):
                # Read during the run, not copied: a host op taking it converts it, a device
                # program reads it in place, a fetch of it copies it.
                return np.asarray(value)
        return self._convert(value, t, name)

    def _convert(self, value, mlir_type, name):
        tf = H._TF.tf
        dtype, shape = H.type_info(mlir_type)
        given = getattr(value, "shape", None)  # arrays and tensors: the shape is checked first,
        if given is not None and shape is not None:  # before a conversion allocates anything
            try:
                given = [int(d) for d in given]
            except (TypeError, ValueError):
                given = None
            if given is not None and (len(shape) != len(given) or any(
                    d >= 0 and d != a for d, a in zip(shape, given))):
                raise RunError(f"feed '{name}': expected shape {H._shape_text(shape)}, got {given}")
        try:
            tensor = tf.convert_to_tensor(value, dtype=tf.as_dtype(dtype) if dtype != np.dtype(object)
                                          else tf.string)
        except Exception as exc:
            raise RunError(f"feed '{name}': cannot be made a {dtype.name} tensor: {H._first_line(exc)}") from None
        if shape is not None and (len(shape) != tensor.shape.rank or any(
                d >= 0 and d != a for d, a in zip(shape, tensor.shape))):
            raise RunError(f"feed '{name}': expected shape {H._shape_text(shape)}, got {tensor.shape.as_list()}")
        return tensor

    # --- timings, closing -------------------------------------------------------------------------
    @property
    def timings(self):
        """Seconds spent legalizing, compiling, executing on XLA and in host callbacks (and counts)."""
        return dict(self._timings)

    def close(self):
        """Releases the compiled executables (and their host callbacks) and the session's variables."""
        if self._closed:
            return
        self._closed = True
        for program in self._programs.values():
            program.release()
        self._programs.clear()
        H.RESIDENT.forget(self._handles)
        self._handles = []
        if H._TF.tf is not None:
            for container, shared, enum in self._variables:
                try:
                    h = H.variable_handle(container, shared, enum or 1)
                    H._TF.execute("DestroyResourceOp", 0, [h], ("ignore_lookup_error", True), H._TF.ctx)
                except Exception:
                    pass
        self._variables.clear()



def sync_variables():
    """Writes every variable value kept on a device back to TensorFlow (all sessions')."""
    H.RESIDENT.sync()


def _fetched(value, name):
    """A fetched host value (a TensorFlow tensor) as numpy; RunError naming the fetch for values
    that have no array form (TF1's session returns opaque bytes for a resource handle)."""
    if H._is_device_array(value):  # a variable's device copy, read by a ReadVariableOp
        array = np.asarray(value)
        return array.copy() if array.ndim else array[()]  # the caller's own, as for device results
    tf = H._TF.tf
    dtype = getattr(value, "dtype", None)
    if dtype == tf.resource:
        raise RunError(f"fetch '{name}' is a resource handle (a variable), not a value; fetch a "
                       "ReadVariableOp of it for the variable's value")
    if dtype == tf.variant:
        raise RunError(f"fetch '{name}' is a variant tensor, which has no numpy form")
    try:
        return H.to_numpy(value)
    except RunError as exc:
        raise RunError(f"fetch '{name}': {exc}") from None
    except Exception as exc:  # TensorFlow's errors converting a tensor
        raise RunError(f"fetch '{name}' cannot be returned as an array: {H._first_line(exc)}") from None


def _check_names(module):
    """Names that are not UTF-8 are refused before the session reads any (upstream getters such
    as Operation.name abort the process on them)."""
    try:
        irsafe.check_utf8(module.operation, "tfmlir.runtime")
    except irsafe.NonUtf8Error as exc:
        raise ProgramError(f"the program cannot be run: {exc}") from None


def _as_module(module):
    from mlir import ir
    if isinstance(module, ir.Module):
        _check_names(module)
        module.operation.verify()
        return module, None
    if isinstance(module, (str, bytes)):
        from .. import parse_module
        context = ir.Context()
        try:
            parsed = parse_module(module, context)
        except Exception as exc:
            raise ProgramError(f"the program does not parse: {exc}") from None
        _check_names(parsed)
        return parsed, context
    raise TypeError(f"module must be an mlir.ir.Module or MLIR text, not {type(module).__name__}")


def run(module, feeds, fetches=None, *, device="cpu"):
    """One-shot: builds a :class:`ProgramSession`, runs it once, releases it."""
    with ProgramSession(module, device=device) as session:
        return session.run(fetches, feeds)
