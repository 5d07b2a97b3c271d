"""Lean view of the ``tf_executor.graph`` ops under an op: graphs, islands, island bodies.

:func:`graph_skeletons` finds every graph nested in an op (a function, a
module) on one native pre-order table of the op (``_tfmlir.OpTable``), reading
only op names, region counts and the children of graphs and islands; ops that
have regions elsewhere are searched afterwards, from a work list (no recursion:
any nesting depth is fine). It records ops only (no operands, results or
attributes), made Python objects in one bulk call; passes that need def-use
information should use :class:`.executor.GraphInfo` instead.

Each :class:`GraphSkeleton` holds, in block order, the graph's islands as
:class:`IslandSkeleton` (the island, the ops of its block but the yield, the
yield) and its other ops (V1 control flow, ControlTrigger, ...) with their
positions. Graphs nested in the regions of island ops are attached to their
island (``IslandSkeleton.nested``), so the orders of MLIR's post-order walk
can be rebuilt: :func:`post_order_graphs` (innermost first) and
:func:`post_order_islands`.

Everything is a snapshot: mutate only after collecting, and keep your own
bookkeeping.
"""
from ... import _tfmlir
from .executor import FETCH, GRAPH, ISLAND, YIELD


class IslandSkeleton:
    """An island: ``op``, ``body`` (its ops but the yield), ``yield_op``, ``nested`` graphs.

    ``holds_graph``: an op of the body is itself a ``tf_executor.graph``.
    """

    __slots__ = ("op", "body", "yield_op", "nested", "holds_graph")

    def __init__(self, op):
        self.op = op
        self.body = []
        self.yield_op = None
        self.nested = []
        self.holds_graph = False

    def wraps_single_op(self):
        """TF's ``IslandOp::WrapsSingleOp``: one op whose results are the yield's operands."""
        if len(self.body) != 1:
            return False
        results = self.body[0].results
        operands = self.yield_op.operands
        count = len(results)
        if count != len(operands):
            return False
        for index in range(count):
            if results[index] != operands[index]:
                return False
        return True


class GraphSkeleton:
    """A graph: ``op``, ``islands``, ``fetch`` and ``others`` (``(position, op)`` of non-islands)."""

    __slots__ = ("op", "islands", "fetch", "others")

    def __init__(self, op):
        self.op = op
        self.islands = []
        self.fetch = None
        self.others = []


def graph_skeletons(root):
    """The outermost graphs nested in `root` (not `root` itself), in block order.

    Graphs inside island ops are reachable through ``IslandSkeleton.nested``;
    graphs inside other ops with regions are listed at the position of that op.
    One native pre-order table of `root` (:class:`OpTable`) answers every
    question; the scan is iterative (an explicit work list, no recursion), so
    any nesting depth the parser accepts is fine.
    """
    scan = _Scan(_tfmlir.OpTable(root.operation, "pre"))
    top = []
    # (index of the op to search, list receiving what is found there); what a
    # search finds goes into a placeholder list at the right position, flattened
    # at the end. An op of an island body may itself be a graph (`include_root`).
    tasks = [(0, top, False)]
    searched_islands = []
    while tasks:
        index, into, include_root = tasks.pop()
        found, island_searches = scan.search(index, include_root)
        for island, holder in island_searches:
            part = []
            if not island.nested:
                searched_islands.append(island)
            island.nested.append(part)
            tasks.append((holder, part, True))
        for item in found:
            if isinstance(item, GraphSkeleton):
                into.append(item)
            else:
                part = []
                into.append(part)
                tasks.append((item, part, False))
    for island in searched_islands:
        island.nested = _flatten(island.nested)
    scan.materialize()
    return _flatten(top)


def _flatten(items):
    """The non-list leaves of nested lists, in order (iteratively)."""
    out = []
    stack = [iter(items)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, list):
                stack.append(iter(item))
                break
            out.append(item)
        else:
            stack.pop()
    return out


class _Scan:
    """The searches of one table. Skeletons are built with op indices, turned into
    ir.Operation objects in one bulk call at the end (:meth:`materialize`)."""

    def __init__(self, table):
        self.table = table
        self.names = table.names()
        self.num_regions = table.num_regions()
        self.graphs = []
        self.islands = []

    def search(self, index, include_root):
        """The graphs and the ops with regions to search further, directly under op `index`
        (or op `index` itself when it is a graph and `include_root` is set).

        Returns ``(found, island_searches)``: `found` holds, in order, the
        GraphSkeletons of graphs directly reachable and the indices of ops with
        regions outside graphs (to be searched); `island_searches` the indices of
        ops with regions in island bodies, with their island.
        """
        names, num_regions = self.names, self.num_regions
        found, island_searches = [], []
        if include_root and names[index] == GRAPH:
            found.append(self._graph(index, island_searches))
            return found, island_searches
        for child in self.table.children(index):
            if names[child] == GRAPH:
                found.append(self._graph(child, island_searches))
            elif num_regions[child]:
                found.append(child)
        return found, island_searches

    def _graph(self, index, island_searches):
        names, num_regions, children = self.names, self.num_regions, self.table.children
        graph = GraphSkeleton(index)
        self.graphs.append(graph)
        for child in children(index):
            name = names[child]
            if name == ISLAND:
                island = IslandSkeleton(child)
                graph.islands.append(island)
                self.islands.append(island)
                body = island.body
                for inner in children(child):
                    if names[inner] == YIELD:
                        island.yield_op = inner
                        break
                    body.append(inner)
                    if num_regions[inner]:
                        island_searches.append((island, inner))
                        if names[inner] == GRAPH:
                            island.holds_graph = True
            elif name == FETCH:
                graph.fetch = child
                break
            else:
                graph.others.append((len(graph.islands) + len(graph.others), child))
        return graph

    def materialize(self):
        """Replaces the indices held by the skeletons with their ir.Operation objects."""
        wanted = []
        for graph in self.graphs:
            wanted.append(graph.op)
            if graph.fetch is not None:
                wanted.append(graph.fetch)
            wanted.extend(op for _, op in graph.others)
        for island in self.islands:
            wanted.append(island.op)
            if island.yield_op is not None:
                wanted.append(island.yield_op)
            wanted.extend(island.body)
        objects = dict(zip(wanted, self.table.ops(wanted)))
        for graph in self.graphs:
            graph.op = objects[graph.op]
            if graph.fetch is not None:
                graph.fetch = objects[graph.fetch]
            graph.others = [(position, objects[op]) for position, op in graph.others]
        for island in self.islands:
            island.op = objects[island.op]
            if island.yield_op is not None:
                island.yield_op = objects[island.yield_op]
            island.body = [objects[op] for op in island.body]


def post_order_graphs(skeletons):
    """All graphs (nested ones included) in MLIR post-order: innermost first."""
    out = []
    stack = [(graph, False) for graph in reversed(skeletons)]
    while stack:
        graph, expanded = stack.pop()
        if expanded:
            out.append(graph)
            continue
        stack.append((graph, True))
        for island in reversed(graph.islands):
            stack.extend((nested, False) for nested in reversed(island.nested))
    return out


def post_order_islands(skeletons):
    """All islands (nested ones included) in MLIR post-order: an island after those inside it."""
    out = []
    stack = [(False, graph) for graph in reversed(skeletons)]
    while stack:
        is_island, item = stack.pop()
        if is_island:
            out.append(item)
            continue
        for island in reversed(item.islands):
            stack.append((True, island))
            stack.extend((False, nested) for nested in reversed(island.nested))
    return out
