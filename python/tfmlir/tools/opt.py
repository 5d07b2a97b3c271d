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

import argparse
import dataclasses
import io
import os
import re
import sys
from typing import Iterator, List, Optional, Sequence, Tuple

PROG = "tfmlir-opt"
SPLIT_MARKER = b"// -----"
OUTPUT_SPLIT_MARKER = "// -----\n"

_SEVERITIES = ("error", "warning", "note", "remark")


class UsageError(Exception):
    """A command-line problem; its text is printed as is and the exit status is 1."""


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _OptSpec:
    """One known option: `name` without dashes; `kind` is 'flag' (boolean,
    optional ``=true/false``), 'value' (needs a value: ``=v`` or next arg),
    'optional' (optional ``=value``) or 'action' (help/version)."""

    name: str
    kind: str
    dest: str
    help: str
    default: object = None
    metavar: Optional[str] = None
    type: object = None
    choices: Optional[Sequence[str]] = None
    const: object = None


_OPTIONS: Tuple[_OptSpec, ...] = (
    _OptSpec("o", "value", "output", "output file name ('-' = stdout, the default)", "-", "FILE"),
    _OptSpec(
        "pass-pipeline",
        "value",
        "pass_pipeline",
        "textual pass pipeline anchored on the module, e.g. 'builtin.module(canonicalize,cse)'; "
        "can't be combined with pass flags",
        None,
        "PIPELINE",
    ),
    _OptSpec(
        "split-input-file",
        "flag",
        "split_input_file",
        "split the input on '// -----' and process each chunk independently; "
        "outputs are joined with '// -----'",
        False,
    ),
    _OptSpec(
        "verify-diagnostics",
        "optional",
        "verify_diagnostics",
        "check diagnostics against expected-error/warning/note/remark comments instead of printing "
        "them; '=only-expected' ignores unexpected diagnostics",
        None,
        "LEVEL",
        None,
        ("all", "only-expected"),
        "all",
    ),
    _OptSpec(
        "allow-unregistered-dialect",
        "flag",
        "allow_unregistered_dialect",
        "accept operations of unregistered dialects",
        False,
    ),
    _OptSpec(
        "verify-each",
        "flag",
        "verify_each",
        "verify the IR after each pass (default true; '-verify-each=false' turns it off)",
        True,
    ),
    _OptSpec(
        "load-pass-plugin",
        "append",
        "load_pass_plugin",
        "import a Python file (path ending in .py) or module whose passes register with "
        "tfmlir.passes (e.g. @register_pass / @function_pass); repeatable",
        None,
        "PLUGIN",
    ),
    _OptSpec(
        "list-unregistered-tf-ops",
        "flag",
        "list_unregistered_tf_ops",
        "report tf.* operations that have no ODS definition (they parse in the open tf dialect "
        "but are not verified), with their count and first location, on stderr",
        False,
    ),
    _OptSpec("mlir-print-op-generic", "flag", "print_generic", "print operations in generic form", False),
    _OptSpec("mlir-print-debuginfo", "flag", "print_debuginfo", "print locations (debug info)", False),
    _OptSpec(
        "mlir-pretty-debuginfo",
        "flag",
        "pretty_debuginfo",
        "with -mlir-print-debuginfo, print locations in a readable (unparseable) form",
        False,
    ),
    _OptSpec(
        "mlir-print-local-scope",
        "flag",
        "print_local_scope",
        "print types/attributes/locations inline instead of using aliases",
        False,
    ),
    _OptSpec(
        "mlir-print-assume-verified",
        "flag",
        "print_assume_verified",
        "print the custom form without verifying first",
        False,
    ),
    _OptSpec(
        "mlir-use-nameloc-as-prefix",
        "flag",
        "use_nameloc_as_prefix",
        "name SSA values after their NameLoc locations",
        False,
    ),
    _OptSpec(
        "mlir-elide-elementsattrs-if-larger",
        "value",
        "elide_elements",
        "elide elements attributes with more than N elements",
        None,
        "N",
        int,
    ),
    _OptSpec(
        "mlir-elide-resource-strings-if-larger",
        "value",
        "elide_resources",
        "elide resource strings longer than N characters",
        None,
        "N",
        int,
    ),
    _OptSpec(
        "max-nesting-depth",
        "value",
        "max_nesting_depth",
        "refuse textual input whose brackets nest deeper than N levels before parsing (default "
        "1000; the MLIR parser overflows its stack a few thousand levels deep); 0 disables",
        None,
        "N",
        int,
    ),
    _OptSpec("emit-bytecode", "flag", "emit_bytecode", "write MLIR bytecode instead of text", False),
    _OptSpec("mlir-print-ir-before-all", "flag", "print_ir_before_all", "print the IR before every pass (stderr)", False),
    _OptSpec("mlir-print-ir-after-all", "flag", "print_ir_after_all", "print the IR after every pass (stderr)", False),
    _OptSpec(
        "mlir-print-ir-after-change",
        "flag",
        "print_ir_after_change",
        "with -mlir-print-ir-after-all: print only when a pass changed the IR",
        False,
    ),
    _OptSpec(
        "mlir-print-ir-after-failure",
        "flag",
        "print_ir_after_failure",
        "print the IR after a pass failed (stderr)",
        False,
    ),
    _OptSpec(
        "mlir-print-ir-module-scope",
        "flag",
        "print_ir_module_scope",
        "IR printing always prints the whole module (needs -mlir-disable-threading)",
        False,
    ),
    _OptSpec(
        "mlir-print-ir-tree-dir",
        "value",
        "print_ir_tree_dir",
        "write the IR printed by -mlir-print-ir-* to a file tree under DIR instead of stderr",
        None,
        "DIR",
    ),
    _OptSpec("mlir-timing", "flag", "timing", "report the time spent in each pass (stderr)", False),
    _OptSpec("mlir-pass-statistics", "flag", "pass_statistics", "report pass statistics (stderr)", False),
    _OptSpec(
        "mlir-disable-threading",
        "flag",
        "disable_threading",
        "run passes and verification on one thread",
        False,
    ),
    _OptSpec("dump-pass-pipeline", "flag", "dump_pass_pipeline", "print the pass pipeline to stderr", False),
    _OptSpec("help", "action", "help", "show this help and exit"),
    _OptSpec("h", "action", "help", "show this help and exit"),
    _OptSpec("version", "action", "version", "print the version and exit"),
)
_OPTIONS_BY_NAME = {o.name: o for o in _OPTIONS}

