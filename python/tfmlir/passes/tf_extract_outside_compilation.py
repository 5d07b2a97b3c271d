"""Moves the outside-compiled ops of each TPU cluster to its host, with device/host transfers.

As TF 2.21's -tf-extract-outside-compilation (the pass after
-tf-extract-head-tail-outside-compilation in the clustering bridge; its input
is a ``tf_device.cluster`` whose ops to run on the host carry
``_xla_outside_compilation``).

Every ``tf_device.cluster`` of the module (nested clusters first) holding an op
with an ``_xla_outside_compilation`` attribute (of any type, at any depth) is
replaced by a ``tf_device.parallel_execute`` put where it was, with one region
per host core and a last region for the device:

* a host region holds a ``tf_device.launch`` on the core's host (TF's
  ``GetDeviceToHostMap``: ``TPU_REPLICATED_HOST_<core>`` for each of the
  cluster's ``num_cores_per_replica`` cores inside a ``tf_device.replicate``;
  else, when ``tf.devices`` lists a TPU, the host of the full-mesh TPU
  assignment; else the module's CPU:0 device). Only core 0's launch receives
  host ops; the others keep their message identification ops.
* the device region holds a new ``tf_device.cluster`` with all the old one's
  attributes, the device ops, and the results the device computes.
* the ``parallel_execute`` results are the cluster results computed on the
  host (values of non-XLA type returned by host ops), then the device ones;
  the old cluster's uses are rewired accordingly.

Each host launch starts with ``tf._XlaCompileMlirPlaceholderProgramKey`` (the
compilation key, a ``tensor<3x!tf_type.string>``) and, inside a
``tf_device.replicate``, the core's device ordinal:
``tf._TPUDeviceOrdinalPlaceholder {logical_core = <core>}`` when ``tf.devices``
has a TPU, else a ``tf.Const`` 0 (both erased when no transfer happened, the
ordinal also outside replicate).

Outside-compiled ops are grouped as TF does, walking each block in order: an
op joins the current group; the group is closed when its outputs needing a
transfer (XLA-typed results used by non-outside-compiled ops, or by any op
when shapes are dynamic) are all static and none of its non-XLA results is
used by a non-return op, or when one of its dynamic outputs is used by a
device op; a group is also closed before an op whose operands (nested ones
too) all have static shapes. A group left open at the end of a block stays
where it is. For each closed group, in a block of the device side:

* ``tf._XlaHostComputeMlir`` is put before its last op, taking the device
  values the group reads (TF's ``GetExternalOperands``: XLA-typed values
  defined in the cluster by non-outside-compiled ops, or block arguments of
  the group's region; every value defined outside the group when some output
  is dynamic) and returning the values the device reads back;
  ``send_key = "host_compute_channel_<n>_args"`` (``if_predicate_channel_<n>``
  for a lone ``tf.IfRegion`` receiving only its predicate),
  ``recv_key = "host_compute_channel_<n>_retvals"``, ``host_mlir_module``:
  empty, or when a returned value has a dynamic shape, the printed module
  holding ``func.func @host_func`` with a copy of the group (for shape
  inference; printed with locations, as TF's default
  ``tf_mlir_enable_debug_info_serialization``). ``<n>`` counts the host computes that transfer something, per
  cluster from 0 (shared with the while-condition channels).
* on the host, at the insertion point: ``tf._XlaRecvAtHost`` (``key`` = the
  args key, ``device_ordinal = 0``) of the read values, the group's ops
  (``device`` removed), ``tf._XlaSendFromHost`` (retvals key) of the returned
  values; inside a replicate ``tf._XlaRecvAtHostV2`` / ``tf._XlaSendFromHostV2``
  take the ordinal as an operand. All carry ``_xla_has_host_transfer = true``
  and the cluster's ``_xla_compile_device_type`` as ``device_type`` (when it
  has one). A host compute without transfers is erased.
* uses are rewired as TF does (the received values replace the device values
  in the host region and, for static shapes, in later outside-compiled ops of
  the block; the host compute's results replace the returned values outside
  the host region and, for static shapes, outside outside-compiled ops).

Map outside compilation (ops with ``_xla_map_outside_compilation``, one host
computation per core): the device values are converted with
``tf.XlaSpmdFullToShardShape`` (the inputs' common ``_XlaSharding``, ``dim =
-1``) to shards (first dimension divided by the number of cores), the host
compute (``manual_sharding = true``) returns shards converted back with
``tf.XlaSpmdShardToFullShape``, and core 0's host ops are cloned into every
other core's launch with that core's key (and ``device_ordinal`` attribute or
ordinal operand).

Control flow: every ``tf.IfRegion`` / ``tf.WhileRegion`` of the cluster
holding outside-compiled ops (innermost first) gets a host twin, put before it,
marked ``_xla_outside_compilation = "temp"`` (so it moves to the host like an
op): a result-less ``tf.IfRegion`` on the same predicate (``is_stateless =
false``, the ``_then_func_name`` / ``_else_func_name`` kept) whose branches
receive the host ops of the device branches; a ``tf.WhileRegion``
(``parallel_iterations`` kept, its default 10 when absent; ``is_stateless = false``) whose condition
receives the device condition value sent with ``tf.XlaSendToHost`` (key
``while_condition_channel_<n>``) after the condition's host ops, and whose
body receives the body's host ops. The device control flow op gets
``is_stateless = false``.

At the end every ``_xla_outside_compilation`` and
``_xla_map_outside_compilation`` attribute of the module is removed (outside
clusters and in functions too; TF's pass does not follow calls: an
outside-compiled op in a function called from a cluster stays on the device
and only loses its mark).

Failures (TF's diagnostics; the module is left unchanged):

* an op with a string ``_xla_outside_compilation`` nested in another one;
* a bad ``tf.devices`` attribute (at the module);
* no host for a cluster (at the cluster, see the host rules above);
* ``_xla_map_outside_compilation`` mixed with ordinary outside compilation (in
  the whole module), or inside control flow; a map input or output that is not
  a ranked tensor with a known first dimension divisible by the number of
  cores, an input whose defining op has no string ``_XlaSharding`` (TF crashes
  on a block argument), inputs with different shardings;
* a cluster with several host cores returning values computed on the host (TF
  asserts);
* a resulting cluster returning a value of non-XLA type (resource or string),
  checked on every cluster of the module.

TF's flag for this pass was ``-tf-tpu-extract-outside-compilation`` before
2.13 (the seed's name); it is registered as an alias.
"""
from collections import deque

