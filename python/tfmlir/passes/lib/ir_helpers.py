"""IR helpers for pass authors: captures, outlining, moving ops, scoped replacement, attributes.

Everything here works on the official MLIR Python API and keeps TF's
conventions where TF's C++ passes have one:

* :func:`ops_named` -- the ops of given names under an op, in post-order.
* :func:`captured_values` -- the values a region (or a list of ops) uses but
  does not define, in first-use order of a post-order walk (MLIR's
  ``getUsedValuesDefinedAbove``), with every use: the operands a region
  becomes when it is outlined, in a stable order.
* :func:`unique_symbol` -- a symbol name not yet used in a symbol table, with
  MLIR ``SymbolTable::insert``'s renaming (``name``, ``name_0``, ``name_1`` ...).
* :class:`SymbolNamer` -- names for several symbols inserted into one symbol
  table in turn, renamed exactly as one ``SymbolTable`` does (one counter for
  the whole table: ``f_0``, then ``g_1``).
* :func:`name_from_loc` / :class:`LocNameMapper` -- TF's node name of an op
  from its location (``GetNameFromLoc``) and TF's unique names built from it
  (``OpOrArgLocNameMapper``: ``name``, ``name1``, ``name2`` ...).
* :func:`outline_block` -- moves a single-block region into a new private
  function whose arguments are the block's own arguments followed by the
  captured values (or values the caller names), and whose results are the
  terminator's operands (optionally fewer, or followed by the captured
  arguments); the caller builds the call.
* :func:`move_ops_before` / :func:`move_ops_to_end` -- move ops across regions.
* :func:`replace_uses_in` -- replaces the uses of a value only inside a region
  (or some ops), leaving the other uses alone.
* :func:`copy_attributes` -- copies discardable attributes (``device``,
  ``_xla_outside_compilation``, ``_tpu_replicate`` ...) from one op to another,
  as TF's passes carry them over when they rebuild an op;
  :func:`copy_device_and_underscored_attributes` is TF's
  ``CopyDeviceAndUnderscoredAttributes``.
* :func:`arg_attr` / :func:`set_arg_attr` / :func:`remove_arg_attr` -- read, set and
  remove one attribute of a function argument (``arg_attrs``, MLIR's ``getArgAttr`` /
  ``setArgAttr`` / ``removeArgAttr``).
* :func:`users` / :func:`ancestor_in_block` / :func:`is_proper_ancestor` /
  :func:`enclosing_op` --
  the ops using an op's results (MLIR's ``getUsers``), the ancestor of an op
  in a given block, MLIR's ``isProperAncestor``, and the closest enclosing op of a name.
* :func:`add_replicated_inputs` -- a ``tf_device.replicate`` rebuilt with more
  replicated inputs (TF's ``AppendReplicatedInput``).

The passes' own GC pause, rollback and UTF-8 checks are the framework's job;
these helpers only build IR.
"""
from mlir import ir

from ...dialects import tf_device
from ... import _tfmlir, irsafe
from ..names import DEVICE_RETURN, FUNC, RETURN, TF_YIELD, YIELD
from ..analysis.symbols import module_body, symbol_name
from ..walk import ADVANCE, POST_ORDER


def walk_ops(op):
    """`op` and the ops nested in it, in post-order (`op` last)."""
    op = op.operation
    if not len(op.regions):
        return [op]
    found = []

    def visit(nested):
        found.append(nested.operation)
        return ADVANCE

    op.walk(visit, POST_ORDER)
    return found


def _ops_of(scope):
    """The top-level ops of `scope`: a region, a block, an op's first region, or a list of ops."""
    if isinstance(scope, ir.Region):
        return [op.operation for block in scope.blocks for op in block.operations]
    if isinstance(scope, ir.Block):
        return [op.operation for op in scope.operations]
    if isinstance(scope, (list, tuple)):
        return [op.operation for op in scope]
    raise TypeError(f"expected a region, a block or a list of ops, not {type(scope).__name__}")


def post_order(scope):
    """Every op in `scope` (nested ones included), in post-order."""
    ops = []
    collect = ops.append

    def visit(nested):
        collect(nested)
        return ADVANCE

    owner = None
    if isinstance(scope, ir.Region):
        owner = scope.owner
    elif isinstance(scope, ir.Block):
        owner = scope.owner
        if owner is not None and len(scope.region.blocks) != 1:
            owner = None
    if owner is not None and len(owner.regions) == 1:
        # One walk from the region's op (which comes last in post-order) instead of one per op.
        owner.operation.walk(visit, POST_ORDER)
        ops.pop()
        return ops
    for op in _ops_of(scope):
        op.walk(visit, POST_ORDER)
    return ops


