"""Merges TPU-annotated islands of a TF1 ``tf_executor`` graph into one island per TPU cluster

The TPU bridge's variant of island coarsening for TF1 graphs (TF 2.21's
``TpuV1BridgeExecutorIslandCoarsening``), run before
-tf-executor-tpu-v1-island-outlining: every TPU computation of a graph ends
up in one island, which the outlining pass then moves into the nested module.

An op belongs to a *TPU cluster* when it has a string
``_tpu_compilation_status`` (``tf.TPUCompilationResult``: the cluster is its
value), or ``_xla_compile_device_type = "TPU"``: the cluster is its string
``_replication_info``, or ``__no_replication_cluster`` without one. (TF1's
``_tpu_replicate`` is not read: -tf-canonicalize-compile-and-replicate-attributes
runs first in the bridge.) Only islands wrapping a single op whose results
they yield as is take part (TF's ``WrapsSingleOp``); "the island's op" below
is that op.

Per ``func.func`` of the module (not of nested modules), as TF:

* Functions reachable from a ``tf.TPUPartitionedCall`` (functions it
  references, then transitively the functions referenced from inside those,
  by any symbol reference) are not changed but get
  ``_skip_island_outlining = true`` (the outlining pass leaves them alone and
  removes the attribute).
* Every ``tf_executor.graph`` of the other functions, innermost first:

  1. *Special TPU ops.* From each island whose op is in a cluster (block
     order), searching breadth-first: backwards through islands whose op is
     a ``tf.TPUReplicatedInput``, ``tf.TPUPartitionedInput`` or
     ``tf.Identity`` feeding it, and forwards through islands whose op is a
     ``tf.TPUReplicatedOutput``, ``tf.TPUPartitionedOutput`` or
     ``tf.Identity`` using its results. Such an island joins the cluster
     unless its op has a string ``_replication_info`` or it joined a cluster
     already. Before that, the islands next to it on the far side (the users
     of an input-like op's results, the producers of an output-like op's
     operands) must not be in another cluster, else the pass fails.
     Then ``tf.Identity`` islands are dropped from a cluster's special ops
     while one has no used data result, or a neighbour (its users' islands,
     then in a second round its producers' islands) in another cluster, or a
     neighbour outside any cluster that is not a special op of this cluster.
  2. *Merging.* Scanning the block, the first island whose op is in a
     cluster collects the islands after it whose op is in the same cluster --
     or, when several functions hold ops of that cluster, whose op has an
     attribute that is a flat symbol reference to one of those functions --
     plus the cluster's special ops. If that makes two islands or more, they
     become one island at the first one's place: its control inputs are
     that first island's (the others' are dropped, as TF), its body the ops
     in block order, its results the values used by ops outside the merged
     set; uses inside the set use the inner values, uses of the islands'
     control tokens the new island's token. The ops from the new island to
     the one after the last merged island are then sorted topologically (the
     first ready op in block order goes first; an op is ready when no op of
     the range not yet placed defines a value it or an op nested in it uses,
     control inputs included); a cycle fails the pass. The scan restarts
     until nothing merges.
  3. ``tf.Identity`` ops outside any cluster directly in islands that do not
     wrap a single op (merged or not) are removed, their uses taking their
     operand.

Errors (the module is left unchanged): at the graph, ``Collect special Tpu
ops failed: Graph contains op with inconsistent cluster info`` (step 1) and
``Merging island failed: the TPU cluster likely contains a cycle with non-TPU
operations or has unsupported ops`` (step 2); at the use the verifier meets
first, its message (``operand #0 does not dominate this use``: TF's pass
leaves that IR and fails verifying it) when merging broke dominance: a special input op before the first
cluster island used by an op between them, a merged island whose control
inputs include a merged island's token, a value of the cluster used inside a
region of a cluster op.
"""
import heapq
from collections import deque

from mlir import ir

