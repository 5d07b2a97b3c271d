"""Verify module is suitable for export back to TF Graph

Verifies whether all functions in module are of single tf_executor.graph and
each tf_executor.island in tf_executor.graph only has a single op.

As TF's ``VerifyExportSuitable``, every func.func of the module (those in
nested modules too) is checked in order and the first violation fails the
pass, with TF's messages (all start with ``functions must be of a single
Graph with single op Islands:``):

* ``only single block functions are supported`` (at the function; external
  functions have no block and fail too);
* ``first op in function is not a tf_executor.graph`` (at that op, the
  func.return when the function holds nothing else);
* ``function does not only contain a single tf_executor.graph`` (at the
  function);
* ``tf_executor.island must perfectly wrap a single op`` (at the island): an
  island must hold exactly one op and yield all of its results, in order.

Ops of the graph other than islands (V1 control flow) are not checked. The
pass never changes the IR.
"""
from mlir import ir

from .analysis.executor import GRAPH, ISLAND, YIELD
from .framework import MODULE, Pass, PassFailure, register_pass

from .names import FUNC as FUNC_OP
from .walk import ADVANCE, PRE_ORDER, SKIP
INVALID_GRAPH = "functions must be of a single Graph with single op Islands: "


@register_pass
class VerifySuitableForExportPass(Pass):
    argument = "tf-verify-for-export"
    anchor = MODULE

    def run_on_operation(self, module):
        problem = find_export_problem(module.operation)
        if problem is not None:
            raise PassFailure(*problem)


def find_export_problem(module):
    """TF's VerifyExportSuitable: ``(message, op)`` for the first violation, or None."""
    problem = []

    def visit(op):
        if op.name != FUNC_OP:
            return ADVANCE
        found = _function_problem(op)
        if found is not None:
            problem.append(found)
            return ir.WalkResult.INTERRUPT
        return SKIP

    module.walk(visit, PRE_ORDER)
    return problem[0] if problem else None


def _function_problem(func):
    blocks = func.regions[0].blocks
    if len(blocks) != 1:
        return INVALID_GRAPH + "only single block functions are supported", func
    ops = blocks[0].operations
    first = ops[0].operation
    if first.name != GRAPH:
        return INVALID_GRAPH + "first op in function is not a tf_executor.graph", first
    if len(ops) != 2:
        return INVALID_GRAPH + "function does not only contain a single tf_executor.graph", func
    island = _island_not_wrapping_single_op(first)
    if island is not None:
        return INVALID_GRAPH + "tf_executor.island must perfectly wrap a single op", island
    return None


def _island_not_wrapping_single_op(graph):
    """The first island of `graph` that does not wrap exactly one op (TF's WrapsSingleOp)."""
    # Pre-order walk over the graph block and its island blocks only:
    # island, its ops..., yield, next island, ..., fetch.
    islands = []   # [island, [ops], yield]
    current = [None]

    def visit(op):
        entry = current[0]
        if entry is None:
            if op.name == ISLAND:
                entry = [op, [], None]
                islands.append(entry)
                current[0] = entry
                return ADVANCE
            return ADVANCE if op == graph else SKIP
        if op.name == YIELD:
            entry[2] = op
            current[0] = None
        else:
            entry[1].append(op)
        return SKIP

    graph.walk(visit, PRE_ORDER)
    for island, inner, yield_op in islands:
        if len(inner) != 1:
            return island
        results = inner[0].results
        operands = yield_op.operands
        count = len(results)
        if count != len(operands):
            return island
        for index in range(count):
            if results[index] != operands[index]:
                return island
    return None