_EPILOG = """\
passes:
  Every other -NAME[=OPTIONS] or --NAME[=OPTIONS] is taken as a pass name:
  the pass (or registered pass pipeline) NAME with options OPTIONS (written
  'key=value key2=value2', optionally in braces) is appended to the pipeline
  in command-line order, like mlir-opt, e.g.
      tfmlir-opt in.mlir -canonicalize="max-iterations=3" -cse -symbol-dce
  A name that is no pass is reported as an unknown command line argument.
  Passes that only run on nested ops (e.g. on func.func) are nested
  implicitly. Alternatively give the whole pipeline with --pass-pipeline.

exit status: 0 on success; 1 on parse, verification or pass failure, on a
  -verify-diagnostics mismatch, and on usage errors.
"""


@dataclasses.dataclass(frozen=True)
class PassFlag:
    """A pass given as a command-line flag: ``spelling`` is the argument as
    written; ``name`` the pass name; ``options`` the text after ``=`` (or None)."""

    spelling: str
    name: str
    options: Optional[str]


def _parse_bool(text: str) -> bool:
    """Parses an llvm::cl boolean value (true/false/1/0, any case)."""
    low = text.lower()
    if low in ("true", "1", "yes", "on"):
        return True
    if low in ("false", "0", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"'{text}' is invalid value for boolean argument! Try 0 or 1")


