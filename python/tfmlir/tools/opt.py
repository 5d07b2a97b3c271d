"""``tfmlir-opt``: an mlir-opt / tf-opt compatible driver over the upstream MLIR Python bindings.

Reads MLIR text (a file or stdin), parses and verifies it in a fresh
``mlir.ir.Context`` that knows the tfmlir dialects, optionally runs a pass
pipeline and prints the result. The command line follows mlir-opt:

* ``tfmlir-opt [options] [input]``; the input is a file, or stdin when it is
  ``-`` or absent; ``-o FILE`` writes the output to FILE (default stdout).
* options may be spelled with one or two dashes (``-split-input-file`` and
  ``--split-input-file``), values as ``-opt=value`` or ``-opt value``;
* every other ``-NAME[=OPTIONS]`` / ``--NAME[=OPTIONS]`` names a pass (or a
  registered pass pipeline) that is appended to the pipeline in command-line
  order, e.g. ``-canonicalize="max-iterations=3" -cse``; passes that only run
  on nested ops (``func.func``) are nested implicitly, like mlir-opt does;
* ``--pass-pipeline='builtin.module(...)'`` gives the whole pipeline as text
  (it can't be combined with pass flags);
* ``-split-input-file`` processes each ``// -----`` separated chunk on its own
  and joins the outputs with ``// -----``; diagnostics keep the line and column
  numbers of the original file;
* ``-verify-diagnostics`` checks the diagnostics against ``expected-*``
  comments in the input instead of printing them (see
  :class:`DiagnosticVerifier`).

Exit status: 0 on success, 1 on any parse, verification or pass failure, on a
diagnostics mismatch and on usage errors. Diagnostics go to stderr as
``file:line:col: error: message`` followed by the source line and a caret.

The pipeline is assembled as text by :func:`build_pipeline` and executed by
:func:`_run_pipeline`; both use tfmlir's Python pass framework
(``tfmlir.passes``: registered Python passes by flag name, pipelines mixing
them with upstream passes) when it is importable, and the upstream
``mlir.passmanager.PassManager`` alone otherwise.
"""
from __future__ import annotations

import io
import os
import re
import sys
from typing import Iterator, List, Optional, Sequence, Tuple

from .opt_args import OUTPUT_SPLIT_MARKER, PROG, UsageError, parse_args
from .opt_diagnostics import DiagnosticPrinter, DiagnosticVerifier
from .opt_pipeline import PipelineOptions, _run_pipeline, build_pipeline
from .opt_source import Diag, LocInfo, SourceBuffer, loc_info, padded_chunk, split_chunks, to_diag

__all__ = ["main", "run", "parse_args", "build_pipeline", "process_buffer", "UsageError",
           "SourceBuffer", "LocInfo", "Diag", "DiagnosticPrinter", "DiagnosticVerifier",
           "split_chunks", "padded_chunk", "load_pass_plugin"]

# ---------------------------------------------------------------------------
# Processing
# ---------------------------------------------------------------------------


class _DiagnosticSink:
    """The Context's diagnostic handler: prints diagnostics, or feeds the verifier."""

    def __init__(self, printer: DiagnosticPrinter, verifier: Optional[DiagnosticVerifier]):
        self.printer = printer
        self.verifier = verifier
        self.errors = 0
        self.handler_failure: Optional[BaseException] = None

    def take(self, diag: Diag) -> None:
        """Handles one copied diagnostic."""
        if diag.severity == "error":
            self.errors += 1
        if self.verifier is not None:
            self.verifier.process(diag)
        else:
            self.printer.emit(diag)

    def __call__(self, diagnostic) -> bool:
        try:
            self.take(to_diag(diagnostic))
        except BaseException as err:  # never let an exception escape into C++
            self.handler_failure = err
        return True


def _print_module(module, args) -> bytes:
    """The output text (or bytecode) of `module` per the printing options, mlir-opt style."""
    if args.emit_bytecode:
        out = io.BytesIO()
        module.operation.write_bytecode(out)
        return out.getvalue()
    if not args.elide_resources and not args.use_nameloc_as_prefix:
        # The native printer fills one buffer (the upstream one calls back
        # into Python for every token): same text, about 3x faster.
        import tfmlir

        text = tfmlir.print_ir(
            module,
            generic=bool(args.print_generic),
            debug_info=bool(args.print_debuginfo),
            pretty_debug_info=bool(args.pretty_debuginfo),
            local_scope=bool(args.print_local_scope),
            assume_verified=bool(args.print_assume_verified),
            large_elements_limit=args.elide_elements,
        )
        return (text + "\n").encode("utf-8")
    out = io.StringIO()
    module.operation.print(
        large_elements_limit=args.elide_elements,
        large_resource_limit=args.elide_resources,
        enable_debug_info=bool(args.print_debuginfo),
        pretty_debug_info=bool(args.pretty_debuginfo),
        print_generic_op_form=bool(args.print_generic),
        use_local_scope=bool(args.print_local_scope),
        use_name_loc_as_prefix=bool(args.use_nameloc_as_prefix),
        assume_verified=bool(args.print_assume_verified),
        file=out,
    )
    return (out.getvalue() + "\n").encode("utf-8")


