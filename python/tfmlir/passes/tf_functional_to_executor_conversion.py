"""Transform from func op to TF executor dialect.

Wraps the body of a function into a tf_executor.graph holding one
tf_executor.island, the inverse of tf-executor-to-functional-conversion:

    func.func @f(%arg0) -> (T) {
      %0 = tf_executor.graph {
        %outputs, %control = tf_executor.island {
          ... the function's ops ...
          tf_executor.yield %results...
        }
        tf_executor.fetch %outputs...
      }
      return %0...
    }

As TF: the graph and the island have the function's result types (the island
also a control token), the fetch forwards the island's data results (or its
control token when the function has no results), the graph, island, yield and
fetch take the function's location. Functions that are external, have more
than one block, end with something other than func.return, or already hold a
single tf_executor.graph are left alone.

The function's block itself becomes the island's block (a fresh entry block
takes over the arguments), so the cost does not depend on the number of ops.
"""
from mlir import ir

from .analysis.executor import FETCH, GRAPH, ISLAND, YIELD, control_type
from .framework import FUNC, Pass, register_pass

from .names import RETURN


@register_pass
class FunctionalToExecutorDialectConversion(Pass):
    argument = "tf-functional-to-executor-conversion"
    anchor = FUNC
    dependent_dialects = ("tf_executor",)
    # Nothing can fail after the checks, which come first.

    def run_on_operation(self, func):
        func = func.operation
        region = func.regions[0]
        blocks = region.blocks
        if len(blocks) != 1:
            return  # external or multi-block: TF skips these too
        body = blocks[0]
        ops = body.operations
        count = len(ops)
        if count == 0:
            return
        terminator = ops[count - 1].operation
        if count == 2 and ops[0].operation.name == GRAPH:
            return  # already a graph
        if terminator.name != RETURN:
            return
        wrap_function_body(func, body, terminator)


def wrap_function_body(func, body, terminator):
    """Moves `body` (the function's block, ending with `terminator`) into an island."""
    loc = func.location
    context = func.context
    result_types = list(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results)
    arguments = list(body.arguments)
    entry = ir.Block.create_at_start(func.regions[0], [a.type for a in arguments],
                                     [a.location for a in arguments])
    new_arguments = entry.arguments
    for old, new in zip(arguments, new_arguments):
        old.replace_all_uses_with(new)
    for index in range(len(arguments) - 1, -1, -1):
        body.erase_argument(index)

    graph = ir.Operation.create(GRAPH, results=result_types, regions=1, loc=loc,
                                ip=ir.InsertionPoint(entry))
    graph_block = graph.regions[0].blocks.append()
    island = ir.Operation.create(ISLAND, results=result_types + [control_type(context)],
                                 regions=1, loc=loc, ip=ir.InsertionPoint(graph_block))
    island_results = list(island.results)
    fetched = island_results[:-1] if len(island_results) != 1 else island_results
    ir.Operation.create(FETCH, operands=fetched, loc=loc, ip=ir.InsertionPoint(graph_block))

    ir.Operation.create(YIELD, operands=list(terminator.operands), loc=loc,
                        ip=ir.InsertionPoint(terminator))
    terminator.move_after(graph)
    body.append_to(island.regions[0])
    graph_results = graph.results
    operands = terminator.operands
    for index in range(len(graph_results)):
        operands[index] = graph_results[index]