def ops_named(root, names):
    """The ops under `root` (itself included) whose name is in `names` (a name or a collection
    of names), in post-order -- the order of TF's ``walk`` -- collected before any is changed."""
    names = [names] if isinstance(names, str) else list(names)
    return _tfmlir.ops_named(root.operation, names)


def ops_with_attributes(root, names):
    """The ops under `root` (itself included) that carry at least one of the attributes `names`
    (a name or a collection of names), in post-order, collected before any is changed: one
    native walk instead of a Python callback per op."""
    names = [names] if isinstance(names, str) else list(names)
    return _tfmlir.ops_with_attributes(root.operation, names)


def captured_values(scope):
    """``(values, uses)``: values `scope` (a region, a block or a list of ops, nested ops
    included) uses but defines nowhere inside, in first-use order of a post-order walk, and every
    use ``(op, operand index, value)`` of them inside `scope` -- found in one native walk."""
    if isinstance(scope, ir.Region):
        blocks, ops = list(scope.blocks), []
    elif isinstance(scope, ir.Block):
        blocks, ops = [scope], []
    else:
        blocks, ops = [], [op.operation for op in scope]
    return _tfmlir.captured_uses(blocks, ops)


class SymbolNamer:
    """Names for the new symbols of one symbol table, as MLIR's ``SymbolTable::insert`` gives them.

    A free name is kept; a taken one gets ``_<n>`` appended, where ``n`` is one counter shared
    by every insertion through this namer (as it is by one ``SymbolTable`` object): with
    ``f`` and ``_func`` taken, inserting ``f``, ``_func``, ``_func`` gives ``f_0``, ``_func_1``,
    ``_func_2``. `table` is a set of names (updated in place) or a module / symbol table op
    (its top-level symbols).
    """

    def __init__(self, table):
        if isinstance(table, set):
            self.names = table
        else:
            body = module_body(table.operation)
            self.names = {n for n in (symbol_name(op.operation) for op in body.operations) if n}
        self.counter = 0

    def insert(self, base):
        """The name a new symbol called `base` gets; it is taken from now on."""
        names = self.names
        name = base
        while name in names:
            name = f"{base}_{self.counter}"
            self.counter += 1
        names.add(name)
        return name


def unique_symbol(table, base):
    """A name for a new symbol: `base` if `table` (a set of names, or a module / symbol table op)
    does not hold it, else ``base_0``, ``base_1`` ... (MLIR's SymbolTable renaming). The name is
    added to `table` when `table` is a set."""
    return SymbolNamer(table).insert(base)


def name_from_loc(loc):
    """TF's node name of a location (``mlir::GetNameFromLoc``): the names of the name locations
    in it (a name stops at ``@``; names ending in ``:`` are op types and skipped), looking into
    call sites (callee) and fused locations (in order), joined by ``;`` -- other locations add an
    empty part; "" when no name is non-empty."""
    parts, nonempty = [], False
    stack = [loc]
    while stack:
        current = stack.pop()
        if current.is_a_name():
            name = (irsafe.location_name(current) or "").split("@", 1)[0]
            if not name.endswith(":"):
                parts.append(name)
                nonempty = nonempty or bool(name)
            continue
        if current.is_a_callsite():
            stack.append(current.callee)
            continue
        if current.is_a_fused():
            stack.extend(reversed(list(current.locations)))
            continue
        parts.append("")
    return ";".join(parts) if nonempty else ""


class LocNameMapper:
    """TF's ``OpOrArgLocNameMapper`` for ops: unique names made from a prefix (an op's
    :func:`name_from_loc`, else its op name). The first request of a prefix gets it as is, later
    ones ``prefix1``, ``prefix2`` ... (every name handed out is taken, so ``a1`` asked for later
    gives ``a11``). One mapper per pass run, as TF keeps one per pass instance."""

    def __init__(self):
        self.counts = {}

    def unique(self, prefix):
        counts = self.counts
        if prefix not in counts:
            counts[prefix] = 1
            return prefix
        while True:
            value = counts[prefix]
            counts[prefix] = value + 1
            probe = f"{prefix}{value}"
            if probe not in counts:
                counts[probe] = 1
                return probe

    def op_name(self, op):
        """A unique name for `op` (call once per op: TF caches it per op)."""
        op = op.operation
        return self.unique(name_from_loc(op.location) or irsafe.op_name(op))