from mlir import ir

from ..dialects import tf_device
from .. import irsafe
from .analysis.devices import (HostDeviceError, device_to_host_map, has_tpu_device, module_devices)
from .analysis.executor import op_key
from .names import (CLUSTER, CONST, DEVICE_RETURN, FUNC, IF_REGION, LAUNCH, MODULE,
                             PARALLEL_EXECUTE, REPLICATE, RETURN, TF_YIELD,
                             TPU_DEVICE_ORDINAL_PLACEHOLDER, WHILE_REGION)
from .analysis.types import can_be_refined, type_valid_for_xla
from .analysis.outside_compilation import MAP_OUTSIDE_COMPILATION_ATTR, OUTSIDE_COMPILATION_ATTR
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import enclosing_op, ops_named, ops_with_attributes, walk_ops
from .walk import ADVANCE, INTERRUPT, POST_ORDER

COMPILE_DEVICE_TYPE_ATTR = "_xla_compile_device_type"
HOST_TRANSFER_ATTR = "_xla_has_host_transfer"
DEVICE_ATTR = "device"
HOST_FUNCTION = "host_func"

PROGRAM_KEY = "tf._XlaCompileMlirPlaceholderProgramKey"
HOST_COMPUTE = "tf._XlaHostComputeMlir"
RECV_AT_HOST = "tf._XlaRecvAtHost"
RECV_AT_HOST_V2 = "tf._XlaRecvAtHostV2"
SEND_FROM_HOST = "tf._XlaSendFromHost"
SEND_FROM_HOST_V2 = "tf._XlaSendFromHostV2"
SEND_TO_HOST = "tf.XlaSendToHost"
_RECVS = frozenset({RECV_AT_HOST, RECV_AT_HOST_V2})
_TRANSFERS = frozenset({RECV_AT_HOST, RECV_AT_HOST_V2, SEND_FROM_HOST, SEND_FROM_HOST_V2})


@register_pass
class ExtractOutsideCompilationPass(Pass):
    argument = "tf-extract-outside-compilation"
    aliases = ("tf-tpu-extract-outside-compilation",)  # the seed's name
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device", "func")

    def run_on_operation(self, module):
        module = module.operation
        _check_no_nested_marks(module)
        parsed, error = module_devices(module)
        if error is not None:
            self.fail(f"'{MODULE}' op {error}", module)
        devices = [p for _name, p in parsed]
        clusters = ops_named(module, CLUSTER)
        state = _PassState(has_tpu_device(devices))
        for cluster in clusters:
            if not _has_mark_nested(cluster):
                continue
            try:
                hosts = device_to_host_map(cluster, devices)
            except HostDeviceError as error:
                raise PassFailure(str(error), cluster) from None
            _ClusterExtraction(state, cluster, hosts).run()
        for tmp in state.tmp_parallel_executes:
            erase_op(tmp)

        marks = (OUTSIDE_COMPILATION_ATTR, MAP_OUTSIDE_COMPILATION_ATTR)
        for op in ops_with_attributes(module, marks):
            attributes = op.attributes
            for name in marks:
                if name in attributes:
                    del attributes[name]
        _check_cluster_results(module)


class _PassState:
    def __init__(self, has_tpu):
        self.has_tpu = has_tpu
        self.is_map_oc = None  # TF's program-wide std::optional<bool>
        self.tmp_parallel_executes = []


# --- predicates (TF's helpers) ------------------------------------------------------------------

def _has_mark(op):
    return OUTSIDE_COMPILATION_ATTR in op.attributes


def _parent_op(op):
    parent = op.parent
    return parent.operation if parent is not None else None


def _has_mark_ancestor(op):
    """TF's ``HasOutsideCompilationAncestor``: `op` or an ancestor carries the mark."""
    while op is not None:
        if _has_mark(op):
            return True
        op = _parent_op(op)
    return False


