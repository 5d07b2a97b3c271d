"""Forms tf_device.cluster ops (and tf_device.replicate ops) from TPU-annotated ops

The first step of TF's TPU clustering bridge: ops that TensorFlow marked as
one TPU computation (``_replication_info`` naming the computation, with
``_xla_compile_device_type = "TPU"``, as -tf-canonicalize-compile-and-
replicate-attributes writes them from the legacy ``_tpu_replicate``, which
this pass does not read) are wrapped in a ``tf_device.cluster``, and a
replicated computation in a ``tf_device.replicate``. As TF 2.21's
-tf-tpu-cluster-formation (a module pass; option ``strict-clusters``, default
false), on functional IR (after -tf-executor-to-functional-conversion):

First, every ``tf.Const`` in the module loses all its attributes but
``value`` (TF does not trust attributes on constants: CSE merges them). Then
each function with a body (a top-level ``func.func`` of the module; one with
more than one block fails: "Expecting a single block function") is processed
from its block, recursively:

1. The block's top-level ``tf.TPUReplicateMetadata`` ops are collected (by
   their ``_replication_info``, which must be a non-empty string: "requires
   '_replication_info' string attribute"; two for one computation fail) and
   erased; their attributes but ``name`` are kept for the cluster. A block
   without any is not clustered: the single block of every region of its
   ops is processed in turn instead (a region without exactly one block
   fails: "Expected single block region").
2. The block's ops are checked: no two different non-empty
   ``_xla_compile_device_type`` strings in one block; an op has both or
   neither of ``_replication_info`` / ``_xla_compile_device_type`` (as
   strings), a non-empty ``_replication_info`` and a device type among
   ``CPU``, ``GPU``, ``TPU`` or empty (TF's messages). Ops with a
   device type that is empty or not ``TPU`` are left alone (other passes
   cluster CPU/GPU computations); the others with a ``_replication_info``
   form one cluster per value, in block order.
3. For each computation (in first-appearance order): if its metadata is
   missing, a warning is given (TF: "TPUReplicateMetadata for associated
   '_replication_info' attribute '...' is missing", at the function) and the
   ops stay. Otherwise the ops between the first and the last op of the
   cluster that depend on the cluster (data: an operand defined by a cluster
   op or by such a dependent op; control: a direct control predecessor, in
   TF's side-effect analysis of the original function, that is one) are
   moved right after the cluster. An op that the cluster also depends on
   (its result used by -- or it is a direct control predecessor of -- a
   cluster op or of another op the cluster depends on, found walking
   backwards) is a cycle: TF warns ("Op has cyclic dependency with a
   compilation cluster: ..."; an error with ``strict-clusters``) and leaves
   the op where it is. When the op uses a value of the cluster (a data
   cycle), TF's output does not verify: tfmlir fails there with TF's
   message; for a control-only cycle the pass goes on (with
   ``strict-clusters`` the error is emitted and the pass still succeeds, as
   TF's does).
4. The cluster ops are moved, in order, into a new ``tf_device.cluster`` put
   where the last of them was (its location), returning every result of a
   cluster op used outside the cluster (in op and result order) through
   ``tf_device.return``; outside uses take the cluster's results. Every op in
   the cluster, nested ones included, loses ``_replication_info``,
   ``_xla_compile_device_type`` and a string ``device`` unless the device
   parses as a ``TPU_REPLICATED_CORE`` (a ``tf_device.launch`` or
   ``launch_func`` whose ``device`` would go fails: TF's output would not
   verify). ``_xla_outside_compilation`` ops are treated like the others.
5. ``num_replicas`` (required; "requires 'num_replicas' int attribute")
   decides replication (``num_cores_per_replica``, default 1):

   * Partitioned outputs: a cluster result whose only user (through
     single-use ``tf.Identity`` chains) is a ``tf.TPUReplicatedOutput``, and
     whose per-replica results each reach (again through single-use
     identities) one ``tf.TPUPartitionedOutputV2``, is partitioned; zero or
     ``num_replicas`` of them are required per result ("expected zero or N
     'TPUPartitionedOutput' op(s), instead got M", M being -- as in TF -- the
     number of partitioned results).
   * ``num_replicas`` 1: no replicate; the identities between
     ``tf.TPUReplicatedOutput`` and ``tf.TPUPartitionedOutputV2`` are
     bypassed and erased. Below 1 fails ("requires 'num_replicas' int
     attribute to be at least 1", at the cluster).
   * Otherwise a ``tf_device.replicate`` with ``n = num_replicas`` takes the
     cluster's place. Its inputs are the ``tf.TPUReplicatedInput`` ops the
     cluster uses from outside, directly or as an operand of a used
     ``tf.TPUPartitionedInputV2`` (which must have ``num_cores_per_replica``
     operands: "requires N operands but found M"), in first-use order of a
     post-order walk of the cluster -- the ``index`` attribute is not looked
     at -- with the packed ones (``is_packed``, one operand) after the
     replicated ones (``num_replicas`` operands: "requires N operands");
     ``_mirrored_variable_indices`` lists the positions of those with
     ``is_mirrored_variable``. Inside the cluster the inputs become the
     replicate's block arguments; used ``tf.TPUPartitionedInputV2`` ops take
     them too and move into the replicate, before the cluster. Each cluster
     result gives ``num_replicas`` replicate results: a
     ``tf.TPUReplicatedOutput`` user (with ``num_replicas`` results, "requires
     N results") hands its uses over to them; any other user takes the first
     replica's. A partitioned result instead gives ``num_replicas`` results
     per ``tf.TPUPartitionedOutputV2`` result (core-major: replica r of core c
     is result ``c * num_replicas + r``; counted from the number of values
     returned before it, as TF does, not from the results before it); a new
     ``tf.TPUPartitionedOutputV2`` (``partition_dims`` and the sharding
     attributes of the first one) inside the replicate splits the cluster's
     result, and the old ones and the identities in front of them are
     erased.

6. The cluster gets the metadata's attributes (``name`` and ``num_replicas``
   excepted).

Finally every ``tf.TPUReplicatedInput`` / ``tf.TPUReplicatedOutput`` of the
function (nested ones too) goes: one with a single operand and result is
bypassed; one still used fails ("is expected to have no uses, but it is
operand#N of <op>"). Errors have TF's wording; on failure the module is left
unchanged.

Differences from TF (documented on purpose):

* TF visits the computations of a block in the order of a hash map of their
  names; tfmlir in order of first appearance (the results only differ when
  the clusters of one block depend on each other);
* where TF's output would not verify, tfmlir fails instead: a data cycle
  (above), more than one partitioned result (TF puts the cluster after all
  but the last new ``tf.TPUPartitionedOutputV2``), a partitioned output whose
  ``tf.TPUPartitionedOutputV2`` ops do not have ``num_cores_per_replica``
  results, a ``tf_device.launch`` losing its device, or any other output
  that does not verify (the verifier's message);
* a ``tf.TPUReplicatedInput`` used by several ``tf.TPUPartitionedInputV2``
  ops: TF rewires them while iterating the use list it changes (in practice
  only the first); tfmlir rewires all of them;
* a non-string ``_replication_info`` with a non-string
  ``_xla_compile_device_type`` crashes TF; tfmlir fails ("requires
  '_replication_info' string attribute").
"""
from mlir import ir

