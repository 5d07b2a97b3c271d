"""Structural view of ``tf_executor.graph`` regions, built in one scan.

Passes over executor graphs need the same facts again and again: the ops of
the graph block in order, which of them are islands, what each island wraps,
and the def-use edges between graph-level ops (including values an island
captures implicitly in its body). Asking the MLIR Python bindings for these
one by one costs about a microsecond per call, so :class:`GraphInfo` collects
them with one pre-order walk over the graph and then answers from Python
lists and dicts. It is a *snapshot*: after a pass mutates the graph, build a
new one (or keep your own bookkeeping, as the coarsening pass does).

Binding facts the helpers rely on: each access to an op returns a new Python
object (no uniquing), equality compares the C++ pointers, but an op's hash
follows its current operands and attributes -- so never key a dict by ops that
may be mutated (use :func:`op_key`); Values hash stably. Erasing an op leaves
the Python objects of its nested ops (and other objects of it) dangling:
harmless to drop, fatal to use -- never touch them afterwards.

Conventions (all indices are positions in ``GraphInfo.ops``):

* ``ops[i]``: the i-th op of the graph block (``ir.Operation``); the fetch is
  last. ``names[i]`` its name, ``operands[i]`` its operand Values,
  ``results[i]`` its result Values. For islands the control token is the last
  result (``outputs(i)`` are the data results).
* ``body[i]`` (islands only): the ops of the island block except the yield,
  ``body_names[i]`` their names, ``body_operands[i]`` their operand lists,
  ``yield_op[i]`` and ``yield_operands[i]`` the terminator and its operands.
  ``nested[i]`` lists ``(op, name, operands)`` of ops nested deeper (inside
  regions of body ops), down to and including nested ``tf_executor.graph``
  ops but not their contents.
* ``value_def``: Value -> i for the results of graph-level ops.
* ``producers[i]``: indices of graph-level ops whose results op ``i`` uses,
  directly or (for islands) from anywhere in its body, nested graphs
  included; with repeats, in no particular order.
* ``consumers[i]``: indices of graph-level ops using a result of op ``i``
  (the op containing the use), with repeats, in no particular order.
* ``uses``: Value -> list of ``(j, op)`` for every use of a graph-level value
  (values without uses have no entry; :meth:`GraphInfo.users`): ``j`` is the
  graph-level op that contains the use, ``op`` the op that holds the operand
  (``ops[j]`` itself or an op inside island ``j``).
* ``nested_graphs``: the ``tf_executor.graph`` ops inside islands that are not
  inside another of them (each graph of a nest is reported by its parent's
  scan only), and ``nested_graph_islands`` the index of the island holding
  each.

Cost: a scan visits the ops of the graph and of its island bodies (ops in
regions of body ops included) once, but never the contents of nested graphs,
so scanning every graph of a nest is linear in the size of the nest. Uses of
the graph's values from inside nested graphs are found from the values' use
lists (only when the graph has nested graphs), climbing from each user to
the nested graph holding it; the ancestors passed are remembered, so the
climbs too are linear overall.

Validation: :meth:`GraphInfo.problem` returns ``(message, op)`` when the
graph does not have the structure the passes rely on (a verified module always
has it), so a pass can fail with a diagnostic before mutating anything.
"""
import ctypes

from mlir import ir

from ..framework import erase_op

from ..names import FETCH, GRAPH, ISLAND, NEXT_ITERATION_SINK, NEXT_ITERATION_SOURCE, YIELD  # noqa: F401
from ..walk import ADVANCE, INTERRUPT, SKIP


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_OPERATION_CAPSULE = b"mlir.ir.Operation._CAPIPtr"


def op_key(op):
    """A stable identity (the C++ pointer) of a live op, usable as dict key.

    The bindings hand out a new Python object per access, and hash an
    ``ir.Operation`` from its current state (operands, attributes), so an op
    whose operands change moves in a dict keyed by it. Values hash stably.
    """
    return _capsule_pointer(op.operation._CAPIPtr, _OPERATION_CAPSULE)


def control_type(context=None):
    """The ``!tf_executor.control`` type."""
    return ir.Type.parse("!tf_executor.control", context)


def is_control(value_type):
    return str(value_type) == "!tf_executor.control"


def graphs_in(op, post_order=True):
    """All ``tf_executor.graph`` ops nested in `op` (innermost first by default)."""
    found = []

    def visit(child):
        if child.name == GRAPH:
            found.append(child)
        return ADVANCE

    op.walk(visit, ir.WalkOrder.POST_ORDER if post_order else ir.WalkOrder.PRE_ORDER)
    return found