def _make_argparser() -> argparse.ArgumentParser:
    """The argparse parser of the known options (both dash spellings) and the input."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage=f"{PROG} [options] [-NAME[=OPTIONS] ...] [input]",
        description="MLIR modular optimizer driver for TensorFlow's MLIR dialects "
        "(an mlir-opt/tf-opt compatible tool on the upstream MLIR Python bindings).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        add_help=False,
    )
    parser.add_argument("input", nargs="?", default="-", help="input file ('-' or absent: stdin)")
    for spec in _OPTIONS:
        if spec.name == "h":
            continue
        if spec.name == "o":
            names = ["-o"]
        elif spec.name == "help":
            names = ["-h", "--help", "-help"]
        else:
            names = ["--" + spec.name, "-" + spec.name]
        if spec.kind == "action":
            action = "help" if spec.dest == "help" else "version"
            kwargs = {"help": spec.help}
            if action == "version":
                kwargs["version"] = _version_text()
            parser.add_argument(*names, action=action, **kwargs)
        elif spec.kind == "flag":
            parser.add_argument(
                *names,
                dest=spec.dest,
                nargs="?",
                const=True,
                default=spec.default,
                type=_parse_bool,
                metavar="BOOL",
                help=spec.help,
            )
        elif spec.kind == "optional":
            parser.add_argument(
                *names,
                dest=spec.dest,
                nargs="?",
                const=spec.const,
                default=spec.default,
                choices=spec.choices,
                metavar=spec.metavar,
                help=spec.help,
            )
        elif spec.kind == "append":
            parser.add_argument(
                *names, dest=spec.dest, action="append", default=[], metavar=spec.metavar, help=spec.help
            )
        else:
            parser.add_argument(
                *names,
                dest=spec.dest,
                default=spec.default,
                type=spec.type or str,
                metavar=spec.metavar,
                help=spec.help,
            )
    return parser


def _version_text() -> str:
    """The --version text: tfmlir's version and the MLIR it binds to."""
    try:
        from importlib.metadata import version

        mlir_version = version("xtc-mlir-python-bindings")
    except Exception:  # metadata may be absent in source checkouts
        mlir_version = "unknown"
    try:
        from tfmlir import __version__ as tfmlir_version
    except Exception:
        tfmlir_version = "unknown"
    return f"{PROG} (tfmlir {tfmlir_version}, upstream MLIR Python bindings {mlir_version})"


def _split_option(arg: str) -> Tuple[str, Optional[str]]:
    """'-name=value' / '--name' -> ('name', 'value' | None)."""
    body = arg[2:] if arg.startswith("--") else arg[1:]
    if "=" in body:
        name, value = body.split("=", 1)
        return name, value
    return body, None


