"""Validates inputs to the TPU TF/XLA bridge

As TF 2.21's -tf-tpu-validate-inputs (the first pass of
tf-replicated-clustering-bridge-v2): checks the relations of the ops of TPU
programs as TF's graph import writes them (``_tpu_replicate`` attributes,
``tf.TPUReplicateMetadata``, ``tf.TPUReplicated*`` / ``tf.TPUPartitioned*``
ops). The IR is never changed. TF's wording is kept; TF prints each error as
an op error (``'<op>' op TF2XLA TPU bridge input check: ...``) and warnings
without the op prefix.

The ``tf.TPUReplicateMetadata`` ops are collected first, keyed by their
``_tpu_replicate`` (the last one of a name wins). Then every op (the module
included, post-order) is checked, and all checks run even after one failed:

1. A ``tf.InfeedDequeueTuple`` whose ``device`` contains
   ``TPU_REPLICATED_CORE:0``: warning "TPU_REPLICATED_CORE:0 device is not
   supported for op = ...".
2. *Regular* ops (every op except module, func.func, func.return,
   tf_executor.graph/island/yield/fetch, tf.TPUReplicateMetadata,
   tf.TPUReplicatedInput/Output, tf.TPUPartitionedInput(V2)/Output(V2) and
   tf.OutfeedEnqueueTuple; unregistered ops are regular) have their cluster
   I/O checked; the first failure stops the checks of that op:

   * an empty ``_tpu_replicate`` is an error;
   * *predecessors* are the ops nested in (and including) the defining ops of
     its operands (for an op in an island: the defining islands' ops),
     *successors* the users of its parent op's results (for an op in an
     island: the islands using it). For a cluster op (with
     ``_tpu_replicate``) whose cluster has metadata, each I/O op among them
     is checked against the metadata: a ``tf.TPUReplicatedInput`` needs
     ``num_replicas`` inputs (one when ``is_packed``) and its regular
     successors the cluster's ``_tpu_replicate``; a ``tf.TPUReplicatedOutput``
     needs ``num_replicas`` outputs and its regular predecessors the
     cluster's ``_tpu_replicate``; a ``tf.TPUPartitionedInput`` needs
     ``num_cores_per_replica`` inputs (a V2 one when not packed; one when
     packed), a ``tf.TPUPartitionedOutput(V2)`` as many outputs;
   * a regular successor of a cluster op without ``_tpu_replicate`` (or an
     empty one) gets the warning "cluster op = ... has successor as non
     cluster op ..."; one of another cluster is an error;
   * a non-cluster op with a ``tf.TPUReplicatedInput`` predecessor or a
     ``tf.TPUReplicatedOutput`` successor is an error.
3. An op that must be XLA and must not be: must be XLA is a cluster op
   (not ``tf.PartitionedCall`` / ``tf.StatefulPartitionedCall`` /
   ``tf.TPUPartitionedCall``) whose cluster has metadata, and either the
   metadata's ``allow_soft_placement`` is false and the op has no
   ``_xla_outside_compilation``, or its ``device`` contains ``TPU``; must not
   be XLA is an operand or result whose element type is not valid for XLA
   and not a resource. TF's ``TypeValidForXLA`` is code, not data: a type is
   invalid when its element type is ``!tf_type.resource`` or
   ``!tf_type.string``, so the test is an element type ``!tf_type.string``
   (``!tf_type.stringref`` and the other types are valid). ``tf.Const``,
   ``tf.While``, ``tf.Assert``, ``tf.XlaSetDynamicDimensionSize`` and the
   metadata and I/O ops are exempt. The error is "found invalid op. Can't be
   both xla and non-xla"; for ``tf.Identity`` it is a warning only.
4. Regular ops with ``_XlaSharding`` (else ``sharding``), a serialized
   ``xla.OpSharding``: with a ``_tpu_replicate`` cluster that has metadata,
   every MAXIMAL sharding of the flattened tuple needs exactly one device,
   in ``[0, num_cores_per_replica)``; a TUPLE sharding needs one element per
   result. A string that does not parse as an OpSharding is not checked.
5. An op with ``_xla_compile_device_type = "TPU"`` is an error ("found a
   single-core TPU graph").

Finally, every ``tf_executor.graph`` holding an op other than islands gets
a warning at the first such op (v1 control flow). TF's log-only messages
(LOG(WARNING)) are not reproduced.

The pass fails when a check failed. Diagnostics come in TF's order, except
that the last error is reported after the warnings that follow it. Where
TF's process crashes, the pass fails with a diagnostic: a
``tf.TPUReplicateMetadata`` without a string ``_tpu_replicate``, a
``_tpu_replicate``, ``device`` or sharding attribute TF reads as a string
that is not one. The sharding messages print the OpSharding as protobuf's
DebugString, without its ``tile_shape`` and ``metadata`` fields; its first
line, which protobuf picks at random among links with random trailing spaces,
is ``goo.gle/debugonly`` and one space here.
"""
from .. import _tfmlir
from ..shapes.xla_protos import SHARDING_MAXIMAL, SHARDING_TUPLE, parse_op_sharding, _signed32
from .names import (ASSERT, CONST, FETCH, FUNC, GRAPH, IDENTITY, INFEED_DEQUEUE_TUPLE,
                             ISLAND, MODULE,
                             OUTFEED_ENQUEUE_TUPLE, PARTITIONED_CALL, RETURN,
                             STATEFUL_PARTITIONED_CALL, TPU_PARTITIONED_CALL,
                             TPU_PARTITIONED_INPUT, TPU_PARTITIONED_INPUT_V2,
                             TPU_PARTITIONED_OUTPUT, TPU_PARTITIONED_OUTPUT_V2,
                             TPU_REPLICATE_METADATA, TPU_REPLICATED_INPUT, TPU_REPLICATED_OUTPUT,
                             WHILE, XLA_SET_DYNAMIC_DIMENSION_SIZE, YIELD)
