"""Prepares a TPU computation for export to a TF graph: the old bridge's communication ops and tokens.

As TF 2.21's -prepare-tpu-computation-for-tf-export (a module pass), in TF's order:

1. Argument shardings. For every function directly in the module and every argument
   whose ``mhlo.sharding`` attribute is a string: when the string is not empty, a
   ``tf.XlaSharding`` of the argument (``sharding`` and ``_XlaSharding`` both set to the
   string; result type: the argument's; location: the function's) is put at the start of
   the body (one per argument, in argument order) and every other use of the argument
   uses it instead. The ``mhlo.sharding`` attribute is then removed (empty string
   included; ``arg_attrs`` disappears when only empty dictionaries remain). A
   ``mhlo.sharding`` that is not a string is left alone.
2. MLIR's greedy driver (default configuration) runs on the module with one pattern, so
   folding, dead code removal and constant deduplication apply to the whole module as
   in TF. The pattern rewrites every ``tf._XlaHostComputeMlir`` whose ``manual_sharding``
   is false into a ``tf.XlaHostCompute`` with the same operands and result types,
   ``ancestors = []``, ``shapes`` (one ``#tf_type.shape`` per result type), ``key = ""``,
   its ``send_key`` and ``recv_key``, ``cost_estimate_ns = 1000000``, ``tpu_core = 0``
   and ``shape_inference_graph``: ``@host_func`` of the op's ``host_mlir_module`` (an
   MLIR module in text) is cloned right after the function holding the op, renamed as
   MLIR's ``SymbolTable::insert`` does when the name is taken (``host_func_0`` ...); at
   the start of its body a ``tf._XlaCompileMlirPlaceholderProgramKey``
   (``tensor<3x!tf_type.string>``) feeds a ``tf._XlaRecvAtHost`` (``key`` = the send
   key, ``device_ordinal = 0``, ``device_type = "TPU"``, results typed as the op's
   operands) whose results replace the arguments, and before the entry block's
   terminator a ``tf._XlaSendFromHost`` (``key`` = the recv key) sends the terminator's
   operands. Other attributes of the rewritten op (``device``,
   ``_xla_outside_compilation`` ...) are dropped, as TF's builder drops them.
3. Keys: every ``tf.XlaSendToHost`` key gets ``_dtoh_0`` appended, every
   ``tf.XlaRecvFromHost`` key ``_htod_0``.
4. Tokens. The communication ops are ``tf.XlaHostCompute``, ``tf.XlaSendToHost`` and
   ``tf.XlaRecvFromHost``. They, the ops whose regions hold one (transitively) and, for
   a function holding one, every op using the function's symbol (MLIR's
   ``SymbolUserMap``: any reference in any attribute) and so on up, need token
   attributes. In every region holding such an op, those ops are visited in order
   (all blocks); each must be a communication op or one of ``tf.IfRegion``,
   ``tf.WhileRegion``, ``tf.CaseRegion``, ``tf.XlaCallModule``,
   ``tf.StatefulPartitionedCall``, ``tf.PartitionedCall``, ``tf.LegacyCall``, and gets
   ``_xla_token_input_nodes = [<previous>]`` (``"_xla_token_arg_node"`` for the first of
   its region, else the previous op's name) and ``_xla_original_oc_node_name`` (a
   unique name from its location, else its op name: TF's ``OpOrArgLocNameMapper``, one
   for the whole pass). The regions are visited in the order a pre-order walk of the
   module meets them.

Failure (module unchanged), with TF's message where TF has one:

* a ``tf._XlaHostComputeMlir`` whose ``host_mlir_module`` does not parse, lacks
  ``host_func`` or disagrees with the op in operand or result count: the error of TF's
  verifier of that op (TF rejects such modules when it reads them; tfmlir's dialect
  does not verify the attribute), checked on every such op of the module before any
  change;
* an op needing token attributes that is none of the ops above: "'<op>' op does not
  support subcomputations with tf/xla communication ops";
* the greedy driver not converging: "failed to apply tf export preparation patterns";
* where TF's process crashes: a non-empty ``mhlo.sharding`` on an argument of a
  function without a body, a ``host_func`` without a body, a ``tf._XlaHostComputeMlir``
  outside any function, a chain of symbol users reaching an op outside any function
  (a function or module using such a function's symbol);
* a ``tf._XlaHostComputeMlir`` rewritten while its ``host_mlir_module`` is empty (what
  TF's own bridge produces for static shapes): TF's ``tf.XlaHostCompute`` then has no
  ``shape_inference_graph``, but tfmlir's dialect requires that attribute, so tfmlir
  fails where TF succeeds -- checked last, so that where TF fails tfmlir fails alike.

Deliberate differences: TF visits the regions of step 4 in an unspecified order (a hash
set of region pointers, varying from run to run), which matters when two regions hold
ops whose names collide (the first visited gets the plain name) and, when several
regions hold unsupported ops, for which of them the error names; tfmlir's order is the
module's.
Symbol references into nested modules (``@m::@f``) are not followed in step 4.
"""
from mlir import ir
from mlir import rewrite

