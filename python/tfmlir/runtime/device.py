"""Device programs: legalized once, compiled per (argument shapes, replica and partition count), run on XLA.

A :class:`DeviceProgram` holds the tf-dialect module of one
``tf._TPUCompileMlir`` (entry ``main``). :meth:`DeviceProgram.executable`
legalizes it with TensorFlow's passes (:mod:`.legalize`) and compiles the
StableHLO with XLA through PJRT (:mod:`._jaxlib`); executables are cached by
program text, argument signature and replica count. :meth:`Executable.run`
checks every argument's dtype and shape against the compiled signature
before anything runs.
"""
import re
import threading

import numpy as np

from . import _jaxlib, legalize

_ELEMENT_DTYPES = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "complex<f32>": np.complex64, "complex<f64>": np.complex128,
}


class DeviceProgramError(ValueError):
    """A device program cannot run with the given arguments."""


def type_info(type_text):
    """(shape, numpy dtype) of a ranked tensor type's text, e.g. ``tensor<2x3xf32>``."""
    match = re.fullmatch(r"tensor<((?:\d+x)*)([^x<>][^<>]*|complex<f(?:32|64)>)>", type_text)
    if not match:
        raise DeviceProgramError(f"unsupported type {type_text} in a device program signature")
    dims, element = match.groups()
    shape = tuple(int(d) for d in dims.split("x") if d)
    dtype = element_dtype(element)
    if dtype is None:
        raise DeviceProgramError(f"unsupported element type {element} in a device program signature")
    return shape, dtype


def element_dtype(element):
    """The numpy dtype of values of an MLIR element type (its text: ``f32``, ``bf16``,
    ``complex<f32>``, ``!tf_type.string`` -> object); None for types with no array form."""
    if element == "bf16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    if element == "!tf_type.string":
        return np.dtype(object)
    found = _ELEMENT_DTYPES.get(element)
    return None if found is None else np.dtype(found)


# Collectives whose replica groups XLA checks against the replica count (its HLO verifier):
# replica_groups partition range(num_replicas), or are empty (all replicas in one group).
_GROUPED_COLLECTIVES = ("stablehlo.all_reduce", "stablehlo.cross-replica-sum", "stablehlo.all_gather",
                        "stablehlo.reduce_scatter", "stablehlo.all_to_all", "stablehlo.collective_broadcast")


def collectives(stablehlo_text):
    """[(op name, location, kind, rows)] of the cross-replica collectives of `stablehlo_text`:
    kind "groups" (rows: the replica_groups, -1 padding kept) or "pairs" (collective_permute's
    source_target_pairs)."""
    found = []

    def visit(op, jax_ir):
        name = op.name
        key = ("replica_groups" if name in _GROUPED_COLLECTIVES else
               "source_target_pairs" if name == "stablehlo.collective_permute" else None)
        if key is not None and key in op.attributes:
            found.append((name, str(op.location), "groups" if key == "replica_groups" else "pairs",
                          _int_rows(op.attributes[key], jax_ir)))

    _jaxlib.walk_stablehlo(stablehlo_text, visit)
    return found


def _int_rows(attr, jax_ir):
    dense = jax_ir.DenseIntElementsAttr(attr)
    shape = list(jax_ir.ShapedType(dense.type).shape)
    if len(shape) != 2:
        return None
    count = shape[0] * shape[1]
    values = [dense[0]] * count if dense.is_splat else [dense[i] for i in range(count)]
    return [values[r * shape[1]:(r + 1) * shape[1]] for r in range(shape[0])]


def collective_problem(kind, rows, num_replicas):
    """Why XLA would refuse a collective's replica groups (`kind`, `rows` of :func:`collectives`)
    for `num_replicas` replicas, or None: groups must partition range(num_replicas) into groups
    of equal size (or be empty: one group of all replicas); pairs must name replicas, each
    at most once as a source and once as a target."""
    if rows is None:
        return "they are not a 2-D array"
    if kind == "pairs":
        sources, targets = set(), set()
        for pair in rows:
            if len(pair) != 2:
                return "source_target_pairs must be pairs"
            s, t = pair
            if not (0 <= s < num_replicas and 0 <= t < num_replicas):
                return f"pair {list(pair)} names a replica outside [0, {num_replicas})"
            if s in sources or t in targets:
                return f"pair {list(pair)} repeats a source or a target"
            sources.add(s)
            targets.add(t)
        return None
    groups = [[r for r in row if r != -1] for row in rows]
    groups = [g for g in groups if g]
    if not groups:
        return None
    seen = set()
    for g in groups:
        for r in g:
            if not 0 <= r < num_replicas:
                return f"replica {r} is outside [0, {num_replicas})"
            if r in seen:
                return f"replica {r} appears more than once"
            seen.add(r)
    if len(seen) != num_replicas:
        missing = sorted(set(range(num_replicas)) - seen)[:8]
        return f"they leave out replica(s) {missing} of {num_replicas}"
    if len({len(g) for g in groups}) != 1:
        return f"the groups have different sizes ({sorted({len(g) for g in groups})})"
    return None