def _prescan(argv: Sequence[str]) -> Tuple[List[str], List[str], List[PassFlag]]:
    """Sorts argv into known options (normalized for argparse), positionals and pass flags.

    mlir-opt accepts single-dash long options and treats unknown options as
    pass names, which argparse can't do by itself (it would read
    ``-one-shot-bufferize`` as ``-o ne-shot-bufferize``). Known options come
    back as ``--name[=value]`` (``-o FILE`` for the output file).
    """
    known: List[str] = []
    positional: List[str] = []
    passes: List[PassFlag] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            positional.extend(argv[i:])
            break
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)
            continue
        name, value = _split_option(arg)
        spec = _OPTIONS_BY_NAME.get(name)
        if spec is None:
            if not name:
                raise UsageError(f"{PROG}: Unknown command line argument '{arg}'.  Try: '{PROG} --help'")
            passes.append(PassFlag(arg, name, value))
            continue
        if spec.kind == "action":
            known.append("--help" if spec.dest == "help" else "--version")
            continue
        if spec.kind == "value" and value is None:
            if i >= len(argv):
                raise UsageError(f"{PROG}: for the -{name} option: requires a value!")
            value = argv[i]
            i += 1
        flag = "-o" if name == "o" else "--" + name
        if value is None:
            known.append(flag)
        elif name == "o":
            known.extend([flag, value])
        else:
            known.append(f"{flag}={value}")
    return known, positional, passes


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parses the command line; the result has the options as attributes plus
    ``input`` and ``pass_flags`` (list of :class:`PassFlag`, in order).

    Raises :class:`UsageError` on a malformed command line; ``--help`` and
    ``--version`` raise SystemExit(0) after printing.
    """
    known, positional, passes = _prescan(argv)
    if len(positional) > 1:
        raise UsageError(
            f"{PROG}: Too many positional arguments specified! Can specify at most 1 positional "
            f"arguments: See: {PROG} --help"
        )
    parser = _make_argparser()

    # argparse reports errors by printing and exiting with 2; mlir-opt uses 1.
    def _error(message):
        raise UsageError(f"{PROG}: error: {message}")

    parser.error = _error  # type: ignore[assignment]
    ns = parser.parse_args(known + ["--"] + positional)
    ns.pass_flags = passes
    return ns


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


# ---------------------------------------------------------------------------
# Source buffers and locations
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class SourceBuffer:
    """The text one parse sees (a whole input or one padded chunk of it).

    ``display_name`` is how diagnostics name it (the input path as given,
    ``<stdin>`` for stdin); ``loc_names`` are the file names its parsed
    locations carry (the path for parseFile, ``-`` for text parsed from
    memory). ``data`` keeps the original line/column positions: a chunk of
    a split file is preceded by newlines and spaces standing for the text
    before it, and ``original`` is then the whole input, whose lines
    diagnostics quote. ``parse_path``, when set, is parsed with
    Module.parseFile instead of ``data``.
    """

    display_name: str
    data: bytes
    loc_names: frozenset
    parse_path: Optional[str] = None
    original: Optional[bytes] = None
    _lines: Optional[List[bytes]] = None
    _original_lines: Optional[List[bytes]] = None

    @staticmethod
    def _split_lines(data: bytes) -> List[bytes]:
        return [ln[:-1] if ln.endswith(b"\r") else ln for ln in data.split(b"\n")]

    @property
    def lines(self) -> List[bytes]:
        """The lines of `data` (split on '\\n', a trailing '\\r' removed)."""
        if self._lines is None:
            self._lines = self._split_lines(self.data)
        return self._lines

    def line(self, number: int) -> Optional[bytes]:
        """Line `number` (1-based) of the whole input (``original`` if set), None when out of range."""
        if self.original is None:
            lines = self.lines
        else:
            if self._original_lines is None:
                self._original_lines = self._split_lines(self.original)
            lines = self._original_lines
        if 1 <= number <= len(lines):
            return lines[number - 1]
        return None

    def owns(self, filename: str) -> bool:
        """Whether a location with `filename` points into this buffer."""
        return filename in self.loc_names


def split_chunks(data: bytes) -> List[Tuple[int, int]]:
    """Byte ranges of the chunks of `data` separated by ``// -----``.

    Like mlir-opt, every occurrence of the marker splits (the rest of its
    line belongs to the next chunk).
    """
    ranges = []
    start = 0
    while True:
        pos = data.find(SPLIT_MARKER, start)
        if pos < 0:
            ranges.append((start, len(data)))
            return ranges
        ranges.append((start, pos))
        start = pos + len(SPLIT_MARKER)


def padded_chunk(data: bytes, start: int, end: int) -> bytes:
    """``data[start:end]`` preceded by whitespace that keeps its line and column numbers."""
    newlines = data.count(b"\n", 0, start)
    line_start = data.rfind(b"\n", 0, start) + 1
    return b"\n" * newlines + b" " * (start - line_start) + data[start:end]


FileLoc = Tuple[str, int, int]


@dataclasses.dataclass
class LocInfo:
    """What diagnostics need from an mlir.ir.Location, extracted while it is valid.

    ``raw`` is its printed form; ``first`` the first file:line:col inside it
    (pre-order, like ``Location::findInstanceOf<FileLineColLoc>``); ``shown``
    the file location mlir-opt displays (through name and call-site callee
    locations, the first displayable part of fused ones); ``callers`` the
    caller locations of a call-site location ("called from" notes).
    """

    raw: str
    unknown: bool
    first: Optional[FileLoc]
    shown: Optional[FileLoc]
    shown_raw: str
    callers: List[Tuple[Optional[FileLoc], str]]


def _first_file_loc(loc) -> Optional[FileLoc]:
    """The first FileLineColLoc in `loc` (pre-order walk), as (file, line, col)."""
    found = _first_file_location(loc)
    if found is None:
        return None
    from tfmlir import irsafe

    return (irsafe.location_filename(found), found.start_line, found.start_col)


def _loc_to_show(loc):
    """The part of `loc` mlir-opt's diagnostic printer displays, or None."""
    return _first_file_location(loc)