def _has_mark_nested(op):
    """TF's ``HasOutsideCompilationNested``: an op nested in `op` (not `op`) carries the mark."""
    return any(nested != op for nested in ops_with_attributes(op, OUTSIDE_COMPILATION_ATTR))


def _has_dynamic_results(op):
    return any(can_be_refined(result.type) for result in op.results)


def _has_dynamic_operands_nested(op):
    """TF's ``HasDynamicExternalValues``: an operand of `op` or a nested op is refinable."""
    found = []

    def visit(nested):
        if any(can_be_refined(value.type) for value in nested.operation.operands):
            found.append(True)
            return INTERRUPT
        return ADVANCE

    op.walk(visit, POST_ORDER)
    return bool(found)


def _defining_op(value):
    if isinstance(value, ir.OpResult):
        return value.owner.operation
    return None


def _parent_region(op):
    return op.block.region


def _region_contains(region, other):
    """MLIR's ``Region::isAncestor``: `other` is `region` or nested in it."""
    while other is not None:
        if other == region:
            return True
        owner = other.owner.operation
        if owner.parent is None:
            return False
        other = owner.block.region
    return False


def _is_ancestor(op, other):
    """MLIR's ``Operation::isAncestor``: `other` is `op` or nested in it."""
    key = op_key(op)
    while other is not None:
        if op_key(other) == key:
            return True
        other = _parent_op(other)
    return False


def _replace_uses_if(old, new, keep):
    """Replaces the uses of `old` by `new` where ``keep(owner)`` is true."""
    chosen = [(use.owner.operation, use.operand_number) for use in old.uses]
    for owner, number in chosen:
        if keep(owner):
            owner.operands[number] = new


class _OrderedValues:
    """LLVM's SetVector of values."""

    def __init__(self):
        self._items = {}

    def add(self, value):
        self._items.setdefault(value, None)

    def __contains__(self, value):
        return value in self._items

    def __len__(self):
        return len(self._items)

    def list(self):
        return list(self._items)


# --- checks -----------------------------------------------------------------------------------

def _is_string_marked(op):
    attributes = op.attributes
    return (OUTSIDE_COMPILATION_ATTR in attributes
            and isinstance(attributes[OUTSIDE_COMPILATION_ATTR], ir.StringAttr))


def _check_no_nested_marks(module):
    """TF's ``CheckPreconditions``: no string-marked op below a string-marked op (the first
    offender in post-order is reported)."""
    for op in ops_with_attributes(module, OUTSIDE_COMPILATION_ATTR):
        if not _is_string_marked(op):
            continue
        parent = _parent_op(op)
        while parent is not None:
            if _is_string_marked(parent):
                raise PassFailure(f"'{op.name}' op An op marked for outside compilation (having "
                                  f"attribute {OUTSIDE_COMPILATION_ATTR}) has an ancestor marked for "
                                  f"outside compilation.", op)
            parent = _parent_op(parent)


def _check_cluster_results(module):
    """TF's ``CheckPostconditions``: every cluster result has an XLA type."""
    for cluster in ops_named(module, CLUSTER):
        for result in cluster.results:
            if not type_valid_for_xla(result.type):
                raise PassFailure("The ExtractHeadTailOutsideCompilation pass produced a Device cluster "
                                  f"with a result with a non-XLA type: {result.type}", cluster)


# --- one cluster ----------------------------------------------------------------------------