def process_buffer(
    buffer: SourceBuffer, args, pipeline: Optional[str], verifier: Optional[DiagnosticVerifier] = None
) -> Tuple[bool, bytes]:
    """Parses, verifies, transforms and prints one buffer in a fresh Context.

    Returns (success, output); the output is empty after a failure. With a
    `verifier`, diagnostics go to it instead of stderr and success only says
    whether the module made it through; the caller asks the verifier at the
    end (one verifier serves all chunks of a split input, as in mlir-opt).
    """
    from mlir import ir

    context = ir.Context()
    context.allow_unregistered_dialects = bool(args.allow_unregistered_dialect)
    context.emit_error_diagnostics = True  # all diagnostics reach our handler, in order
    if args.disable_threading:
        context.enable_multithreading(False)
    sink = _DiagnosticSink(DiagnosticPrinter(buffer), verifier)
    from tfmlir import irsafe

    handler = irsafe.DiagnosticHandler(context, sink)
    output = b""
    try:
        module = _transform(buffer, context, args, pipeline, sink)
        if module is not None:
            output = _print_module(module, args)
    finally:
        handler.detach()
    if sink.handler_failure is None:
        sink.handler_failure = handler.error
    if sink.handler_failure is not None:
        raise sink.handler_failure
    return module is not None, output


def _take_error(err, sink: _DiagnosticSink) -> None:
    """Routes diagnostics carried by an MLIRError (if any) to the sink."""
    for info in getattr(err, "error_diagnostics", None) or []:
        sink.take(to_diag(info))


def _transform(buffer: SourceBuffer, context, args, pipeline: Optional[str], sink: _DiagnosticSink):
    """Parse + verify + pipeline; returns the module, or None after a failure (already reported)."""
    from mlir import ir

    sys.stdout.flush()
    sys.stderr.flush()
    from tfmlir import parsing

    try:
        # Inputs on which MLIR's parsers abort: text nested deeper than the
        # recursive parser's stack, huge result numbers, corrupted bytecode.
        parsing.guard(buffer.data, getattr(args, "max_nesting_depth", None))
    except parsing.ParseGuardError as err:
        if err.line:
            name = buffer.parse_path if buffer.parse_path is not None else "-"
            loc = ir.Location.file(name, err.line, err.column, context)
            sink.take(Diag("error", loc_info(loc), err.detail, []))
        else:
            sink.take(Diag("error", loc_info(None), f"{buffer.display_name}: {err}", []))
        return None
    from tfmlir import irsafe

    try:
        # Diagnostics collected thread-safely (MLIR verifies nested modules on
        # worker threads; see tfmlir.irsafe.parse).
        module = irsafe.parse(buffer.data, context, path=buffer.parse_path)
    except ir.MLIRError as err:
        _take_error(err, sink)
        return None
    try:
        # Parsing verifies already; re-check so no pass ever sees invalid IR
        # (assertion-enabled MLIR would abort the interpreter).
        irsafe.verify(module.operation)
    except ir.MLIRError as err:
        _take_error(err, sink)
        return None
    if getattr(args, "list_unregistered_tf_ops", False):
        _report_unregistered_tf_ops(module, context, buffer)
    if pipeline:
        try:
            _run_pipeline(module, pipeline, PipelineOptions.from_args(args))
        except ir.MLIRError as err:
            _take_error(err, sink)
            return None
        except ValueError as err:
            sink.take(Diag("error", loc_info(None), str(err).strip(), []))
            return None
    return module


def load_pass_plugin(spec: str) -> None:
    """Imports a pass plugin: a ``.py`` file path or an importable module name.

    Importing it runs its ``tfmlir.passes`` registration decorators. Problems
    (missing file, exceptions at import) become a UsageError naming the plugin.
    """
    import importlib
    import importlib.util

    try:
        if spec.endswith(".py") or os.sep in spec:
            path = os.path.abspath(spec)
            if not os.path.isfile(path):
                raise UsageError(f"{PROG}: cannot load pass plugin '{spec}': no such file")
            name = "tfmlir_pass_plugin_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
            module_spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[name] = module
            module_spec.loader.exec_module(module)
        else:
            importlib.import_module(spec)
    except UsageError:
        raise
    except Exception as err:  # report, never crash
        raise UsageError(f"{PROG}: cannot load pass plugin '{spec}': {type(err).__name__}: {err}")


