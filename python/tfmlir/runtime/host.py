"""The host side of a bridged program: a plan of steps built once from the IR, run on TensorFlow.

:func:`build_function` turns a ``func.func`` of a bridged program into a
:class:`FunctionPlan`: every SSA value gets a slot in a frame (a Python
list), every op a step. Running a plan touches no MLIR object, so a step
costs what its work costs (one eager TensorFlow op, one XLA execution).

* Plain ``tf.*`` ops run one at a time on TensorFlow's own eager kernels
  (``quick_execute``) with the attributes their NodeDef would carry (the
  exporter's derivation of ``T``, ``N``, ``Tin`` ...): no numerics are
  re-implemented here.
* Control flow (``If``/``While``/``Case``, their region forms, calls) is
  interpreted, because branch bodies may hold host transfers that must meet
  the device program mid-computation.
* ``tf_device.launch``/``parallel_execute``/``replicate`` and the TPU ops
  (``_TPUCompileMlir``, ``TPUExecute(AndUpdateVariables)``, ``_XlaRecvAtHost``,
  ``_XlaSendFromHost`` ...) are steps of their own: parallel branches run on
  threads, replicas on one thread each, meeting at every device execution.

An op this interpreter does not know is an error when the plan is built
(:class:`ProgramError`, naming the op and its location), never at run time.
"""
import sys
import threading

import numpy as np

from .. import irsafe
from . import _jaxlib
from ..exporters import graphdef as _exporter
from .device import element_dtype
from ..tfcore import tf_types as _T
from .errors import ProgramError, RunError


class Aborted(Exception):
    """Another thread of the same run failed; this one stops."""


def where(op):
    return f"'{irsafe.op_name(op)}' at {op.location}"


# ---------------------------------------------------------------------------------------------
# TensorFlow, imported when a plan is built (the runtime's host side needs it).

class _TF:
    tf = None
    execute = None
    ctx = None

    @classmethod
    def load(cls):
        if cls.tf is None:
            import tensorflow as tf
            from tensorflow.python.eager import context, execute

            ctx = context.context()
            ctx.ensure_initialized()
            cls.execute, cls.ctx, cls.tf = execute.quick_execute, ctx, tf
            from tensorflow.python.framework import ops
            _EAGER_TENSOR[0] = ops.EagerTensor
        return cls


def variable_handle(container, shared_name, dtype_enum, shape=None):
    """An eager handle of the variable (`container`, `shared_name`) of DataType `dtype_enum`
    (`shape`: a list with None for unknown dimensions, or None)."""
    return _TF.execute("VarHandleOp", 1, [], (
        "container", container, "shared_name", shared_name, "dtype", dtype_enum, "shape", shape,
        "allowed_devices", []), _TF.ctx)[0]


def to_numpy(value):
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "numpy"):
        return value.numpy()
    if _is_device_array(value):  # a variable's device copy (ResidentVariables)
        return np.asarray(value)
    raise RunError(f"a {type(value).__name__} value cannot be used as a tensor")


def to_tensor(value):
    tf = _TF.tf
    if isinstance(value, tf.Tensor):
        return value
    if _is_device_array(value):
        value = np.asarray(value)
    return tf.constant(value)


def _is_device_array(value):
    """True for a jaxlib device array (values reach the host plan as such only once jax is
    loaded: variables' device copies); never imports jax itself."""
    if "jax" not in sys.modules:
        return False
    from . import _jaxlib
    return _jaxlib.is_device_array(value)


def truthy(value):
    """TensorFlow's predicate rule (If/While): a scalar's value, else non-emptiness."""
    array = to_numpy(value)
    if array.ndim == 0:
        item = array.item()
        return bool(len(item)) if isinstance(item, bytes) else bool(item)
    return array.size > 0


def type_info(mlir_type):
    """(numpy dtype or None for resource/variant, static shape or None) of a tensor type."""
    dtype, shape, _subs = _exporter._tensor_info(mlir_type)
    shape = None if shape is None else tuple(shape)
    if dtype in (_T.DT_RESOURCE, _T.DT_VARIANT):
        return None, shape
    np_dtype = element_dtype(_T.element_type(_T.base_dtype(dtype)))
    if np_dtype is None:
        raise ProgramError(f"values of type {mlir_type} cannot be exchanged with the runtime")
    return np_dtype, shape


def dtype_enum(mlir_type):
    return _T.base_dtype(_exporter._tensor_info(mlir_type)[0])


def resource_subtype(mlir_type):
    subs = _exporter._tensor_info(mlir_type)[2]
    return subs[0] if subs else None


def check_value(value, mlir_type, what):
    """Raises RunError unless numpy `value` fits `mlir_type` (dtype, and dims the type fixes)."""
    check_info(value, type_info(mlir_type), what)


def check_info(value, info, what):
    """:func:`check_value` with the type's :func:`type_info` `info`."""
    dtype, shape = info
    if dtype is None:
        return
    array = to_numpy(value)
    if array.dtype != dtype and not (dtype == np.dtype(object) and array.dtype.kind in "OSU"):
        raise RunError(f"{what}: expected {dtype.name} {_shape_text(shape)}, got {array.dtype.name} "
                       f"{list(array.shape)}")
    if shape is not None and (len(shape) != array.ndim or any(
            d >= 0 and d != a for d, a in zip(shape, array.shape))):
        raise RunError(f"{what}: expected shape {_shape_text(shape)}, got {list(array.shape)}")


