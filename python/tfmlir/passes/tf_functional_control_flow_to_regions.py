"""Transforms functional control flow operations to their region-based counterparts

Every ``tf.If``, ``tf.Case`` and ``tf.While`` of the module (nested modules
too, in post order) becomes ``tf.IfRegion``, ``tf.CaseRegion`` and
``tf.WhileRegion`` whose regions call the branch / cond / body functions
(``func.call``) and yield their results. The inverse is
-tf-region-control-flow-to-functional; a module converted there and back is
the same up to the attributes the way back adds (functions are reused).

As TF:
* ``tf.IfRegion`` gets ``is_stateless`` and ``_then_func_name`` /
  ``_else_func_name`` (the branch functions' names); ``tf.CaseRegion``
  ``is_stateless``; ``tf.WhileRegion`` ``parallel_iterations`` (always
  written, 10 by default), ``is_stateless`` and ``shape_invariant`` when the
  ``tf.While`` has it. Then ``device`` and every attribute starting with ``_``
  is copied from the functional op (overwriting); other attributes are
  dropped.
* An ``If``/``Case`` region calls its function with the op's inputs; a
  ``While`` region has one block argument per argument of the function (its
  types) and calls it with them. Where an argument's type is not the
  function's, a ``tf.Cast`` (``Truncate = false``) converts it first.
* An ``If`` condition that is not ``tensor<i1>`` goes through a
  ``tf.ToBool`` before the op (with the op's ``device`` and ``_``
  attributes); a ``While`` cond region converts the call's first result with
  a ``tf.ToBool`` before its ``tf.Yield``.
* With ``allow-passthrough-args``, the cond region of a ``WhileRegion``
  yields its block arguments after the condition (passthrough arguments), and
  ``tf.GeneratorDataset`` would become ``tf.GeneratorDatasetRegion``.

Errors (the module is left unchanged):
* with ``allow-passthrough-args``, a ``tf.GeneratorDataset`` whose init / next
  / finalize function is missing: ``'tf.GeneratorDataset' op failed to
  convert to region form`` (TF's message); one whose functions exist fails
  with the same message and a reason: tfmlir's ``tf.GeneratorDatasetRegion``
  has no regions to hold the calls (TF's has three);
* a branch/cond/body reference that does not name a ``func.func`` (the
  verifier already refuses most): the op fails to convert, as above.
"""
from mlir import ir

from .analysis.executor import op_key
from .names import (CALL, CASE, CASE_REGION, CAST, FUNC, GENERATOR_DATASET, IF,
                             IF_REGION, MODULE, TF_YIELD, TO_BOOL, WHILE, WHILE_REGION)
from .analysis.symbols import module_body, symbol_name
from .framework import Option, Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import copy_device_and_underscored_attributes, ops_named


GENERATOR_FUNCS = ("init_func", "next_func", "finalize_func")


@register_pass
class FunctionalControlFlowToRegions(Pass):
    argument = "tf-functional-control-flow-to-regions"
    anchor = MODULE
    options = (Option("allow-passthrough-args", bool, False,
                      "Allow passthrough arguments (the cond region of a WhileRegion yields "
                      "its arguments after the condition; GeneratorDataset is converted)."),)
    dependent_dialects = ("tf", "func")

    def run_on_operation(self, module):
        module = module.operation
        wanted = {IF, CASE, WHILE}
        if self.allow_passthrough_args:
            wanted.add(GENERATOR_DATASET)
        ops = ops_named(module, wanted)
        if not ops:
            return
        with module.context:
            converter = _Converter(self.allow_passthrough_args)
            for op in ops:
                converter.convert(op)


def _failed(op, reason=""):
    return PassFailure(f"'{op.name}' op failed to convert to region form{reason}", op)