class _ClusterExtraction:
    """TF's ``CreateParallelExecuteForOutsideCompilation`` for one cluster."""

    def __init__(self, state, cluster, hosts):
        self.state = state
        self.cluster = cluster
        self.hosts = hosts
        self.context = cluster.context
        self.loc = cluster.location
        attributes = cluster.attributes
        device_type = attributes[COMPILE_DEVICE_TYPE_ATTR] if COMPILE_DEVICE_TYPE_ATTR in attributes else None
        self.device_type = device_type if isinstance(device_type, ir.StringAttr) else None
        self.key_index = 0  # TF's communication_key_index
        self.replicated = enclosing_op(cluster, REPLICATE) is not None
        with self.context:
            self.i64 = ir.IntegerType.get_signless(64)
            self.true = ir.BoolAttr.get(True)
            self.false = ir.BoolAttr.get(False)
            self.key_type = ir.RankedTensorType.get([3], ir.Type.parse("!tf_type.string"))
            self.ordinal_type = ir.RankedTensorType.get([], self.i64)

    # -- structure --

    def run(self):
        cluster, loc = self.cluster, self.loc
        n_hosts = len(self.hosts)
        tmp = ir.Operation.create(PARALLEL_EXECUTE, results=[], regions=n_hosts + 1, loc=loc,
                                  ip=ir.InsertionPoint(cluster))
        for region in tmp.regions:
            region.blocks.append()
        tmp_launches, insertion_points, keys, key_ops, ordinal_ops = [], [], [], [], []
        for core, host in enumerate(self.hosts):
            block = tmp.regions[core].blocks[0]
            launch = self._launch(host, [], ir.InsertionPoint(block))
            tf_device.ReturnOp([], loc=loc, ip=ir.InsertionPoint(block))
            terminator = launch.regions[0].blocks[0].operations[0].operation
            ip = ir.InsertionPoint(terminator)
            key_op = ir.Operation.create(PROGRAM_KEY, results=[self.key_type], loc=loc, ip=ip)
            if self.state.has_tpu:
                ordinal_op = ir.Operation.create(
                    TPU_DEVICE_ORDINAL_PLACEHOLDER, results=[self.ordinal_type],
                    attributes={"logical_core": ir.IntegerAttr.get(self.i64, core)}, loc=loc, ip=ip)
            else:
                ordinal_op = ir.Operation.create(
                    CONST, results=[self.ordinal_type],
                    attributes={"value": ir.DenseElementsAttr.get_splat(
                        self.ordinal_type, ir.IntegerAttr.get(self.i64, 0))}, loc=loc, ip=ip)
            tmp_launches.append(launch)
            insertion_points.append(terminator)
            key_ops.append(key_op)
            ordinal_ops.append(ordinal_op)
            keys.append(key_op.results[0])
        self.keys = keys
        self.ordinals = [op.results[0] for op in ordinal_ops] if self.replicated else []

        self._decompose_control_flow()
        returns_from_host = []
        body = cluster.regions[0].blocks[0]
        self._move_to_host(body, insertion_points, False, returns_from_host)

        terminator = _terminator(body)
        returns_from_device = []
        if terminator is not None and terminator.name == DEVICE_RETURN:
            host_set = set(returns_from_host)
            returns_from_device = [v for v in terminator.operands if v not in host_set]

        if self.key_index == 0:
            for op in key_ops:
                erase_op(op)
        if self.key_index == 0 or not self.ordinals:
            for op in ordinal_ops:
                erase_op(op)
        for launch in tmp_launches:
            for op in walk_ops(launch):
                if _has_mark(op):
                    del op.attributes[OUTSIDE_COMPILATION_ATTR]

        if returns_from_host and len(self.hosts) > 1:
            # TF asserts here: only core 0's launch can return host values.
            raise PassFailure(f"'{CLUSTER}' op cannot return values computed on the host from a "
                              f"cluster with {len(self.hosts)} host cores", cluster)
        parallel_execute = self._final_parallel_execute(tmp_launches, returns_from_host,
                                                        returns_from_device)
        self.state.tmp_parallel_executes.append(tmp)
        self._remap_results(parallel_execute, terminator, returns_from_host, returns_from_device)
        erase_op(cluster)

    def _launch(self, host, results, ip):
        values = list(results)
        launch = ir.Operation.create(LAUNCH, results=[v.type for v in values],
                                     attributes={DEVICE_ATTR: ir.StringAttr.get(host, self.context)},
                                     regions=1, loc=self.loc, ip=ip)
        block = launch.regions[0].blocks.append()
        tf_device.ReturnOp(values, loc=self.loc, ip=ir.InsertionPoint(block))
        return launch

    def _final_parallel_execute(self, tmp_launches, from_host, from_device):
        cluster, loc = self.cluster, self.loc
        n_hosts = len(self.hosts)
        types = [v.type for v in from_host] + [v.type for v in from_device]
        parallel_execute = ir.Operation.create(PARALLEL_EXECUTE, results=types, regions=n_hosts + 1,
                                               loc=loc, ip=ir.InsertionPoint(cluster))
        launches = []
        for core, host in enumerate(self.hosts):
            block = parallel_execute.regions[core].blocks.append()
            launch = self._launch(host, from_host, ir.InsertionPoint(block))
            launches.append(launch)
            tf_device.ReturnOp(list(launch.results), loc=loc,
                                ip=ir.InsertionPoint(block))
        block = parallel_execute.regions[n_hosts].blocks.append()
        attributes = irsafe.attribute_dict(cluster)
        new_cluster = ir.Operation.create(CLUSTER, results=[v.type for v in from_device],
                                          attributes=attributes, regions=1, loc=loc,
                                          ip=ir.InsertionPoint(block))
        cluster_block = new_cluster.regions[0].blocks.append()
        new_return = tf_device.ReturnOp(list(from_device), loc=loc,
                                         ip=ir.InsertionPoint(cluster_block))
        tf_device.ReturnOp(list(new_cluster.results), loc=loc,
                            ip=ir.InsertionPoint(block))
        _move_body_before(cluster.regions[0].blocks[0], new_return)
        for tmp_launch, launch in zip(tmp_launches, launches):
            _move_body_before(tmp_launch.regions[0].blocks[0],
                              _terminator(launch.regions[0].blocks[0]))
        return parallel_execute

    def _remap_results(self, parallel_execute, terminator, from_host, from_device):
        positions = {}
        for index, value in enumerate(terminator.operands):
            positions.setdefault(value, deque()).append(index)
        order = [positions[value].popleft() for value in list(from_host) + list(from_device)]
        old_results = self.cluster.results
        for index, new in zip(order, parallel_execute.results):
            _replace_uses_if(old_results[index], new,
                             lambda owner: not _is_proper_ancestor(parallel_execute, owner))

    # -- control flow --

    def _decompose_control_flow(self):
        found = []
        for op in self.cluster.regions[0].blocks[0].operations:
            def visit(nested):
                nested = nested.operation
                if nested.name in (IF_REGION, WHILE_REGION):
                    found.append(nested)
                return ADVANCE
            op.operation.walk(visit, POST_ORDER)
        for op in found:
            if not _has_mark_nested(op):
                continue
            if op.name == IF_REGION:
                self._decompose_if(op)
            else:
                self._decompose_while(op)

    def _decompose_if(self, if_op):
        loc = if_op.location
        attributes = {"is_stateless": self.false}
        for name in ("_then_func_name", "_else_func_name"):
            if name in if_op.attributes:
                attributes[name] = if_op.attributes[name]
        host_if = ir.Operation.create(IF_REGION, results=[], operands=[if_op.operands[0]],
                                      attributes=attributes, regions=2, loc=loc,
                                      ip=ir.InsertionPoint(if_op))
        yields = []
        for region in host_if.regions:
            block = region.blocks.append()
            yields.append(ir.Operation.create(TF_YIELD, operands=[], loc=loc,
                                              ip=ir.InsertionPoint(block)))
        for device_region, host_yield in zip(if_op.regions, yields):
            self._move_to_host(device_region.blocks[0], [host_yield], True, None)
        if_op.attributes["is_stateless"] = self.false
        host_if.attributes[OUTSIDE_COMPILATION_ATTR] = ir.StringAttr.get("temp", self.context)

    def _decompose_while(self, while_op):
        loc = while_op.location
        iterations = 10  # the attribute's default
        if "parallel_iterations" in while_op.attributes:
            iterations = ir.IntegerAttr(while_op.attributes["parallel_iterations"]).value
        attributes = {"is_stateless": self.false,
                      "parallel_iterations": ir.IntegerAttr.get(self.i64, iterations)}
        host_while = ir.Operation.create(WHILE_REGION, results=[], operands=[], attributes=attributes,
                                         regions=2, loc=loc, ip=ir.InsertionPoint(while_op))
        body = host_while.regions[1].blocks.append()
        body_yield = ir.Operation.create(TF_YIELD, operands=[], loc=loc, ip=ir.InsertionPoint(body))
        key = f"while_condition_channel_{self.key_index}"
        self.key_index += 1
        cond = host_while.regions[0].blocks.append()
        device_cond = while_op.regions[0].blocks[0]
        cond_terminator = _terminator(device_cond)
        condition = cond_terminator.operands[0]
        ir.Operation.create(SEND_TO_HOST, operands=[condition],
                            attributes={"key": ir.StringAttr.get(key, self.context)}, loc=loc,
                            ip=ir.InsertionPoint(cond_terminator))
        ordinal = self.ordinals[0] if self.ordinals else None
        recv = self._recv_at_host(loc, [condition.type], self.keys[0], ordinal, key,
                                  ir.InsertionPoint(cond))
        ir.Operation.create(TF_YIELD, operands=list(recv.results), loc=loc, ip=ir.InsertionPoint(cond))
        self._move_to_host(device_cond, [recv], True, None)
        self._move_to_host(while_op.regions[1].blocks[0], [body_yield], True, None)
        while_op.attributes["is_stateless"] = self.false
        host_while.attributes[OUTSIDE_COMPILATION_ATTR] = ir.StringAttr.get("temp", self.context)

    # -- transfers --

    def _recv_at_host(self, loc, types, key, ordinal, channel, ip):
        attributes = {"key": ir.StringAttr.get(channel, self.context)}
        if self.device_type is not None:
            attributes["device_type"] = self.device_type
        if ordinal is not None:
            name, operands = RECV_AT_HOST_V2, [key, ordinal]
        else:
            name, operands = RECV_AT_HOST, [key]
            attributes["device_ordinal"] = ir.IntegerAttr.get(self.i64, 0)
        op = ir.Operation.create(name, results=list(types), operands=operands, attributes=attributes,
                                 loc=loc, ip=ip)
        op.attributes[HOST_TRANSFER_ATTR] = self.true
        return op

    def _send_from_host(self, loc, values, key, ordinal, channel, ip):
        attributes = {"key": ir.StringAttr.get(channel, self.context)}
        if self.device_type is not None:
            attributes["device_type"] = self.device_type
        if ordinal is not None:
            name, operands = SEND_FROM_HOST_V2, list(values) + [key, ordinal]
        else:
            name, operands = SEND_FROM_HOST, list(values) + [key]
            attributes["device_ordinal"] = ir.IntegerAttr.get(self.i64, 0)
        op = ir.Operation.create(name, results=[], operands=operands, attributes=attributes,
                                 loc=loc, ip=ip)
        op.attributes[HOST_TRANSFER_ATTR] = self.true
        return op

    # -- grouping (TF's MoveToHostMultiCluster) --

    def _move_to_host(self, block, insertion_points, control_above, returns_from_host):
        group = []  # TF's clustered_ops, in order
        self.split_sharding = None  # TF's common_split_sharding, per block
        self.core_mappings = [{} for _ in insertion_points]  # TF's core_to_mapping
        for op in [nested.operation for nested in block.operations]:
            if _has_mark_ancestor(_parent_op(op)) or not _has_mark(op):
                continue
            self._check_map(op, control_above)
            if group and not _has_dynamic_operands_nested(op):
                operands = self._external_operands(group)
                outputs, host_outputs = _external_outputs(group)
                if returns_from_host is not None:
                    returns_from_host.extend(host_outputs)
                self._move_group(group, operands, outputs, insertion_points)
                group = []
            group.append(op)
            outputs, host_outputs = _external_outputs(group)
            if _should_close(outputs):
                operands = self._external_operands(group)
                if returns_from_host is not None:
                    returns_from_host.extend(host_outputs)
                self._move_group(group, operands, outputs, insertion_points)
                group = []

    def _check_map(self, op, control_above):
        is_map = MAP_OUTSIDE_COMPILATION_ATTR in op.attributes
        state = self.state
        if state.is_map_oc is not None:
            if is_map != state.is_map_oc:
                raise PassFailure(f"'{op.name}' op Cannot mix map_outside_compilation with ordinary "
                                  f"outside_compilation in the same graph.", op)
        else:
            state.is_map_oc = is_map
        if control_above and is_map:
            raise PassFailure(f"'{op.name}' op map_outside_compilation inside control flow is not "
                              f"implemented.", op)

    def _external_operands(self, group):
        """TF's ``GetExternalOperands``."""
        if _group_has_dynamic_outputs(group):
            return _all_external_operands(group)
        return self._static_external_operands(group)

    def _static_external_operands(self, group):
        cluster = self.cluster
        found = _OrderedValues()
        for op in group:
            region = _parent_region(op)
            for walked in walk_ops(op):
                if walked.name in _TRANSFERS:
                    continue
                for value in walked.operands:
                    if not type_valid_for_xla(value.type):
                        continue
                    defining = _defining_op(value)
                    if defining is not None:
                        if (not _is_ancestor(op, defining) and _is_ancestor(cluster, defining)
                                and not _has_mark_ancestor(defining) and defining.name not in _RECVS):
                            found.add(value)
                        continue
                    if value.owner.region == region:
                        found.add(value)
        return found.list()

    def _move_group(self, group, operands, outputs, insertion_points):
        """TF's ``MoveToHostSingleCluster``."""
        op = group[-1]
        original_block = op.block
        index = self.key_index
        args_key = f"host_compute_channel_{index}_args"
        retvals_key = f"host_compute_channel_{index}_retvals"
        if len(group) == 1 and op.name == IF_REGION and len(operands) == 1:
            args_key = f"if_predicate_channel_{index}"
        module_text = ""
        if any(can_be_refined(v.type) for v in outputs):
            module_text = _serialized_host_function(group, operands, outputs)
        attributes = {"send_key": ir.StringAttr.get(args_key, self.context),
                      "recv_key": ir.StringAttr.get(retvals_key, self.context),
                      "host_mlir_module": ir.StringAttr.get(module_text, self.context)}
        if self.state.is_map_oc:
            device_outputs, device_ops = self._host_compute_map(op, operands, outputs, attributes,
                                                                len(insertion_points))
        else:
            host_compute = ir.Operation.create(
                HOST_COMPUTE, results=[v.type for v in outputs], operands=list(operands),
                attributes=attributes, loc=op.location, ip=ir.InsertionPoint(op))
            device_outputs, device_ops = list(host_compute.results), [host_compute]

        insertion_point = insertion_points[0]
        ordinal = self.ordinals[0] if self.ordinals else None
        ip = ir.InsertionPoint(insertion_point)
        recv = self._recv_at_host(op.location, [v.type for v in operands], self.keys[0], ordinal,
                                  args_key, ip)
        host0_ops = [recv] if operands else []
        after = recv
        for moved in group:
            moved.move_after(after)
            if DEVICE_ATTR in moved.attributes:
                del moved.attributes[DEVICE_ATTR]
            after = moved
            host0_ops.append(moved)
        if outputs:
            host0_ops.append(self._send_from_host(op.location, outputs, self.keys[0], ordinal,
                                                  retvals_key, ip))

        if not operands:
            erase_op(recv)
        else:
            _replace_external_operands(operands, recv, insertion_point, original_block)
        _replace_external_outputs(outputs, device_outputs)
        if self.state.is_map_oc:
            self._clone_first_host(insertion_points, host0_ops)
        if not operands and not outputs:
            for device_op in reversed(device_ops):
                erase_op(device_op)
        else:
            self.key_index += 1

    # -- map outside compilation (one host computation per core) --

    def _host_compute_map(self, op, operands, outputs, attributes, cores):
        """TF's ``CreateHostComputeMap``: the host compute on per-core shards, between
        ``tf.XlaSpmdFullToShardShape`` / ``tf.XlaSpmdShardToFullShape`` conversions."""
        shard_output_types = [_shard_type(op, cores, v.type) for v in outputs]
        ip = ir.InsertionPoint(op)
        loc = op.location
        no_dims = ir.ArrayAttr.get([], self.context)
        minus_one = ir.IntegerAttr.get(self.i64, -1)
        manual_inputs = []
        for value in operands:
            shard = _shard_type(op, cores, value.type)
            sharding = _sharding_of(op, value)
            if self.split_sharding is None:
                self.split_sharding = sharding
            elif self.split_sharding != sharding:
                raise PassFailure(f"'{op.name}' op All inputs and outputs of map_outside_compilation "
                                  f"should have the same sharding.", op)
            manual = ir.Operation.create(
                "tf.XlaSpmdFullToShardShape", results=[shard], operands=[value],
                attributes={"manual_sharding": ir.StringAttr.get(self.split_sharding, self.context),
                            "dim": minus_one, "unspecified_dims": no_dims}, loc=loc, ip=ip)
            manual_inputs.append(manual.results[0])
        attributes = dict(attributes, manual_sharding=self.true)
        host_compute = ir.Operation.create(HOST_COMPUTE, results=shard_output_types,
                                           operands=manual_inputs, attributes=attributes, loc=loc,
                                           ip=ip)
        device_ops = [host_compute]
        full_outputs = []
        for value, shard in zip(outputs, host_compute.results):
            full_type = value.type
            if not isinstance(full_type, ir.RankedTensorType):
                raise PassFailure(f"'{op.name}' op map_outside_compilation must have ranked outputs",
                                  op)
            full = ir.Operation.create(
                "tf.XlaSpmdShardToFullShape", results=[full_type], operands=[shard],
                attributes={"manual_sharding": ir.StringAttr.get(self.split_sharding or "",
                                                                 self.context),
                            "full_shape": _shape_attr(ir.RankedTensorType(full_type), self.context),
                            "dim": minus_one, "unspecified_dims": no_dims}, loc=loc, ip=ip)
            device_ops.append(full)
            full_outputs.append(full.results[0])
        return full_outputs, device_ops

    def _clone_first_host(self, insertion_points, host0_ops):
        """TF's ``CloneFirstHost``: core 0's host ops cloned for every other core, their
        transfers taking that core's key and ordinal."""
        for core in range(1, len(insertion_points)):
            mapping = self.core_mappings[core]
            key = self.keys[core]
            ordinal = self.ordinals[core] if self.ordinals else None
            for op in host0_ops:
                clone = _clone_mapped(op, mapping, ir.InsertionPoint(insertion_points[core]))
                for old, new in zip(op.results, clone.results):
                    mapping[old] = new
                name = clone.name
                if name == RECV_AT_HOST:
                    clone.attributes["device_ordinal"] = ir.IntegerAttr.get(self.i64, core)
                    clone.operands[0] = key
                elif name == SEND_FROM_HOST:
                    clone.attributes["device_ordinal"] = ir.IntegerAttr.get(self.i64, core)
                    clone.operands[1] = key
                elif name == RECV_AT_HOST_V2:
                    clone.operands[0] = key
                    clone.operands[1] = ordinal
                elif name == SEND_FROM_HOST_V2:
                    clone.operands[1] = key
                    clone.operands[2] = ordinal