def _shape_text(shape):
    return "[*]" if shape is None else "[" + ", ".join("?" if d < 0 else str(d) for d in shape) + "]"


# ---------------------------------------------------------------------------------------------
# Execution context and the rendezvous of one run.

class Context:
    """Who is running: the session's run state, the replica, the replica group, the thread's id."""
    __slots__ = ("session", "run", "replica", "group", "participant")

    def __init__(self, session, run, replica=0, group=None, participant=None):
        self.session, self.run, self.replica, self.group = session, run, replica, group
        self.participant = participant

    def derived(self, **changes):
        c = Context(self.session, self.run, self.replica, self.group, self.participant)
        for k, v in changes.items():
            setattr(c, k, v)
        return c


class RunState:
    """Host transfers of one ``Session.run``: channels keyed by (rendezvous key, replica).

    A wait that nobody can ever satisfy (every live thread of the replica waits
    too) is reported as a deadlock naming the keys, rather than hanging.
    """

    def __init__(self):
        self.cond = threading.Condition()
        self.queues = {}
        self.alive = {}      # replica -> set of participant ids
        self.waiting = {}    # replica -> {participant: key}
        self.device_participant = {}
        self.meetings = {}   # key -> ReplicaGroup: threads meeting at each device execution
        self.error = None
        self._ids = 0
        self.callback_seconds = 0.0
        self.callbacks = 0

    def new_participant(self, replica):
        with self.cond:
            self._ids += 1
            self.alive.setdefault(replica, set()).add(self._ids)
            return self._ids

    def leave(self, replica, participant):
        with self.cond:
            self.alive.get(replica, set()).discard(participant)
            self.cond.notify_all()

    def fail(self, exc):
        with self.cond:
            if self.error is None:
                self.error = exc
            for meeting in self.meetings.values():  # nobody waits for a thread that failed
                meeting.abort()
            self.cond.notify_all()

    def meeting(self, key, n):
        """The :class:`ReplicaGroup` of `n` threads meeting under `key` in this run (made by the
        first to ask; aborted when any thread of the run fails)."""
        with self.cond:
            found = self.meetings.get(key)
            if found is None:
                found = self.meetings[key] = ReplicaGroup(n)
                if self.error is not None:
                    found.abort()
            elif found.n != n:
                raise RunError(f"{n} threads meet at a device execution that {found.n} meet at")
            return found

    def put(self, key, replica, values, origin):
        """Sends `values` (numpy arrays) under `key`; `origin` says who sent them (messages)."""
        with self.cond:
            self.queues.setdefault((key, replica), []).append((values, origin))
            self.cond.notify_all()

    def get(self, key, replica, participant, waiter):
        """(values, origin) next sent under `key` to `replica`; `waiter` names who waits."""
        with self.cond:
            queue = self.queues.setdefault((key, replica), [])
            waiting = self.waiting.setdefault(replica, {})
            waiting[participant] = key
            try:
                while not queue:
                    if self.error is not None:
                        raise Aborted()
                    alive = self.alive.get(replica, set())
                    # Blocked: waiting for a key nothing has been sent under yet.
                    blocked = {p for p, k in waiting.items() if not self.queues.get((k, replica))}
                    if alive <= blocked:
                        others = {p: waiting[p] for p in blocked if p != participant}
                        also = ("; also waiting: " + ", ".join(f"'{k}'" for k in sorted(others.values()))
                                if others else "")
                        raise RunError(f"{waiter} waits for '{key}' (replica {replica}) but nothing "
                                       f"left to run can send it{also}")
                    self.cond.wait(1.0)
                return queue.pop(0)
            finally:
                waiting.pop(participant, None)


class ReplicaGroup:
    """The N replica threads of one ``tf_device.replicate``: they meet at each device execution.
    (Also the R x C core threads of a model-parallel program's executions: RunState.meeting.)"""

    def __init__(self, n, members=None):
        self.n = n
        # The replicas that meet here: all n, or in a job of several processes this process's.
        self.members = list(range(n)) if members is None else list(members)
        self._index = {r: k for k, r in enumerate(self.members)}
        self.barrier = threading.Barrier(len(self.members))
        self.slots = [None] * len(self.members)
        self.result = None

    def execute(self, replica, arguments, run_all):
        """Replica `replica` offers its arguments; one thread runs all replicas (of this process);
        each gets its part.

        Two meetings: all arguments are in; the result is out. A replica can only overwrite
        `result` after the next first meeting, when every replica has read this one."""
        replica = self._index[replica]
        self.slots[replica] = arguments
        try:
            if self.barrier.wait() == 0:
                try:
                    self.result = ("ok", run_all(list(self.slots)))
                except BaseException as exc:  # every replica reports the same failure
                    self.result = ("error", exc)
            self.barrier.wait()
        except threading.BrokenBarrierError:
            raise Aborted() from None
        kind, value = self.result
        if kind == "error":
            raise value
        return value[replica]

    def abort(self):
        self.barrier.abort()