from ..dialects import tf_device
from .. import irsafe
from .. import _tfmlir as _native

from .generated import tf2xla_defs
from .analysis.devices import is_tpu_replicated_core
from .analysis.executor import op_key
from .names import CONST, FUNC, LAUNCH, LAUNCH_FUNC, MODULE, REPLICATE
from .analysis.side_effects import SideEffectAnalysis
from .framework import Option, Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import captured_values, is_proper_ancestor, ops_named
from . import attributes

REPLICATION_INFO_ATTR = "_replication_info"
COMPILE_DEVICE_TYPE_ATTR = "_xla_compile_device_type"
DEVICE_ATTR = "device"
NAME_ATTR = "name"
NUM_REPLICAS_ATTR = "num_replicas"
NUM_CORES_PER_REPLICA_ATTR = "num_cores_per_replica"
MIRRORED_VARIABLE_INDICES_ATTR = "_mirrored_variable_indices"
TPU_DEVICE = "TPU"
VALID_DEVICE_TYPES = frozenset(tf2xla_defs.VALID_DEVICE_TYPES)

METADATA = "tf.TPUReplicateMetadata"
REPLICATED_INPUT = "tf.TPUReplicatedInput"
REPLICATED_OUTPUT = "tf.TPUReplicatedOutput"
PARTITIONED_INPUT_V2 = "tf.TPUPartitionedInputV2"
PARTITIONED_OUTPUT_V2 = "tf.TPUPartitionedOutputV2"
IDENTITY = "tf.Identity"

