"""Prunes unreachable ops in a tf_executor.graph

This pass removes ops from a tf_executor.graph that are not transitively, via
data or control dependencies, connected to the associated tf_executor.fetch
op. The order of ops will be preserved. Functions named main with no
tf.entry_function attribute will not be pruned, as such graphs/functions may
have been imported from a V1 TensorFlow graph, where feeds/fetches/targets are
not provided at certain stages of IR transformation (e.g. pre-placement).

Option ops-to-preserve allows to specify ops that should not be pruned,
regardless of their reachability.

Behaviour (matches TensorFlow's C++ pass):

* Reachability starts at the fetch and follows operands backwards; an island
  also reaches the graph-level ops whose values its body captures, and a
  ``tf_executor.NextIteration.Source`` reaches its
  ``tf_executor.NextIteration.Sink``.
* Islands are kept regardless of reachability (with what they reach) when
  any op inside them, or the island itself, is named in ``ops-to-preserve``
  or must execute (TF's ``MustExecute`` effect, e.g. ``tf.CheckNumerics``).
  Other graph-level ops are only kept when reachable.
* Every graph of the function is pruned, innermost first.
"""
from mlir import ir

from .. import _tfmlir
from .analysis.executor import (FETCH, GRAPH, ISLAND, NEXT_ITERATION_SINK, NEXT_ITERATION_SOURCE,
                                YIELD, function_name)
from .analysis.side_effects import MUST_EXECUTE_OPS
from .framework import FUNC, Option, Pass, erase_ops, register_pass


def can_prune(func_op):
    """TF's CanPruneGraph: not a ``main`` without ``tf.entry_function``."""
    if function_name(func_op) != "main":
        return True
    attrs = func_op.attributes
    return "tf.entry_function" in attrs and isinstance(attrs["tf.entry_function"], ir.DictAttr)


@register_pass
class ExecutorGraphPruningPass(Pass):
    argument = "tf-executor-graph-pruning"
    anchor = FUNC
    options = (
        Option("ops-to-preserve", str, list=True,
               help="Comma separated list of ops that should not be pruned regardless of "
                    "reachability"),
    )
    dependent_dialects = ("tf_executor",)

    def run_on_operation(self, op):
        func = op.operation
        if not can_prune(func):
            self.mark_all_analyses_preserved()
            return
        # The function's structure in one native walk (pre-order): every graph is
        # validated before any is changed (outer graphs first, as TF reports them), then
        # pruned innermost first (MLIR's post-order), each from a fresh table of the graph
        # (pruning a nested graph changed what the graph holds).
        table = _tfmlir.OpTable(func, "pre")
        graphs = table.named(GRAPH)
        if not graphs:
            self.mark_all_analyses_preserved()
            return
        names = table.names()
        problem = _first_problem(table, graphs, names)
        if problem is not None:
            self.fail(problem[0], table.op(problem[1]))
        ends = table.subtree_ends()
        order = sorted(graphs, key=lambda g: (ends[g], -g))
        graph_ops = table.ops(order)
        del table
        watch = frozenset(self.ops_to_preserve) | MUST_EXECUTE_OPS
        changed = False
        for graph in graph_ops:
            changed = _prune(_tfmlir.OpTable(graph, "pre"), watch) or changed
        if not changed:
            self.mark_all_analyses_preserved()


def _first_problem(table, graphs, names):
    """``(message, op index)`` of the first graph (pre-order) not shaped as the executor
    passes need (islands ending in a matching yield, a fetch last), or None."""
    num_operands = num_results = None
    for g in graphs:
        children = table.children(g)
        for i in children:
            if names[i] != ISLAND:
                continue
            body = table.children(i)
            if not body or names[body[-1]] != YIELD:
                return ("island without a tf_executor.yield", i)
            if num_operands is None:
                num_operands, num_results = table.num_operands(), table.num_results()
            if num_operands[body[-1]] + 1 != num_results[i]:
                return ("island yield does not match its results", i)
        if not children or names[children[-1]] != FETCH:
            return ("expected the graph to end with a tf_executor.fetch", g)
    return None


def _preserved(table, names, watch, children):
    """Positions of the children that are islands TF's ShouldPreserveIsland keeps: the
    island or any op nested in it (its yield, ops in regions and in nested graphs
    included) is named in `watch` (the ops to preserve and those that must execute)."""
    position = {c: k for k, c in enumerate(children)}
    parents = table.parents()
    found = set()
    for name in watch & set(names):
        for i in table.named(name):
            # Climb to the graph-level ancestor (index 0 is the graph itself).
            while i > 0 and i not in position:
                i = parents[i]
            k = position.get(i)
            if k is not None and names[i] == ISLAND:
                found.add(k)
    return found


def _prune(table, watch):
    """Erases the ops of the graph (`table`'s root, index 0) that the fetch does not reach;
    True if it erased any."""
    names = table.names()
    children = table.children(0)
    producers = table.child_producers(0)
    child_names = [names[c] for c in children]
    count = len(children)
    reachable = bytearray(count)
    stack = []
    fetch = count - 1
    reachable[fetch] = 1
    for i in producers[fetch]:
        if not reachable[i]:
            reachable[i] = 1
            stack.append(i)
    if ISLAND in watch or YIELD in watch:
        preserved = [k for k, name in enumerate(child_names) if name == ISLAND]
    else:
        preserved = _preserved(table, names, watch, children)
    for i in preserved:
        if not reachable[i]:
            reachable[i] = 1
            stack.append(i)
    sinks = None
    while stack:
        i = stack.pop()
        for j in producers[i]:
            if not reachable[j]:
                reachable[j] = 1
                stack.append(j)
        if child_names[i] == NEXT_ITERATION_SOURCE:
            if sinks is None:
                sinks = _sinks_by_source(table, children, child_names)
            for j in sinks.get(i, ()):
                if not reachable[j]:
                    reachable[j] = 1
                    stack.append(j)
    if all(reachable):
        return False
    # Erase in reverse order: users go before the ops defining their operands.
    dead = [children[k] for k in range(count - 1, -1, -1) if not reachable[k]]
    erase_ops(table.ops(dead))
    return True


def _sinks_by_source(table, children, child_names):
    """NextIteration.Source position -> positions of the sinks taking its token."""
    position = {c: k for k, c in enumerate(children)}
    defs = table.operand_defs()
    sinks = {}
    for j, name in enumerate(child_names):
        if name == NEXT_ITERATION_SINK:
            operands = defs[children[j]]
            i = position.get(operands[0]) if operands else None  # the token
            if i is not None and child_names[i] == NEXT_ITERATION_SOURCE:
                sinks.setdefault(i, []).append(j)
    return sinks