def run_threads(bodies, ctx, name):
    """Runs each body(ctx_i) on its own thread; re-raises the first real error."""
    errors = [None] * len(bodies)
    threads = []

    def runner(i, body, sub):
        try:
            body(sub)
        except BaseException as exc:  # reported by the joining thread
            errors[i] = exc
            ctx.run.fail(exc if not isinstance(exc, Aborted) else RunError("aborted"))
        finally:
            ctx.run.leave(sub.replica, sub.participant)

    for i, (body, replica, group) in enumerate(bodies):
        sub = ctx.derived(replica=replica, group=group, participant=ctx.run.new_participant(replica))
        t = threading.Thread(target=runner, args=(i, body, sub), name=f"tfmlir-{name}-{i}", daemon=True)
        threads.append(t)
    # The joining thread sends nothing while it waits.
    ctx.run.leave(ctx.replica, ctx.participant)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        with ctx.run.cond:
            ctx.run.alive.setdefault(ctx.replica, set()).add(ctx.participant)
    real = [e for e in errors if e is not None and not isinstance(e, Aborted)]
    if real:
        raise real[0]
    if any(errors):
        raise Aborted()


# ---------------------------------------------------------------------------------------------
# Steps.

# ---------------------------------------------------------------------------------------------
# Variables kept on the device between executions.

# Host ops that only read the variable a resource input names (its device copy stays valid).
_VARIABLE_READERS = frozenset(("ReadVariableOp", "VarIsInitializedOp", "VariableShape",
                               "ResourceGather", "ResourceGatherNd"))


class ResidentVariables:
    """Device copies of TensorFlow resource variables, kept between device executions.

    A variable is known by (container, shared_name) through the handle objects the plan's
    ``VarHandleOp`` steps keep (:class:`VarHandle`). ``TPUExecute`` reads a variable from its
    device copy when there is one for its devices (no ``ReadVariableOp``, no copy to numpy and
    back), and a variable the program updates keeps the update on the device: the TensorFlow
    variable is then *stale* until something on the host needs it. The host synchronizes
    lazily: before a host op takes the handle of a variable its value is written back
    (``AssignVariableOp``), and an op that may write it drops the device copy; a handle the
    registry does not know (it may alias any variable) writes back and drops everything.
    :meth:`sync` writes every stale variable back (``Session.sync_variables``).
    """

    def __init__(self):
        self._lock = threading.RLock()
        self._keys = {}    # id(handle) -> (handle, key)
        self._values = {}  # key -> [handle, dtype enum, devices, device array, stale]
        self._reads = {}   # id(tensor) -> (tensor, key, handle, dtype enum): see note_read

    def register(self, handle, container, shared_name):
        """`handle` names the variable (`container`, `shared_name`) (str or bytes)."""
        key = tuple(n.decode("utf-8", "surrogateescape") if isinstance(n, bytes) else n
                    for n in (container, shared_name))
        with self._lock:
            self._keys[id(handle)] = (handle, key)

    def forget(self, handles):
        """The handles of a closed session: their variables' device copies go too (after a
        write back: another session may share a variable with an explicit container)."""
        with self._lock:
            for handle in handles:
                found = self._keys.get(id(handle))
                if found is not None and found[0] is handle:
                    del self._keys[id(handle)]
                    self._write_back(found[1])
                    self._values.pop(found[1], None)

    def current(self, key):
        """The newest value of variable `key` as a device array (on whichever devices), or None."""
        entry = self._values.get(key)
        return entry[3] if entry is not None else None

    def note_read(self, tensor, key, handle, dtype):
        """`tensor` is what ReadVariableOp gave for variable `key`: once placed on a device for
        an execution, that device copy becomes the variable's (:meth:`read_of`)."""
        with self._lock:
            self._reads[id(tensor)] = (tensor, key, handle, dtype)

    def read_of(self, tensor):
        """(key, handle, dtype) if `tensor` is a noted read of a variable not written since."""
        found = self._reads.get(id(tensor))
        return found[1:] if found is not None and found[0] is tensor else None

    def end_run(self):
        """A run ended: the noted reads go (they keep tensors alive)."""
        with self._lock:
            self._reads.clear()

    def key_of(self, handle):
        found = self._keys.get(id(handle))
        return found[1] if found is not None and found[0] is handle else None

    def get(self, key, devices):
        """The device array of variable `key` on `devices`, or None."""
        with self._lock:
            entry = self._values.get(key)
            if entry is None or entry[2] != devices:
                return None
            return entry[3]

    def put(self, key, handle, dtype, devices, array, stale):
        with self._lock:
            self._values[key] = [handle, dtype, devices, array, stale]

    def _write_back(self, key):
        entry = self._values.get(key)
        if entry is not None and entry[4]:
            handle, dtype, _devices, array, _stale = entry
            eager("writing a device-resident variable back", "AssignVariableOp", 0,
                  [handle, to_tensor(np.asarray(array))], ("dtype", dtype, "validate_shape", False))
            entry[4] = False

    def before_host_use(self, handle, reads_only):
        """A host op takes `handle`: the variable's value is written back first; an op that may
        write it drops the device copy (an unknown handle: all of them)."""
        with self._lock:
            if not self._values and (reads_only or not self._reads):
                return
            key = self.key_of(handle)
            if key is None:
                self.sync()
                if not reads_only:
                    self._values.clear()
                    self._forget_reads()
                return
            self._write_back(key)
            if not reads_only:
                self._values.pop(key, None)
                self._forget_reads(key)

    def _forget_reads(self, key=None):
        for tensor_id, (_t, k, _h, _d) in list(self._reads.items()):
            if key is None or k == key:
                del self._reads[tensor_id]

    def sync(self):
        """Writes every stale variable back to TensorFlow."""
        with self._lock:
            for key in list(self._values):
                self._write_back(key)