from .. import _tfmlir, irsafe
from .analysis.executor import ISLAND, create_island, graphs_in, op_key
from .names import (COMPILE_DEVICE_TYPE_ATTR, FUNC, IDENTITY, MODULE,
                             REPLICATION_INFO_ATTR, SKIP_ISLAND_OUTLINING_ATTR,
                             TPU_COMPILATION_STATUS_ATTR, TPU_DEVICE, TPU_PARTITIONED_CALL,
                             TPU_PARTITIONED_INPUT, TPU_PARTITIONED_OUTPUT, TPU_REPLICATED_INPUT,
                             TPU_REPLICATED_OUTPUT)
from .analysis.symbol_uses import UnreadableAttribute, referenced_roots
from .analysis.symbols import module_body, symbol_name
from .framework import Pass, PassFailure, erase_op, register_pass
from . import attributes
from .walk import ADVANCE, PRE_ORDER

NO_REPLICATION_CLUSTER = "__no_replication_cluster"

_INPUT_LIKE = frozenset({TPU_REPLICATED_INPUT, TPU_PARTITIONED_INPUT, IDENTITY})
_OUTPUT_LIKE = frozenset({TPU_REPLICATED_OUTPUT, TPU_PARTITIONED_OUTPUT, IDENTITY})

_INCONSISTENT = "Collect special Tpu ops failed: Graph contains op with inconsistent cluster info"
_CYCLE = ("Merging island failed: the TPU cluster likely contains a cycle with non-TPU operations "
          "or has unsupported ops")


@register_pass
class TPUBridgeExecutorIslandCoarsening(Pass):
    argument = "tf-executor-tpu-v1-island-coarsening"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_executor", "func")

    def run_on_operation(self, module):
        module = module.operation
        funcs = [op.operation for op in module_body(module).operations if op.operation.name == FUNC]
        symbols = {}
        for op in module_body(module).operations:
            name = symbol_name(op.operation)
            if name is not None and name not in symbols:
                symbols[name] = op.operation
        calls_cluster_func = _ClusterCalls(funcs, symbols)
        skipped = _partitioned_call_reachable(module, symbols)
        true = ir.BoolAttr.get(True)
        created = []  # the merged islands
        for func in funcs:
            if symbol_name(func) in skipped:
                func.attributes[SKIP_ISLAND_OUTLINING_ATTR] = true
                continue
            for graph in graphs_in(func):
                _coarsen_graph(graph, calls_cluster_func, created)
        _check_dominance(created, funcs)


# -- facts about ops -------------------------------------------------------------------------

def _text(raw):
    """A string attribute's bytes as str (non-UTF-8 bytes kept as surrogates), None for
    anything else."""
    return raw.decode("utf-8", "surrogateescape") if isinstance(raw, bytes) else None


def _cluster_of(status, device, info):
    """TF's ``GetTpuClusterName`` from an op's three attributes (text, or None)."""
    if status is not None:
        return status
    if device != TPU_DEVICE:
        return None
    return NO_REPLICATION_CLUSTER if info is None else info


def cluster_name(op):
    """The TPU cluster `op` belongs to (TF's ``GetTpuClusterName``), or None."""
    return _cluster_of(attributes.text(op, TPU_COMPILATION_STATUS_ATTR),
                       attributes.text(op, COMPILE_DEVICE_TYPE_ATTR),
                       attributes.text(op, REPLICATION_INFO_ATTR))


def cluster_names(root):
    """:func:`cluster_name` of every op under `root` (itself included), from one native walk."""
    table = _tfmlir.OpTable(root, "pre")
    return [_cluster_of(_text(s), _text(d), _text(i)) for s, d, i in
            zip(table.strings(TPU_COMPILATION_STATUS_ATTR), table.strings(COMPILE_DEVICE_TYPE_ATTR),
                table.strings(REPLICATION_INFO_ATTR))]


def _wrapped(op):
    """The op island `op` wraps (TF's ``WrapsSingleOp``), or None (also for non-islands)."""
    if op.name != ISLAND:
        return None
    return _tfmlir.wrapped_single_op(op)


def _defining_islands(island):
    """Single-op islands defining operands of `island`'s op (with repeats)."""
    found = []
    for value in _wrapped(island).operands:
        owner = value.owner
        if isinstance(owner, ir.Block):
            continue
        owner = owner.operation
        if owner.name == ISLAND and _wrapped(owner) is not None:
            found.append(owner)
    return found