from .analysis.tpu_inputs import (DEVICE_ATTR, ERROR, WARNING, NotAString,
                                  potential_unsupported_op, text, v1_control_flow_warnings)
from .analysis.outside_compilation import OUTSIDE_COMPILATION_ATTR
from .framework import Pass, register_pass
from . import attributes

TPU_REPLICATE_ATTR = "_tpu_replicate"
COMPILE_DEVICE_TYPE_ATTR = "_xla_compile_device_type"
XLA_SHARDING_ATTR = "_XlaSharding"
SHARDING_ATTR = "sharding"
TPU_DEVICE = "TPU"

CHECK = "TF2XLA TPU bridge input check: "
CHECK_XLA = "TF/XLA TPU bridge input check: "

_IO_OPS = frozenset({TPU_REPLICATED_INPUT, TPU_REPLICATED_OUTPUT, TPU_PARTITIONED_INPUT,
                     TPU_PARTITIONED_INPUT_V2, TPU_PARTITIONED_OUTPUT, TPU_PARTITIONED_OUTPUT_V2})
_NOT_REGULAR = _IO_OPS | {MODULE, GRAPH, RETURN, FUNC, YIELD, ISLAND, TPU_REPLICATE_METADATA,
                          FETCH, OUTFEED_ENQUEUE_TUPLE}
_BOTH_XLA_AND_NOT = frozenset({CONST, WHILE, ASSERT, XLA_SET_DYNAMIC_DIMENSION_SIZE})
_PARTITIONED_CALLS = frozenset({STATEFUL_PARTITIONED_CALL, PARTITIONED_CALL, TPU_PARTITIONED_CALL})
_EXEMPT = _IO_OPS | {TPU_REPLICATE_METADATA}
# The attributes the checks read, fetched for every op at once.
_READ_ATTRS = (TPU_REPLICATE_ATTR, DEVICE_ATTR, OUTSIDE_COMPILATION_ATTR, XLA_SHARDING_ATTR,
               SHARDING_ATTR, COMPILE_DEVICE_TYPE_ATTR)