class _Converter:
    def __init__(self, passthrough):
        self.passthrough = passthrough
        self.tables = {}  # op_key of a module -> {name: op}
        self.signatures = {}  # op_key of a function -> _signature
        self.false = ir.BoolAttr.get(False)
        self.i1 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(1))

    # -- looking up functions ------------------------------------------------

    def function(self, op, attr):
        """The func.func that `attr` (a flat symbol reference) names in the nearest module
        around `op` (TF's ``lookupNearestSymbolFrom``), or None. A nested reference gives None:
        a ``func.call`` names its callee by a flat reference (TF would build one to the leaf
        name, which does not resolve)."""
        if not isinstance(attr, ir.FlatSymbolRefAttr):
            return None
        parent = op.parent
        while parent is not None and parent.name != MODULE:
            parent = parent.parent
        if parent is None:
            return None
        key = op_key(parent)
        symbols = self.tables.get(key)
        if symbols is None:
            symbols = self.tables[key] = {}
            for candidate in module_body(parent.operation).operations:
                name = symbol_name(candidate.operation)
                if name is not None and name not in symbols:
                    symbols[name] = candidate.operation
        found = symbols.get(attr.value)
        return found if found is not None and found.name == FUNC else None

    # -- converting ----------------------------------------------------------

    def convert(self, op):
        name = op.name
        if name == IF:
            self._convert_if(op)
        elif name == CASE:
            self._convert_case(op)
        elif name == WHILE:
            self._convert_while(op)
        else:
            self._convert_generator_dataset(op)

    def _functions(self, op, attrs):
        funcs = []
        for attr in attrs:
            func = self.function(op, attr)
            if func is None:
                raise _failed(op)
            funcs.append(func)
        return funcs

    def _to_bool(self, op, cond):
        """`cond` as a ``tensor<i1>``: itself, or a ``tf.ToBool`` of it created before `op`
        (with `op`'s device and ``_`` attributes)."""
        if _is_i1_scalar(cond.type):
            return cond
        to_bool = ir.Operation.create(TO_BOOL, results=[self.i1], operands=[cond],
                                      loc=op.location, ip=ir.InsertionPoint(op))
        copy_device_and_underscored_attributes(op, to_bool)
        return to_bool.results[0]

    def _signature(self, func):
        """(input types, result types, flat reference) of `func`, computed once per function."""
        key = op_key(func)
        found = self.signatures.get(key)
        if found is None:
            ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
            found = self.signatures[key] = (list(ftype.inputs), list(ftype.results),
                                            ir.FlatSymbolRefAttr.get(symbol_name(func)))
        return found

    def _call_region(self, op, region, func, args, use_region_args, forward_block_args):
        """Fills the empty `region` with a call of `func` and a ``tf.Yield`` of its results
        (TF's ``CreateCall``); returns the yield."""
        inputs, results, callee = self._signature(func)
        loc = op.location
        if use_region_args:
            block = region.blocks.append(*inputs, arg_locs=[loc] * len(inputs))
            args = list(block.arguments)
        else:
            block = region.blocks.append()
        at_end = ir.InsertionPoint(block)
        operands = []
        for arg, expected in zip(args, inputs):
            if arg.type != expected:
                arg = ir.Operation.create(CAST, results=[expected], operands=[arg],
                                          attributes={"Truncate": self.false}, loc=loc,
                                          ip=at_end).results[0]
            operands.append(arg)
        call = ir.Operation.create(CALL, results=results, operands=operands,
                                   attributes={"callee": callee}, loc=loc, ip=at_end)
        yielded = list(call.results)
        if forward_block_args:
            yielded += list(block.arguments)
        return ir.Operation.create(TF_YIELD, operands=yielded, loc=loc, ip=at_end)

    def _replace(self, op, new_op):
        for old, new in zip(op.results, new_op.results):
            old.replace_all_uses_with(new)
        erase_op(op)

    def _convert_if(self, op):
        attributes = op.attributes
        then_func, else_func = self._functions(
            op, (attributes["then_branch"], attributes["else_branch"]))
        operands = list(op.operands)
        cond = self._to_bool(op, operands[0])
        region_op = ir.Operation.create(
            IF_REGION, results=[r.type for r in op.results], operands=[cond],
            attributes={"is_stateless": attributes["is_stateless"],
                        "_then_func_name": ir.StringAttr.get(symbol_name(then_func)),
                        "_else_func_name": ir.StringAttr.get(symbol_name(else_func))},
            regions=2, loc=op.location, ip=ir.InsertionPoint(op))
        copy_device_and_underscored_attributes(op, region_op)
        inputs = operands[1:]
        self._call_region(op, region_op.regions[0], then_func, inputs, False, False)
        self._call_region(op, region_op.regions[1], else_func, inputs, False, False)
        self._replace(op, region_op)

    def _convert_case(self, op):
        attributes = op.attributes
        funcs = self._functions(op, list(ir.ArrayAttr(attributes["branches"])))
        operands = list(op.operands)
        region_op = ir.Operation.create(
            CASE_REGION, results=[r.type for r in op.results], operands=[operands[0]],
            attributes={"is_stateless": attributes["is_stateless"]},
            regions=len(funcs), loc=op.location, ip=ir.InsertionPoint(op))
        copy_device_and_underscored_attributes(op, region_op)
        inputs = operands[1:]
        for region, func in zip(region_op.regions, funcs):
            self._call_region(op, region, func, inputs, False, False)
        self._replace(op, region_op)

    def _convert_while(self, op):
        attributes = op.attributes
        cond_func, body_func = self._functions(op, (attributes["cond"], attributes["body"]))
        new_attributes = {
            "parallel_iterations": (attributes["parallel_iterations"]
                                    if "parallel_iterations" in attributes
                                    else ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 10)),
            "is_stateless": attributes["is_stateless"]}
        if "shape_invariant" in attributes:
            new_attributes["shape_invariant"] = ir.UnitAttr.get()
        inputs = list(op.operands)
        region_op = ir.Operation.create(
            WHILE_REGION, results=[r.type for r in op.results], operands=inputs,
            attributes=new_attributes, regions=2, loc=op.location, ip=ir.InsertionPoint(op))
        copy_device_and_underscored_attributes(op, region_op)
        cond_yield = self._call_region(op, region_op.regions[0], cond_func, inputs, True,
                                       self.passthrough)
        yielded = cond_yield.operands
        if len(yielded):
            cond_yield.operands[0] = self._to_bool(cond_yield, yielded[0])
        self._call_region(op, region_op.regions[1], body_func, inputs, True, False)
        self._replace(op, region_op)

    def _convert_generator_dataset(self, op):
        attributes = op.attributes
        for name in GENERATOR_FUNCS:
            if name not in attributes or self.function(op, attributes[name]) is None:
                raise _failed(op)
        raise _failed(op, ": tfmlir's tf.GeneratorDatasetRegion has no regions to hold the "
                          "init/next/finalize calls")


def _is_i1_scalar(type_):
    """``tensor<i1>`` (TF: a ranked rank-0 tensor of signless i1)."""
    if not isinstance(type_, ir.RankedTensorType) or type_.rank != 0:
        return False
    element = type_.element_type
    return isinstance(element, ir.IntegerType) and element.width == 1 and element.is_signless