RESIDENT = ResidentVariables()


class Step:
    __slots__ = ("where",)

    def run(self, frame, ctx):
        raise NotImplementedError


class TFOp(Step):
    """One TensorFlow op on its eager kernel. `resource_ins`: positions of its resource inputs
    (the variables they name are synchronized with their device copies first)."""
    __slots__ = ("op_type", "attrs", "ins", "outs", "resource_ins", "reads_only")

    def __init__(self, where_, op_type, attrs, ins, outs, resource_ins=()):
        self.where, self.op_type, self.attrs, self.ins, self.outs = where_, op_type, attrs, ins, outs
        self.resource_ins = tuple(resource_ins)
        self.reads_only = op_type in _VARIABLE_READERS

    def run(self, frame, ctx):
        inputs = []
        for i in self.ins:
            value = frame[i]
            if type(value) is np.ndarray or (type(value) is not _EAGER_TENSOR[0] and _is_device_array(value)):
                # a feed, a device result or a variable's device copy: converted once, in its slot
                value = frame[i] = to_tensor(value)
            inputs.append(value)
        for k in self.resource_ins:
            RESIDENT.before_host_use(inputs[k], self.reads_only)
        results = eager(self.where, self.op_type, len(self.outs), inputs, self.attrs)
        for slot, value in zip(self.outs, results):
            frame[slot] = value


class ReadVariable(TFOp):
    """``ReadVariableOp``: a variable with a device copy is read from it (no TensorFlow op, no
    copy); otherwise TensorFlow reads it and the read is noted, so that the device copy an
    execution makes of it is kept for the next reads (:class:`ResidentVariables`)."""
    __slots__ = ("dtype",)

    def __init__(self, where_, op_type, attrs, ins, outs, resource_ins=()):
        super().__init__(where_, op_type, attrs, ins, outs, resource_ins)
        self.dtype = dict(zip(attrs[::2], attrs[1::2]))["dtype"]

    def run(self, frame, ctx):
        handle = frame[self.ins[0]]
        key = RESIDENT.key_of(handle)
        if key is not None:
            array = RESIDENT.current(key)
            if array is not None:
                frame[self.outs[0]] = array
                return
        TFOp.run(self, frame, ctx)
        if key is not None:
            RESIDENT.note_read(frame[self.outs[0]], key, handle, self.dtype)


class VarHandle(TFOp):
    """``VarHandleOp``: the handle of a variable is made once and kept (the op only names the
    variable), so that the variable is known by its handle (:class:`ResidentVariables`)."""
    __slots__ = ("handle",)

    def __init__(self, where_, op_type, attrs, ins, outs):
        super().__init__(where_, op_type, attrs, ins, outs)
        self.handle = None

    def run(self, frame, ctx):
        if self.handle is None:
            (self.handle,) = eager(self.where, self.op_type, 1, [], self.attrs)
            named = dict(zip(self.attrs[::2], self.attrs[1::2]))
            RESIDENT.register(self.handle, named.get("container", ""), named.get("shared_name", ""))
            ctx.session._handles.append(self.handle)
        frame[self.outs[0]] = self.handle


_EAGER_TENSOR = [None]  # TensorFlow's EagerTensor class, once TensorFlow is loaded


def _is_resource(mlir_type):
    return _exporter._tensor_info(mlir_type)[0] == _T.DT_RESOURCE


def eager(where_, op_type, num_outputs, inputs, attrs):
    """Runs one TensorFlow op on its eager kernel; a failure is a RunError naming `where_`.
    `inputs` are tensors or numpy arrays (frame values are either: feeds and device results
    stay numpy until a TensorFlow op takes them)."""
    try:
        inputs = [to_tensor(v) if isinstance(v, np.ndarray) else v for v in inputs]
        return _TF.execute(op_type, num_outputs, inputs, attrs, _TF.ctx)
    except Exception as exc:
        raise RunError(f"{where_}: {_first_line(exc)}") from None


def _first_line(exc):
    text = str(exc).strip() or type(exc).__name__
    return text


class Constant(Step):
    __slots__ = ("value", "out")

    def __init__(self, where_, value, out):
        self.where, self.value, self.out = where_, value, out

    def run(self, frame, ctx):
        frame[self.out] = self.value


class Forward(Step):
    """Identity/IdentityN: operands to results (also program keys and other host objects)."""
    __slots__ = ("ins", "outs")

    def __init__(self, where_, ins, outs):
        self.where, self.ins, self.outs = where_, ins, outs

    def run(self, frame, ctx):
        for i, o in zip(self.ins, self.outs):
            frame[o] = frame[i]


class Nothing(Step):
    __slots__ = ()

    def __init__(self, where_):
        self.where = where_

    def run(self, frame, ctx):
        pass


class Block:
    """Steps of one block; `args` are its argument slots, `yields` its terminator's operands."""
    __slots__ = ("args", "steps", "yields")

    def __init__(self, args, steps, yields):
        self.args, self.steps, self.yields = args, steps, yields

    def run(self, frame, ctx, arguments=None):
        if arguments is not None:
            for slot, value in zip(self.args, arguments):
                frame[slot] = value
        for step in self.steps:
            step.run(frame, ctx)
        return [frame[i] for i in self.yields]