_BAD_REPLICATE_INFO = f"requires '{REPLICATION_INFO_ATTR}' string attribute"


def _warn(op, message):
    """Emits TF's warning diagnostic `message` at `op` (as TF, without the pass's name)."""
    _native.emit_diagnostic(op.location, ir.DiagnosticSeverity.WARNING, message)




def _text_or_none(value):
    """An ``OpTable.strings`` entry as :func:`_string_attr` gives it: the text of a string
    attribute, None when absent or not a string."""
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else None




def _int_attr(op_attributes, name):
    """The value of an integer attribute in a {name: attr} dict, or None."""
    attr = op_attributes.get(name)
    if attr is None or not isinstance(attr, ir.IntegerAttr):
        return None
    return ir.IntegerAttr(attr).value


def _attribute_dict(op):
    return irsafe.attribute_dict(op)


def diagnostic_asm(op):
    """`op` printed as MLIR prints an op into an error diagnostic (generic form, local scope,
    large elements elided); an op spanning several lines starts on a new line."""
    text = op.operation.get_asm(print_generic_op_form=True, use_local_scope=True,
                                large_elements_limit=16)
    text = text.rstrip("\n")
    return "\n" + text if "\n" in text else text


def compilation_and_replication_error(op):
    """TF's ``HasValidCompilationAndReplicationAttributes``: the message (after ``'<op>' op``)
    of an op whose ``_replication_info`` / ``_xla_compile_device_type`` are inconsistent, or
    None. Non-string values count as absent."""
    return _replication_error(attributes.string(op, REPLICATION_INFO_ATTR),
                              attributes.string(op, COMPILE_DEVICE_TYPE_ATTR))


def _replication_error(replicate, compile_type):
    """:func:`compilation_and_replication_error` of an op with these string values of
    ``_replication_info`` / ``_xla_compile_device_type`` (None: absent or not a string)."""
    if replicate is None and compile_type is None:
        return None
    if replicate is None or compile_type is None:
        return (f"is expected to have either both or none of '{REPLICATION_INFO_ATTR}' and "
                f"'{COMPILE_DEVICE_TYPE_ATTR}' attributes.")
    if not replicate:
        return f"has an empty '{REPLICATION_INFO_ATTR}' attribute."
    if compile_type not in VALID_DEVICE_TYPES:
        return f"has invalid '{COMPILE_DEVICE_TYPE_ATTR}' value '{compile_type}'"
    return None


@register_pass
class TPUClusterFormationPass(Pass):
    argument = "tf-tpu-cluster-formation"
    anchor = MODULE
    options = (Option("strict-clusters", bool, False,
                      "Fail on cyclic dependencies between a cluster and the ops around it "
                      "(emit errors instead of warnings)"),)
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        module = module.operation
        _scrub_constants(module)
        functions = [op.operation for op in module.regions[0].blocks[0].operations
                     if op.operation.name == FUNC and len(op.operation.regions[0].blocks)]
        # TF computes its side-effect analysis of every function before changing anything:
        # the direct control predecessors of the ops of each block that will be clustered
        # are taken now.
        analysis = SideEffectAnalysis(module)
        plans = {}
        for func in functions:
            if len(func.regions[0].blocks) != 1:
                continue
            for block in _blocks_to_cluster(func.regions[0].blocks[0]):
                plans[op_key(block.owner)] = _BlockDependencies(block, analysis)
        for func in functions:
            if len(func.regions[0].blocks) != 1:
                raise PassFailure(f"'{FUNC}' op Expecting a single block function", func)
            _Former(self.strict_clusters, plans).form_in_block(func.regions[0].blocks[0])
            _remove_replicated_inputs_outputs(func)
        try:
            module.verify()
        except ir.MLIRError as err:
            messages = "; ".join(d.message for d in err.error_diagnostics) or str(err)
            raise PassFailure(f"the clustered module does not verify (TF's output would not "
                              f"either): {messages}", module)


def _scrub_constants(module):
    """Every ``tf.Const`` keeps only its ``value`` attribute."""
    for const in ops_named(module, CONST):
        attributes = const.attributes
        if len(attributes) == 1:
            continue
        for name in [attributes[k].name for k in range(len(attributes))]:
            if name != "value":
                del attributes[name]