def _first_file_location(loc):
    """The first file location in a pre-order walk of `loc`: through name
    locations, the callee then the caller of call sites, the parts of fused
    ones. Iterative: inlining can stack call sites deeper than Python's
    recursion limit."""
    stack = [loc]
    while stack:
        loc = stack.pop()
        if loc.is_a_file():
            return loc
        if loc.is_a_name():
            stack.append(loc.child_loc)
        elif loc.is_a_callsite():
            stack.append(loc.caller)
            stack.append(loc.callee)
        elif loc.is_a_fused():
            stack.extend(reversed(list(loc.locations)))
    return None


_CALL_STACK_LIMIT = 10


def loc_info(loc) -> LocInfo:
    """Extracts a :class:`LocInfo` from an mlir.ir.Location (None = unknown)."""
    if loc is None:
        return LocInfo("loc(unknown)", True, None, None, "loc(unknown)", [])
    raw = str(loc)
    shown_loc = _loc_to_show(loc)
    callers: List[Tuple[Optional[FileLoc], str]] = []
    if loc.is_a_callsite():
        caller = loc.caller
        for _ in range(_CALL_STACK_LIMIT):
            shown_caller = _loc_to_show(caller)
            if shown_caller is not None:
                callers.append((_first_file_loc(shown_caller), str(shown_caller)))
            if not caller.is_a_callsite():
                break
            caller = caller.caller
    if shown_loc is None:
        return LocInfo(raw, raw == "loc(unknown)", _first_file_loc(loc), _first_file_loc(loc), raw, callers)
    return LocInfo(raw, False, _first_file_loc(loc), _first_file_loc(shown_loc), str(shown_loc), callers)


@dataclasses.dataclass
class Diag:
    """A diagnostic copied out of MLIR: severity name, location, message, notes."""

    severity: str
    loc: LocInfo
    message: str
    notes: List["Diag"]


def _severity_name(severity) -> str:
    name = getattr(severity, "name", None) or str(severity).rsplit(".", 1)[-1]
    return name.lower()


def to_diag(diagnostic) -> Diag:
    """Copies an mlir.ir.Diagnostic / DiagnosticInfo (valid only in its callback) into a Diag."""
    return Diag(
        _severity_name(diagnostic.severity),
        loc_info(diagnostic.location),
        str(diagnostic.message),
        [to_diag(n) for n in diagnostic.notes],
    )


# ---------------------------------------------------------------------------
# Printing diagnostics
# ---------------------------------------------------------------------------


class DiagnosticPrinter:
    """Renders diagnostics in mlir-opt's format: ``file:line:col: severity: message``
    plus the source line and a caret when the location is in the input."""

    def __init__(self, buffer: SourceBuffer, stream=None):
        self.buffer = buffer
        self.stream = stream

    def format_at(
        self,
        fileloc: Optional[FileLoc],
        raw: str,
        unknown: bool,
        severity: str,
        message: str,
        show_source: bool = True,
        range_len: int = 0,
    ) -> str:
        """One message at a location; `range_len` > 1 underlines that many bytes with '~'."""
        if fileloc is None:
            prefix = "" if unknown else f"{raw}: "
            return f"<unknown>:0: {severity}: {prefix}{message}\n"
        filename, line, col = fileloc
        if not self.buffer.owns(filename):
            return f"{filename}:{line}:{col}: {severity}: {message}\n"
        return self.format_in_buffer(line, col, severity, message, show_source, range_len)

    def format_in_buffer(
        self, line: int, col: int, severity: str, message: str, show_source: bool = True, range_len: int = 0
    ) -> str:
        """One message at line:col of the input buffer, with the source line unless `show_source` is False."""
        head = f"{self.buffer.display_name}:{line}:{col}: {severity}: {message}\n"
        text = self.buffer.line(line)
        if not show_source or text is None:
            return head
        return head + self._snippet(text, col, range_len)

    @staticmethod
    def _snippet(text: bytes, col: int, range_len: int) -> str:
        """The source line and a caret line pointing at byte column `col`."""
        shown = text.decode("utf-8", errors="replace").expandtabs(8)
        before = text[: max(col - 1, 0)].decode("utf-8", errors="replace").expandtabs(8)
        pad = len(before)
        tail = max(len(shown) - pad, 1)
        marks = "^" + "~" * max(0, min(range_len, tail) - 1)
        return f"{shown}\n{' ' * pad}{marks}\n"

    def format(self, diag: Diag) -> str:
        """A whole diagnostic: message, "called from" notes, attached notes."""
        loc = diag.loc
        out = [self.format_at(loc.shown, loc.shown_raw, loc.unknown, diag.severity, diag.message)]
        previous = loc.raw
        for fileloc, raw in loc.callers:
            out.append(self.format_at(fileloc, raw, False, "note", "called from"))
            previous = raw
        for note in diag.notes:
            nl = note.loc
            out.append(
                self.format_at(
                    nl.first, nl.raw, nl.unknown, note.severity, note.message, show_source=nl.raw != previous
                )
            )
            previous = nl.raw
        return "".join(out)

    def emit(self, diag: Diag) -> None:
        """Writes `diag` to the stream (stderr by default)."""
        stream = self.stream or sys.stderr
        stream.write(self.format(diag))