class RegionOp(Step):
    """An op running one region in place (island, launch): its yields become its results."""
    __slots__ = ("block", "outs")

    def __init__(self, where_, block, outs):
        self.where, self.block, self.outs = where_, block, outs

    def run(self, frame, ctx):
        for slot, value in zip(self.outs, self.block.run(frame, ctx)):
            frame[slot] = value


class ParallelExecute(Step):
    """``tf_device.parallel_execute``: every region on its own thread, results concatenated."""
    __slots__ = ("blocks", "outs")

    def __init__(self, where_, blocks, outs):
        self.where, self.blocks, self.outs = where_, blocks, outs

    def run(self, frame, ctx):
        produced = [None] * len(self.blocks)

        def body(i):
            def go(sub):
                produced[i] = self.blocks[i].run(frame, sub)
            return go

        run_threads([(body(i), ctx.replica, ctx.group) for i in range(len(self.blocks))], ctx,
                    "parallel")
        values = [v for part in produced for v in part]
        for slot, value in zip(self.outs, values):
            frame[slot] = value


class Replicate(Step):
    """``tf_device.replicate``: n replica threads over copies of the frame."""
    __slots__ = ("n", "replicated", "packed", "block", "outs")

    def __init__(self, where_, n, replicated, packed, block, outs):
        self.where, self.n, self.replicated, self.packed = where_, n, replicated, packed
        self.block, self.outs = block, outs

    def run(self, frame, ctx):
        if ctx.group is not None:
            raise RunError(f"{self.where}: nested tf_device.replicate is not supported")
        # In a job of several processes each runs the replicas of its devices, and the replicas'
        # results are exchanged afterwards (every process goes on with all of them).
        members = _jaxlib.local_positions(self.n, ctx.session.platform)
        group = ReplicaGroup(self.n, members)
        produced = [None] * self.n

        def body(r):
            def go(sub):
                local = list(frame)
                for arg_slot, outer in self.replicated:
                    local[arg_slot] = frame[outer[r]]
                for arg_slot, outer in self.packed:
                    local[arg_slot] = frame[outer]
                try:
                    produced[r] = self.block.run(local, sub)
                except BaseException:
                    group.abort()
                    raise
            return go

        run_threads([(body(r), r, group) for r in members], ctx, "replica")
        if len(members) < self.n:
            from . import distributed
            produced = distributed.exchange(ctx.session.exchange_key(self.where),
                                            {r: produced[r] for r in members}, self.n)
        count = len(self.block.yields)
        for i in range(count):
            for r in range(self.n):
                frame[self.outs[i * self.n + r]] = produced[r][i]


class FunctionPlan:
    """A function: its body block in a frame of `size` slots."""

    def __init__(self, name):
        self.name = name
        self.size = 0
        self.block = None

    def call(self, arguments, ctx):
        frame = [None] * self.size
        return self.block.run(frame, ctx, arguments)


class Call(Step):
    __slots__ = ("plan", "ins", "outs")

    def __init__(self, where_, plan, ins, outs):
        self.where, self.plan, self.ins, self.outs = where_, plan, ins, outs

    def run(self, frame, ctx):
        results = self.plan.call([frame[i] for i in self.ins], ctx)
        for slot, value in zip(self.outs, results):
            frame[slot] = value


class If(Step):
    """Functional If/Case (branches are functions) and IfRegion/CaseRegion (blocks)."""
    __slots__ = ("cond", "branches", "ins", "outs", "is_case")

    def __init__(self, where_, cond, branches, ins, outs, is_case):
        self.where, self.cond, self.branches = where_, cond, branches
        self.ins, self.outs, self.is_case = ins, outs, is_case

    def run(self, frame, ctx):
        value = frame[self.cond]
        if self.is_case:
            index = int(to_numpy(value))
            if not 0 <= index < len(self.branches):
                index = len(self.branches) - 1  # TensorFlow's Case: out of range takes the last branch
        else:
            index = 0 if truthy(value) else 1
        branch = self.branches[index]
        if isinstance(branch, FunctionPlan):
            results = branch.call([frame[i] for i in self.ins], ctx)
        else:
            results = branch.run(frame, ctx)
        for slot, v in zip(self.outs, results):
            frame[slot] = v


class While(Step):
    """Functional While (cond/body functions) and WhileRegion (cond/body blocks)."""
    __slots__ = ("cond", "body", "ins", "outs")

    def __init__(self, where_, cond, body, ins, outs):
        self.where, self.cond, self.body, self.ins, self.outs = where_, cond, body, ins, outs

    def run(self, frame, ctx):
        values = [frame[i] for i in self.ins]
        while True:
            if isinstance(self.cond, FunctionPlan):
                c = self.cond.call(values, ctx)[0]
            else:
                c = self.cond.run(frame, ctx, values)[0]
            if not truthy(c):
                break
            if isinstance(self.body, FunctionPlan):
                values = self.body.call(values, ctx)
            else:
                values = self.body.run(frame, ctx, values)
        for slot, v in zip(self.outs, values):
            frame[slot] = v