def _clone_mapped(op, mapping, ip):
    """``OpBuilder::clone(op, mapping)``: a copy of `op` at `ip` whose operands (nested ones too)
    found in `mapping` (value -> value) are replaced."""
    clone = op.clone(ip=ip)
    if mapping:
        for nested in walk_ops(clone):
            operands = nested.operands
            for number in range(len(operands)):
                replacement = mapping.get(operands[number])
                if replacement is not None:
                    operands[number] = replacement
    return clone


def _shard_type(op, cores, full_type):
    """TF's ``GetShardShapedType``: `full_type` with its first dimension split over `cores`."""
    if not isinstance(full_type, ir.RankedTensorType):
        raise PassFailure(f"'{op.name}' op A map_outside_compilation op's input and output types must "
                          f"be ranked tensors.", op)
    ranked = ir.RankedTensorType(full_type)
    shape = list(ranked.shape)
    if not shape or shape[0] < 0:
        raise PassFailure(f"'{op.name}' op A map_outside_compilation op's input and output shapes must "
                          f"have rank at least one and the first dimension must be known.", op)
    if shape[0] % cores:
        raise PassFailure(f"'{op.name}' op A map_outside_compilation op's input and output shapes must "
                          f"be divisible by num_cores_per_replica={cores}", op)
    shape[0] //= cores
    return ir.RankedTensorType.get(shape, ranked.element_type, ranked.encoding)