class Executable:
    """A compiled device program for one argument signature, replica count and partition count.

    With partitions (``num_partitions`` > 1, XLA's SPMD partitioner; the
    program's ``main`` in the per-device form of :func:`._jaxlib.partition_main`)
    the executable runs on ``num_replicas * num_partitions`` devices,
    ``devices`` in replica-major order; :meth:`run` takes and returns values
    per device in that order.
    """

    def __init__(self, stablehlo_text, num_replicas, host_callbacks=(), platform="cpu", num_partitions=1,
                 device_ids=None):
        self.stablehlo = stablehlo_text
        self.num_replicas = num_replicas
        self.num_partitions = num_partitions
        self._executable, self.devices, (arguments, results, aliases) = _jaxlib.compile(
            stablehlo_text, platform=platform, num_replicas=num_replicas, num_partitions=num_partitions,
            device_ids=device_ids, host_callbacks=host_callbacks)
        self.arguments = [type_info(t) for t in arguments]
        self.results = [type_info(t) for t in results]
        # {argument index: result index} of main's tf.aliasing_output attributes: the variable
        # updates TensorFlow's resource promotion appends as results.
        self.aliases = aliases
        # Arguments go to the device without a copy where XLA allows, except those the
        # program may write (tf.aliasing_output): they are copied.
        self._place = _jaxlib.argument_placer(self.arguments, self.devices, copied=set(aliases))
        # In a job of several processes (runtime.distributed) the executable spans the job's
        # devices and this process gives and gets the values of its own: positions `local` of
        # `devices`. (Everything is local in a process of its own.)
        self.local = list(range(len(self.devices)))
        if _jaxlib.in_job():
            me = _jaxlib.process_index(platform)
            self.local = [k for k, d in enumerate(self.devices) if d.process_index == me]
            if len(self.local) < len(self.devices):
                if num_partitions > 1:
                    raise DeviceProgramError("model-parallel programs run in one process (a job of "
                                             "several processes runs replicas of one core)")
                self._place, _ = _jaxlib.process_local_placer(self.arguments, self.devices)

    def run(self, per_replica_args):
        """`per_replica_args[r][i]` is argument i of replica r (of device r in :attr:`devices`'
        order, with partitions; in a job of several processes, of this process's devices
        :attr:`local` only); returns per-replica (per-device) result lists."""
        outputs, _placed, _kept = self._run(per_replica_args, ())
        count = len(self.local)
        if count == 1:
            return [[out[0] for out in outputs]]
        return [[outputs[k][r] for k in range(len(outputs))] for r in range(count)]

    def run_single(self, args, keep=()):
        """One replica, whose arguments may also be device arrays of this executable's device
        (passed as they are: a program that writes an argument, ``tf.aliasing_output``, must get
        numpy there). Returns (results as numpy, the arguments as placed on the device, {result
        index in `keep`: its device array})."""
        outputs, placed, kept = self._run([args], keep)
        return [out[0] for out in outputs], placed, {k: v[0] for k, v in kept.items()}

    def _run(self, per_replica_args, keep):
        if len(self.local) != len(self.devices) and len(per_replica_args) != len(self.local):
            raise DeviceProgramError(f"expected arguments for this process's {len(self.local)} of the "
                                     f"{len(self.devices)} devices, got {len(per_replica_args)}")
        if len(self.local) == len(self.devices) and len(per_replica_args) != len(self.devices):
            what = (f"{self.num_replicas} replicas" if self.num_partitions == 1 else
                    f"{len(self.devices)} devices ({self.num_replicas} replica(s) x "
                    f"{self.num_partitions} partitions)")
            raise DeviceProgramError(f"expected arguments for {what}, got {len(per_replica_args)}")
        count = len(self.arguments)
        columns = []
        for i, (shape, dtype) in enumerate(self.arguments):
            column = []
            for r, args in enumerate(per_replica_args):
                if len(args) != count:
                    raise DeviceProgramError(f"{self._who(r)}: expected {count} arguments, got {len(args)}")
                value = args[i]
                if type(value) is not np.ndarray:
                    # A device array of this device is used as it is, except where the program
                    # may write the argument (then it is copied, as numpy).
                    if not (len(self.devices) == 1 and i not in self.aliases
                            and _jaxlib.is_device_array(value) and value.devices() == {self.devices[0]}):
                        value = np.asarray(value)
                if value.dtype != dtype or value.shape != shape:
                    raise DeviceProgramError(
                        f"{self._who(r)}, argument {i}: expected {dtype.name}{list(shape)}, "
                        f"got {value.dtype.name}{list(value.shape)}")
                column.append(value)
            columns.append(column)
        placed = self._place(columns)
        outputs, kept = _jaxlib.execute(self._executable, placed, keep)
        return outputs, placed, kept

    def _who(self, k):
        """Device `k` of :attr:`devices` in messages: its replica (and partition)."""
        if self.num_partitions == 1:
            return f"replica {k}"
        return f"replica {k // self.num_partitions}, partition {k % self.num_partitions}"

    def release(self):
        """Drops the compiled executable (and the host callbacks it holds)."""
        self._executable = None


class DeviceProgram:
    """One device program (tf dialect text, entry ``main``), legalized lazily."""

    def __init__(self, tf_text):
        self.tf_text = tf_text
        self._stablehlo = None
        self._cache = {}
        self._lock = threading.Lock()

    @property
    def stablehlo(self):
        if self._stablehlo is None:
            self._stablehlo = legalize.legalize(self.tf_text)
        return self._stablehlo

    def executable(self, num_replicas=1, host_callbacks=(), platform="cpu"):
        key = (num_replicas, platform, tuple(id(cb) for cb in host_callbacks))
        with self._lock:
            if key not in self._cache:
                self._cache[key] = Executable(self.stablehlo, num_replicas, host_callbacks, platform)
            return self._cache[key]

    def release(self):
        with self._lock:
            for executable in self._cache.values():
                executable.release()
            self._cache.clear()