# ---------------------------------------------------------------------------
# -verify-diagnostics
# ---------------------------------------------------------------------------

_EXPECTED_START = re.compile(
    rb"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{"
)
_EXPECTED_NEXT_SEP = re.compile(rb"\}\}\s*(//)?\s*$")


@dataclasses.dataclass
class ExpectedDiag:
    """One ``expected-<kind>`` comment: kind, the line it applies to (None for
    @unknown), the position of the comment, the message text and (for -re)
    the compiled regex."""

    kind: str
    line: Optional[int]
    comment_line: int
    comment_col: int
    text: str
    regex: Optional["re.Pattern[str]"] = None
    matched: bool = False

    def matches(self, message: str) -> bool:
        """Substring match, or a regex search for the -re variants."""
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


def _expectation_regex(text: str) -> "re.Pattern[str]":
    """Compiles an -re message: literal text with ``{{regex}}`` pieces. Raises ValueError."""
    pattern = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            pattern.append(re.escape(rest))
            break
        pattern.append(re.escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            raise ValueError("found start of regex with no end '}}'")
        piece = rest[:end]
        try:
            re.compile(piece)
        except re.error as err:
            raise ValueError(f"invalid regex: {err}")
        pattern.append(f"({piece})")
        rest = rest[end + 2 :]
    return re.compile("".join(pattern))


def _line_expectations(line: bytes) -> List[Tuple[re.Match, bytes]]:
    """The expected-* comments of one line as (start match, message bytes).

    A comment runs to the last ``}}`` of the line, as in mlir-opt; as an
    extension, several comments on one line are split where one ends with
    ``}}`` right before the next ``expected-`` (optionally after ``//``).
    """
    stripped = line.rstrip()
    starts = list(_EXPECTED_START.finditer(stripped))
    found = []
    i = 0
    while i < len(starts):
        start = starts[i]
        j = i + 1
        # Extend this comment over later starts that don't begin a new comment.
        while j < len(starts) and not _EXPECTED_NEXT_SEP.search(stripped[start.end() : starts[j].start()]):
            j += 1
        end = starts[j].start() if j < len(starts) else len(stripped)
        body = stripped[start.end() : end].rstrip()
        if body.endswith(b"//"):
            body = body[:-2].rstrip()
        if body.endswith(b"}}"):
            found.append((start, body[:-2]))
        i = j
    return found


class DiagnosticVerifier:
    """mlir-opt's -verify-diagnostics for one buffer.

    Collects ``// expected-(error|warning|note|remark)[-re] [@+N|@-N|@above|@below|@unknown] {{msg}}``
    comments; `msg` must be a substring of the diagnostic's message (-re:
    literal text with ``{{regex}}`` pieces). ``@+N``/``@-N`` are relative to
    the comment's line, ``@above`` is the last line without an expected-*
    comment, ``@below`` the next one, ``@unknown`` matches diagnostics without
    a file location; without a designator the comment's own line. Notes
    attached to a diagnostic are checked like diagnostics.

    :meth:`process` checks one diagnostic and reports an unexpected one
    ('unexpected error: ...', or a severity mismatch); :meth:`finish` reports
    expectations never met ('expected error "..." was not produced') and
    returns whether everything matched.
    """

    def __init__(self, buffer: SourceBuffer, printer: DiagnosticPrinter, level: str = "all", stream=None):
        self.buffer = buffer
        self.printer = printer
        self.level = level
        self.stream = stream
        self.failed = False
        self.expected: List[ExpectedDiag] = []
        self.expected_unknown: List[ExpectedDiag] = []
        self._collect()

    def _report(self, text: str) -> None:
        self.failed = True
        (self.stream or sys.stderr).write(text)

    def _report_at_comment(self, line: int, col: int, message: str, range_len: int = 0) -> None:
        self._report(self.printer.format_in_buffer(line, col, "error", message, range_len=range_len))

    def _collect(self) -> None:
        pending_below: List[ExpectedDiag] = []
        last_plain_line = 0
        for number, line in enumerate(self.buffer.lines, start=1):
            found = _line_expectations(line) if b"expected-" in line else []
            if not found:
                for record in pending_below:
                    record.line = number
                pending_below = []
                last_plain_line = number
                continue
            for start, body in found:
                kind = start.group(1).decode()
                text = body.decode("utf-8", errors="replace")
                record = ExpectedDiag(kind, number, number, start.start() + 1, text)
                if start.group(2):
                    try:
                        record.regex = _expectation_regex(text)
                    except ValueError as err:
                        self._report_at_comment(
                            number, record.comment_col, str(err), range_len=len(text.encode("utf-8"))
                        )
                        continue
                designator = start.group(4)
                if designator is None:
                    self.expected.append(record)
                elif designator == b"unknown":
                    record.line = None
                    self.expected_unknown.append(record)
                elif designator == b"above":
                    record.line = last_plain_line
                    self.expected.append(record)
                elif designator == b"below":
                    pending_below.append(record)
                    self.expected.append(record)
                else:
                    offset = int(designator[1:])
                    record.line = number + offset if designator[:1] == b"+" else number - offset
                    self.expected.append(record)

    def _process_one(self, severity: str, loc: LocInfo, message: str) -> None:
        fileloc = loc.first
        if fileloc is None:
            candidates = self.expected_unknown
        elif self.buffer.owns(fileloc[0]):
            candidates = [e for e in self.expected if e.line == fileloc[1]]
        else:
            candidates = []
        near_miss = None
        for record in candidates:
            if record.matches(message):
                if record.kind == severity:
                    record.matched = True
                    return
                near_miss = record
        if self.level == "only-expected":
            return
        if near_miss is not None:
            self._report_at_comment(
                near_miss.comment_line,
                near_miss.comment_col,
                f"'{severity}' diagnostic emitted when expecting a '{near_miss.kind}'",
            )
            return
        self._report(
            self.printer.format_at(fileloc, loc.raw, loc.unknown, "error", f"unexpected {severity}: {message}")
        )

    def process(self, diag: Diag) -> None:
        """Checks `diag` and its notes against the expectations."""
        self._process_one(diag.severity, diag.loc, diag.message)
        for note in diag.notes:
            if _is_op_dump_note(note):
                continue
            self._process_one(note.severity, note.loc, note.message)

    def finish(self) -> bool:
        """Reports unmet expectations; True when no mismatch happened at all."""
        for record in self.expected + self.expected_unknown:
            if not record.matched:
                self._report_at_comment(
                    record.comment_line,
                    record.comment_col,
                    f'expected {record.kind} "{record.text}" was not produced',
                    range_len=len(record.text.encode("utf-8")),
                )
        return not self.failed


def _is_op_dump_note(note: Diag) -> bool:
    """The verifier's 'see current operation' note, which mlir-opt leaves out under -verify-diagnostics."""
    return note.severity == "note" and note.message.startswith("see current operation:")


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