def outermost_graphs(op):
    """``tf_executor.graph`` ops in `op` not nested in another graph.

    Cheap for the usual function (``graph`` + ``return``): only ops of the
    function body are looked at, and other ops with regions are walked
    without descending into the graphs found. Graphs nested inside islands
    are reported by :attr:`GraphInfo.nested_graphs`.
    """
    found = []

    def visit(child):
        if child.name == GRAPH:
            found.append(child)
            return SKIP
        return ADVANCE

    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                if child.name == GRAPH:
                    found.append(child)
                elif len(child.regions):
                    child.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def function_name(func_op):
    return ir.StringAttr(func_op.attributes["sym_name"]).value


class GraphInfo:
    """One-scan snapshot of a ``tf_executor.graph`` (see the module docstring)."""

    __slots__ = ("graph", "ops", "names", "operands", "results", "body",
                 "body_operands", "nested", "yield_op", "yield_operands", "value_def",
                 "producers", "consumers", "uses", "nested_graphs", "nested_graph_islands",
                 "body_names", "_problem", "_inner_uses")

    def __init__(self, graph_op, uses=True, links=True):
        """Scans `graph_op`. With ``uses=False`` only ``producers`` are linked
        (``uses`` and ``consumers`` stay empty): cheaper for passes that only
        walk the graph backwards. With ``links=False`` nothing is linked
        (``producers`` too stay empty; :meth:`link` does it later): enough
        for :meth:`problem` and the structure."""
        self.graph = graph_op.operation
        self._problem = None
        self._scan()
        if links:
            self.link(uses)

    # -- construction ------------------------------------------------------

    def _scan(self):
        graph = self.graph
        ops, names, operands, results = [], [], [], []
        body, body_operands, body_names, nested = {}, {}, {}, {}
        yield_op, yield_operands = {}, {}
        nested_graphs, nested_graph_islands = [], []
        # Ops inside islands whose operands may use graph-level values:
        # (graph-level index, op, operands), in scan order.
        inner_uses = []
        # The island being scanned (None between islands, -1 before the walk
        # has passed the graph op itself) and the lists being filled for it.
        current = -1
        body_list = body_operand_list = body_name_list = None
        ops_append, names_append = ops.append, names.append
        operands_append, results_append = operands.append, results.append
        inner_append = inner_uses.append

        def collect_nested(holder, j):
            into = nested[j]

            def visit_nested(op):
                if op == holder:
                    return ADVANCE
                name = op.name
                if name == GRAPH:
                    # Its contents belong to its own scan (see _link_nested_uses).
                    into.append((op, name, []))
                    nested_graphs.append(op)
                    nested_graph_islands.append(j)
                    return SKIP
                values = list(op.operands)
                into.append((op, name, values))
                if values:
                    inner_append((j, op, values))
                return ADVANCE

            holder.walk(visit_nested, ir.WalkOrder.PRE_ORDER)

        def visit(op):
            nonlocal current, body_list, body_operand_list, body_name_list
            if current is None:
                name = op.name
                ops_append(op)
                names_append(name)
                operands_append(list(op.operands))
                results_append(list(op.results))
                if name == ISLAND:
                    current = j = len(ops) - 1
                    body_list = body[j] = []
                    body_operand_list = body_operands[j] = []
                    body_name_list = body_names[j] = []
                    nested[j] = []
                    return ADVANCE
                return SKIP
            if current == -1:  # the graph op itself
                current = None
                return ADVANCE
            # Directly inside island `current` (deeper ops are skipped here).
            name = op.name
            values = list(op.operands)
            if values:
                inner_append((current, op, values))
            if name == YIELD:
                yield_op[current] = op
                yield_operands[current] = values
                current = None
                return SKIP
            if name.startswith("tf_executor.") and name != GRAPH:
                # A graph-level executor op seen as island content: the island
                # has no yield (its block ended early). Malformed; stop here.
                if self._problem is None:
                    self._problem = ("island without a tf_executor.yield", ops[current])
                return INTERRUPT
            body_list.append(op)
            body_operand_list.append(values)
            body_name_list.append(name)
            if name == GRAPH:
                nested_graphs.append(op)
                nested_graph_islands.append(current)
            elif len(op.regions):
                collect_nested(op, current)
            return SKIP

        graph.walk(visit, ir.WalkOrder.PRE_ORDER)

        value_def = {}
        for j, values in enumerate(results):
            for value in values:
                value_def[value] = j

        self.ops, self.names, self.operands, self.results = ops, names, operands, results
        self.body, self.body_operands, self.nested = body, body_operands, nested
        self.body_names = body_names
        self.yield_op, self.yield_operands = yield_op, yield_operands
        self.value_def, self.uses = value_def, {}
        self.producers, self.consumers = [[] for _ in ops], []
        self.nested_graphs = nested_graphs
        self.nested_graph_islands = nested_graph_islands
        self._inner_uses = inner_uses
        if self._problem is not None:
            return
        if not ops or names[-1] != FETCH:
            self._problem = ("expected the graph to end with a tf_executor.fetch", graph)
        for i in body:
            if i not in yield_op:
                self._problem = self._problem or ("island without a tf_executor.yield", ops[i])
            elif len(yield_operands[i]) + 1 != len(results[i]) and self._problem is None:
                self._problem = ("island yield does not match its results", ops[i])

    def link(self, uses=True):
        """Computes the def-use links (``producers``, and with `uses`
        ``consumers`` and ``uses``) from the scan, in plain Python.

        Call it on a scan made with ``links=False`` while the graph is still
        as scanned (nothing in it changed since).
        """
        link_uses = uses
        ops, operands = self.ops, self.operands
        inner_uses = self._inner_uses
        get_def = self.value_def.get
        uses = {}
        get_uses = uses.get
        producers = [[] for _ in ops]
        consumers = [[] for _ in ops] if link_uses else []
        if not link_uses:
            for j, values in enumerate(operands):
                if values:
                    producers[j] = [i for i in map(get_def, values) if i is not None]
            for j, op, values in inner_uses:
                producers[j] += [i for i in map(get_def, values) if i is not None]
        for j, values in enumerate(operands if link_uses else ()):
            if values:
                op = ops[j]
                into = producers[j]
                for value in values:
                    i = get_def(value)
                    if i is not None:
                        into.append(i)
                        consumers[i].append(j)
                        found = get_uses(value)
                        if found is None:
                            uses[value] = [(j, op)]
                        else:
                            found.append((j, op))
        for j, op, values in (inner_uses if link_uses else ()):
            into = producers[j]
            for value in values:
                i = get_def(value)
                if i is not None:
                    into.append(i)
                    consumers[i].append(j)
                    found = get_uses(value)
                    if found is None:
                        uses[value] = [(j, op)]
                    else:
                        found.append((j, op))
        self.uses = uses
        self.producers, self.consumers = producers, consumers
        if self.nested_graphs and self._problem is None:
            self._link_nested_uses(link_uses)

    def _link_nested_uses(self, link_uses):
        """Links the uses of graph-level values made inside nested graphs.

        The scan does not enter nested graphs (scanning each graph of a nest
        would otherwise visit the inner graphs once per enclosing graph:
        quadratic, or exponential for passes that also recurse). Every use of
        a graph-level value is looked at instead: climbing from its owner
        towards the graph, the first nested graph met (if any) is the one
        holding the use, and the island of that graph is the user. Ops passed
        on the way are remembered with their answer, so no op is climbed
        through twice. Values with no more uses than the scan saw are skipped
        after counting their uses (no user is looked at).
        """
        value_def = self.value_def
        recorded = {}
        get_recorded = recorded.get
        for values in self.operands:
            for value in values:
                if value in value_def:
                    recorded[value] = get_recorded(value, 0) + 1
        for _, _, values in self._inner_uses:
            for value in values:
                if value in value_def:
                    recorded[value] = get_recorded(value, 0) + 1
        graph_key = op_key(self.graph)
        # op key -> island index holding it via a nested graph, or -1 (not
        # inside a nested graph of this scan: already linked by the scan).
        where = {}
        for nested_graph, j in zip(self.nested_graphs, self.nested_graph_islands):
            where[op_key(nested_graph)] = j
        get_where = where.get
        producers, consumers, uses = self.producers, self.consumers, self.uses
        for i, values in enumerate(self.results):
            for value in values:
                all_uses = list(value.uses)
                if len(all_uses) == get_recorded(value, 0):
                    continue
                for use in all_uses:
                    owner = op = use.owner.operation
                    key = op_key(op)
                    path = []
                    while True:
                        j = get_where(key)
                        if j is not None:
                            break
                        path.append(key)
                        parent = op.parent
                        if parent is None:
                            j = -1
                            break
                        op = parent.operation
                        key = op_key(op)
                        if key == graph_key:
                            j = -1
                            break
                    for key in path:
                        where[key] = j
                    if j < 0:
                        continue
                    producers[j].append(i)
                    if link_uses:
                        consumers[i].append(j)
                        found = uses.get(value)
                        if found is None:
                            uses[value] = [(j, owner)]
                        else:
                            found.append((j, owner))

    # -- queries -------------------------------------------------------------

    def problem(self):
        """``(message, op)`` if the graph is malformed for executor passes, else None."""
        return self._problem

    @property
    def fetch_index(self):
        return len(self.ops) - 1

    def is_island(self, i):
        return self.names[i] == ISLAND

    def island_indices(self):
        return [i for i, name in enumerate(self.names) if name == ISLAND]

    def outputs(self, i):
        """Data results of island `i` (its control token excluded)."""
        return self.results[i][:-1]

    def control(self, i):
        """The control token of island `i`."""
        return self.results[i][-1]

    def control_inputs(self, i):
        """Control operands of island `i`."""
        return self.operands[i]

    def users(self, value):
        """``[(j, op)]`` for the uses of graph-level `value` (see module docstring)."""
        return self.uses.get(value, ())

    def wraps_single_op(self, i):
        """TF's ``IslandOp::WrapsSingleOp``: one op whose results are yielded as is."""
        body = self.body[i]
        if len(body) != 1:
            return False
        results = list(body[0].results)
        return results == self.yield_operands[i]