class _Metadata:
    """What the checks read of a ``tf.TPUReplicateMetadata``."""
    __slots__ = ("key", "cluster_attr", "num_replicas", "num_cores_per_replica",
                 "allow_soft_placement")

    def __init__(self, op, key):
        self.key = key
        self.cluster_attr = op.attributes[TPU_REPLICATE_ATTR]
        self.num_replicas = _int_attr(op, "num_replicas", 0)
        self.num_cores_per_replica = _int_attr(op, "num_cores_per_replica", 1)
        self.allow_soft_placement = attributes.boolean(op, "allow_soft_placement", False)


def _int_attr(op, name, default):
    value = attributes.integer(op, name)
    return default if value is None else _signed32(value)  # TF reads it into an int




@register_pass
class TPUValidateInputsPass(Pass):
    argument = "tf-tpu-validate-inputs"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_executor")

    def run_on_operation(self, module):
        self.mark_all_analyses_preserved()  # read-only: the IR is never changed
        module = module.operation
        try:
            diagnostics = _Validator(module).run()
        except NotAString as err:
            self.fail(str(err), err.op)
        errors = [k for k, (severity, _, _) in enumerate(diagnostics) if severity == ERROR]
        last = errors[-1] if errors else None
        for k, (severity, op, message) in enumerate(diagnostics):
            if k == last:
                continue
            if severity == ERROR:
                self.emit_error(message, op)
            else:
                self.warn(message, op)
        if last is not None:
            self.fail(diagnostics[last][2], diagnostics[last][1])