from .. import irsafe, parsing
from ..dialects import tf_type
from .analysis.executor import op_key
from .names import (CASE_REGION, FUNC, IF_REGION, LEGACY_CALL, MODULE, PARTITIONED_CALL,
                             STATEFUL_PARTITIONED_CALL, WHILE_REGION)
from .analysis.symbol_uses import UnreadableAttribute, referenced_roots
from .analysis.symbols import module_body, symbol_name
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import (LocNameMapper, SymbolNamer, arg_attr, enclosing_op, ops_named,
                         remove_arg_attr)

HOST_COMPUTE_MLIR = "tf._XlaHostComputeMlir"
HOST_COMPUTE = "tf.XlaHostCompute"
SEND_TO_HOST = "tf.XlaSendToHost"
RECV_FROM_HOST = "tf.XlaRecvFromHost"
XLA_SHARDING = "tf.XlaSharding"
XLA_CALL_MODULE = "tf.XlaCallModule"
PROGRAM_KEY = "tf._XlaCompileMlirPlaceholderProgramKey"
RECV_AT_HOST = "tf._XlaRecvAtHost"
SEND_FROM_HOST = "tf._XlaSendFromHost"

HOST_FUNC = "host_func"
SHARDING_ATTR = "mhlo.sharding"
TOKEN_INPUT_NODES_ATTR = "_xla_token_input_nodes"
ORIGINAL_NODE_NAME_ATTR = "_xla_original_oc_node_name"
TOKEN_ARG_NODE = "_xla_token_arg_node"
DEFAULT_COST_ESTIMATE_NS = 1000000

COMMUNICATION_OPS = frozenset({HOST_COMPUTE, SEND_TO_HOST, RECV_FROM_HOST})
SUPPORTS_COMMUNICATION = frozenset({IF_REGION, WHILE_REGION, CASE_REGION, XLA_CALL_MODULE,
                                    STATEFUL_PARTITIONED_CALL, PARTITIONED_CALL, LEGACY_CALL})
NOT_CONVERGED = "failed to apply tf export preparation patterns"


@register_pass
class PrepareTpuComputationForTfExportPass(Pass):
    argument = "prepare-tpu-computation-for-tf-export"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        module = module.operation
        for op in ops_named(module, HOST_COMPUTE_MLIR):
            _host_function(op)  # TF's verifier of the op
        functions = [op.operation for op in module_body(module).operations
                     if op.operation.name == FUNC]
        for func in functions:
            _check_sharded_declaration(func)
        for op in ops_named(module, HOST_COMPUTE_MLIR):
            _check_rewritable(op)
        for func in functions:
            _update_arg_attributes(func)
        _rewrite_communication_ops(module)
        for op in ops_named(module, (SEND_TO_HOST, RECV_FROM_HOST)):
            suffix = "_dtoh_0" if op.name == SEND_TO_HOST else "_htod_0"
            key = ir.StringAttr(op.attributes["key"]).value_bytes
            op.attributes["key"] = ir.StringAttr.get(key + suffix.encode())
        _set_token_input_attrs(module)
        for op in ops_named(module, HOST_COMPUTE):
            if "shape_inference_graph" not in op.attributes:
                raise PassFailure(
                    f"'{HOST_COMPUTE}' op rewritten from a '{HOST_COMPUTE_MLIR}' without "
                    f"'host_mlir_module' has no 'shape_inference_graph', which tfmlir's "
                    f"'{HOST_COMPUTE}' requires (TF's has it optional)", op)