def _user_islands(island):
    """Single-op islands directly holding a user of `island`'s results (with repeats)."""
    found = []
    for result in island.results:
        for use in result.uses:
            parent = use.owner.operation.parent
            if parent is not None and parent.name == ISLAND:
                parent = parent.operation
                if _wrapped(parent) is not None:
                    found.append(parent)
    return found


class _ClusterCalls:
    """TF's ``is_op_calling_func_for_cluster``: does an op reference (a flat symbol reference
    attribute) a function holding ops of the cluster, when several functions do."""

    def __init__(self, funcs, symbols):
        self.symbols = symbols
        self.funcs = {}  # cluster -> names of the functions holding ops of it

        for func in funcs:
            name = symbol_name(func)
            for cluster in set(cluster_names(func)):
                if cluster is not None:
                    self.funcs.setdefault(cluster, set()).add(name)

    def __call__(self, cluster, op):
        funcs = self.funcs.get(cluster, ())
        if len(funcs) <= 1:
            return False
        for _name, attr in irsafe.attribute_items(op):
            if isinstance(attr, ir.FlatSymbolRefAttr):
                callee = self.symbols.get(attr.value)
                if callee is not None and callee.name == FUNC and attr.value in funcs:
                    return True
        return False


def _partitioned_call_reachable(module, symbols):
    """Names of the functions reachable from ``tf.TPUPartitionedCall`` ops (TF's
    ``FindTPUPartitionedCallReachableFunctions``): the functions such an op references, then
    those referenced from inside reached functions."""
    funcs = {name for name, op in symbols.items() if op.name == FUNC}
    worklist = deque()
    callees = {}  # caller name -> referenced function names
    cache = {}

    def record(op, caller):
        try:
            roots = referenced_roots(op, cache)
        except UnreadableAttribute as exc:
            raise PassFailure(str(exc), op) from None
        for root in roots:
            if root not in funcs:
                continue
            if op.name == TPU_PARTITIONED_CALL:
                worklist.append(root)
            if caller is not None:
                callees.setdefault(caller, []).append(root)

    # One native walk says which ops reference symbols at all (MLIR's definition of a symbol
    # use: a SymbolRefAttr anywhere in the attributes); only those are looked into.
    table = _tfmlir.OpTable(module, "pre")
    names = table.names()
    ends = table.subtree_ends()
    refs = table.symbol_references()
    for t in table.children(0):  # the module body
        top = table.op(t)
        if refs[t]:
            record(top, None)
        if names[t] == MODULE:
            continue  # its own symbol table: its references resolve there
        caller = symbol_name(top) if names[t] == FUNC else None
        k = t + 1
        while k < ends[t]:
            if names[k] == MODULE:
                k = ends[k]  # a nested symbol table: skipped with its contents
                continue
            if refs[k]:
                record(table.op(k), caller)
            k += 1

    reachable = set()
    while worklist:
        name = worklist.popleft()
        if name not in reachable:
            reachable.add(name)
            worklist.extend(callees.get(name, ()))
    return reachable


# -- one graph ----------------------------------------------------------------------------

def _block_ops(block):
    return [op.operation for op in block.operations]


def _coarsen_graph(graph, calls_cluster_func, created):
    graph = graph.operation
    block = graph.regions[0].blocks[0]
    special = _special_ops(_block_ops(block), graph)
    _exclude_identities(special, incoming=True)
    _exclude_identities(special, incoming=False)
    merged = True
    while merged:
        merged = False
        ops = _block_ops(block)
        for index in range(len(ops)):
            if _merge(block, ops, index, special, calls_cluster_func, graph, created):
                merged = True
                break
    _erase_identities_outside_clusters(block)


def _special_ops(ops, graph):
    """{cluster: {island key: island}}: the special TPU ops brought into each cluster."""
    special = {}
    visited = set()  # keys of the wrapped ops handled
    for op in ops:
        inner = _wrapped(op)
        if inner is None:
            continue
        key = op_key(inner)
        if key in visited:
            continue
        cluster = cluster_name(inner)
        if cluster is None:
            continue
        visited.add(key)
        for incoming in (True, False):
            if not _add_special_ops(op, cluster, special, visited, incoming):
                raise PassFailure(_INCONSISTENT, graph)
    return special


