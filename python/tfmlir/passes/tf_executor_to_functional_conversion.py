"""Lifts tf_executor.island inner ops from a tf_executor.graph

This pass converts tf_executor.graphs consisting of only tf_executor.islands
and a tf_executor.fetch into a sea of nodes consisting of TensorFlow Dialect
ops by lifting such ops out of a tf_executor.graph's tf_executor.islands. If V1
control flow ops are present in a tf_executor.graph, an error will be returned.

Every tf_executor.graph in the function (nested ones included, innermost
first, as TF's post-order walk) is rewritten: the ops of each island, in graph
order, move in front of the graph; uses of an island's data results become
uses of its yielded values; uses of the graph's results become uses of the
fetched values; the graph (with its islands, their control tokens and the
fetch) is erased.

How it stays fast and safe: one pre-order walk collects and validates the
graphs; the ops are moved and the data results rewired with about one binding
call each; the function is then verified once (C++). Only a lifted op that
uses an island's control token makes that verification fail (the token is
defined inside the graph); in that case every step is undone and the control
uses are examined one by one to report the op. The graphs are erased last.

Errors (the function is left unchanged):
* a graph holds an op other than tf_executor.island (V1 control flow such as
  Switch/Merge/Enter, or ControlTrigger): ``'<op>' op is not supported for
  lifting out of tf_executor.graph, expected tf_executor.island`` (TF's
  message), at that op;
* an op other than an island or a fetch uses the control token of an island
  (lifting would leave it using an erased value): reported at that op.
"""
from mlir import ir

from .analysis.executor import FETCH, ISLAND, op_key
from .analysis.graph_skeleton import graph_skeletons, post_order_graphs
from .framework import FUNC, Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import move_ops_before
from .walk import ADVANCE, PRE_ORDER


@register_pass
class ExecutorToFunctionalConversion(Pass):
    argument = "tf-executor-to-functional-conversion"
    anchor = FUNC
    # Validated before mutating, and undone on the one late failure.

    def run_on_operation(self, func):
        _run(func.operation)


def _run(func):
    plans = []
    _plan(func, plans)
    if not plans:
        return
    undo = [_lift(plan) for plan in plans]
    if not _verifies(func):
        # Some lifted op uses a value defined in a graph (an island's control
        # token), or the lifted IR is invalid for another reason: undo, find
        # the culprit exactly, and redo only if there is none (the verifier
        # after the pass then reports the invalid IR, as with TF).
        for plan, record in reversed(list(zip(plans, undo))):
            _unlift(plan, record)
        for graph, islands, _ in plans:
            _check_control_uses(islands)
        for plan in plans:
            _lift(plan)
    for graph, _, _ in plans:
        erase_op(graph)


def _verifies(op):
    """Runs the verifier on `op` silently (its diagnostics are dropped)."""
    handler = op.context.attach_diagnostic_handler(lambda diagnostic: True)
    try:
        op.verify()
        return True
    except ir.MLIRError:
        return False
    finally:
        handler.detach()


def _not_island_message(name):
    return (f"'{name}' op is not supported for lifting out of tf_executor.graph, "
            "expected tf_executor.island")


def _plan(root, plans):
    """Validates the graphs nested in `root`; appends their plans, innermost first.

    A plan is ``(graph, [(island, inner ops, yield)], fetch)``. Raises
    PassFailure at the first op of a graph that is not an island (TF's order).
    The inner ops of an island holding a graph directly are None: lifting
    that graph first puts its ops in the island, so they are listed when the
    island is lifted (see :func:`_lift`).
    """
    for graph in post_order_graphs(graph_skeletons(root)):
        if graph.others:
            op = graph.others[0][1]
            raise PassFailure(_not_island_message(op.name), op)
        plans.append((graph.op, [(i.op, None if i.holds_graph else i.body, i.yield_op)
                                 for i in graph.islands], graph.fetch))


def _check_control_uses(islands):
    """Fails if an op other than an island or a fetch uses an island's control token.

    Islands and fetches are all erased (every graph of the function is
    lifted, innermost first), so only their uses are fine.
    """
    for island, _, _ in islands:
        results = island.results
        for use in results[len(results) - 1].uses:
            owner = use.owner
            name = owner.name
            if name != ISLAND and name != FETCH:
                raise PassFailure(
                    f"'{name}' op uses the control result of a tf_executor.island, "
                    "which is erased when lifting out of tf_executor.graph", owner)


def _uses_of(value):
    return [(use.owner, use.operand_number) for use in value.uses]


def _lift(plan):
    """Moves the island ops before the graph and rewires the uses of island and
    graph results (the graph stays). Returns what :func:`_unlift` needs: the
    uses of results whose replacement was defined outside their island (their
    uses can't be told apart afterwards), keyed by (island position, result)."""
    graph, islands, fetch = plan
    outside = {}
    for position, (island, inner, yield_op) in enumerate(islands):
        if inner is None:
            # Holds a graph lifted already: its ops are in the island now. The
            # list is kept for _unlift (and a redo, which finds the same ops).
            inner = [op.operation for op in island.regions[0].blocks[0].operations][:-1]
            islands[position] = (island, inner, yield_op)
    # Every island's ops before the graph, in island order, in one native call (where the
    # ops are does not change the uses rewired below).
    move_ops_before([op for _, inner, _ in islands for op in inner], graph)
    for position, (island, inner, yield_op) in enumerate(islands):
        results = island.results
        count = len(results) - 1
        if count:
            fetched = yield_op.operands
            single = inner[0] if len(inner) == 1 else None
            members = None
            for k in range(count):
                value = fetched[k]
                result = results[k]
                owner = value.owner
                if single is not None:
                    inside = owner == single
                else:
                    if members is None:
                        members = {op_key(op) for op in inner}
                    inside = isinstance(value, ir.OpResult) and op_key(owner) in members
                if not inside:
                    outside[(position, k)] = _uses_of(result)
                result.replace_all_uses_with(value)
    graph_results = graph.results
    graph_uses = []
    if len(graph_results):
        fetched = fetch.operands
        for k in range(len(graph_results)):
            result = graph_results[k]
            graph_uses.append(_uses_of(result))
            result.replace_all_uses_with(fetched[k])
    return outside, graph_uses


def _island_ops(inner, yield_op):
    """Every op of an island (nested ones included), its yield too."""
    ops = [yield_op]
    for op in inner:
        op.walk(lambda nested: ops.append(nested) or ADVANCE, PRE_ORDER)
    return ops


def _unlift(plan, record):
    """Exactly undoes :func:`_lift` (islands in reverse order)."""
    graph, islands, fetch = plan
    outside, graph_uses = record
    graph_results = graph.results
    for k, uses in enumerate(graph_uses):
        for owner, number in uses:
            owner.operands[number] = graph_results[k]
    for position in range(len(islands) - 1, -1, -1):
        island, inner, yield_op = islands[position]
        results = island.results
        count = len(results) - 1
        if count:
            fetched = yield_op.operands
            exceptions = None
            for k in range(count - 1, -1, -1):
                uses = outside.get((position, k))
                if uses is not None:
                    for owner, number in uses:
                        owner.operands[number] = results[k]
                    continue
                if exceptions is None:
                    exceptions = _island_ops(inner, yield_op)
                fetched[k].replace_all_uses_except(results[k], exceptions)
        for op in inner:
            op.move_before(yield_op)
