"""Extracts head and tail outside compilation to separate host launches before/after device cluster.

As TF 2.21's -tf-extract-head-tail-outside-compilation (a module pass): the
outside-compiled ops at the head and the tail of each ``tf_device.cluster``
leave the cluster for a ``tf_device.launch`` on the cluster's host, right
before (head) or right after (tail) the cluster, so that the device
computation neither starts nor ends on the host. Clusters are handled in
post-order (nested clusters first, then in module order).

An op counts as outside compiled when it has a string
``_xla_outside_compilation`` and no bool ``_xla_map_outside_compilation``
(map outside compilation is left to ``tf-extract-outside-compilation``).
Only ops of the cluster's body (not ops nested in them) are candidates; a
candidate moves with everything nested in it and only it loses its
``_xla_outside_compilation`` (nested ops keep theirs).

Head: the candidates, in order, each of which

* has no operand (of itself or of an op nested in it) defined by an op of the
  cluster's body that is not already a head op, other than itself (a block
  argument counts as defined by its region's op);
* if it has direct control predecessors (TF's side-effect analysis, computed
  on the module before the pass changes anything), has the nearest one that
  is not a TPU embedding op among the head ops; embedding ops
  (``tf.EnqueueTPUEmbeddingRaggedTensorBatch`` / ``SparseTensorBatch`` /
  ``ArbitraryTensorBatch``, ``tf.RecvTPUEmbeddingActivations``,
  ``tf.SendTPUEmbeddingGradients``) are exempt from this check.

They move, in order, into one launch before the cluster that returns their
results used elsewhere (the cluster's terminator included); the uses in the
cluster take the launch's results.

Tail: the remaining candidates, from the last one backwards, each of which

* has all users of its results among the tail ops (nested ops included) or
  the cluster's terminator;
* if it has direct control successors other than the terminator, has the
  nearest one that is not an embedding op among the tail ops (embedding ops
  exempt, as above).

They move, in order, into one launch after the cluster, returning their
results used outside it; the cluster then returns, without duplicates, its
former returned values, plus the values of its body the tail ops use (their
own results excepted), in that order, and the uses of its former results are
forwarded (to the tail launch's results for values the tail ops computed).

Then, when anything moved, a returned value not defined inside the cluster
(a value from outside, or a head launch result) is no longer returned: its
users take the value itself. Clusters where nothing moves stay untouched.

The launch's ``device`` is TF's host for outside compilation
(``GetHostDeviceOutsideComputation``, from the module's ``tf.devices``; see
:func:`tfmlir.passes.analysis.devices.outside_compilation_host`):
``TPU_REPLICATED_HOST_0`` inside a ``tf_device.replicate``, else the CPU:0 of
the first TPU's host when ``tf.devices`` lists TPUs, else the CPU:0 device.
The launches and their terminators take the cluster's location.

Failures (the module is left unchanged):

* the module's ``tf.devices`` is not a list of device names or a dictionary
  keyed by them (TF's messages, at the module);
* no host device can be determined for a cluster with ops to extract (at the
  cluster; TF only logs "Did not find any CPU:0 host devices" for a missing
  CPU:0);
* a cluster with candidates that is not inside a ``func.func`` (TF's
  side-effect analysis is per function; TF crashes);
* a tail op whose nested ops use a block argument of one of its own regions
  (a ``tf.WhileRegion`` body ...): TF makes the cluster return that block
  argument and its output does not verify.
"""
from mlir import ir

from ..dialects import tf_device
from .. import irsafe
from .analysis.devices import module_device_names, module_devices_error, outside_compilation_host
from .analysis.executor import op_key
from .names import CLUSTER, FUNC, LAUNCH, MODULE
from .analysis.outside_compilation import (OUTSIDE_COMPILATION_ATTR, is_map_outside_compiled,
                                           is_outside_compiled)
