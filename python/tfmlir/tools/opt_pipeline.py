"""tfmlir-opt's pass pipeline: pass flags to pipeline text (:func:`build_pipeline`) and running it."""
from __future__ import annotations

import dataclasses
import re
import sys
from typing import List, Optional, Tuple

from .opt_args import PROG, PassFlag, UsageError


# ---------------------------------------------------------------------------
# Pass pipeline
# ---------------------------------------------------------------------------


def _pass_registry():
    """tfmlir's Python pass framework (module ``tfmlir.passes``), or None where it is absent.

    Used when present: ``get_pass(name)`` (the registered Python pass class
    of that flag name, or None; the class's ``parse_options(text)`` checks
    options) and ``PassPipeline(text, context, verify_each=...)`` (a parsed
    pipeline mixing Python and upstream passes, with its upstream
    PassManager as ``.pm`` and ``.run(module)``; errors are ValueError).
    """
    try:
        from tfmlir import passes  # type: ignore[attr-defined]
    except ImportError:
        return None
    return passes


def _python_pass(name: str):
    """The registered Python pass class called `name`, or None."""
    get_pass = getattr(_pass_registry(), "get_pass", None)
    return get_pass(name) if callable(get_pass) else None


_NESTING_RE = re.compile(r"restricted to '([^']+)' on a PassManager intended to run on '([^']+)'")
_ANCHORED_RE = re.compile(r"^\s*[A-Za-z_][\w.$-]*\s*\(.*\)\s*$", re.DOTALL)


def _pass_options_text(flag: PassFlag) -> str:
    """The option text of a pass flag without surrounding braces ('' when none)."""
    opts = (flag.options or "").strip()
    if opts.startswith("{") and opts.endswith("}"):
        opts = opts[1:-1]
    return opts


def _pass_element(flag: PassFlag) -> str:
    """The textual pipeline element of a pass flag: ``name`` or ``name{options}``."""
    opts = _pass_options_text(flag)
    return f"{flag.name}{{{opts}}}" if opts else flag.name


def _resolve_pass_flag(flag: PassFlag, context) -> Tuple[Optional[str], str]:
    """Checks that `flag` names a pass; returns (nesting anchor or None, element text).

    An upstream pass restricted to a nested op (e.g. ``func.func``) gets that
    op as anchor, which mirrors mlir-opt's implicit nesting.
    """
    from mlir.passmanager import PassManager

    element = _pass_element(flag)
    get_pipeline = getattr(_pass_registry(), "get_pipeline", None)
    named = get_pipeline(flag.name) if callable(get_pipeline) else None
    if named is not None:
        if callable(named[0]):
            try:
                named[0](_pass_options_text(flag))
            except ValueError as err:
                raise UsageError(f"<unknown>:0: error: {err}")
        elif _pass_options_text(flag):
            raise UsageError(f"<unknown>:0: error: pipeline '{flag.name}' takes no options")
        return None, element
    python_pass = _python_pass(flag.name)
    if python_pass is not None:
        # Python passes nest themselves (a func.func pass at module level runs per function).
        try:
            python_pass.parse_options(_pass_options_text(flag))
        except ValueError as err:
            raise UsageError(f"<unknown>:0: error: {err}")
        return None, element
    try:
        PassManager.parse(f"builtin.module({element})", context=context)
        return None, element
    except ValueError as err:
        message = str(err)
    if "does not refer to a registered pass" in message:
        raise UsageError(f"{PROG}: Unknown command line argument '{flag.spelling}'.  Try: '{PROG} --help'")
    nested = _NESTING_RE.search(message)
    if nested and nested.group(2) == "builtin.module":
        anchor = nested.group(1)
        try:
            PassManager.parse(f"builtin.module({anchor}({element}))", context=context)
            return anchor, element
        except ValueError as err:
            message = str(err)
    raise UsageError(f"<unknown>:0: error: {message.strip()}")


def build_pipeline(args) -> Optional[str]:
    """The textual pass pipeline (``builtin.module(...)``) asked for by `args`, or None for no passes.

    `args` is the namespace of :func:`parse_args`: ``pass_flags`` (pass flags
    in order) and ``pass_pipeline`` (the --pass-pipeline text). Pass flags are
    validated (an unknown name is an 'Unknown command line argument'); both
    kinds together are an error, as in mlir-opt. Raises :class:`UsageError`.
    """
    flags: List[PassFlag] = list(getattr(args, "pass_flags", []) or [])
    text = getattr(args, "pass_pipeline", None)
    if text is not None and flags:
        raise UsageError("<unknown>:0: error: '-pass-pipeline' option can't be used with individual pass options")
    if text is not None:
        if not text.strip():
            return None
        if not _ANCHORED_RE.match(text):
            raise UsageError(
                "<unknown>:0: error: expected pass pipeline to be wrapped with the anchor operation type, "
                "e.g. 'builtin.module(...)'"
            )
        _check_pipeline_text(text)
        return text.strip()
    if not flags:
        return None
    from mlir import ir

    context = ir.Context()
    groups: List[Tuple[Optional[str], List[str]]] = []
    for flag in flags:
        anchor, element = _resolve_pass_flag(flag, context)
        if groups and groups[-1][0] == anchor and anchor is not None:
            groups[-1][1].append(element)
        else:
            groups.append((anchor, [element]))
    parts = [f"{anchor}({','.join(elems)})" if anchor else ",".join(elems) for anchor, elems in groups]
    return f"builtin.module({','.join(parts)})"