def validated_post_order(graphs, check):
    """`graphs` and every graph nested in their islands, innermost first
    (MLIR's post-order walk), as ``(graph, info)``: each graph is scanned
    once without links (`info`) and handed to `check(info)` (which may
    raise) before anything is returned.

    Processing the graphs in this order, a graph without nested graphs is
    still as scanned when its turn comes (``info.link()`` then gives the
    links); a graph with nested graphs must be scanned again once they were
    changed. Iterative: nests may be deeper than Python's recursion limit.
    """
    order = []
    stack = [(graph, None) for graph in reversed(graphs)]
    while stack:
        graph, info = stack.pop()
        if info is not None:
            order.append((graph, info))
            continue
        info = GraphInfo(graph, links=False)
        check(info)
        stack.append((graph, info))
        stack.extend((nested, None) for nested in reversed(info.nested_graphs))
    return order


def create_island(result_types, control_inputs, loc, ip, yield_operands=(), context=None):
    """Creates an island (empty body but for a yield of `yield_operands`).

    Returns ``(island, yield_op)``. `result_types` are the data result types;
    the control type is appended. `ip` is an ``ir.InsertionPoint``.
    """
    island = ir.Operation.create(
        ISLAND, results=list(result_types) + [control_type(context)],
        operands=list(control_inputs), regions=1, loc=loc, ip=ip)
    block = island.regions[0].blocks.append()
    yield_op = ir.Operation.create(YIELD, operands=list(yield_operands), loc=loc,
                                   ip=ir.InsertionPoint(block))
    return island, yield_op