def _sharding_of(op, value):
    """TF's ``GetShardingOfValue``: the ``_XlaSharding`` string of `value`'s defining op."""
    defining = _defining_op(value)
    attributes = defining.attributes if defining is not None else None
    if (attributes is None or "_XlaSharding" not in attributes
            or not isinstance(attributes["_XlaSharding"], ir.StringAttr)):
        raise PassFailure(f"'{op.name}' op A map_outside_compilation op's input should have an "
                          f"explicit sharding. There is no _XlaSharding attribute on the input op.", op)
    return ir.StringAttr(attributes["_XlaSharding"]).value


def _shape_attr(ranked, context):
    dims = "x".join("?" if ir.ShapedType.is_dynamic_size(d) else str(d) for d in ranked.shape)
    return ir.Attribute.parse(f"#tf_type.shape<{dims}>", context)


def _terminator(block):
    ops = block.operations
    if not len(ops):
        return None
    return ops[len(ops) - 1].operation


def _move_body_before(block, anchor):
    ops = [op.operation for op in block.operations]
    for op in ops[:-1]:
        op.move_before(anchor)


def _is_proper_ancestor(ancestor, op):
    key = op_key(ancestor)
    parent = _parent_op(op)
    while parent is not None:
        if op_key(parent) == key:
            return True
        parent = _parent_op(parent)
    return False