from .analysis.side_effects import SideEffectAnalysis
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import ops_named
from .walk import ADVANCE, POST_ORDER

EMBEDDING_OPS = frozenset({
    "tf.EnqueueTPUEmbeddingRaggedTensorBatch",
    "tf.EnqueueTPUEmbeddingSparseTensorBatch",
    "tf.EnqueueTPUEmbeddingArbitraryTensorBatch",
    "tf.RecvTPUEmbeddingActivations",
    "tf.SendTPUEmbeddingGradients",
})


@register_pass
class ExtractHeadTailOutsideCompilationPass(Pass):
    argument = "tf-extract-head-tail-outside-compilation"
    aliases = ("tf-tpu-extract-head-tail-outside-compilation",)  # the seed's name
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        module = module.operation
        error = module_devices_error(module)
        if error is not None:
            self.fail(f"'{MODULE}' op {error}", module)
        clusters = ops_named(module, [CLUSTER])  # post-order, one native walk
        if not clusters:
            return
        # TF's side-effect analysis runs once, on the module as it was: control predecessors
        # and successors of the body ops of every cluster with candidates, by op key, each
        # list in block order. Ops created later have none.
        analysis = None
        order = {}
        for cluster in clusters:
            ops = _body_ops(cluster)
            if not any(_is_candidate(op) for op in ops[:-1]):
                continue
            if _enclosing_func(cluster) is None:
                self.fail(f"'{CLUSTER}' op with outside-compiled ops is not in a '{FUNC}'", cluster)
            if analysis is None:
                analysis = SideEffectAnalysis(module)
            keys = [op_key(op) for op in ops]
            predecessors = analysis.control_predecessors(ops)
            successors = [[] for _ in ops]
            for index, preds in enumerate(predecessors):
                order[keys[index]] = ([keys[p] for p in preds], successors[index])
                for p in preds:
                    successors[p].append(keys[index])
        if not order:
            return
        devices = module_device_names(module)
        finished = []  # clusters replaced by new ones: erased at the end
        for cluster in clusters:
            _Extraction(cluster, order, devices, finished).run()
        for cluster in finished:
            cluster.erase()


def _is_candidate(op):
    """TF's HasOutsideCompilationAttribute: outside compiled, not map outside compiled."""
    return is_outside_compiled(op) and not is_map_outside_compiled(op)


def _body_ops(cluster):
    return [op.operation for op in cluster.regions[0].blocks[0].operations]


def _enclosing_func(op):
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        if parent.name == FUNC:
            return parent
        parent = parent.parent
    return None


def _defining_op(value):
    """TF's GetOpOfValue: the op defining `value`, or the op owning its block."""
    if isinstance(value, ir.BlockArgument):
        return value.owner.owner.operation
    return value.owner.operation


def _nested_keys(ops, into):
    """Adds the keys of `ops` and of every op nested in them to `into`."""
    def visit(op):
        into.add(op_key(op.operation))
        return ADVANCE

    for op in ops:
        op.walk(visit, POST_ORDER)


def _operand_uses(op):
    """``(nested op, operand index, value)`` of every operand of `op` and of the ops nested in it."""
    found = []

    def visit(nested):
        nested = nested.operation
        operands = nested.operands
        for index in range(len(operands)):
            found.append((nested, index, operands[index]))
        return ADVANCE

    op.walk(visit, POST_ORDER)
    return found


