"""Transforms region-based control flow operations to their functional counterparts

Every ``tf.IfRegion``, ``tf.CaseRegion`` and ``tf.WhileRegion`` in the
module's top-level functions becomes ``tf.If``, ``tf.Case`` and ``tf.While``
calling private functions outlined from its regions, or, when its regions
only call existing functions with matching arguments, those functions. The
inverse is -tf-functional-control-flow-to-regions.

As TF:
* Functions are visited last to first, each in post order (nested region ops
  before the op holding them), so an outlined function never holds a region
  op.
* Trivial form (no outlining): every region is one ``func.call`` whose
  results are yielded, preceded only by non-truncating ``tf.Cast`` ops. For
  ``IfRegion``, the two calls' arguments must be the same values (looking
  through casts that keep the element type) -- they become the ``tf.If``
  inputs; for ``WhileRegion`` they must be the same block argument numbers
  of each region's block -- the cond region may also convert the call's
  result with a ``tf.ToBool`` before yielding it, or yield the call's single
  result followed by its block arguments (passthrough arguments).
  ``CaseRegion`` is always outlined.
* Outlining: the values the regions use from outside (first use in a post
  order walk, cond/then/first branch first) become extra function arguments
  after the region's block arguments, and extra operands of the functional op;
  constants among them (``tf.Const`` and other ConstantLike ops) are cloned
  at the start of each region using them instead. A ``While`` body returns
  the extra arguments after its results (the ``tf.While`` gets as many more
  results, unused); a ``While`` cond returns only the first yielded value.
  Functions are private, inserted at the start of the module.
* Names: ``<n>_then`` / ``_else`` / ``_cond`` / ``_body`` / ``_branch<i>``,
  where ``<n>`` is a unique name from the op's location (TF's
  OpOrArgLocNameMapper: the location's name, else the op name, numbered
  ``tf.IfRegion``, ``tf.IfRegion1`` ...); an ``IfRegion``'s non-empty
  ``_then_func_name`` / ``_else_func_name`` is used instead (made unique the
  same way). A name already in the module is renamed as MLIR's symbol table
  does (``name_0``, then ``other_1``: one counter per module).
* An ``IfRegion`` condition made by a ``tf.ToBool`` is replaced by the
  ``ToBool``'s operand (the ``ToBool`` is erased when unused).
* The functional op keeps ``is_stateless`` (a ``While`` also
  ``parallel_iterations`` and ``shape_invariant``), ``device`` and every
  attribute starting with ``_``; ``_xla_propagate_compile_time_consts`` is
  set to true.

Errors (the module is left unchanged): a ``tf.GeneratorDatasetRegion``:
``'tf.GeneratorDatasetRegion' op failed to convert to functional form`` --
tfmlir's op has no regions (TF's has three) and cannot be converted.
"""
from mlir import ir

from .names import (CALL, CASE, CASE_REGION, CAST, CONSTANT_LIKE, FUNC,
                             GENERATOR_DATASET_REGION, IF, IF_REGION, MODULE, TF_YIELD, TO_BOOL,
                             WHILE, WHILE_REGION)
from .analysis.symbols import module_body
from .framework import Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import (LocNameMapper, SymbolNamer, captured_values,
                         copy_device_and_underscored_attributes, ops_named, outline_block)


_REGION_OPS = frozenset({IF_REGION, CASE_REGION, WHILE_REGION, GENERATOR_DATASET_REGION})
XLA_PROPAGATE_COMPILE_TIME_CONSTS = "_xla_propagate_compile_time_consts"
THEN_FUNC_NAME = "_then_func_name"
ELSE_FUNC_NAME = "_else_func_name"


@register_pass
class RegionControlFlowToFunctional(Pass):
    argument = "tf-region-control-flow-to-functional"
    anchor = MODULE
    dependent_dialects = ("tf", "func")

    def run_on_operation(self, module):
        module = module.operation
        functions = [op.operation for op in module_body(module).operations
                     if op.operation.name == FUNC]
        converter = None
        for func in reversed(functions):
            ops = ops_named(func, _REGION_OPS)
            if not ops:
                continue
            if converter is None:
                converter = _Converter(module)
            with module.context:
                for op in ops:
                    converter.convert(op)