def _add_special_ops(island, cluster, special, visited, incoming):
    work = deque([island])
    while work:
        current = work.popleft()
        for wrapper in (_defining_islands(current) if incoming else _user_islands(current)):
            inner = _wrapped(wrapper)
            if incoming:
                if inner.name not in _INPUT_LIKE:
                    continue
                far_side = _user_islands(wrapper)
            else:
                if inner.name not in _OUTPUT_LIKE:
                    continue
                far_side = _defining_islands(wrapper)
            for other in far_side:
                name = cluster_name(_wrapped(other))
                if name is not None and name != cluster:
                    return False
            if attributes.text(inner, REPLICATION_INFO_ATTR) is not None:
                continue
            key = op_key(inner)
            if key in visited:
                continue
            work.append(wrapper)
            special.setdefault(cluster, {})[op_key(wrapper)] = wrapper
            visited.add(key)
    return True


def _exclude_identities(special, incoming):
    """Drops unqualified ``tf.Identity`` islands until none is left (the result does not
    depend on the order: dropping one only makes others unqualified)."""
    for cluster, members in special.items():
        changed = True
        while changed:
            changed = False
            for key, island in list(members.items()):
                if _wrapped(island).name == IDENTITY and _unqualified(island, cluster, members, incoming):
                    del members[key]
                    changed = True


def _unqualified(island, cluster, members, incoming):
    if all(not list(result.uses) for result in island.results[:-1]):
        return True
    for other in (_user_islands(island) if incoming else _defining_islands(island)):
        name = cluster_name(_wrapped(other))
        if name is not None and name != cluster:
            return True
        if name is None and op_key(other) not in members:
            return True
    return False


def _merge(block, ops, index, special, calls_cluster_func, graph, created):
    """Merges the cluster of island ``ops[index]`` if it is a root (TF's ``MergeIsland``);
    True if anything was merged."""
    root = ops[index]
    inner = _wrapped(root)
    if inner is None:
        return False
    cluster = cluster_name(inner)
    if cluster is None:
        return False
    members = set()
    wrapped_keys = set()
    for candidate in ops[index:]:
        candidate_inner = _wrapped(candidate)
        if candidate_inner is None:
            continue
        inner_key = op_key(candidate_inner)
        if inner_key in wrapped_keys:
            continue
        name = cluster_name(candidate_inner)
        if name is None and calls_cluster_func(cluster, candidate_inner):
            name = cluster
        if name != cluster:
            continue
        members.add(op_key(candidate))
        wrapped_keys.add(inner_key)
    for key, island in special.get(cluster, {}).items():
        members.add(key)
        wrapped_keys.add(op_key(_wrapped(island)))
    positions = [position for position, op in enumerate(ops)
                 if op.name == ISLAND and op_key(op) in members]
    if len(positions) <= 1:
        return False
    islands = [ops[position] for position in positions]
    end = ops[positions[-1] + 1]
    new_island = _create_merged_island(root, islands, wrapped_keys, special)
    _sort_topologically(block, new_island, end, graph)
    created.append(new_island)
    return True


def _create_merged_island(root, islands, wrapped_keys, special):
    inners = [_wrapped(island) for island in islands]
    result_types, yield_operands = [], []
    escaping = []  # per island: which of its data results are used outside the merged ops
    for island, inner in zip(islands, inners):
        flags = []
        for output, value in zip(list(island.results)[:-1], inner.results):
            outside = any(op_key(use.owner.operation) not in wrapped_keys for use in output.uses)
            flags.append(outside)
            if outside:
                result_types.append(output.type)
                yield_operands.append(value)
        escaping.append(flags)
    new_island, terminator = create_island(result_types, list(root.operands), root.location,
                                           ir.InsertionPoint(root), yield_operands)
    for inner in inners:
        inner.move_before(terminator)
    new_results = list(new_island.results)
    control = new_results[-1]
    current = 0
    for island, inner, flags in zip(islands, inners, escaping):
        for output, value, outside in zip(list(island.results)[:-1], inner.results, flags):
            for owner, number in [(use.owner.operation, use.operand_number) for use in output.uses]:
                if op_key(owner) in wrapped_keys:
                    owner.operands[number] = value
            if outside:
                output.replace_all_uses_with(new_results[current])
                current += 1
        island.results[len(island.results) - 1].replace_all_uses_with(control)
        key = op_key(island)
        for members in special.values():
            members.pop(key, None)
        erase_op(island)
    return new_island