class _Extraction:
    """Head and tail extraction of one cluster."""

    def __init__(self, cluster, order, devices, finished):
        self.cluster = cluster
        self.order = order
        self.devices = devices
        self.finished = finished
        self.host = None

    def host_device(self):
        if self.host is None:
            self.host = outside_compilation_host(self.cluster, self.devices)
        return self.host

    def run(self):
        cluster = self.cluster
        ops = _body_ops(cluster)
        if not any(_is_candidate(op) for op in ops[:-1]):
            return
        head = self.find_head(ops)
        if head:
            self.create_head(head)
        tail, returned, tail_results, tail_uses = self.find_tail(ops, head)
        if tail:
            self.create_tail(tail, returned, tail_results, tail_uses)
        elif head:
            terminator = _body_ops(cluster)[-1]
            operands = list(terminator.operands)
            self.rebuild(operands, [(use, i) for i, result in enumerate(cluster.results)
                                    for use in _uses(result)])

    # -- head -----------------------------------------------------------------

    def find_head(self, ops):
        names = {op_key(op): op.name for op in ops}
        body = names.keys()
        head = []
        head_keys = set()
        for op in ops[:-1]:
            if not _is_candidate(op):
                continue
            key = op_key(op)
            predecessors = self.order.get(key, ((), ()))[0]
            if predecessors and op.name not in EMBEDDING_OPS:
                skip = False
                for pred in reversed(predecessors):
                    if names.get(pred) in EMBEDDING_OPS:
                        continue
                    skip = pred not in head_keys
                    break
                if skip:
                    continue
            blocked = False
            for _nested, _index, value in _operand_uses(op):
                owner = op_key(_defining_op(value))
                if owner in head_keys or owner == key:
                    continue
                if owner in body:
                    blocked = True
                    break
            if not blocked:
                head.append(op)
                head_keys.add(key)
        return head

    def create_head(self, head):
        inside = set()
        _nested_keys(head, inside)
        launch, returned = self.create_launch(head, inside, before=True)
        inside.add(op_key(launch.regions[0].blocks[0].operations[len(head)]))
        # Uses of the returned values in the cluster (all but the launch's own).
        for value, result in zip(returned, launch.results):
            for use in _uses(value):
                if op_key(use[0]) not in inside:
                    use[0].operands[use[1]] = result

    # -- tail -----------------------------------------------------------------

    def find_tail(self, ops, head):
        head_keys = {op_key(op) for op in head}
        remaining = [op for op in ops if op_key(op) not in head_keys]
        body = {op_key(op) for op in remaining}
        terminator = remaining[-1]
        terminator_key = op_key(terminator)
        returned = dict.fromkeys(terminator.operands)  # TF's SetVector of cluster results
        tail = []
        tail_set = set()
        names = {op_key(op): op.name for op in remaining}
        for op in reversed(remaining[:-1]):
            if not _is_candidate(op):
                continue
            key = op_key(op)
            successors = self.order.get(key, ((), ()))[1]
            successors = [s for s in successors if s != terminator_key]
            if successors and op.name not in EMBEDDING_OPS:
                skip = False
                for succ in successors:
                    if names.get(succ) in EMBEDDING_OPS:
                        continue
                    skip = succ not in tail_set
                    break
                if skip:
                    continue
            if not all(owner == terminator_key or owner in tail_set
                       for owner in (op_key(use[0]) for result in op.results for use in _uses(result))):
                continue
            for _nested, _index, value in _operand_uses(op):
                owner = _defining_op(value)
                if op_key(owner) in body:
                    if isinstance(value, ir.BlockArgument):
                        raise PassFailure(
                            f"'{owner.name}' op moves to the tail of the cluster with ops that "
                            f"use a block argument of its own region: TF 2.21 makes the cluster "
                            f"return that block argument, which does not verify", owner)
                    returned[value] = None
            for result in op.results:
                returned.pop(result, None)
            _nested_keys([op], tail_set)
            tail.append(op)
        tail.reverse()
        returned = list(returned)
        tail_results = set()
        for op in tail:
            tail_results.update(op.results)
        # Uses by the tail ops of the values the cluster now returns.
        position = {value: index for index, value in enumerate(returned)}
        tail_uses = []
        if tail:
            for op in tail:
                for nested, index, value in _operand_uses(op):
                    if value in position:
                        tail_uses.append(((nested, index), position[value]))
        return tail, returned, tail_results, tail_uses

    def create_tail(self, tail, returned, tail_results, tail_uses):
        cluster = self.cluster
        terminator = _body_ops(cluster)[-1]
        old_returned = list(terminator.operands)
        position = {value: index for index, value in enumerate(returned)}
        forwarded = [(use, old_returned[i]) for i, result in enumerate(cluster.results)
                     for use in _uses(result)]
        inside = set()
        _nested_keys(tail, inside)
        launch, launch_returned = self.create_launch(tail, inside, before=False)
        from_launch = dict(zip(launch_returned, launch.results))
        direct = []      # (use, value) for uses that end on a tail launch result
        by_position = list(tail_uses)
        for use, value in forwarded:
            if value in from_launch:
                direct.append((use, from_launch[value]))
            else:
                by_position.append((use, position[value]))
        for use, value in direct:
            use[0].operands[use[1]] = value
        self.rebuild(returned, by_position)

    # -- launches and the new cluster ------------------------------------------

    def create_launch(self, ops, inside, before):
        """Moves `ops` (in order) into a new launch on the host, before or after the cluster;
        the launch returns their results used outside it (TF's CreateLaunchForBlock)."""
        cluster = self.cluster
        device = ir.StringAttr.get(self.host_device(), cluster.context)
        returned = [result for op in ops for result in op.results
                    if any(op_key(use[0]) not in inside for use in _uses(result))]
        launch = ir.Operation.create(LAUNCH, results=[value.type for value in returned],
                                     attributes={"device": device}, regions=1,
                                     loc=cluster.location, ip=ir.InsertionPoint(cluster))
        if not before:
            launch.move_after(cluster)
        block = launch.regions[0].blocks.append()
        terminator = tf_device.ReturnOp(returned, loc=cluster.location,
                                         ip=ir.InsertionPoint(block))
        for op in ops:
            del op.attributes[OUTSIDE_COMPILATION_ATTR]
            op.move_before(terminator)
        return launch, returned

    def rebuild(self, returned, uses):
        """Makes the cluster return the values of `returned` defined inside it (TF's
        UpdateClusterResults, then RemoveClusterAliasedOutputs), replacing it by a new cluster
        unless it returns exactly these already. `uses`: ``((op, operand index), position in
        returned)``; each such operand becomes what that position now stands for: the new
        cluster's result for a kept value, else the value itself.
        """
        cluster = self.cluster
        body = {op_key(op) for op in _body_ops(cluster)}
        keep = [not isinstance(value, ir.BlockArgument) and op_key(value.owner) in body
                for value in returned]
        kept = [value for value, k in zip(returned, keep) if k]
        old_terminator = _body_ops(cluster)[-1]
        old_returned = list(old_terminator.operands)
        if len(kept) == len(returned) == len(old_returned) and all(
                a == b for a, b in zip(kept, old_returned)):
            new = cluster
        else:
            tf_device.ReturnOp(kept, loc=old_terminator.location,
                                ip=ir.InsertionPoint(old_terminator))
            erase_op(old_terminator)
            new = ir.Operation.create(
                CLUSTER, results=[value.type for value in kept],
                attributes=irsafe.attribute_dict(cluster),
                regions=1, loc=cluster.location, ip=ir.InsertionPoint(cluster))
            cluster.regions[0].blocks[0].append_to(new.regions[0])
        targets = []
        count = 0
        for value, k in zip(returned, keep):
            if k:
                targets.append(new.results[count])
                count += 1
            else:
                targets.append(value)
        for (op, operand), at in uses:
            op.operands[operand] = targets[at]
        if new is not cluster:
            # Old clusters stay alive (detached) until the pass ends, so that no new op takes
            # the identity of one the side-effect analysis knows.
            cluster.detach_from_parent()
            self.finished.append(cluster)
            self.cluster = new


def _uses(value):
    """``(owner op, operand index)`` of each use of `value`."""
    return [(use.owner.operation, use.operand_number) for use in value.uses]