class _Converter:
    def __init__(self, module):
        self.module = module
        self.body = module_body(module)
        self.names = SymbolNamer(module)
        self.mapper = LocNameMapper()
        self.true = ir.BoolAttr.get(True, module.context)

    def convert(self, op):
        name = op.name
        if name == IF_REGION:
            self._convert_if(op)
        elif name == CASE_REGION:
            self._convert_case(op)
        elif name == WHILE_REGION:
            self._convert_while(op)
        else:
            raise PassFailure(f"'{name}' op failed to convert to functional form (tfmlir's "
                              f"{name} has no regions)", op)

    # -- outlining -----------------------------------------------------------

    def _extern_values(self, regions):
        """TF's ``CollectExternValues``: the values the regions use from outside, without
        duplicates; constants are cloned into each region using them instead."""
        values, seen = [], set()
        for region in regions:
            captured, uses = captured_values(region)
            clones = {}
            for value in captured:
                owner = value.owner if isinstance(value, ir.OpResult) else None
                if owner is None or owner.name not in CONSTANT_LIKE:
                    if value not in seen:
                        seen.add(value)
                        values.append(value)
                    continue
                clone = owner.operation.clone(ip=ir.InsertionPoint.at_block_begin(region.blocks[0]))
                clones[value] = clone.results[value.result_number]
            if clones:
                for op, index, value in uses:
                    replacement = clones.get(value)
                    if replacement is not None:
                        op.operands[index] = replacement
        return values

    def _op_name(self, op, cache):
        if not cache:
            cache.append(self.mapper.op_name(op))
        return cache[0]

    def _outline(self, region, name, extern, **options):
        """Moves `region`'s block into a private function named `name` (renamed if taken) at
        the start of the module; returns the final name."""
        name = self.names.insert(name)
        ip = ir.InsertionPoint.at_block_begin(self.body)  # (len(operations) walks the block)
        outline_block(region.blocks[0], name, ip, captured=extern,
                      loc=region.owner.location, **options)
        return name

    def _finish(self, region_op, functional):
        copy_device_and_underscored_attributes(region_op, functional)
        functional.attributes[XLA_PROPAGATE_COMPILE_TIME_CONSTS] = self.true
        new_results = functional.results
        for k, old in enumerate(region_op.results):
            old.replace_all_uses_with(new_results[k])
        erase_op(region_op)

    # -- the three ops -------------------------------------------------------

    def _convert_if(self, op):
        then_region, else_region = op.regions[0], op.regions[1]
        then_call, else_call = _single_call(then_region), _single_call(else_region)
        extern = None
        if then_call is not None and else_call is not None:
            extern = _matching_if_args(then_call, else_call)
        if extern is not None:
            then_name, else_name = _callee(then_call), _callee(else_call)
        else:
            extern = self._extern_values([then_region, else_region])
            cache = []
            attributes = op.attributes
            names = []
            for region, attr, suffix in ((then_region, THEN_FUNC_NAME, "_then"),
                                         (else_region, ELSE_FUNC_NAME, "_else")):
                given = attributes[attr] if attr in attributes else None
                if isinstance(given, ir.StringAttr) and given.value:
                    base = self.mapper.unique(given.value)
                else:
                    base = self._op_name(op, cache) + suffix
                names.append(self._outline(region, base, extern))
            then_name, else_name = names
        cond = op.operands[0]
        to_bool = cond.owner if isinstance(cond, ir.OpResult) and cond.owner.name == TO_BOOL \
            else None
        if to_bool is not None:
            cond = to_bool.operands[0]
        functional = ir.Operation.create(
            IF, results=[r.type for r in op.results], operands=[cond] + list(extern),
            attributes={"then_branch": ir.FlatSymbolRefAttr.get(then_name),
                        "else_branch": ir.FlatSymbolRefAttr.get(else_name),
                        "is_stateless": op.attributes["is_stateless"]},
            loc=op.location, ip=ir.InsertionPoint(op))
        self._finish(op, functional)
        if to_bool is not None and _unused(to_bool):
            erase_op(to_bool)

    def _convert_case(self, op):
        regions = list(op.regions)
        extern = self._extern_values(regions)
        cache = []
        branches = []
        for index, region in enumerate(regions):
            name = self._outline(region, f"{self._op_name(op, cache)}_branch{index}", extern)
            branches.append(ir.FlatSymbolRefAttr.get(name))
        functional = ir.Operation.create(
            CASE, results=[r.type for r in op.results], operands=[op.operands[0]] + extern,
            attributes={"branches": ir.ArrayAttr.get(branches),
                        "is_stateless": op.attributes["is_stateless"]},
            loc=op.location, ip=ir.InsertionPoint(op))
        self._finish(op, functional)

    def _convert_while(self, op):
        cond_region, body_region = op.regions[0], op.regions[1]
        cond_call = _single_call(cond_region, allow_to_bool=True)
        body_call = _single_call(body_region)
        inputs = list(op.operands)
        result_types = [r.type for r in op.results]
        if (cond_call is not None and body_call is not None
                and _matching_while_args(cond_call, cond_region, body_call, body_region)):
            cond_name, body_name = _callee(cond_call), _callee(body_call)
        else:
            extern = self._extern_values([cond_region, body_region])
            cache = []
            cond_name = self._outline(cond_region, self._op_name(op, cache) + "_cond", extern,
                                      result_count=1)
            body_name = self._outline(body_region, self._op_name(op, cache) + "_body", extern,
                                      return_captured=True)
            inputs += extern
            result_types += [value.type for value in extern]
        attributes = op.attributes
        new_attributes = {
            "cond": ir.FlatSymbolRefAttr.get(cond_name),
            "body": ir.FlatSymbolRefAttr.get(body_name),
            "parallel_iterations": (attributes["parallel_iterations"]
                                    if "parallel_iterations" in attributes
                                    else ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 10)),
            "is_stateless": attributes["is_stateless"]}
        if "shape_invariant" in attributes:
            new_attributes["shape_invariant"] = ir.UnitAttr.get()
        functional = ir.Operation.create(WHILE, results=result_types, operands=inputs,
                                         attributes=new_attributes, loc=op.location,
                                         ip=ir.InsertionPoint(op))
        self._finish(op, functional)