def _nested_blocks(block, quiet=False):
    """The single blocks of the regions of `block`'s ops, in order, yielded lazily as TF's
    recursion reaches them; a region without exactly one block fails there (or, when
    `quiet`, ends the iteration)."""
    for op in [op.operation for op in block.operations]:
        for region in op.regions:
            if len(region.blocks) != 1:
                if quiet:
                    return
                raise PassFailure(f"'{op.name}' op Expected single block region", op)
            yield region.blocks[0]


def _has_metadata(block):
    return any(op.operation.name == METADATA for op in block.operations)


def _blocks_to_cluster(block):
    """The blocks TF's recursion from `block` clusters: a block holding a
    ``tf.TPUReplicateMetadata``, else the blocks of its ops' regions in turn (up to a region
    without exactly one block, where the real traversal fails)."""
    found = []
    stack = [iter([block])]
    while stack:
        current = next(stack[-1], None)
        if current is None:
            stack.pop()
            continue
        if _has_metadata(current):
            found.append(current)
        else:
            stack.append(_nested_blocks(current, quiet=True))
    return found


class _BlockDependencies:
    """The direct control predecessors and successors of a block's ops, from TF's side-effect
    analysis of the block as it was before the pass (by op_key; erased ops are forgotten)."""

    def __init__(self, block, analysis):
        ops = [op.operation for op in block.operations]
        predecessors = analysis.control_predecessors(ops)
        successors = [[] for _ in ops]
        for k, preds in enumerate(predecessors):
            for p in preds:
                successors[p].append(k)
        self.ops = ops
        self.index = {op_key(op): k for k, op in enumerate(ops)}
        self.predecessors = predecessors
        self.successors = successors

    def forget(self, op):
        index = self.index.pop(op_key(op), None)
        if index is not None:
            self.ops[index] = None

    def neighbours(self, op, incoming, keep):
        """The live direct control predecessors (`incoming`) or successors of `op` whose op_key
        is in `keep`, in the analysis's order (block order at the start)."""
        index = self.index.get(op_key(op))
        if index is None:
            return []
        found = []
        for k in (self.predecessors if incoming else self.successors)[index]:
            other = self.ops[k]
            if other is not None and op_key(other) in keep:
                found.append(other)
        return found


class _Cluster:
    __slots__ = ("ops", "keys")

    def __init__(self):
        self.ops = []
        self.keys = set()


