"""Outline TPU clusters from island into a nested module, so it can be processed like a V2 module, intended for V1 compatibility mode

Extracts the islands holding a TPU computation into functions of a nested
module ``@_tpu_v1_compat_outlined`` (created with the module's attributes,
even when nothing is outlined), and calls them from the islands with
``tf.PartitionedCall`` (``f = @_tpu_v1_compat_outlined::@<func>``), so the
usual bridge can run on the nested module. The inverse is
-tf-executor-tpu-v1-island-inlining.

As TF:
* an island is outlined when one of its ops (directly in its block) is a
  ``tf.TPUReplicateMetadata`` (replicated TPU computation) or has
  ``_xla_compile_device_type = "TPU"`` without a string
  ``_replication_info`` (single-core TPU computation); islands of functions
  marked ``_skip_island_outlining = true`` are left alone, and that attribute
  is removed from the module's functions at the end;
* islands are handled in post-order (an island after those nested in it);
  the n-th becomes ``func.func nested @_tpu_v1_compat_outlined_func<n>``,
  at the island's location;
* its arguments are the values the island's body uses but does not define
  (in the order MLIR's getUsedValuesDefinedAbove finds them), its results the
  yield's operands; the island keeps its results, now yielded from the call
  (``config``, ``config_proto`` and ``executor_type`` are empty);
* functions referenced (flat symbol refs, also inside array attributes) from
  the outlined functions move into the nested module, transitively.
  References to symbols that are not functions of the module are left alone
  (TF would crash on them).

Error: a symbol ``_tpu_v1_compat_outlined`` already exists (``unexpected
already present outlined module.``, at it); nothing is changed.
"""
from mlir import ir

from .analysis.executor import YIELD
from .analysis.graph_skeleton import graph_skeletons, post_order_islands
from .analysis.symbols import (FUNC_OP, NESTED_TPU_MODULE, append_to_module, flat_symbol_refs,
                               module_body, symbol_ops)
from .framework import MODULE, Pass, PassFailure, register_pass
from .lib.ir_helpers import outline_block
from .walk import ADVANCE, POST_ORDER, PRE_ORDER, SKIP

OUTLINED_FUNC_PREFIX = "_tpu_v1_compat_outlined_func"
SKIP_ISLAND_OUTLINING = "_skip_island_outlining"
COMPILE_DEVICE_TYPE = "_xla_compile_device_type"
REPLICATION_INFO = "_replication_info"
TPU_DEVICE = "TPU"
TPU_REPLICATE_METADATA = "tf.TPUReplicateMetadata"


@register_pass
class TPUBridgeExecutorIslandOutlining(Pass):
    argument = "tf-executor-tpu-v1-island-outlining"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_executor", "func")

    def run_on_operation(self, module):
        with module.context:
            self._run(module.operation)

    def _run(self, module):
        symbols = symbol_ops(module)
        existing = symbols.get(NESTED_TPU_MODULE)
        if existing is not None:
            raise PassFailure(f"'{existing.name}' op unexpected already present outlined module.",
                              existing)
        islands = [island for func, skeletons in _functions_with_graphs(module)
                   if not _skips_outlining(func)
                   for island in post_order_islands(skeletons) if _is_tpu_island(island)]

        outlined = _create_nested_module(module)
        outliner = _Outliner(outlined)
        outlined_funcs = [outliner.outline(island, f"{OUTLINED_FUNC_PREFIX}{n}")
                          for n, island in enumerate(islands)]
        _move_callees(outlined, outlined_funcs, symbols)
        for op in module_body(module).operations:
            op = op.operation
            if op.name == FUNC_OP and SKIP_ISLAND_OUTLINING in op.attributes:
                del op.attributes[SKIP_ISLAND_OUTLINING]


def _functions_with_graphs(module):
    """``(func, graph skeletons)`` of every func.func in `module` (nested modules too), in order."""
    funcs = []

    def visit(op):
        if op.name == FUNC_OP:
            funcs.append(op)
            return SKIP
        return ADVANCE

    module.walk(visit, PRE_ORDER)
    return [(func, graph_skeletons(func)) for func in funcs]


def _skips_outlining(func):
    attributes = func.attributes
    if SKIP_ISLAND_OUTLINING not in attributes:
        return False
    attr = attributes[SKIP_ISLAND_OUTLINING]
    return isinstance(attr, ir.BoolAttr) and ir.BoolAttr(attr).value


def _is_tpu_island(island):
    for op in island.body:
        if op.name == TPU_REPLICATE_METADATA:
            return True
        attributes = op.attributes
        if COMPILE_DEVICE_TYPE in attributes:
            device_type = attributes[COMPILE_DEVICE_TYPE]
            if (isinstance(device_type, ir.StringAttr) and device_type.value == TPU_DEVICE
                    and not (REPLICATION_INFO in attributes
                             and isinstance(attributes[REPLICATION_INFO], ir.StringAttr))):
                return True
    return False


def _create_nested_module(module):
    """``module @_tpu_v1_compat_outlined`` with `module`'s attributes, at the end of `module`."""
    parent = module.attributes
    attributes = {}
    for index in range(len(parent)):
        # By name, not `.attr` of the named attribute: that getter aborts the process on an
        # attribute the bindings cannot downcast (complex dense elements); this raises TypeError.
        name = parent[index].name
        attributes[name] = parent[name]
    attributes["sym_name"] = ir.StringAttr.get(NESTED_TPU_MODULE, module.context)
    nested = ir.Operation.create("builtin.module", attributes=attributes, regions=1,
                                 loc=module.location, ip=ir.InsertionPoint(module_body(module)))
    nested.regions[0].blocks.append()
    return nested


class _Outliner:
    """Creates the outlined functions (constants built once per pass run)."""

    def __init__(self, outlined):
        context = outlined.context
        self.context = context
        self.at_module_end = ir.InsertionPoint(module_body(outlined))
        self.empty = ir.StringAttr.get("", context)

    def outline(self, island, name):
        """Moves `island`'s body into a new function; the island calls it."""
        context = self.context
        island_op = island.op
        loc = island_op.location
        block = island_op.regions[0].blocks[0]
        func, captured, result_types = outline_block(block, name, self.at_module_end, visibility="nested",
                                                     loc=loc)
        island_block = island_op.regions[0].blocks.append()
        at_island_end = ir.InsertionPoint(island_block)
        call = ir.Operation.create(
            "tf.PartitionedCall", results=result_types, operands=captured,
            attributes={"f": ir.SymbolRefAttr.get([NESTED_TPU_MODULE, name], context),
                        "config": self.empty, "config_proto": self.empty,
                        "executor_type": self.empty},
            loc=loc, ip=at_island_end)
        ir.Operation.create(YIELD, operands=list(call.results), loc=loc, ip=at_island_end)
        return func


def _move_callees(outlined, funcs, module_symbols):
    """Moves the functions the outlined ones reference into `outlined`, transitively."""
    present = {ir.StringAttr(func.attributes["sym_name"]).value for func in funcs}
    worklist = list(funcs)
    position = 0
    while position < len(worklist):
        func = worklist[position]
        position += 1
        referenced = []
        func.walk(lambda op: referenced.extend(flat_symbol_refs(op)) or ADVANCE, POST_ORDER)
        for name in referenced:
            if name in present:
                continue
            callee = module_symbols.get(name)
            if callee is None or callee.name != FUNC_OP:
                continue
            present.add(name)
            append_to_module(outlined, callee)
            worklist.append(callee)