class RecvAtHost(Step):
    """``_XlaRecvAtHost(V2)``: the values the device sent under `key` (checked against the types)."""
    __slots__ = ("key", "ordinal", "outs", "types", "infos")

    def __init__(self, where_, key, ordinal, outs, types):
        self.where, self.key, self.ordinal, self.outs, self.types = where_, key, ordinal, outs, types
        self.infos = [None] * len(types)  # type_info of each type, on first use

    def run(self, frame, ctx):
        replica = ctx.replica if self.ordinal is None else int(to_numpy(frame[self.ordinal]))
        values, origin = ctx.run.get(self.key, replica, ctx.participant, self.where)
        if len(values) != len(self.outs):
            raise RunError(f"{self.where}: {origin} sent {len(values)} value(s) under '{self.key}', "
                           f"the host expects {len(self.outs)}")
        infos = self.infos
        for k, (slot, value, t) in enumerate(zip(self.outs, values, self.types)):
            info = infos[k]
            if info is None:
                info = infos[k] = type_info(t)
            check_info(value, info, f"{self.where}: value {k} received under '{self.key}'")
            # Arrays (the device's, copied out of XLA by jaxlib) stay numpy until a TF op takes them.
            frame[slot] = value if type(value) is np.ndarray else to_tensor(value)


class SendFromHost(Step):
    """``_XlaSendFromHost(V2)``: hands its operands to the device's host computation `key`."""
    __slots__ = ("key", "ordinal", "ins")

    def __init__(self, where_, key, ordinal, ins):
        self.where, self.key, self.ordinal, self.ins = where_, key, ordinal, ins

    def run(self, frame, ctx):
        replica = ctx.replica if self.ordinal is None else int(to_numpy(frame[self.ordinal]))
        ctx.run.put(self.key, replica, [to_numpy(frame[i]) for i in self.ins], self.where)


class DeviceOrdinal(Step):
    """``_TPUDeviceOrdinalPlaceholder``: the replica's device ordinal (replica r runs on device r)."""
    __slots__ = ("out",)

    def __init__(self, where_, out):
        self.where, self.out = where_, out

    def run(self, frame, ctx):
        frame[self.out] = _TF.tf.constant(ctx.replica, _TF.tf.int64)


# ---------------------------------------------------------------------------------------------
# Building plans.

_CONTROL_FLOW_V1 = ("tf_executor.Switch", "tf_executor._SwitchN", "tf_executor.Merge", "tf_executor.Enter",
                    "tf_executor.Exit", "tf_executor.LoopCond", "tf_executor.NextIteration.Source",
                    "tf_executor.NextIteration.Sink", "tf_executor.ControlTrigger")
_FORWARD = ("tf.Identity", "tf.IdentityN")
_TERMINATORS = ("func.return", "tf_device.return", "tf_executor.yield", "tf_executor.fetch", "tf.Yield")


def _replicate_devices(op, w, n):
    """A ``tf_device.replicate``'s ``devices``: {alias: [device of each replica]}."""
    from mlir import ir
    if "devices" not in op.attributes:
        return {}
    devices = op.attributes["devices"]
    if not isinstance(devices, ir.DictAttr):
        raise ProgramError(f"{w}: 'devices' is not a dictionary of device aliases")
    out = {}
    for alias, names in irsafe.attribute_items(devices):
        if not isinstance(names, ir.ArrayAttr) or not all(isinstance(a, ir.StringAttr) for a in names):
            raise ProgramError(f"{w}: devices alias '{alias}' is not a list of device names")
        listed = []
        for a in names:
            try:
                listed.append(a.value_bytes.decode("utf-8"))
            except UnicodeDecodeError:
                raise ProgramError(f"{w}: a device of alias '{alias}' is not UTF-8 text") from None
        if len(listed) != n:
            raise ProgramError(f"{w}: devices alias '{alias}' lists {len(listed)} devices for {n} replicas")
        out[alias] = listed
    return out