# -- step 1: argument shardings ----------------------------------------------------------------

def _string_sharding(func, index):
    attr = arg_attr(func, index, SHARDING_ATTR)
    return attr if isinstance(attr, ir.StringAttr) else None


def _argument_count(func):
    return len(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs)


def _check_sharded_declaration(func):
    if len(func.regions[0].blocks):
        return
    for index in range(_argument_count(func)):
        sharding = _string_sharding(func, index)
        if sharding is not None and sharding.value_bytes:
            raise PassFailure(
                f"argument {index} of @{symbol_name(func)} has a '{SHARDING_ATTR}' but the function "
                f"has no body to put a '{XLA_SHARDING}' in (TF's process crashes here)", func)


def _update_arg_attributes(func):
    if "arg_attrs" not in func.attributes:
        return
    blocks = func.regions[0].blocks
    ip = ir.InsertionPoint.at_block_begin(blocks[0]) if len(blocks) else None
    for index in range(_argument_count(func)):
        sharding = _string_sharding(func, index)
        if sharding is None:
            continue
        if sharding.value_bytes:
            argument = blocks[0].arguments[index]
            sharded = ir.Operation.create(
                XLA_SHARDING, results=[argument.type], operands=[argument],
                attributes={"sharding": sharding, "_XlaSharding": sharding},
                loc=func.location, ip=ip)
            argument.replace_all_uses_except(sharded.results[0], sharded)
        remove_arg_attr(func, index, SHARDING_ATTR)


# -- step 2: _XlaHostComputeMlir -> XlaHostCompute ---------------------------------------------

def _host_module_text(op):
    attributes = op.attributes
    if "host_mlir_module" not in attributes:
        return b""
    return ir.StringAttr(attributes["host_mlir_module"]).value_bytes


def _location_text(loc):
    if loc.is_a_file():
        return f"{irsafe.location_filename(loc)}:{loc.start_line}:{loc.start_col}"
    return str(loc)


def _host_function(op):
    """``(host module, its func.func @host_func)`` of `op`, or None when its
    ``host_mlir_module`` is empty; PassFailure with TF's verifier message when it is bad."""
    text = _host_module_text(op)
    if not text:
        return None
    try:
        host = parsing.parse_module(text, op.context)
    except parsing.ParseGuardError as exc:
        raise PassFailure(f"attribute 'host_mlir_module' can not be deserialized. {exc}", op)
    except ir.MLIRError as exc:
        found = "".join(f"{_location_text(d.location)}: error: {d.message}"
                        for d in getattr(exc, "diagnostics", ()))
        raise PassFailure("attribute 'host_mlir_module' can not be deserialized. could not parse "
                          f"MLIR module{found}", op)
    func = None
    for candidate in module_body(host.operation).operations:
        candidate = candidate.operation
        if symbol_name(candidate) == HOST_FUNC:
            func = candidate if candidate.name == FUNC else None
            break
    if func is None:
        raise PassFailure("serialized module in attribute 'host_mlir_module' does not contain "
                          "'host_func' function.", op)
    function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    inputs, results = len(function_type.inputs), len(function_type.results)
    if len(op.operands) != inputs:
        raise PassFailure(f"'host_func' has {inputs} inputs and '_XlaHostComputeMlir' has "
                          f"{len(op.operands)} operands.  Number of operands/inputs should be the "
                          f"same.", op)
    if len(op.results) != results:
        raise PassFailure(f"'host_func' has {results} results and '_XlaHostComputeMlir' has "
                          f"{len(op.results)} results.  Number of results should be the same.", op)
    return host, func


def _manual_sharding(op):
    attributes = op.attributes
    return "manual_sharding" in attributes and ir.BoolAttr(attributes["manual_sharding"]).value


def _check_rewritable(op):
    """PassFailure where TF's rewrite of `op` crashes or builds what tfmlir cannot hold."""
    if _manual_sharding(op):
        return
    if enclosing_op(op, FUNC) is None:
        raise PassFailure(f"'{HOST_COMPUTE_MLIR}' op is not inside a function to put its host "
                          f"function after (TF's process crashes here)", op)
    found = _host_function(op)
    if found is not None and not len(found[1].regions[0].blocks):
        raise PassFailure(f"'{HOST_COMPUTE_MLIR}' op: 'host_func' in 'host_mlir_module' has no "
                          f"body (TF's process crashes here)", op)


