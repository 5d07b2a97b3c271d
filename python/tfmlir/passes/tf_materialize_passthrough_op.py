"""Replaces each tf.MlirPassthroughOp by the body of the MLIR module attached to it.

As TF 2.21's -tf-materialize-passthrough-op (``MaterializePassthroughOpPass``), for
each ``tf.MlirPassthroughOp`` of a function (post-order): its ``mlir_module``
string is parsed (and verified) in the op's context; the module's ``main``
function must be a ``func.func`` with as many arguments as the op has operands,
as many results as the op has results and a body of one block. The block's
arguments are replaced by the op's operands, the block's ops (all but its
terminator) are moved before the op, the op's results are replaced by the
terminator's operands and the op is erased. Other functions of the attached
module are not copied (a call to one of them leaves a dangling symbol, which
the verifier after the pass reports, as in TF).

Errors, at the op, with TF's messages: the parser's own diagnostics then
"could not parse attached MLIR module"; "MLIR Opaque Op expects a main() entry
point" (TF's C++ crashes there when the module has no symbol ``main``); the
operand and result count mismatches; "... expects a main() entry point with a
single block". Every op is tried (each bad one reported, the good ones
materialized) and the pass then fails, leaving the module unchanged. (TF's pass
only emits these errors and succeeds, keeping the bad ops; an error diagnostic
from a pass that succeeds aborts MLIR's Python bindings, and a failure keeps
nothing half done.)
"""
from mlir import ir

from . import attributes
from .framework import Pass, erase_op, register_pass
from .lib.ir_helpers import ops_named

PASSTHROUGH = "tf.MlirPassthroughOp"


@register_pass
class MaterializePassthroughOpPass(Pass):
    argument = "tf-materialize-passthrough-op"

    def run_on_operation(self, func):
        ops = ops_named(func.operation, PASSTHROUGH)
        if not ops:
            self.mark_all_analyses_preserved()
            return
        errors = []  # (op, message, the parser's diagnostics before it), in TF's order
        parsed = {}  # module text -> (main function or None, error, parser diagnostics)
        for op in ops:
            parser_diagnostics = []
            error = self._materialize(op, parser_diagnostics, parsed)
            if error is not None:
                errors.append((op, error, parser_diagnostics))
        for k, (op, error, parser_diagnostics) in enumerate(errors):
            for location, message in parser_diagnostics:
                location.emit_error(message)
            if k + 1 == len(errors):
                self.fail(error, op)
            self.emit_error(error, op)

    def _materialize(self, op, parser_diagnostics, parsed):
        """Materializes `op`; the error message (nothing changed) when it cannot (the parser's
        diagnostics are added to `parser_diagnostics` as (location, message)). Each distinct
        module text is parsed and checked once (`parsed`); every op takes its own copy."""
        text = attributes.string(op, "mlir_module", "")
        if text not in parsed:
            parsed[text] = self._parse(text, op)
        _, main, error, diagnostics = parsed[text]
        if error is not None:
            parser_diagnostics.extend(diagnostics)
            return error
        function_type = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        if len(function_type.inputs) != len(op.operands):
            return (f"mismatch between MLIR Opaque Op number of operands ({len(op.operands)}) "
                    f"and main() entry point in the module ({len(function_type.inputs)} args)\n")
        if len(function_type.results) != len(op.results):
            return (f"mismatch between MLIR Opaque Op number of results ({len(op.results)}) "
                    f"and main() entry point in the module ({len(function_type.results)} "
                    f"results)\n")
        if len(main.regions[0].blocks) != 1:
            return "MLIR Opaque Op expects a main() entry point with a single block\n"
        copy = main.clone(ip=False)
        block = copy.regions[0].blocks[0]
        for argument, operand in zip(block.arguments, op.operands):
            argument.replace_all_uses_with(operand)
        ops = list(block.operations)
        terminator = ops.pop()
        for moved in ops:
            moved.operation.move_before(op)
        for result, value in zip(op.results, terminator.operands):
            result.replace_all_uses_with(value)
        erase_op(op)
        copy.erase()
        return None

    @staticmethod
    def _parse(text, op):
        """(module, its main function, None, []) or (None, None, TF's error message, the parser's
        diagnostics as (location, message)) of an attached module text."""
        try:
            nested = ir.Module.parse(text, op.context)
        except ir.MLIRError as err:
            return None, None, "could not parse attached MLIR module", [
                (diagnostic.location, diagnostic.message) for diagnostic in err.error_diagnostics]
        except ValueError as err:  # refused before parsing (tfmlir.parsing.guard)
            return None, None, "could not parse attached MLIR module", [(op.location, str(err))]
        main = None
        for candidate in nested.body.operations:
            candidate = candidate.operation
            if attributes.string(candidate, "sym_name") == "main":
                main = candidate
                break
        if main is None or main.name != "func.func":
            return None, None, "MLIR Opaque Op expects a main() entry point\n", []
        return nested, main, None, []