class Builder:
    """Builds plans for the functions of one module. `tpu` builds the TPU steps (runtime.tpu)."""

    def __init__(self, module, tpu):
        _TF.load()
        self.module = module
        self.tpu = tpu
        self.exporter = _exporter.Exporter(module)
        self.exporter.main = "main"
        self.funcs = self.exporter.funcs
        self.plans = {}
        self.slot_of = {}       # function plan -> {value: slot}
        self.replicas = 1       # replicas of the region being built (tf_device.replicate's n)
        self.replicate_devices = {}  # alias -> devices, of the replicate being built

    def function(self, name, where_=""):
        if name in self.plans:
            return self.plans[name]
        func = self.funcs.get(name)
        if func is None:
            raise ProgramError(f"{where_}: the module has no function @{name}")
        plan = FunctionPlan(name)
        self.plans[name] = plan
        slots = {}
        self.slot_of[name] = slots
        blocks = list(func.regions[0].blocks)
        if len(blocks) != 1:
            raise ProgramError(f"function @{name}: functions with {len(blocks)} blocks cannot run")
        plan.block = self.block(blocks[0], name, func)
        plan.size = len(slots)
        return plan

    def slot(self, fname, value):
        slots = self.slot_of[fname]
        s = slots.get(value)
        if s is None:
            s = slots[value] = len(slots)
        return s

    def block(self, block, fname, func, steps_for=None):
        args = [self.slot(fname, a) for a in block.arguments]
        steps = []
        yields = []
        for op in block.operations:
            name = irsafe.op_name(op)
            if name in _TERMINATORS:
                yields = [self.slot(fname, v) for v in op.operands if not _is_control(v)]
                continue
            step = self.op(op, fname, func)
            if step is not None:
                steps.append(step)
        return Block(args, steps, yields)

    def op(self, op, fname, func):
        op = op.operation
        name = irsafe.op_name(op)
        w = f"{where(op)} in @{fname}"
        ins = [self.slot(fname, v) for v in op.operands if not _is_control(v)]
        outs = [self.slot(fname, r) for r in op.results if not _is_control(r)]
        handled = self.tpu.step(self, op, name, w, fname, func, ins, outs)
        if handled is not None:
            return handled
        if name == "tf_executor.graph":
            return RegionOp(w, self.block(op.regions[0].blocks[0], fname, func), outs)
        if name == "tf_executor.island":
            return RegionOp(w, self.block(op.regions[0].blocks[0], fname, func), outs)
        if name in _CONTROL_FLOW_V1:
            raise ProgramError(f"{w}: TF1 control flow (Switch/Merge/Enter/Exit/NextIteration) cannot run; "
                               "functionalize it first")
        if name == "tf_device.launch":
            self.tpu.launch_devices(self, op, w)
            return RegionOp(w, self.block(op.regions[0].blocks[0], fname, func), outs)
        if name == "tf_device.parallel_execute":
            return ParallelExecute(w, [self.block(r.blocks[0], fname, func) for r in op.regions], outs)
        if name == "tf_device.replicate":
            return self.replicate(op, w, fname, func, outs)
        if name in ("tf_device.cluster", "tf_device.cluster_func"):
            raise ProgramError(f"{w}: the program is not TPU-rewritten (a device cluster is left); "
                               "the runtime takes programs after tf-tpu-rewrite")
        if name in _FORWARD:
            return Forward(w, ins, outs)
        if name == "tf.NoOp":
            return Nothing(w)
        if name == "tf.Const":
            return Constant(w, self.constant(op, w), outs[0])
        if name == "tf.TPUDummyInput":
            return Constant(w, self.dummy_input(op, w), outs[0])
        if name in ("tf.If", "tf.StatelessIf"):
            branches = [self.function(_sym(op, "then_branch"), w), self.function(_sym(op, "else_branch"), w)]
            return If(w, ins[0], branches, ins[1:], outs, False)
        if name in ("tf.Case", "tf.StatelessCase"):
            branches = [self.function(s, w) for s in _syms(op, "branches")]
            return If(w, ins[0], branches, ins[1:], outs, True)
        if name in ("tf.While", "tf.StatelessWhile"):
            return While(w, self.function(_sym(op, "cond"), w), self.function(_sym(op, "body"), w), ins, outs)
        if name in ("tf.IfRegion", "tf.CaseRegion"):
            branches = [self.block(r.blocks[0], fname, func) for r in op.regions]
            return If(w, ins[0], branches, [], outs, name == "tf.CaseRegion")
        if name == "tf.WhileRegion":
            cond = self.block(op.regions[0].blocks[0], fname, func)
            body = self.block(op.regions[1].blocks[0], fname, func)
            return While(w, cond, body, ins, outs)
        if name in ("tf.PartitionedCall", "tf.StatefulPartitionedCall", "tf.LegacyCall", "func.call"):
            callee = _sym(op, "callee" if name == "func.call" else "f")
            return Call(w, self.function(callee, w), ins, outs)
        if name.startswith("tf."):
            return self.tf_op(op, w, func, ins, outs)
        raise ProgramError(f"{w}: ops of this dialect cannot run on the host")

    def replicate(self, op, w, fname, func, outs):
        n = _int_attr(op, "n")
        # Checked before anything proportional to n is built (maps, threads, device lists).
        if n < 1:
            raise ProgramError(f"{w}: n = {n}; a tf_device.replicate has at least one replica")
        available = self.tpu.max_replicas()
        if n > available:
            raise ProgramError(f"{w}: {n} replicas, but replicas run one per XLA device and "
                               f"{self.tpu.devices_text(available)}")
        segments = [int(x) for x in op.attributes["operandSegmentSizes"]]
        operands = list(op.operands)
        replicated, packed_vals = operands[:segments[0]], operands[segments[0]:]
        body = op.regions[0].blocks[0]
        args = list(body.arguments)
        if segments[0] % n:
            raise ProgramError(f"{w}: {segments[0]} replicated operands do not split over {n} replicas")
        groups = segments[0] // n
        replicated_map = [(self.slot(fname, args[i]), [self.slot(fname, replicated[i * n + r]) for r in range(n)])
                          for i in range(groups)]
        packed_map = [(self.slot(fname, args[groups + j]), self.slot(fname, v)) for j, v in enumerate(packed_vals)]
        if self.replicas != 1:
            raise ProgramError(f"{w}: nested tf_device.replicate cannot run")
        self.replicas = n
        self.replicate_devices = _replicate_devices(op, w, n)
        try:
            block = self.block(body, fname, func)
        finally:
            self.replicas = 1
            self.replicate_devices = {}
        return Replicate(w, n, replicated_map, packed_map, block, outs)

    def _check_host_size(self, op, w, what):
        size = _materialised_bytes(op.result.type)
        if size is not None and size > _T.MAX_EXPANDED_BYTES:
            raise ProgramError(f"{w}: the {what} {op.result.type} would take {size} bytes on the host; "
                               f"the runtime materialises constants of at most {_T.MAX_EXPANDED_BYTES} "
                               "bytes (a GraphDef holds at most 2 GiB)")

    def constant(self, op, w):
        self._check_host_size(op, w, "constant")
        try:
            from tensorflow.core.framework import tensor_pb2

            # The exporter's TensorProto, decoded by TensorFlow (every dtype as TF reads it).
            proto = tensor_pb2.TensorProto.FromString(_encode(_exporter.dense_to_tensor(op.attributes["value"])))
            return _TF.tf.constant(_TF.tf.make_ndarray(proto))
        except Exception as exc:
            raise ProgramError(f"{w}: the constant cannot be made a TensorFlow tensor: {exc}") from None

    def dummy_input(self, op, w):
        """``tf.TPUDummyInput``: zeros of its static result type (what ``tf-xla-broadcast`` gives
        the replicas that do not hold the broadcast value; TensorFlow has a kernel for TPUs only)."""
        dtype, shape = type_info(op.result.type)
        if dtype is None or shape is None or dtype == np.dtype(object):
            raise ProgramError(f"{w}: a dummy input of type {op.result.type} cannot be made (it needs a "
                               f"static shape and a numeric element type)")
        self._check_host_size(op, w, "dummy input")
        return np.zeros(shape, dtype)

    def tf_op(self, op, w, func, ins, outs):
        try:
            op_type, av = _exporter.node_attributes(self.exporter, func, op)
        except Exception as exc:
            raise ProgramError(f"{w}: {exc}") from None
        attrs = []
        for key in sorted(av):
            if key.startswith("_"):
                continue
            attrs.extend((key, _eager_attr(av[key], key, w)))
        if op_type == "VarHandleOp":
            attrs = self.tpu.variable_attrs(op, attrs)
            return VarHandle(w, op_type, tuple(attrs), ins, outs)
        resource_ins = [k for k, operand in enumerate(op.operands) if _is_resource(operand.type)]
        if op_type == "ReadVariableOp" and len(ins) == 1 and len(outs) == 1:
            return ReadVariable(w, op_type, tuple(attrs), ins, outs, resource_ins)
        return TFOp(w, op_type, tuple(attrs), ins, outs, resource_ins)