def outline_block(block, name, ip, *, terminator_names=(DEVICE_RETURN, YIELD, RETURN, TF_YIELD),
                  visibility="private", loc=None, captured=None, result_count=None,
                  return_captured=False):
    """Moves `block` (the only block of its region) into a new ``func.func @name`` created at
    insertion point `ip`: its arguments are the block's own arguments followed by one per
    captured value (the values the block uses but does not define, in :func:`captured_values`
    order; or `captured`, a list naming them and maybe more, in the caller's order), whose uses
    in the block become uses of the argument; its terminator becomes a ``func.return`` of the
    terminator's operands (the first `result_count` of them if given), followed by the
    captured arguments when `return_captured`.

    Returns ``(func op, captured values, result types)``; the old region is left empty (the
    caller adds the call in a new block, or erases the op that held it).
    """
    operations = block.operations
    size = len(operations)
    terminator = operations[size - 1].operation if size else None
    if terminator is None or terminator.name not in terminator_names:
        raise ValueError(f"the block must end with one of {', '.join(terminator_names)}")
    found, uses = captured_values(block)
    if captured is None:
        captured = found
    else:
        captured = list(captured)
        missing = set(found).difference(captured)
        if missing:
            raise ValueError("the block uses values defined outside that `captured` does not list")
    count = len(terminator.operands) if result_count is None else result_count
    if loc is None:
        loc = block.owner.location
    context = terminator.context
    own_types = [argument.type for argument in block.arguments]
    result_types = [v.type for v in list(terminator.operands)[:count]]
    if return_captured:
        result_types += [v.type for v in captured]
    ftype = ir.FunctionType.get(own_types + [v.type for v in captured], result_types, context)
    attributes = {"sym_name": ir.StringAttr.get(name, context), "function_type": ir.TypeAttr.get(ftype)}
    if visibility:
        attributes["sym_visibility"] = ir.StringAttr.get(visibility, context)
    func = ir.Operation.create(FUNC, attributes=attributes, regions=1, loc=loc, ip=ip)
    block.append_to(func.regions[0])
    arguments = {}
    for value in captured:
        arguments[value] = block.add_argument(value.type, loc)
    for op, index, value in uses:
        op.operands[index] = arguments[value]
    returned = list(terminator.operands)[:count]
    if return_captured:
        returned += [arguments[value] for value in captured]
    ir.Operation.create(RETURN, operands=returned, loc=terminator.location,
                        ip=ir.InsertionPoint(terminator))
    terminator.erase()
    return func, captured, result_types


def move_ops_before(ops, anchor):
    """Moves `ops` (in order) right before `anchor`, from wherever they are (one native call)."""
    _tfmlir.move_ops_before([op.operation for op in ops], anchor.operation)


def move_ops_to_end(ops, block, terminator=True):
    """Moves `ops` (in order) to the end of `block`, before its terminator when `terminator`
    says the block has one (and it is not among `ops`)."""
    existing = _ops_of(block)
    moving = {op.operation for op in ops}
    anchor = existing[-1] if terminator and existing and existing[-1] not in moving else None
    for op in ops:
        op = op.operation
        if anchor is not None:
            op.move_before(anchor)
            continue
        if op.parent is not None:
            op.detach_from_parent()
        ir.InsertionPoint(block).insert(op)


def replace_uses_in(old, new, scope):
    """Replaces the uses of value `old` by `new` inside `scope` (a region, a block or a list of
    ops, nested ops included); other uses stay. Returns how many were replaced."""
    uses = []
    for op in _ops_of(scope):
        def visit(nested):
            nested = nested.operation
            operands = nested.operands
            for index in range(len(operands)):
                if operands[index] == old:
                    uses.append((nested, index))
            return ADVANCE
        op.walk(visit, POST_ORDER)
    for op, index in uses:
        op.operands[index] = new
    return len(uses)