def _report_unregistered_tf_ops(module, context, buffer: SourceBuffer) -> None:
    """Prints the tf.* ops without an ODS definition (name, count, first location)."""
    from mlir import ir

    found = {}

    from tfmlir import irsafe

    def visit(op):
        name = irsafe.op_name(op)
        if name.startswith("tf.") and not context.is_registered_operation(name):
            entry = found.setdefault(name, [0, op.location])
            entry[0] += 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    stream = sys.stderr
    if not found:
        stream.write(f"{buffer.display_name}: no unregistered tf ops\n")
        return
    stream.write(f"{buffer.display_name}: {len(found)} unregistered tf op(s):\n")
    for name in sorted(found):
        count, loc = found[name]
        stream.write(f"  {name}: {count} op(s), first at {_format_location(loc)}\n")
    stream.flush()


def _format_location(loc) -> str:
    """`file:line:col` for a file location (also inside name/fused/callsite), else its text."""
    text = str(loc)
    import re

    match = re.search(r'"([^"]*)":(\d+):(\d+)', text)
    return f"{match.group(1)}:{match.group(2)}:{match.group(3)}" if match else text


def _read_input(path: str) -> Tuple[bytes, str]:
    """Returns (bytes, display name) of the input; UsageError when unreadable."""
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    try:
        with open(path, "rb") as f:
            return f.read(), path
    except OSError as err:
        raise UsageError(f"cannot open input file '{path}': {err.strerror or err}")


def _parses_from_file(path: str, split: bool) -> bool:
    """Whether the input is parsed with Module.parseFile (a regular file, not split)."""
    return not split and path != "-" and os.path.isfile(path)


def _loc_names(path: str, display: str, split: bool) -> frozenset:
    """The file names that locations parsed from the input carry.

    Module.parseFile names them after the path exactly like mlir-opt; text
    parsed from memory (stdin, chunks of a split input) gets ``-``.
    """
    if _parses_from_file(path, split):
        return frozenset({path})
    return frozenset({"-", display})


def _buffers(data: bytes, path: str, display: str, split: bool) -> Iterator[SourceBuffer]:
    """The buffers to process: the whole input, or each chunk of a split input."""
    names = _loc_names(path, display, split)
    if not split:
        yield SourceBuffer(display, data, names, parse_path=path if _parses_from_file(path, split) else None)
        return
    for start, end in split_chunks(data):
        yield SourceBuffer(display, padded_chunk(data, start, end), names, original=data)


def _write_output(path: str, data: bytes) -> None:
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as err:
        raise UsageError(f"cannot open output file '{path}': {err.strerror or err}")


def run(args) -> int:
    """Runs the tool on parsed arguments; returns the exit status."""
    import tfmlir  # noqa: F401  (registers the dialects into every new Context)

    for plugin in getattr(args, "load_pass_plugin", None) or []:
        load_pass_plugin(plugin)
    pipeline = build_pipeline(args)
    data, display = _read_input(args.input)
    verifier = None
    if args.verify_diagnostics:
        # Expectations come from the whole input (chunks keep its line numbers).
        whole = SourceBuffer(display, data, _loc_names(args.input, display, args.split_input_file))
        verifier = DiagnosticVerifier(whole, DiagnosticPrinter(whole), level=args.verify_diagnostics)
    outputs: List[bytes] = []
    all_ok = True
    for buffer in _buffers(data, args.input, display, args.split_input_file):
        ok, output = process_buffer(buffer, args, pipeline, verifier)
        all_ok = all_ok and ok
        outputs.append(output)
    if verifier is not None:
        all_ok = verifier.finish()
    joined = OUTPUT_SPLIT_MARKER.encode().join(outputs)
    if args.output == "-":
        _write_output("-", joined)
    elif all_ok:
        _write_output(args.output, joined)
    return 0 if all_ok else 1


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``tfmlir-opt``: returns the exit status (0 success, 1 failure)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse_args(argv)
        return run(args)
    except UsageError as err:
        sys.stdout.flush()
        sys.stderr.write(f"{err}\n")
        sys.stderr.flush()
        return 1
    except SystemExit as exit_:  # --help / --version
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly like a C++ tool.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