class _Former:
    def __init__(self, strict, plans):
        self.strict = strict
        self.plans = plans

    # -- FormClustersInBlock ---------------------------------------------------------------

    def form_in_block(self, block):
        stack = [iter([block])]
        while stack:
            current = next(stack[-1], None)
            if current is None:
                stack.pop()
                continue
            if not self._form_clusters(current):
                stack.append(_nested_blocks(current))

    def _form_clusters(self, block):
        """Clusters `block` if it holds metadata (True); False when it holds none."""
        plan = self.plans.get(op_key(block.owner))
        metadata = self._collect_metadata(block, plan)
        if not metadata:
            return False
        if plan is None:  # cannot happen: the plan covers every block with metadata
            raise PassFailure("internal error: no side-effect analysis for a clustered block",
                              block.owner)
        clusters = self._collect_and_group(block)
        for name, cluster in clusters.items():
            attrs = metadata.get(name)
            if attrs is None:
                _warn(block.owner, f"TPUReplicateMetadata for associated '{REPLICATION_INFO_ATTR}' "
                                   f"attribute '{name}' is missing")
                continue
            successors = self._successor_ops(block, cluster, plan)
            results = _cluster_results(block, cluster)
            cluster_op = _create_cluster(cluster, results, successors)
            num_replicas = _int_attr(attrs, NUM_REPLICAS_ATTR)
            if num_replicas is None:
                raise PassFailure(f"requires '{NUM_REPLICAS_ATTR}' int attribute", cluster_op)
            num_cores = _int_attr(attrs, NUM_CORES_PER_REPLICA_ATTR)
            if num_cores is None:
                num_cores = 1
            _replicate_cluster(cluster_op, num_replicas, num_cores, plan)
            for attr_name, attr in attrs.items():
                if attr_name != NUM_REPLICAS_ATTR:
                    cluster_op.attributes[attr_name] = attr
        return True

    def _collect_metadata(self, block, plan):
        found = {}
        for op in [op.operation for op in block.operations]:
            if op.name != METADATA:
                continue
            attrs = _attribute_dict(op)
            info = attrs.get(REPLICATION_INFO_ATTR)
            if info is None or not isinstance(info, ir.StringAttr) or not ir.StringAttr(info).value:
                raise PassFailure(_BAD_REPLICATE_INFO, op)
            info = ir.StringAttr(info).value
            attrs.pop(NAME_ATTR, None)
            if info in found:
                raise PassFailure(f"multiple TPUReplicateMetadata ops with the same "
                                  f"'{REPLICATION_INFO_ATTR}' attribute '{info}' found", op)
            found[info] = attrs
            if plan is not None:
                plan.forget(op)
            op.erase()
        return found

    def _collect_and_group(self, block):
        # The two attributes of every op of the block, read in bulk (ops materialize only
        # where they join a cluster or fail).
        table = _native.OpTable.of_block(block, "pre")
        top = [i for i, parent in enumerate(table.parents()) if parent == -2]
        raw_infos = table.strings(REPLICATION_INFO_ATTR)
        raw_types = table.strings(COMPILE_DEVICE_TYPE_ATTR)
        infos = [_text_or_none(raw_infos[i]) for i in top]
        info_present = [raw_infos[i] is not None for i in top]
        types = [_text_or_none(raw_types[i]) for i in top]
        device_types = {value for value in types if value}
        if len(device_types) > 1:
            listed = ",".join(sorted(device_types, key=lambda s: s.encode("utf-8", "surrogateescape")))
            raise PassFailure(f"found different '{COMPILE_DEVICE_TYPE_ATTR}' attribute values "
                              f"({listed}) in same block which is not supported", block.owner)
        clusters = {}
        for k, i in enumerate(top):
            info, device_type = infos[k], types[k]
            if info is None and device_type is None and not info_present[k]:
                continue
            error = _replication_error(info, device_type)
            if error is not None:
                op = table.op(i)
                raise PassFailure(f"'{op.name}' op {error}", op)
            if device_type is not None and device_type != TPU_DEVICE:
                continue
            if not info_present[k]:
                continue
            op = table.op(i)
            if info is None:  # TF dereferences a null string attribute here
                raise PassFailure(_BAD_REPLICATE_INFO, op)
            cluster = clusters.get(info)
            if cluster is None:
                cluster = clusters[info] = _Cluster()
            cluster.ops.append(op)
            cluster.keys.add(op_key(op))
        return clusters

    # -- CollectClusterSuccessorOps --------------------------------------------------------

    def _successor_ops(self, block, cluster, plan):
        # The block's ops and their nesting, operands and users from one native table
        # (post-order: op i's subtree is [starts[i], i]); ops materialize only between the
        # first and the last op of the cluster.
        table = _native.OpTable.of_block(block, "post")
        top = [i for i, parent in enumerate(table.parents()) if parent == -2]
        inside = {table.index(op) for op in cluster.ops}
        position = {i: k for k, i in enumerate(top)}
        first, last = position[table.index(cluster.ops[0])], position[table.index(cluster.ops[-1])]
        between_at = [i for i in top[first + 1:last] if i not in inside]
        between = table.ops(between_at)
        starts = table.first_descendants()
        users = table.users()
        defs = table.operand_defs()
        # Ops the cluster depends on, walking backwards from the last cluster op: a result of
        # the op (or of an op nested in it) used by the cluster or by such an op, or a control
        # dependency on them.
        predecessors, predecessor_keys = set(), set()
        targets = cluster.keys  # grows with predecessor_keys (checked through both sets)
        for i, op in zip(reversed(between_at), reversed(between)):
            data = any(u in inside or u in predecessors
                       for k in range(starts[i], i + 1) for u in users[k])
            if data or plan.neighbours(op, False, _Union(targets, predecessor_keys)):
                predecessors.add(i)
                predecessor_keys.add(op_key(op))
        # Ops depending on the cluster, walking forwards.
        successors = []
        successor_at, successor_keys = set(), set()
        for i, op in zip(between_at, between):
            data = _first_definer_in(table, starts[i], i, defs, inside, successor_at)
            control = plan.neighbours(op, True, _Union(cluster.keys, successor_keys))
            control = control[0] if control else None
            if data is None and control is None:
                continue
            if i in predecessors:
                message = _cycle_message(op, data, control, cluster.keys)
                if data is not None:
                    raise PassFailure(message, op)
                if self.strict:
                    op.location.emit_error(message)
                else:
                    _warn(op, message)
                continue
            successors.append(op)
            successor_at.add(i)
            successor_keys.add(op_key(op))
        return successors