def _group_has_dynamic_outputs(group):
    """TF's ``HasDynamicOutputs(cluster_ops)``: a result used outside the group is refinable."""
    keys = {op_key(op) for op in group}
    for op in group:
        for result in op.results:
            if not can_be_refined(result.type):
                continue
            for use in result.uses:
                if op_key(use.owner.operation) not in keys:
                    return True
    return False


def _all_external_operands(group):
    """TF's ``GetAllExternalOperands``: XLA-typed operands (nested too) not defined by the group."""
    keys = {op_key(op) for op in group}
    found = _OrderedValues()
    for op in group:
        for walked in walk_ops(op):
            for value in walked.operands:
                if not type_valid_for_xla(value.type):
                    continue
                defining = _defining_op(value)
                if defining is None or op_key(defining) not in keys:
                    found.add(value)
    return found.list()


def _users(op):
    found = []
    for result in op.results:
        for use in result.uses:
            found.append(use.owner.operation)
    return found


def _external_outputs(group):
    """TF's ``GetExternalOutputs``: (values the device reads back, values the cluster returns
    from the host)."""
    keys = {op_key(op) for op in group}
    dynamic = _group_has_dynamic_outputs(group)
    outputs = _OrderedValues()
    returned = []
    for op in group:
        seen = set()
        key = op_key(op)
        for user in _users(op):
            user_key = op_key(user)
            if user_key in keys:
                continue
            if not (not _has_mark_ancestor(user) or dynamic or _has_dynamic_results(user)):
                continue
            if user_key in seen:
                continue
            seen.add(user_key)
            is_return = user.name == DEVICE_RETURN
            for value in user.operands:
                defining = _defining_op(value)
                if defining is None or op_key(defining) != key:
                    continue
                if is_return:
                    returned.append(value)
                elif type_valid_for_xla(value.type):
                    outputs.add(value)
    host_outputs = [v for v in returned if v not in outputs]
    return outputs.list(), host_outputs