# Attributes an op's own definition gives it (never carried over to another op).
_INHERENT_SKIP = frozenset({"operandSegmentSizes", "resultSegmentSizes", "sym_name", "sym_visibility",
                            "function_type", "arg_attrs", "res_attrs"})


def copy_attributes(src, dst, *, only=None, skip=(), where=None):
    """Copies `src`'s attributes onto `dst` (overwriting): the names in `only` if given, else
    every attribute except structural ones (segment sizes, symbol/function attributes) and
    those in `skip`; with `where`, only names for which ``where(name)`` is true. Returns the
    names copied."""
    src, dst = src.operation, dst.operation
    copied = []
    attributes = src.attributes
    for index in range(len(attributes)):
        named = attributes[index]
        name = named.name
        if only is not None and name not in only:
            continue
        if only is None and (name in _INHERENT_SKIP or name in skip):
            continue
        if where is not None and not where(name):
            continue
        # By name, not `named.attr`: that getter aborts the process on an attribute the
        # bindings cannot downcast (complex dense elements); the lookup raises TypeError.
        dst.attributes[name] = attributes[name]
        copied.append(name)
    return copied


def _device_or_underscored(name):
    return name == "device" or name.startswith("_")


def copy_device_and_underscored_attributes(src, dst):
    """TF's ``CopyDeviceAndUnderscoredAttributes``: copies ``device`` and every attribute whose
    name starts with ``_`` from `src` to `dst` (overwriting). Returns the names copied."""
    return copy_attributes(src, dst, where=_device_or_underscored)


def users(op):
    """The ops using `op`'s results, one entry per use (MLIR's ``Operation::getUsers``)."""
    found = []
    for result in op.operation.results:
        for use in result.uses:
            found.append(use.owner.operation)
    return found


def ancestor_in_block(op, block):
    """`op` or its ancestor whose block is `block`, or None if `op` is not nested in `block`."""
    op = op.operation
    while op is not None:
        parent = op.parent
        if parent is None:  # a top-level or detached op has no block to ask for
            return None
        if op.block == block:
            return op
        op = parent.operation
    return None


def enclosing_op(op, name):
    """The closest op named `name` that `op` is nested in (not `op` itself), or None."""
    parent = op.operation.parent
    while parent is not None:
        parent = parent.operation
        if parent.name == name:
            return parent
        parent = parent.parent
    return None


def is_proper_ancestor(ancestor, op):
    """True if `op` is nested (at any depth) in a region of `ancestor` (not `ancestor` itself)."""
    ancestor = ancestor.operation
    parent = op.operation.parent
    while parent is not None:
        parent = parent.operation
        if parent == ancestor:
            return True
        parent = parent.parent
    return False


def add_replicated_inputs(replicate, groups):
    """Rebuilds `replicate` (a ``tf_device.replicate``) with more replicated inputs, as TF's
    ``AppendReplicatedInput`` does one at a time: each group ``(values, type)`` (one value per
    replica) is appended to the replicated operands, and its block argument follows the
    existing replicated ones (before the packed ones). The body moves to the new op, which
    takes over the old one's uses. Returns ``(new replicate, new block arguments)``."""
    replicate = replicate.operation
    attributes = replicate.attributes
    segments = list(ir.DenseI32ArrayAttr(attributes["operandSegmentSizes"]))
    operands = list(replicate.operands)
    replicated, packed = operands[:segments[0]], operands[segments[0]:]
    for values, _type in groups:
        replicated += list(values)
    new_attributes = irsafe.attribute_dict(replicate)
    new_attributes["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([len(replicated), len(packed)],
                                                                     context=replicate.context)
    new = ir.Operation.create(replicate.name, results=[r.type for r in replicate.results],
                              operands=replicated + packed, attributes=new_attributes, regions=1,
                              loc=replicate.location, ip=ir.InsertionPoint(replicate))
    old_block = replicate.regions[0].blocks[0]
    old_args = list(old_block.arguments)
    split = len(old_args) - len(packed)
    types = ([a.type for a in old_args[:split]] + [t for _values, t in groups]
             + [a.type for a in old_args[split:]])
    locs = ([a.location for a in old_args[:split]] + [replicate.location] * len(groups)
            + [a.location for a in old_args[split:]])
    block = new.regions[0].blocks.append(*types, arg_locs=locs)
    new_args = list(block.arguments)
    _tfmlir.move_block_ops(old_block, block)
    for index, arg in enumerate(old_args):
        arg.replace_all_uses_with(new_args[index if index < split else index + len(groups)])
    for old, result in zip(replicate.results, new.results):
        old.replace_all_uses_with(result)
    replicate.erase()
    return new, new_args[split:split + len(groups)]