def _first_definer_in(table, start, end, defs, inside, more):
    """The op defining an operand of the ops [start, end] of `table` (an op and the ops nested
    in it, post-order) that is in `inside` or `more` (table indices), or None: the first in
    post-order, operand order."""
    for k in range(start, end + 1):
        for d in defs[k]:
            if d >= 0 and (d in inside or d in more):
                return table.op(d)
    return None


class _Union:
    """Membership in either of two sets of op keys."""
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b

    def __contains__(self, key):
        return key in self.a or key in self.b


def _cycle_message(op, data, control, cluster_keys):
    lines = ["Op has cyclic dependency with a compilation cluster:",
             "The cluster depends on", op.name,
             "which is outside of cluster, but itself depends "]
    if data is not None:
        lines[-1] += "on"
        lines.append(data.name)
    else:
        lines[-1] += "(via control) on"
        lines.append(control.name)
    inside = (data is not None and op_key(data) in cluster_keys) or (
        control is not None and op_key(control) in cluster_keys)
    lines.append("which is inside the cluster." if inside else "which the cluster depends on.")
    return "\n".join(lines) + "\n"


# -- CollectClusterResults / CreateClusterOp --------------------------------------------------

def _cluster_results(block, cluster):
    """The results of the cluster's ops used outside the cluster (TF's CollectClusterResults)."""
    return _native.escaping_results(cluster.ops)


def _strip_attributes(body):
    """Removes the attributes a cluster makes redundant from the ops of its `body` and the ops
    nested in them: the cluster's name and device type, and every device that is not a
    TPU_REPLICATED_CORE (a launch keeps its device: TF requires it there)."""
    table = _native.OpTable.of_block(body, "post")
    table.drop_attribute(REPLICATION_INFO_ATTR)
    table.drop_attribute(COMPILE_DEVICE_TYPE_ATTR)
    names, devices = table.names(), table.strings(DEVICE_ATTR)
    keep, drop = {}, []
    for i, device in enumerate(devices):
        if not isinstance(device, bytes):
            continue  # none, or not a string: left as it is
        kept = keep.get(device)
        if kept is None:
            kept = keep[device] = is_tpu_replicated_core(device.decode("utf-8", "surrogateescape"))
        if kept:
            continue
        if names[i] in (LAUNCH, LAUNCH_FUNC):
            raise PassFailure(f"'{names[i]}' op requires attribute '{DEVICE_ATTR}' (TF "
                              f"removes the device of every op of a cluster that is not a "
                              f"TPU_REPLICATED_CORE device)", table.op(i))
        drop.append(i)
    table.drop_attribute(DEVICE_ATTR, drop)


def _create_cluster(cluster, results, successors):
    last = cluster.ops[-1]
    loc = last.location
    cluster_op = tf_device.ClusterOp([r.type for r in results], loc=loc,
                                     ip=ir.InsertionPoint(last)).operation
    body = cluster_op.regions[0].blocks.append()
    _native.move_ops_to_block(cluster.ops, body)
    _strip_attributes(body)
    tf_device.ReturnOp(results, loc=loc, ip=ir.InsertionPoint(body))
    _native.replace_uses_outside(results, list(cluster_op.results), cluster_op)
    previous = cluster_op
    for op in successors:
        op.move_after(previous)
        previous = op
    return cluster_op


# -- ReplicateCluster -------------------------------------------------------------------------

def _single_user_of(result, name):
    """(op named `name`, identities on the way) reached from `result` through single uses,
    following ``tf.Identity`` ops, or (None, identities)."""
    identities = []
    while result is not None:
        uses = list(result.uses)
        user = uses[0].owner.operation if len(uses) == 1 else None
        if user is None:
            break
        if user.name == name:
            return user, identities
        if user.name != IDENTITY:
            break
        identities.append(user)
        result = user.results[0]
    return None, identities