def _check_pipeline_text(text: str) -> None:
    """Validates a --pass-pipeline text before any input is read (UsageError if bad)."""
    from mlir import ir

    try:
        _make_pipeline(text, ir.Context(), verify_each=True)
    except ValueError as err:
        raise UsageError(f"<unknown>:0: error: {str(err).strip()}")


def _make_pipeline(pipeline_text: str, context, verify_each: bool):
    """(runner, PassManager) for `pipeline_text`: the Python pass framework's
    PassPipeline when tfmlir.passes provides it, else an upstream PassManager
    (then runner is None). Raises ValueError for a bad pipeline."""
    pipeline_cls = getattr(_pass_registry(), "PassPipeline", None)
    if pipeline_cls is not None:
        runner = pipeline_cls(pipeline_text, context, verify_each=verify_each)
        return runner, runner.pm
    from mlir.passmanager import PassManager

    pm = PassManager.parse(pipeline_text, context=context)
    pm.enable_verifier(verify_each)
    return None, pm


@dataclasses.dataclass
class PipelineOptions:
    """Pass-manager settings from the command line (IR printing, timing, verification)."""

    verify_each: bool = True
    print_ir_before_all: bool = False
    print_ir_after_all: bool = False
    print_ir_after_change: bool = False
    print_ir_after_failure: bool = False
    print_ir_module_scope: bool = False
    print_ir_tree_dir: Optional[str] = None
    print_debuginfo: bool = False
    print_generic: bool = False
    elide_elements: Optional[int] = None
    elide_resources: Optional[int] = None
    timing: bool = False
    pass_statistics: bool = False
    dump_pass_pipeline: bool = False
    disable_threading: bool = False

    @classmethod
    def from_args(cls, args) -> "PipelineOptions":
        """Takes the fields of the same names from the parse_args namespace."""
        values = {f.name: getattr(args, f.name) for f in dataclasses.fields(cls) if hasattr(args, f.name)}
        return cls(**values)


def _run_pipeline(module, pipeline_text: str, options: PipelineOptions) -> None:
    """Runs the textual pipeline `pipeline_text` on `module`.

    This is where tfmlir's pass framework plugs in: when ``tfmlir.passes``
    provides ``PassPipeline`` the pipeline may mix Python and upstream
    passes; otherwise an upstream ``mlir.passmanager.PassManager`` parsed
    from the text runs it. Either way the PassManager gets the command-line
    settings in `options` (verify-each, IR printing, timing, statistics).
    Raises mlir.ir.MLIRError when a pass fails (its diagnostics reach the
    context's handlers) and ValueError for a bad pipeline.
    """
    after_all = options.print_ir_after_all or options.print_ir_after_failure
    printing = options.print_ir_before_all or after_all
    if printing and options.print_ir_module_scope and not options.disable_threading:
        # MLIR aborts the process (LLVM ERROR) instead; mlir-opt reports this.
        raise ValueError(
            "IR print for module scope can't be setup on a pass-manager without disabling "
            "multi-threading first."
        )
    runner, pm = _make_pipeline(pipeline_text, module.context, bool(options.verify_each))
    if printing:
        pm.enable_ir_printing(
            print_before_all=options.print_ir_before_all,
            print_after_all=after_all,
            print_module_scope=options.print_ir_module_scope,
            print_after_change=options.print_ir_after_change,
            print_after_failure=options.print_ir_after_failure,
            large_elements_limit=options.elide_elements,
            large_resource_limit=options.elide_resources,
            enable_debug_info=options.print_debuginfo,
            print_generic_op_form=options.print_generic,
            tree_printing_dir_path=options.print_ir_tree_dir,
        )
    if options.timing:
        pm.enable_timing()
    if options.pass_statistics:
        pm.enable_statistics()
    if options.dump_pass_pipeline:
        sys.stderr.write(f"Pass Manager with pipeline:\n{pm}\n")
    # The C++ side writes IR dumps/timing straight to fd 2: keep the order.
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        if runner is not None:
            runner.run(module)
        else:
            pm.run(module.operation)
    finally:
        del pm, runner  # timing and statistics reports are printed when the manager dies
        sys.stderr.flush()