# -- the trivial form -------------------------------------------------------------

def _unused(op):
    return all(not list(result.uses) for result in op.results)


def _callee(call):
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def _truncates(cast):
    attributes = cast.attributes
    if "Truncate" not in attributes:
        return False
    return ir.BoolAttr(attributes["Truncate"]).value


def _single_call(region, allow_to_bool=False):
    """TF's ``IsSingleCallRegion``: the ``func.call`` of a region that only calls a function
    (after non-truncating casts) and yields its results, else None."""
    if len(region.blocks) != 1:
        return None
    block = region.blocks[0]
    ops = [op.operation for op in block.operations]
    position = len(ops) - 1
    yield_op = ops[position]
    if yield_op.name != TF_YIELD:
        return None
    position -= 1
    if position < 0:
        return None
    consumer = yield_op
    yielded = list(yield_op.operands)
    if allow_to_bool and len(yielded) == 1 and ops[position].name == TO_BOOL:
        if ops[position].results[0] != yielded[0]:
            return None
        consumer = ops[position]
        position -= 1
        if position < 0:
            return None
    call = ops[position]
    if call.name != CALL:
        return None
    position -= 1
    results = list(call.results)
    consumed = list(consumer.operands)
    if allow_to_bool and len(results) == 1 and len(yielded) != 1:
        # %cond = call(...); yield %cond, <the block arguments> (passthrough arguments)
        arguments = list(block.arguments)
        if len(yielded) != len(arguments) + 1:
            return None
        if any(value != argument for value, argument in zip(yielded[1:], arguments)):
            return None
    elif len(results) != len(consumed):
        return None
    if any(result != value for result, value in zip(results, consumed)):
        return None
    for index in range(position, -1, -1):
        op = ops[index]
        if op.name != CAST or _truncates(op):
            return None
    return call


def _element_type(type_):
    return type_.element_type if isinstance(type_, ir.ShapedType) else type_


def _through_casts(value):
    """`value` looking through ``tf.Cast`` ops that keep the element type."""
    while isinstance(value, ir.OpResult) and value.owner.name == CAST:
        cast = value.owner
        source = cast.operands[0]
        if _element_type(source.type) != _element_type(value.type):
            break
        value = source
    return value


def _call_arg_pairs(first, second):
    first_args, second_args = list(first.operands), list(second.operands)
    if len(first_args) != len(second_args):
        return None
    return [(_through_casts(a), _through_casts(b)) for a, b in zip(first_args, second_args)]


def _matching_if_args(first, second):
    """The ``tf.If`` inputs when both calls take the same values, else None."""
    pairs = _call_arg_pairs(first, second)
    if pairs is None:
        return None
    values = []
    for a, b in pairs:
        if a != b:
            return None
        values.append(a)
    return values


def _matching_while_args(first, first_region, second, second_region):
    """True when both calls take the same argument numbers of their regions' blocks."""
    pairs = _call_arg_pairs(first, second)
    if pairs is None:
        return False
    first_block, second_block = first_region.blocks[0], second_region.blocks[0]
    for a, b in pairs:
        if not (isinstance(a, ir.BlockArgument) and isinstance(b, ir.BlockArgument)):
            return False
        if a.arg_number != b.arg_number or a.owner != first_block or b.owner != second_block:
            return False
    return True