def _shape_attr(type_, context):
    shaped = ir.ShapedType(type_)
    dims = None
    if shaped.has_rank:
        dims = [-1 if ir.ShapedType.is_dynamic_size(d) else d for d in shaped.shape]
    return tf_type.ShapeAttr.get(dims, context)


def _rewrite_host_compute(op, failures):
    """The pattern: TF's RewriteXlaHostComputeMlir on `op`; a truthy result means no match."""
    op = op.operation
    if _manual_sharding(op):
        return True
    try:
        _check_rewritable(op)
    except PassFailure as failure:
        failures.append(failure)
        return True
    context = op.context
    attributes = op.attributes
    send_key, recv_key = attributes["send_key"], attributes["recv_key"]
    i64 = ir.IntegerType.get_signless(64, context)
    zero = ir.IntegerAttr.get(i64, 0)
    new_attributes = {
        "ancestors": ir.ArrayAttr.get([], context),
        "shapes": ir.ArrayAttr.get([_shape_attr(r.type, context) for r in op.results], context),
        "key": ir.StringAttr.get("", context),
        "send_key": send_key,
        "recv_key": recv_key,
        "cost_estimate_ns": ir.IntegerAttr.get(i64, DEFAULT_COST_ESTIMATE_NS),
        "tpu_core": zero,
    }
    found = _host_function(op)
    if found is not None:
        new_attributes["shape_inference_graph"] = _clone_host_function(op, found[1], send_key,
                                                                       recv_key)
    # Without a host function TF's op has no shape_inference_graph; tfmlir's dialect requires
    # one, so the pass fails at its end, after TF's own failures had their chance.
    return ir.Operation.create(HOST_COMPUTE, results=[r.type for r in op.results],
                               operands=list(op.operands), attributes=new_attributes,
                               loc=op.location, ip=ir.InsertionPoint(op))


def _clone_host_function(op, func, send_key, recv_key):
    """Clones `func` (the host function of `op`) after the function holding `op`, with
    the transfers from and to the device; returns the symbol reference to the clone."""
    context = op.context
    parent = enclosing_op(op, FUNC)
    table = enclosing_op(op, MODULE)
    namer = SymbolNamer(table)
    clone = func.clone(ip=ir.InsertionPoint.after(parent))
    name = namer.insert(symbol_name(clone))
    clone.attributes["sym_name"] = ir.StringAttr.get(name, context)
    i64 = ir.IntegerType.get_signless(64, context)
    zero = ir.IntegerAttr.get(i64, 0)
    tpu = ir.StringAttr.get("TPU", context)
    block = clone.regions[0].blocks[0]
    loc = func.location
    key_type = ir.RankedTensorType.get([3], tf_type.StringType.get(context))
    start = ir.InsertionPoint.at_block_begin(block)
    program_key = ir.Operation.create(PROGRAM_KEY, results=[key_type], loc=loc, ip=start)
    recv = ir.Operation.create(RECV_AT_HOST, results=[v.type for v in op.operands],
                               operands=[program_key.results[0]],
                               attributes={"key": send_key, "device_ordinal": zero,
                                           "device_type": tpu},
                               loc=loc, ip=start)
    for argument, value in zip(block.arguments, recv.results):
        argument.replace_all_uses_with(value)
    terminator = ir.InsertionPoint.at_block_terminator(block)
    ir.Operation.create(SEND_FROM_HOST,
                        operands=list(terminator.ref_operation.operands) + [program_key.results[0]],
                        attributes={"key": recv_key, "device_ordinal": zero, "device_type": tpu},
                        loc=loc, ip=terminator)
    return ir.FlatSymbolRefAttr.get(name, context)


def _rewrite_communication_ops(module):
    failures = []

    def apply(op, rewriter):
        # Nothing is raised through MLIR's driver: failures are reported once it has returned.
        try:
            new = _rewrite_host_compute(op, failures)
        except Exception as exc:  # an internal error: no match, reported after the driver
            failures.append(PassFailure(f"internal error rewriting '{HOST_COMPUTE_MLIR}': "
                                        f"{type(exc).__name__}: {exc}", op.operation))
            return True
        if new is True:
            return True
        rewriter.replace_op(op, new)
        return None

    patterns = rewrite.RewritePatternSet()
    patterns.add(HOST_COMPUTE_MLIR, apply)
    try:
        rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze())
    except RuntimeError as exc:
        if "failed to converge" not in str(exc):
            raise
        if not failures:
            raise PassFailure(NOT_CONVERGED, module)
    if failures:
        raise failures[0]


