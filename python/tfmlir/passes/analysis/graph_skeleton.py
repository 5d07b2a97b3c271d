"""Lean view of the ``tf_executor.graph`` ops under an op: graphs, islands, island bodies.

:func:`graph_skeletons` finds every graph nested in an op (a function, a
module) with one pre-order walk that enters only graph blocks and island
blocks; ops that have regions elsewhere are searched afterwards, from a work
list (no recursion: any nesting depth is fine). It records ops only (no
operands, results or attributes), so it costs about one binding call per op
of a graph block or island block; passes that need def-use information
should use :class:`.executor.GraphInfo` instead.

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
from mlir import ir

from .executor import FETCH, GRAPH, ISLAND, YIELD

_ADVANCE = ir.WalkResult.ADVANCE
_SKIP = ir.WalkResult.SKIP
_PRE_ORDER = ir.WalkOrder.PRE_ORDER


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
    Iterative (an explicit work list, no recursion), so any nesting depth the
    parser accepts is fine.
    """
    top = []
    # (op to search, list receiving what is found there); what a search finds
    # goes into a placeholder list at the right position, flattened at the end.
    # An op of an island body may itself be a graph (`include_root`).
    tasks = [(root, top, False)]
    searched_islands = []
    while tasks:
        op, into, include_root = tasks.pop()
        found, island_searches = _scan(op, include_root)
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


def _scan(root, include_root):
    """One walk of `root`: the graphs and the ops with regions to search further.

    `root` itself counts as a graph when it is one and `include_root` is set.

    Returns ``(found, island_searches)``: `found` holds, in order, the
    GraphSkeletons of graphs directly reachable and the ops with regions
    outside graphs (to be searched); `island_searches` the ops with regions
    in island bodies, with their island.
    """
    found = []         # GraphSkeleton, or ops with regions to search, in order
    island_searches = []      # (IslandSkeleton, op with regions)
    # Walk state (closure variables are the cheapest to read and write here):
    # mode 0 outside graphs, 1 in a graph block, 2 in an island block.
    mode = 0
    graph = island = None
    body_append = None

    def visit(op):
        nonlocal mode, graph, island, body_append
        if mode == 2:
            if op.name == YIELD:
                island.yield_op = op
                mode = 1
                return _SKIP
            body_append(op)
            if len(op.regions):
                island_searches.append((island, op))
                if op.name == GRAPH:
                    island.holds_graph = True
            return _SKIP
        if mode == 1:
            name = op.name
            if name == ISLAND:
                island = IslandSkeleton(op)
                graph.islands.append(island)
                body_append = island.body.append
                mode = 2
                return _ADVANCE
            if name == FETCH:
                graph.fetch = op
                mode = 0
            else:
                graph.others.append((len(graph.islands) + len(graph.others), op))
            return _SKIP
        if op == root and not (include_root and op.name == GRAPH):
            return _ADVANCE
        if op.name == GRAPH:
            graph = GraphSkeleton(op)
            found.append(graph)
            mode = 1
            return _ADVANCE
        if len(op.regions):
            found.append(op)
        return _SKIP

    root.walk(visit, _PRE_ORDER)
    return found, island_searches


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