def _should_close(outputs):
    """TF's ``ShouldCloseCluster``."""
    dynamic = False
    non_xla = False
    for value in outputs:
        if can_be_refined(value.type):
            dynamic = True
            for use in value.uses:
                user = use.owner.operation
                if not _has_mark_ancestor(user) and user.name != DEVICE_RETURN:
                    return True
        if not type_valid_for_xla(value.type):
            for use in value.uses:
                if use.owner.operation.name != DEVICE_RETURN:
                    non_xla = True
    return not non_xla and not dynamic


def _replace_external_operands(operands, recv, insertion_point, original_block):
    """TF's ``ReplaceExternalOperandUsage``."""
    host_region = _parent_region(insertion_point)

    for value, received in zip(operands, recv.results):
        dynamic = can_be_refined(value.type)

        def keep(owner, dynamic=dynamic):
            in_host = _region_contains(host_region, _parent_region(owner))
            if dynamic or _has_dynamic_results(owner):
                return in_host
            return in_host or (_has_mark_ancestor(owner) and owner.block == original_block)

        _replace_uses_if(value, received, keep)


def _replace_external_outputs(outputs, results):
    """TF's ``ReplaceExternalOutputUsage``."""
    dynamic = any(can_be_refined(v.type) for v in outputs)
    for value, result in zip(outputs, results):
        defining_region = _parent_region(_defining_op(value))

        def keep(owner, defining_region=defining_region):
            same = _region_contains(defining_region, _parent_region(owner))
            if dynamic or _has_dynamic_results(owner):
                return not same
            return not same and not _has_mark_ancestor(owner)

        _replace_uses_if(value, result, keep)


def _serialized_host_function(group, operands, outputs):
    """TF's ``BuildFunction`` + ``EncapsulateFuncAndSerialize``: the printed module holding
    ``func.func @host_func`` with a copy of `group` taking `operands` and returning `outputs`."""
    context = group[0].context
    loc = group[0].location
    with context:
        module = ir.Operation.create(MODULE, regions=1, loc=ir.Location.unknown())
        module_block = module.regions[0].blocks.append()
        function_type = ir.FunctionType.get([v.type for v in operands], [v.type for v in outputs])
        func = ir.Operation.create(FUNC, attributes={"sym_name": ir.StringAttr.get(HOST_FUNCTION),
                                                     "function_type": ir.TypeAttr.get(function_type)},
                                   regions=1, loc=loc, ip=ir.InsertionPoint(module_block))
        body = func.regions[0].blocks.append(*[v.type for v in operands],
                                             arg_locs=[loc] * len(operands))
        mapping = {}
        for value, argument in zip(operands, body.arguments):
            mapping[value] = argument
        for op in group:
            clone = _clone_mapped(op, mapping, ir.InsertionPoint(body))
            for old, new in zip(op.results, clone.results):
                mapping[old] = new
        ir.Operation.create(RETURN, operands=[mapping.get(v, v) for v in outputs], loc=loc,
                            ip=ir.InsertionPoint(body))
        try:
            return module.get_asm(enable_debug_info=True)
        finally:
            module.erase()
