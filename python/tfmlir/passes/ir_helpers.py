"""IR helpers for pass authors: captures, outlining, moving ops, scoped replacement, attributes.

Everything here works on the official MLIR Python API and keeps TF's
conventions where TF's C++ passes have one:

* :func:`captured_values` -- the values a region (or a list of ops) uses but
  does not define, in first-use order of a post-order walk (MLIR's
  ``getUsedValuesDefinedAbove``), with every use: the operands a region
  becomes when it is outlined, in a stable order.
* :func:`unique_symbol` -- a symbol name not yet used in a symbol table, with
  MLIR ``SymbolTable::insert``'s renaming (``name``, ``name_0``, ``name_1`` ...).
* :func:`outline_block` -- moves a single-block region into a new private
  function whose arguments are the captured values (and whose results are the
  terminator's operands); the caller builds the call.
* :func:`move_ops_before` / :func:`move_ops_to_end` -- move ops across regions.
* :func:`replace_uses_in` -- replaces the uses of a value only inside a region
  (or some ops), leaving the other uses alone.
* :func:`copy_attributes` -- copies discardable attributes (``device``,
  ``_xla_outside_compilation``, ``_tpu_replicate`` ...) from one op to another,
  as TF's passes carry them over when they rebuild an op.
* :func:`users` / :func:`ancestor_in_block` / :func:`is_proper_ancestor` --
  the ops using an op's results (MLIR's ``getUsers``), the ancestor of an op
  in a given block, and MLIR's ``isProperAncestor``.

The passes' own GC pause, rollback and UTF-8 checks are the framework's job;
these helpers only build IR.
"""
from mlir import ir

from .analysis.names import DEVICE_RETURN, FUNC, RETURN, TF_YIELD, YIELD
from .analysis.symbols import module_body, symbol_name

_POST_ORDER = ir.WalkOrder.POST_ORDER
_ADVANCE = ir.WalkResult.ADVANCE


def _ops_of(scope):
    """The top-level ops of `scope`: a region, a block, an op's first region, or a list of ops."""
    if isinstance(scope, ir.Region):
        return [op.operation for block in scope.blocks for op in block.operations]
    if isinstance(scope, ir.Block):
        return [op.operation for op in scope.operations]
    if isinstance(scope, (list, tuple)):
        return [op.operation for op in scope]
    raise TypeError(f"expected a region, a block or a list of ops, not {type(scope).__name__}")


def captured_values(scope):
    """``(values, uses)``: values `scope` uses but defines nowhere inside, in first-use order of a
    post-order walk, and every use ``(op, operand index, value)`` of them inside `scope`."""
    ops = []
    for op in _ops_of(scope):
        op.walk(lambda nested: ops.append(nested.operation) or _ADVANCE, _POST_ORDER)
    if isinstance(scope, ir.Region):
        defined = {arg for block in scope.blocks for arg in block.arguments}
    elif isinstance(scope, ir.Block):
        defined = set(scope.arguments)
    else:
        defined = set()
    for op in ops:
        defined.update(op.results)
        for region in op.regions:
            for block in region.blocks:
                defined.update(block.arguments)
    values, seen, uses = [], set(), []
    for op in ops:
        operands = op.operands
        for index in range(len(operands)):
            value = operands[index]
            if value in defined:
                continue
            uses.append((op, index, value))
            if value not in seen:
                seen.add(value)
                values.append(value)
    return values, uses


def unique_symbol(table, base):
    """A name for a new symbol: `base` if `table` (a set of names, or a module / symbol table op)
    does not hold it, else ``base_0``, ``base_1`` ... (MLIR's SymbolTable renaming). The name is
    added to `table` when `table` is a set."""
    if isinstance(table, set):
        names = table
    else:
        body = module_body(table.operation)
        names = {n for n in (symbol_name(op.operation) for op in body.operations) if n}
    name = base
    counter = 0
    while name in names:
        name = f"{base}_{counter}"
        counter += 1
    if isinstance(table, set):
        table.add(name)
    return name


def outline_block(block, name, ip, *, terminator_names=(DEVICE_RETURN, YIELD, RETURN, TF_YIELD),
                  visibility="private", loc=None):
    """Moves `block` (the only block of its region) into a new ``func.func @name`` created at
    insertion point `ip`: the values it captures become the function's arguments (in
    :func:`captured_values` order), its terminator a ``func.return`` of the same operands.

    Returns ``(func op, captured values, result types)``; the old region is left empty (the
    caller adds the call in a new block, or erases the op that held it).
    """
    ops = _ops_of(block)
    if not ops or ops[-1].name not in terminator_names:
        raise ValueError(f"the block must end with one of {', '.join(terminator_names)}")
    terminator = ops[-1]
    captured, uses = captured_values(block)
    result_types = [v.type for v in terminator.operands]
    if loc is None:
        loc = block.owner.location
    context = terminator.context
    ftype = ir.FunctionType.get([v.type for v in captured], result_types, context)
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
    ir.Operation.create(RETURN, operands=list(terminator.operands), loc=terminator.location,
                        ip=ir.InsertionPoint(terminator))
    terminator.erase()
    return func, captured, result_types


def move_ops_before(ops, anchor):
    """Moves `ops` (in order) right before `anchor`, from wherever they are."""
    anchor = anchor.operation
    for op in ops:
        op.operation.move_before(anchor)


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
            return _ADVANCE
        op.walk(visit, _POST_ORDER)
    for op, index in uses:
        op.operands[index] = new
    return len(uses)


# Attributes an op's own definition gives it (never carried over to another op).
_INHERENT_SKIP = frozenset({"operandSegmentSizes", "resultSegmentSizes", "sym_name", "sym_visibility",
                            "function_type", "arg_attrs", "res_attrs"})


def copy_attributes(src, dst, *, only=None, skip=()):
    """Copies `src`'s attributes onto `dst` (overwriting): the names in `only` if given, else
    every attribute except structural ones (segment sizes, symbol/function attributes) and
    those in `skip`. Returns the names copied."""
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
        dst.attributes[name] = named.attr
        copied.append(name)
    return copied


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
        if op.block == block:
            return op
        parent = op.parent
        op = parent.operation if parent is not None else None
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