# -- step 4: token attributes ------------------------------------------------------------------

def _region_key(op):
    """(op_key of the op owning `op`'s region, index of that region), or None at the top."""
    parent = op.parent
    if parent is None:
        return None
    parent = parent.operation
    block = op.block
    for index, region in enumerate(parent.regions):
        for candidate in region.blocks:
            if candidate == block:
                return op_key(parent), index
    raise AssertionError("an op's block is in none of its parent's regions")


class _SymbolUsers:
    """MLIR's ``SymbolUserMap`` for the functions of the module and of nested modules: the ops
    whose attributes reference a function (flat references, from the module holding both)."""

    def __init__(self, module):
        self.users = {}
        cache = {}
        tables = [module]
        while tables:
            table = tables.pop()
            symbols = {}
            body = module_body(table)
            for op in body.operations:
                op = op.operation
                name = symbol_name(op)
                if name is not None and name not in symbols:
                    symbols[name] = op
            for top in body.operations:
                for op in _symbol_scope(top.operation, tables):
                    try:
                        roots = referenced_roots(op, cache)
                    except UnreadableAttribute as exc:
                        raise PassFailure(str(exc), op)
                    for root in roots:
                        target = symbols.get(root)
                        if target is not None:
                            self.users.setdefault(op_key(target), {}).setdefault(op_key(op), op)

    def of(self, symbol):
        return list(self.users.get(op_key(symbol), {}).values())


def _symbol_scope(top, tables):
    """`top` and the ops nested in it outside nested modules (those go to `tables`), pre-order."""
    found = []
    stack = [top]
    while stack:
        op = stack.pop()
        found.append(op)
        if op.name == MODULE:
            tables.append(op)
            continue
        nested = []
        for region in op.regions:
            for block in region.blocks:
                nested.extend(child.operation for child in block.operations)
        stack.extend(reversed(nested))
    return found


def _set_token_input_attrs(module):
    communication = ops_named(module, COMMUNICATION_OPS)
    if not communication:
        return
    with_tokens = {op_key(op) for op in communication}
    worklist = list(communication)
    regions = set()
    users = None
    while worklist:
        op = worklist.pop()
        region = _region_key(op)
        parent = op.parent.operation if region is not None else None
        if region is None or region[0] == op_key(module):
            raise PassFailure(f"'{irsafe.op_name(op)}' op holds or uses tf/xla communication ops "
                              f"outside any function (TF's process crashes here)", op)
        regions.add(region)
        if parent.name != FUNC:
            if op_key(parent) not in with_tokens:
                with_tokens.add(op_key(parent))
                worklist.append(parent)
            continue
        if users is None:
            users = _SymbolUsers(module)
        for user in users.of(parent):
            if op_key(user) not in with_tokens:
                with_tokens.add(op_key(user))
                worklist.append(user)

    namer = LocNameMapper()
    context = module.context
    for owner in _pre_order(module):
        for index, region in enumerate(owner.regions):
            if (op_key(owner), index) not in regions:
                continue
            token = TOKEN_ARG_NODE
            for block in region.blocks:
                for op in block.operations:
                    op = op.operation
                    if op_key(op) not in with_tokens:
                        continue
                    name = irsafe.op_name(op)
                    if name not in COMMUNICATION_OPS and name not in SUPPORTS_COMMUNICATION:
                        raise PassFailure(f"'{name}' op does not support subcomputations with "
                                          f"tf/xla communication ops", op)
                    op.attributes[TOKEN_INPUT_NODES_ATTR] = ir.ArrayAttr.get(
                        [ir.StringAttr.get(token, context)], context)
                    token = namer.op_name(op)
                    op.attributes[ORIGINAL_NODE_NAME_ATTR] = ir.StringAttr.get(token, context)


def _pre_order(module):
    found = []

    def visit(op):
        if len(op.regions):
            found.append(op.operation)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found