def _partitioned_outputs(cluster_op):
    partitioned = {}  # cluster result index -> [TPUPartitionedOutputV2 per replica]
    erase_list = []
    for index, result in enumerate(cluster_op.results):
        replicated, _ = _single_user_of(result, REPLICATED_OUTPUT)
        if replicated is None:
            continue
        for per_replica in replicated.results:
            partitioned_output, identities = _single_user_of(per_replica, PARTITIONED_OUTPUT_V2)
            if partitioned_output is not None:
                erase_list.extend(identities)
                partitioned.setdefault(index, []).append(partitioned_output)
    return partitioned, erase_list


def _replicate_cluster(cluster_op, num_replicas, num_cores, plan):
    partitioned, erase_list = _partitioned_outputs(cluster_op)
    for ops in partitioned.values():
        if ops and len(ops) != num_replicas:
            raise PassFailure(f"'{PARTITIONED_OUTPUT_V2}' op expected zero or {num_replicas} "
                              f"'TPUPartitionedOutput' op(s), instead got {len(partitioned)}",
                              ops[0])
    if num_replicas == 1:
        if partitioned:
            for identity in erase_list:
                identity.results[0].replace_all_uses_with(identity.operands[0])
                plan.forget(identity)
                erase_op(identity)
        return
    if num_replicas < 1:
        raise PassFailure(f"requires '{NUM_REPLICAS_ATTR}' int attribute to be at least 1",
                          cluster_op)

    body = cluster_op.regions[0]
    # The TPUReplicatedInput ops the cluster uses (directly or through TPUPartitionedInputV2).
    inputs, seen = [], set()
    errors = []
    _, uses = captured_values(body)
    for _, _, value in uses:
        if not isinstance(value, ir.OpResult):
            continue
        definer = value.owner.operation
        if definer.name == REPLICATED_INPUT:
            key = op_key(definer)
            if key not in seen:
                seen.add(key)
                inputs.append(definer)
        elif definer.name == PARTITIONED_INPUT_V2:
            if len(definer.operands) != num_cores:
                errors.append((definer, f"'{PARTITIONED_INPUT_V2}' op requires {num_cores} "
                                        f"operands but found {len(definer.operands)}"))
            for operand in definer.operands:
                if isinstance(operand, ir.OpResult) and operand.owner.operation.name == REPLICATED_INPUT:
                    ri = operand.owner.operation
                    key = op_key(ri)
                    if key not in seen:
                        seen.add(key)
                        inputs.append(ri)
    if errors:
        for op, message in errors[:-1]:
            op.location.emit_error(f"{TPUClusterFormationPass.argument}: {message}")
        raise PassFailure(errors[-1][1], errors[-1][0])

    replicated, packed = [], []
    for ri in inputs:
        is_packed = attributes.boolean(ri, "is_packed", False)
        expected = 1 if is_packed else num_replicas
        if len(ri.operands) != expected:
            raise PassFailure(f"'{REPLICATED_INPUT}' op requires {expected} operands", ri)
        (packed if is_packed else replicated).append(ri)
    ordered = replicated + packed
    mirrored = [k for k, ri in enumerate(ordered) if attributes.boolean(ri, "is_mirrored_variable", False)]

    result_types = []
    for index, result in enumerate(cluster_op.results):
        ops = partitioned.get(index)
        if ops:
            shard_types = [r.type for r in ops[0].results]
            if len(shard_types) != num_cores:
                raise PassFailure(f"'{PARTITIONED_OUTPUT_V2}' op has {len(shard_types)} results, "
                                  f"not '{NUM_CORES_PER_REPLICA_ATTR}' ({num_cores}): TF's "
                                  f"replicate results would not line up", ops[0])
            result_types.extend(shard_types)
        else:
            result_types.append(result.type)
    if len(partitioned) > 1:
        raise PassFailure(f"more than one partitioned cluster result: TF puts the cluster after "
                          f"all but the last new '{PARTITIONED_OUTPUT_V2}', which does not verify",
                          cluster_op)

    context = cluster_op.context
    loc = cluster_op.location
    operands = [v for ri in replicated for v in ri.operands] + [ri.operands[0] for ri in packed]
    replicate_attributes = {
        "n": ir.IntegerAttr.get(ir.IntegerType.get_signless(32, context), num_replicas),
        "operandSegmentSizes": ir.DenseI32ArrayAttr.get(
            [len(replicated) * num_replicas, len(packed)], context),
    }
    if mirrored:
        i64 = ir.IntegerType.get_signless(64, context)
        replicate_attributes[MIRRORED_VARIABLE_INDICES_ATTR] = ir.ArrayAttr.get(
            [ir.IntegerAttr.get(i64, k) for k in mirrored], context)
    replicate = ir.Operation.create(
        REPLICATE, results=[t for t in result_types for _ in range(num_replicas)],
        operands=operands, attributes=replicate_attributes, regions=1, loc=loc,
        ip=ir.InsertionPoint(cluster_op))
    arg_types = [ri.operands[0].type for ri in replicated] + [ri.operands[0].type for ri in packed]
    replicate_body = replicate.regions[0].blocks.append(*arg_types, arg_locs=[loc] * len(arg_types))

    offset = 0
    replicate_results = list(replicate.results)
    for index, result in enumerate(cluster_op.results):
        if index in partitioned:
            offset += num_replicas * num_cores
            continue
        outputs = replicate_results[offset:offset + num_replicas]
        for use in list(result.uses):
            user = use.owner.operation
            if user.name != REPLICATED_OUTPUT:
                user.operands[use.operand_number] = outputs[0]
                continue
            if len(user.results) != num_replicas:
                raise PassFailure(f"'{REPLICATED_OUTPUT}' op requires {num_replicas} results", user)
            for old, new in zip(user.results, outputs):
                old.replace_all_uses_with(new)
        offset += num_replicas

    partitioned_inputs, partitioned_keys = [], set()
    for ri, argument in zip(ordered, replicate_body.arguments):
        value = ri.results[0]
        for use in list(value.uses):
            user = use.owner.operation
            if user == cluster_op or is_proper_ancestor(cluster_op, user):
                user.operands[use.operand_number] = argument
        for use in list(value.uses):
            user = use.owner.operation
            if user.name == PARTITIONED_INPUT_V2:
                user.operands[use.operand_number] = argument
                key = op_key(user)
                if key not in partitioned_keys:
                    partitioned_keys.add(key)
                    partitioned_inputs.append(user)

    end = ir.InsertionPoint(replicate_body)
    if partitioned:
        result_op = _build_partitioned_outputs(cluster_op, replicate, partitioned, erase_list,
                                               num_replicas, end, plan)
    else:
        result_op = tf_device.ReturnOp(list(cluster_op.results), loc=loc,
                                        ip=end)
    for pi in partitioned_inputs:
        pi.move_before(result_op)
    cluster_op.move_before(result_op)