def _sort_topologically(block, first, end, graph):
    """TF's ``SortTopologically`` of the ops from `first` to before `end`: the first ready op
    (in the current order) is placed next; fails on a cycle."""
    ops = _block_ops(block)
    first_key, end_key = op_key(first), op_key(end)
    keys = [op_key(op) for op in ops]
    start = keys.index(first_key)
    stop = keys.index(end_key, start)
    span = ops[start:stop]
    defined = {}
    for position, op in enumerate(span):
        for result in op.results:
            defined[result] = position
    waiting_for = []
    dependents = [[] for _ in span]
    for position, op in enumerate(span):
        values = []
        op.walk(lambda nested: values.extend(nested.operands) or ADVANCE, PRE_ORDER)
        producers = {defined[value] for value in values if value in defined} - {position}
        waiting_for.append(len(producers))
        for producer in producers:
            dependents[producer].append(position)
    ready = [position for position, count in enumerate(waiting_for) if count == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        position = heapq.heappop(ready)
        order.append(position)
        for dependent in dependents[position]:
            waiting_for[dependent] -= 1
            if waiting_for[dependent] == 0:
                heapq.heappush(ready, dependent)
    if len(order) != len(span):
        raise PassFailure(_CYCLE, graph)
    if order != list(range(len(span))):
        for position in order:
            span[position].move_before(end)


def _check_dominance(islands, funcs):
    """Fails where a use of a merged island's results is not dominated by it.

    TF's pass leaves such IR (a special input op merged into an island after a
    host op using it, a merged island taking its own control token, a value of
    the cluster used in a region of a cluster op), and TF's pass manager then
    fails verifying it, at the first use MLIR's verifier meets: functions in
    order; in a function, the operands of the ops of a block are checked when
    the op holding the block is reached, and ops holding regions are then
    visited last first (a stack).
    """
    positions = {}  # graph key -> {op key: position in the graph block}
    found = []
    for island in islands:
        graph = island.parent.operation
        graph_key = op_key(graph)
        if graph_key not in positions:
            positions[graph_key] = {op_key(op): position
                                    for position, op in enumerate(_block_ops(graph.regions[0].blocks[0]))}
        where = positions[graph_key]
        own = where[op_key(island)]
        for result in island.results:
            for use in result.uses:
                user = use.owner.operation
                top = user
                while op_key(top.parent.operation) != graph_key:
                    top = top.parent.operation
                if where[op_key(top)] <= own:
                    found.append((user, use.operand_number))
    if not found:
        return
    func_index = {op_key(func): index for index, func in enumerate(funcs)}
    user, number = min(found, key=lambda item: _verification_order(item, func_index))
    raise PassFailure(f"operand #{number} does not dominate this use", user)


def _verification_order(item, func_index):
    user, number = item
    chain = []  # the ancestors of `user` up to (without) its function, innermost first
    op = user
    while True:
        parent = op.parent.operation
        if op_key(parent) in func_index:
            break
        chain.append(parent)
        op = parent
    path = tuple(-_index_in_parent(op) for op in reversed(chain))
    return func_index[op_key(parent)], path, _index_in_parent(user), number


def _index_in_parent(op):
    key = op_key(op)
    index = 0
    for region in op.parent.regions:
        for block in region.blocks:
            for sibling in block.operations:
                if op_key(sibling.operation) == key:
                    return index
                index += 1
    return index


def _erase_identities_outside_clusters(block):
    for island in _block_ops(block):
        if island.name != ISLAND or _wrapped(island) is not None:
            continue
        for op in _block_ops(island.regions[0].blocks[0]):
            if op.name == IDENTITY and cluster_name(op) is None:
                op.results[0].replace_all_uses_with(op.operands[0])
                erase_op(op)