class _Validator:
    """The checks, on a native table of every op of the module (post-order; ops are
    indices into it, materialized only for I/O ops and diagnostics)."""

    def __init__(self, module):
        self.module = module
        self.context = module.context
        table = self.table = _tfmlir.OpTable(module, "post")
        self.names = table.names()
        self.parents = table.parents()
        self.first = table.first_descendants()
        self.defs = table.operand_defs()
        self.users = table.users()
        self.num_results = table.num_results()
        self.attrs = {name: table.strings(name) for name in _READ_ATTRS}
        self._bad_types = None  # per op: an operand or result is not valid for XLA
        self._cluster_attrs = None  # per op: its _tpu_replicate attribute (objects)
        self.diagnostics = []
        self.registered = {}  # op name -> registered in the context
        self.metadata = {}  # cluster name (bytes) -> _Metadata
        self.predecessor_cache = {}  # index of a defining op -> (I/O ops, regular ops) in it
        self.io_cache = {}  # (index of an I/O op, metadata key) -> (diagnostics, ok)

    # -- op kinds and attributes ------------------------------------------------

    def _registered(self, name):
        known = self.registered.get(name)
        if known is None:
            known = self.registered[name] = self.context.is_registered_operation(name)
        return known

    def regular(self, i):
        return self.is_regular[i]

    def string(self, i, name):
        """The bytes of op i's string attribute `name` (see analysis.tpu_inputs.string_attr)."""
        value = self.attrs[name][i]
        if value is None or isinstance(value, bytes):
            return value
        raise NotAString(self.table.op(i), name)

    def error(self, i, message):
        self.diagnostics.append((ERROR, self.table.op(i), f"'{self.names[i]}' op {message}"))

    def warning(self, i, message):
        self.diagnostics.append((WARNING, self.table.op(i), message))

    # -- the walk -------------------------------------------------------------

    def run(self):
        names = self.names
        for i in self.table.named(TPU_REPLICATE_METADATA):
            cluster = self.string(i, TPU_REPLICATE_ATTR)
            if cluster is None:
                raise NotAString(self.table.op(i), TPU_REPLICATE_ATTR)
            self.metadata[cluster] = _Metadata(self.table.op(i), i)
        # Per op name: regular, checked for XLA or not; per op: what it holds. The checks
        # run only where they can find something (same results and order as running all).
        regular_name, xla_name = {}, {}
        for name in set(names):
            registered = self._registered(name)
            regular_name[name] = not registered or name not in _NOT_REGULAR
            xla_name[name] = not registered or name not in _BOTH_XLA_AND_NOT
        self.is_regular = regular = [regular_name[name] for name in names]
        attrs = self.attrs
        clusters = attrs[TPU_REPLICATE_ATTR]
        shardings = [a is not None or b is not None
                     for a, b in zip(attrs[XLA_SHARDING_ATTR], attrs[SHARDING_ATTR])]
        single_core = attrs[COMPILE_DEVICE_TYPE_ATTR]
        self.has_replicated_io = any(self._registered(name) for name in
                                     (TPU_REPLICATED_INPUT, TPU_REPLICATED_OUTPUT)
                                     if self.table.named(name))
        # Outside clusters, check_cluster_io finds something only next to a replicated
        # input or output: the ops whose operands' defining ops hold a TPUReplicatedInput
        # (the input and its ancestors), or whose parent defines a TPUReplicatedOutput's
        # operand.
        near_io = self._near_replicated_io() if self.has_replicated_io else ()
        for i, name in enumerate(names):
            if name == INFEED_DEQUEUE_TUPLE:
                found = potential_unsupported_op(self.table.op(i))
                if found is not None:
                    self.diagnostics.append(found)
            if regular[i] and (clusters[i] is not None or i in near_io):
                self.check_cluster_io(i)
            if xla_name[name] and clusters[i] is not None:
                self.check_xla_and_non_xla(i)  # (must be XLA needs a cluster)
            if regular[i] and shardings[i]:
                self.check_maximal_sharding(i)
                self.check_tuple_sharding_arity(i)
            if single_core[i] is not None:
                self.check_single_core_tpu(i)
        self.diagnostics.extend(v1_control_flow_warnings(self.module, self.table))
        return self.diagnostics

    # -- neighbours -----------------------------------------------------------

    def _near_replicated_io(self):
        """The ops outside clusters whose cluster I/O check can report something."""
        parents, defs = self.parents, self.defs
        holders = set()  # ops holding a TPUReplicatedInput (itself included)
        for k in self.table.named(TPU_REPLICATED_INPUT):
            while k >= 0 and k not in holders:
                holders.add(k)
                k = parents[k]
        output_defs = {d for k in self.table.named(TPU_REPLICATED_OUTPUT) for d in defs[k]}
        near = set()
        if holders:
            near.update(i for i, ds in enumerate(defs) if not holders.isdisjoint(ds))
        if output_defs:
            near.update(i for i, p in enumerate(parents) if p in output_defs)
        return near

    def successors(self, i):
        """Users of the results of op i's parent op (TF's ``GetSuccessors``)."""
        parent = self.parents[i]
        return self.users[parent] if parent >= 0 else []

    def predecessors(self, i):
        """(I/O ops, regular ops) among the ops nested in the defining ops of op i's operands,
        themselves included, post-order (TF's ``GetPredecessors``, split by what is checked)."""
        io_ops, regular_ops = [], []
        for d in self.defs[i]:
            if d < 0:
                continue  # a block argument
            found = self.predecessor_cache.get(d)
            if found is None:
                nested = range(self.first[d], d + 1)
                names = self.names
                found = ([k for k in nested if names[k] in _IO_OPS and self._registered(names[k])],
                         [k for k in nested if self.regular(k)])
                self.predecessor_cache[d] = found
            io_ops.extend(found[0])
            regular_ops.extend(found[1])
        return io_ops, regular_ops

    # -- cluster I/O ----------------------------------------------------------

    def check_cluster_io(self, i):
        names = self.names
        cluster = self.string(i, TPU_REPLICATE_ATTR)
        if cluster is not None and not cluster:
            self.error(i, f"{CHECK}empty _tpu_replicate attr for op = {names[i]}")
            return False
        metadata = self.metadata.get(cluster) if cluster is not None else None
        io_predecessors = (self.predecessors(i)[0] if metadata is not None or self.has_replicated_io
                           else ())
        for pred in io_predecessors:
            if cluster is not None:
                if metadata is not None and not self.check_io_op(pred, metadata):
                    return False
            elif names[pred] == TPU_REPLICATED_INPUT:
                self.error(pred, f"{CHECK}non-cluster op = {names[i]} has invalid predecessor op = "
                                 f"{names[pred]}")
                return False
        for succ in self.successors(i):
            regular = self.regular(succ)
            if cluster is not None:
                if not regular:
                    if metadata is not None and not self.check_io_op(succ, metadata):
                        return False
                elif not self.check_cluster_successor(succ, cluster, i):
                    return False
            elif not regular and names[succ] == TPU_REPLICATED_OUTPUT:
                self.error(succ, f"{CHECK}non-cluster op = {names[i]} has invalid successor op = "
                                 f"{names[succ]}")
                return False
        return True

    def check_cluster_successor(self, succ, cluster, parent):
        names = self.names
        succ_cluster = self.string(succ, TPU_REPLICATE_ATTR)
        if not succ_cluster:
            self.warning(succ, f"{CHECK}cluster op = {names[parent]} with cluster = {text(cluster)} "
                               f"has successor as non cluster op {names[succ]}")
            return True
        if succ_cluster != cluster:
            self.error(succ, f"{CHECK}mismatch clusters tpu_replicate attr. Parent op "
                             f"{names[parent]} with cluster = {text(cluster)} has successor cluster "
                             f"op {names[succ]} with cluster = {text(succ_cluster)}")
            return False
        return True

    def check_io_op(self, k, metadata):
        """TF's ``CheckReplicatedIOOp``; the diagnostics of one (op, metadata) are computed once
        and repeated each time TF would check it again."""
        name = self.names[k]
        if name not in _IO_OPS or not self._registered(name):
            return True
        key = (k, metadata.key)
        cached = self.io_cache.get(key)
        if cached is None:
            saved = self.diagnostics
            self.diagnostics = []
            ok = self._check_io_op(k, metadata)
            cached = self.io_cache[key] = (self.diagnostics, ok)
            self.diagnostics = saved
        self.diagnostics.extend(cached[0])
        return cached[1]

    def _check_io_op(self, k, metadata):
        op = self.table.op(k)
        name = self.names[k]
        replicas, cores = metadata.num_replicas, metadata.num_cores_per_replica
        if name == TPU_REPLICATED_INPUT:
            arity = len(self.defs[k])
            if attributes.boolean(op, "is_packed", False) and arity != 1:
                self.error(k, f"{CHECK}packed with number of inputs not 1. "
                              f"num_replicas={replicas} no. of inputs={arity}")
                return False
            if not attributes.boolean(op, "is_packed", False) and arity != replicas:
                self.error(k, f"{CHECK}number of inputs inconsistent. "
                              f"num_replicas={replicas} no. of inputs={arity}")
                return False
            for succ in self.successors(k):
                if self.regular(succ) and not self.check_cluster_attr(
                        succ, metadata, f"{name} op has successor op {self.names[succ]} with error: "):
                    return False
            return True
        if name == TPU_REPLICATED_OUTPUT:
            arity = self.num_results[k]
            if arity != replicas:
                self.error(k, f"{CHECK}number of outputs inconsistent. "
                              f"num_replicas={replicas} no. of outputs={arity}")
                return False
            for pred in self.predecessors(k)[1]:
                if not self.check_cluster_attr(
                        pred, metadata, f"{name} op has predecessor op {self.names[pred]} with error: "):
                    return False
            return True
        if name == TPU_PARTITIONED_INPUT:
            arity = len(self.defs[k])
            if arity != cores:
                self.error(k, f"{CHECK}number of inputs inconsistent. "
                              f"num_cores_per_replica={cores} no. of inputs={arity}")
                return False
            return True
        if name == TPU_PARTITIONED_INPUT_V2:
            arity = len(self.defs[k])
            packed = attributes.boolean(op, "is_packed", False)
            if packed and arity != 1:
                self.error(k, f"{CHECK}packed with number of inputs not 1. "
                              f"num_cores_per_replicas={cores} no. of inputs={arity}")
                return False
            if not packed and arity != cores:
                self.error(k, f"{CHECK}number of inputs inconsistent. "
                              f"num_cores_per_replica={cores} no. of inputs={arity}")
                return False
            return True
        arity = self.num_results[k]  # tf.TPUPartitionedOutput(V2)
        if arity != cores:
            self.error(k, f"{CHECK}number of outputs inconsistent. "
                          f"num_cores_per_replica={cores} no. of outputs={arity}")
            return False
        return True

    def check_cluster_attr(self, k, metadata, context):
        if self.attrs[TPU_REPLICATE_ATTR][k] is None:
            self.error(k, f"{CHECK}{context}missing _tpu_replicate attr")
            return False
        if self._cluster_attrs is None:
            self._cluster_attrs = self.table.attributes(TPU_REPLICATE_ATTR)
        actual = self._cluster_attrs[k]
        if actual != metadata.cluster_attr:
            self.error(k, f"{CHECK}{context}invalid _tpu_replicate attr. Expected attr: "
                          f"{metadata.cluster_attr}, Actual attr: {actual}")
            return False
        return True

    # -- XLA or not -----------------------------------------------------------

    def check_xla_and_non_xla(self, i):
        name = self.names[i]
        if name in _EXEMPT and self._registered(name):
            return True
        if not (self.must_be_xla(i) and self.must_not_be_xla(i)):
            return True
        if name == IDENTITY:
            self.warning(i, f"{CHECK_XLA}found invalid op. {name} can't be both xla and "
                            f"non-xla")
            return True
        self.error(i, f"{CHECK_XLA}found invalid op. Can't be both xla and non-xla")
        return False

    def must_be_xla(self, i):
        if self.names[i] in _PARTITIONED_CALLS:
            return False
        cluster = self.string(i, TPU_REPLICATE_ATTR)
        if cluster is None:
            return False
        metadata = self.metadata.get(cluster)
        if metadata is None:
            return False
        if not metadata.allow_soft_placement and self.attrs[OUTSIDE_COMPILATION_ATTR][i] is None:
            return True
        device = self.string(i, DEVICE_ATTR)
        return device is not None and TPU_DEVICE.encode() in device

    def must_not_be_xla(self, i):
        if self._bad_types is None:  # ops with a tf_type.string operand or result
            self._bad_types = set(self.table.ops_with_element_types(
                [_tfmlir.StringType.get(self.context)]))
        return i in self._bad_types

    # -- sharding -------------------------------------------------------------

    def _sharding_bytes(self, i):
        if self.attrs[XLA_SHARDING_ATTR][i] is not None:
            return self.string(i, XLA_SHARDING_ATTR)
        if self.attrs[SHARDING_ATTR][i] is not None:
            return self.string(i, SHARDING_ATTR)
        return None

    def check_maximal_sharding(self, i):
        cluster = self.string(i, TPU_REPLICATE_ATTR)
        if cluster is None:
            return True
        data = self._sharding_bytes(i)
        if data is None or not cluster:
            return True
        metadata = self.metadata.get(cluster)
        if metadata is None:
            return True
        cores = metadata.num_cores_per_replica
        sharding = parse_op_sharding(data) if data else None
        if sharding is None:
            return True
        for leaf in sharding.flattened():
            if leaf.type != SHARDING_MAXIMAL:
                continue
            devices = leaf.tile_assignment_devices
            if len(devices) != 1:
                self.error(i, f"{CHECK_XLA}There must be exactly 1 device for MAXIMAL sharding. "
                              f"Number of devices assigned are {len(devices)}\n")
                return False
            device = _signed32(devices[0])
            if device >= cores or device < 0:
                self.error(i, f"{CHECK}invalid sharding device {device} for "
                              f"num_cores_per_replica = {cores}\n The sharding is "
                              f"{leaf.debug_string()}\n")
                return False
        return True

    def check_tuple_sharding_arity(self, i):
        data = self._sharding_bytes(i)
        if not data:
            return True
        sharding = parse_op_sharding(data)
        if sharding is None or sharding.type != SHARDING_TUPLE:
            return True
        count, arity = len(sharding.tuple_shardings), self.num_results[i]
        if count != arity:
            self.error(i, f"{CHECK}invalid no. of tuple shardings {count} for arity = {arity}\n"
                          f" The sharding is {sharding.debug_string()}\n")
            return False
        return True

    # -- single-core TPU --------------------------------------------------------

    def check_single_core_tpu(self, i):
        if self.attrs[COMPILE_DEVICE_TYPE_ATTR][i] == b"TPU":  # a StringAttr "TPU"
            self.error(i, f"{CHECK}found a single-core TPU graph")
            return False
        return True
