"""tfmlir-opt's command line: mlir-opt's options and pass flags (:func:`parse_args`)."""
from __future__ import annotations

import argparse
import dataclasses
from typing import List, Optional, Sequence, Tuple

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