def _materialised_bytes(mlir_type):
    """Bytes a host tensor of `mlir_type` takes once materialised (strings counted as one pointer
    each), or None for types without a static shape; counted without building anything."""
    try:
        dtype, shape = type_info(mlir_type)
    except ProgramError:
        return None
    if shape is None or any(d < 0 for d in shape):
        return None
    n = 1
    for d in shape:
        n *= d
    return n * (dtype.itemsize if dtype is not None else 8)


def _encode(message):
    from ..tfcore import protobuf as pb
    return pb.encode(message)


def _eager_attr(av, key, w):
    """An AttrValue (tfmlir's protobuf message) as the value eager execution takes."""
    kind = av.which("value")
    if kind == "list":
        lv = av.list
        for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            values = lv._values.get(field)
            if values:
                return [_scalar_attr(field, v, key, w) for v in values]
        return []
    if kind is None:
        raise ProgramError(f"{w}: attribute '{key}' has no value")
    return _scalar_attr(kind, getattr(av, kind), key, w)


def _scalar_attr(kind, v, key, w):
    if kind == "s":
        return bytes(v) if not isinstance(v, str) else v.encode("utf-8", "surrogateescape")
    if kind in ("i", "type"):
        return int(v)
    if kind == "f":
        return float(v)
    if kind == "b":
        return bool(v)
    if kind == "shape":
        if v.unknown_rank:
            return None
        return [None if d.size < 0 else int(d.size) for d in v.dim]
    raise ProgramError(f"{w}: attribute '{key}' ({kind}) cannot be given to an op run by itself")


def _is_control(v):
    return str(v.type) == "!tf_executor.control"


def _sym(op, key):
    from mlir import ir
    a = op.attributes[key]
    if isinstance(a, ir.FlatSymbolRefAttr):
        return a.value
    text = str(a)
    if text.startswith("@"):
        return text[1:].strip('"')
    raise ProgramError(f"{where(op)}: attribute '{key}' is not a function reference")


def _syms(op, key):
    from mlir import ir
    return [ir.FlatSymbolRefAttr(a).value for a in op.attributes[key]]


def _int_attr(op, key):
    from mlir import ir
    return ir.IntegerAttr(op.attributes[key]).value


def node_names(func):
    """{node name: (op, result count)} of the ops of `func` (not inside called functions), named as
    the exporter names nodes: the location's name, made unique in op order."""
    namer = _exporter._Namer()
    names = {}

    def visit(op):
        name = irsafe.op_name(op)
        if name.startswith(("tf.", "tf_device.", "tf_executor.")) and name not in _TERMINATORS and name not in (
                "tf_executor.graph", "tf_executor.island"):
            node = namer.unique(_exporter._name_from_loc(op.location, name.split(".")[-1]))
            names[node] = op
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    visit(inner.operation)

    for block in func.regions[0].blocks:
        for op in block.operations:
            visit(op.operation)
    return names
