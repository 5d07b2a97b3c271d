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

from .analysis.executor import (ISLAND, NEXT_ITERATION_SINK, NEXT_ITERATION_SOURCE,
                                YIELD, GraphInfo, function_name, op_key,
                                outermost_graphs, validated_post_order)
from .analysis.side_effects import MUST_EXECUTE_OPS
from .framework import FUNC, Option, Pass, erase_op, register_pass


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
    # Graphs are validated before anything is mutated.

    def run_on_operation(self, op):
        func = op.operation
        if not can_prune(func):
            return
        watch = frozenset(self.ops_to_preserve) | MUST_EXECUTE_OPS
        graphs = outermost_graphs(func)
        outermost = {op_key(graph) for graph in graphs}
        # Every graph is validated before any is changed, then pruned
        # innermost first, a graph holding nested graphs from a fresh scan
        # (pruning them changed what it sees). `watched` remembers, per pruned
        # nested graph, whether anything left in it is named in `watch`: the
        # island holding it is then preserved.
        watched = {}
        for graph, info in validated_post_order(graphs, self._check):
            if info.nested_graphs:
                info = GraphInfo(graph, uses=False)
            else:
                info.link(uses=False)
            key = op_key(graph)
            flag = _prune(info, watch, watched, report=key not in outermost)
            if flag is not None:
                watched[key] = flag

    def _check(self, info):
        problem = info.problem()
        if problem is not None:
            self.fail(problem[0], problem[1])


def _preserved_islands(info, watch, watched):
    """TF's ShouldPreserveIsland for every island: the island or any op in it
    (the yield and ops nested in regions included) is named in `watch` (the
    ops to preserve and those that must execute). Ops inside nested graphs
    count through `watched` (op key of an already pruned nested graph ->
    whether anything left in it is watched)."""
    every = ISLAND in watch or YIELD in watch
    found = []
    holding_watched = set()
    for graph, j in zip(info.nested_graphs, info.nested_graph_islands):
        if watched.get(op_key(graph)):
            holding_watched.add(j)
    for i, name in enumerate(info.names):
        if name != ISLAND:
            continue
        if every or i in holding_watched or not watch.isdisjoint(info.body_names[i]) or any(
                nested_name in watch for _, nested_name, _ in info.nested[i]):
            found.append(i)
    return found


def _any_watched(info, kept, watch, watched):
    """Whether an op left in the graph of `info` (`kept`: per graph-level op,
    ops nested in islands included) is named in `watch`."""
    names = info.names
    for i, name in enumerate(names):
        if not kept[i]:
            continue
        if name in watch:
            return True
        if name == ISLAND and (YIELD in watch or not watch.isdisjoint(info.body_names[i]) or any(
                nested_name in watch for _, nested_name, _ in info.nested[i])):
            return True
    for graph, j in zip(info.nested_graphs, info.nested_graph_islands):
        if kept[j] and watched.get(op_key(graph)):
            return True
    return False


def _prune(info, watch, watched, report=False):
    """Erases the unreachable ops of the graph of `info`. With `report`,
    returns whether an op left in the graph is named in `watch` (see
    :func:`_any_watched`)."""
    ops, names, producers = info.ops, info.names, info.producers
    count = len(ops)
    reachable = bytearray(count)
    stack = []
    fetch = count - 1
    reachable[fetch] = 1
    for i in producers[fetch]:
        if not reachable[i]:
            reachable[i] = 1
            stack.append(i)
    for i in _preserved_islands(info, watch, watched):
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
        if names[i] == NEXT_ITERATION_SOURCE:
            if sinks is None:
                sinks = _sinks_by_source(info)
            for j in sinks.get(i, ()):
                if not reachable[j]:
                    reachable[j] = 1
                    stack.append(j)
    flag = _any_watched(info, reachable, watch, watched) if report else None
    if all(reachable):
        return flag
    # Erase in reverse order: users go before the ops defining their operands.
    for i in range(count - 1, -1, -1):
        if not reachable[i]:
            erase_op(ops[i])
    return flag


def _sinks_by_source(info):
    """NextIteration.Source index -> indices of the sinks taking its token."""
    sinks = {}
    get_def = info.value_def.get
    for j, name in enumerate(info.names):
        if name == NEXT_ITERATION_SINK and info.operands[j]:
            i = get_def(info.operands[j][0])  # the token
            if i is not None and info.names[i] == NEXT_ITERATION_SOURCE:
                sinks.setdefault(i, []).append(j)
    return sinks