def rebuild_op(op, operands, result_types=None, keep=None):
    """Replaces `op` by a copy with `operands` (same name, attributes, location; the bodies of its
    regions are moved over; the same result types unless `result_types` is given).

    MLIR cannot change an op's operand or result count in place; this is the Python
    equivalent of creating the op anew from an ``OperationState``. Uses of the old results
    are redirected: `keep` lists, per new result, the old result it replaces (None: none;
    default: the first ones). Returns the new op.
    """
    op = op.operation
    regions = op.regions
    if result_types is None:
        result_types = [r.type for r in op.results]
    new = ir.Operation.create(
        op.name, results=list(result_types), operands=list(operands),
        attributes=dict(op.attributes.items()), regions=len(regions), loc=op.location,
        ip=ir.InsertionPoint(op))
    for old_region, new_region in zip(regions, new.regions):
        for old_block in old_region.blocks:
            new_block = new_region.blocks.append(*[a.type for a in old_block.arguments])
            for arg_old, arg_new in zip(old_block.arguments, new_block.arguments):
                arg_old.replace_all_uses_with(arg_new)
            for child in list(old_block.operations):
                new_block.append(child.operation.detach_from_parent())
    old_results = list(op.results)
    if keep is None:
        keep = list(range(min(len(old_results), len(result_types))))
    for new_index, old_index in enumerate(keep):
        if old_index is not None:
            old_results[old_index].replace_all_uses_with(new.results[new_index])
    erase_op(op)
    return new