def _arg_attr_list(func):
    attributes = func.attributes
    if "arg_attrs" not in attributes:
        return None
    return list(ir.ArrayAttr(attributes["arg_attrs"]))


def arg_attr(func, index, name):
    """Attribute `name` of argument `index` of function `func` (MLIR's ``getArgAttr``), or None.
    Constant time in the number of arguments (the list is indexed, not copied)."""
    attributes = func.operation.attributes
    if "arg_attrs" not in attributes:
        return None
    attrs = ir.ArrayAttr(attributes["arg_attrs"])
    if index >= len(attrs):
        return None
    entry = ir.DictAttr(attrs[index])
    return entry[name] if name in entry else None


def set_arg_attr(func, index, name, value):
    """Sets attribute `name` of argument `index` of function `func` to `value` (MLIR's
    ``setArgAttr``: ``arg_attrs`` gets an empty dictionary for every other argument)."""
    func = func.operation
    count = len(func.regions[0].blocks[0].arguments)
    attrs = _arg_attr_list(func) or []
    empty = ir.DictAttr.get({})
    attrs = attrs + [empty] * (count - len(attrs))
    entry = ir.DictAttr(attrs[index])
    merged = irsafe.attribute_dict(entry)
    merged[name] = value
    attrs[index] = ir.DictAttr.get(merged)
    func.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)


def remove_arg_attr(func, index, name):
    """Removes attribute `name` of argument `index` of function `func` (MLIR's
    ``removeArgAttr``: ``arg_attrs`` goes away once every dictionary is empty). Returns the
    removed attribute, or None when the argument had none of that name."""
    func = func.operation
    attrs = _arg_attr_list(func)
    if attrs is None or index >= len(attrs):
        return None
    entry = ir.DictAttr(attrs[index])
    if name not in entry:
        return None
    removed = entry[name]
    attrs[index] = ir.DictAttr.get({key: value for key, value in irsafe.attribute_items(entry)
                                    if key != name})
    if all(len(ir.DictAttr(a)) == 0 for a in attrs):
        del func.attributes["arg_attrs"]
    else:
        func.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
    return removed


def wrap_op_in_launch(op, device, loc=None):
    """Moves `op` into a new ``tf_device.launch`` on `device` (a string) put where `op` was, and
    returns the launch (TF's ``WrapOpInLaunch``); users of `op`'s results read the launch's."""
    from ..names import LAUNCH
    op = op.operation
    loc = loc or op.location
    launch = ir.Operation.create(LAUNCH, results=[r.type for r in op.results],
                                 attributes={"device": ir.StringAttr.get(device)}, regions=1,
                                 loc=loc, ip=ir.InsertionPoint(op))
    for old, new in zip(op.results, launch.results):
        old.replace_all_uses_with(new)
    block = launch.regions[0].blocks.append()
    op.move_before(tf_device.ReturnOp(list(op.results), loc=loc,
                                       ip=ir.InsertionPoint(block)))
    return launch


def remove_singleton_parallel_execute(parallel_execute):
    """Replaces a one-region ``tf_device.parallel_execute`` by the op its region wraps (TF's
    ``RemoveSingletonParallelExecuteOp``); does nothing with more regions. Raises PassFailure
    when the region holds anything but one op and its terminator."""
    from ..framework import PassFailure, erase_op
    from ..names import PARALLEL_EXECUTE
    if len(parallel_execute.regions) != 1:
        return
    ops = [op.operation for op in parallel_execute.regions[0].blocks[0].operations]
    if len(ops) != 2:
        raise PassFailure("Expected 2 ops in parallel_execute.", parallel_execute)
    first = ops[0]
    if len(first.results) != len(parallel_execute.results):
        raise PassFailure(f"'{PARALLEL_EXECUTE}' op has one region whose first op has "
                          f"{len(first.results)} results, not {len(parallel_execute.results)} "
                          f"(TF's process crashes here)", parallel_execute)
    first.move_before(parallel_execute)
    for old, new in zip(parallel_execute.results, first.results):
        old.replace_all_uses_with(new)
    erase_op(parallel_execute)