def _build_partitioned_outputs(cluster_op, replicate, partitioned, erase_list, num_replicas, end,
                               plan):
    """Moves the partitioned outputs into the replicate (TF's ``BuildPartitionedOutputs``);
    returns the op the cluster goes before (the last new ``tf.TPUPartitionedOutputV2``)."""
    loc = replicate.location
    returned = []
    result_op = None
    for index, result in enumerate(cluster_op.results):
        ops = partitioned.get(index)
        if not ops:
            returned.append(result)
            continue
        for replica, partitioned_output in enumerate(ops):
            for core, old in enumerate(partitioned_output.results):
                old.replace_all_uses_with(
                    replicate.results[core * num_replicas + replica + len(returned)])
        first = ops[0]
        attributes = {}
        for name in ("partition_dims", "_XlaSharding", "_XlaShardingV2"):
            if name in first.attributes:
                attributes[name] = first.attributes[name]
        result_op = ir.Operation.create(PARTITIONED_OUTPUT_V2, results=[r.type for r in first.results],
                                        operands=[result], attributes=attributes, loc=loc, ip=end)
        returned.extend(result_op.results)
    tf_device.ReturnOp(returned, loc=result_op.location, ip=end)
    for ops in partitioned.values():
        for op in ops:
            plan.forget(op)
            erase_op(op)
    for identity in reversed(erase_list):
        plan.forget(identity)
        erase_op(identity)
    return result_op


# -- FormClustersInFunction: the replicated inputs and outputs left --------------------------

def _remove_replicated_inputs_outputs(func):
    for op in ops_named(func, (REPLICATED_INPUT, REPLICATED_OUTPUT)):
        if len(op.operands) == 1 and len(op.results) == 1:
            op.results[0].replace_all_uses_with(op.operands[0])
        for result in op.results:
            for use in result.uses:
                raise PassFailure(f"'{op.name}' op is expected to have no uses, but it is operand#"
                                  f"{use.operand_number} of {diagnostic_asm(use.owner)}", op)
        op.erase()
