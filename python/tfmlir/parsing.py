"""Guards in front of MLIR's parsers, for inputs that would abort the process.

Text: MLIR's parser is recursive -- every nested region, attribute array or
dictionary, type or parenthesised list costs C stack -- and text nested a few
thousand levels deep overflows the 8 MB main-thread stack (a segmentation
fault before any diagnostic: about 1,500 nested ``tf_executor.graph`` /
``tf_executor.island`` pairs, 2,300 nested ``tf.IfRegion`` ops or 8,500
nested arrays). :func:`check_nesting` measures bracket nesting (string
literals, comments, ``->`` and ``>=`` ignored) with C-speed byte operations
and refuses text deeper than :data:`MAX_NESTING_DEPTH` (a wide margin: the
worst construct measured overflows at ~3,200 levels). MLIR's parser also
sizes a value's result list from a use such as
``%x#1000000000`` before it knows whether ``%x`` has that many results (a
forward reference allocates them all). :func:`check_text` refuses result
numbers from :data:`MAX_RESULT_NUMBER` on -- the same bound tfmlir's custom
parsers put on result counts -- before the parser runs. It also refuses
shaped types (``tensor<...>``, ``vector<...>``, ``memref<...>``, wherever they
appear: values, attributes, ``!tf_type.resource<tensor<...>>`` subtypes)
whose static element count overflows int64 (:func:`check_element_counts`):
MLIR's ``ShapedType::getNumElements`` asserts on them, and the parser, the
verifiers and the folders all call it.

Bytecode: MLIR's bytecode reader trusts the sizes it reads: a corrupted count (one
changed byte) makes it resize a vector to billions of entries and abort the
process with ``LLVM ERROR: out of memory``; some corruptions trip assertions.
That is upstream behaviour, so tfmlir guards its own entry points
(``tfmlir-opt``, ``tfmlir export``, :func:`parse_module`) in two steps:

1. :func:`check_structure` walks the header and the section table in Python:
   magic, version, producer string, section ids, lengths and alignments must
   be consistent with the number of bytes present.
2. :func:`probe` lets MLIR's reader parse the bytes once in a child process
   with a memory limit; if the child dies (out of memory, assertion, signal)
   the input is refused with :class:`BytecodeError` and this process never
   reads it.

Both raise :class:`ParseGuardError` (a ``ValueError``); :class:`BytecodeError`
is its bytecode flavour.
"""
import os
import re
import subprocess
import sys
from itertools import accumulate

# The child program of :func:`probe` (run by path: a script, not the package's module).
_PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parse_probe.py")

__all__ = ["MAGIC", "MAX_RESULT_NUMBER", "MAX_NESTING_DEPTH", "ParseGuardError", "NestingError",
           "BytecodeError", "ElementCountError", "is_bytecode", "nesting_depth", "check_nesting",
           "find_element_count_overflow", "check_element_counts", "check_text",
           "check_structure", "probe", "check", "guard", "parse_module"]

MAGIC = b"ML\xefR"

# tfmlir's bound on results per op (cpp/include/tfmlir/Limits.h).
MAX_RESULT_NUMBER = 1 << 20
_RESULT_USE = re.compile(rb"%[\w$.\-]+#(\d{7,})")

# Deepest bracket nesting accepted in textual IR. Real models nest a few
# dozen levels; the parser's stack runs out near 3,200 (see the docstring).
MAX_NESTING_DEPTH = 1000

# What does not count: string literals (single-line in MLIR), comments, and
# the '>' of '->' and '>='. Applied after escaped backslashes and quotes are
# removed, so a string is one run of a character class: no backtracking state
# per character (an alternation per character made Python's re use gigabytes on
# a 200 MB string attribute).
_IGNORED = re.compile(rb'"[^"\n]*"|//[^\n]*|->|>=')
_OPENING = b"([{<"
_CLOSING = b")]}>"
_OTHERS = bytes(b for b in range(256) if b not in _OPENING + _CLOSING)
# Opening bracket -> +1, closing -> -1 (as signed bytes).
_STEPS = bytes.maketrans(_OPENING + _CLOSING, b"\x01" * 4 + b"\xff" * 4)
_TOKENS = re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|//[^\n]*|->|>=|[(\[{<)\]}>]')

# Section ids of MLIR 22's bytecode (mlir/Bytecode/Encoding.h).
_NUM_SECTIONS = 9
_MAX_ALIGNMENT = 1 << 16


class ParseGuardError(ValueError):
    """The input would make MLIR's parser abort.

    `detail` is the message without position; `line` and `column` (1-based)
    say where in a text input, when known.
    """

    def __init__(self, message, line=None, column=None):
        super().__init__(f"line {line}, column {column}: {message}" if line else message)
        self.detail = message
        self.line = line
        self.column = column


class NestingError(ParseGuardError):
    """Text nests deeper than `limit` (it reaches `depth`)."""

    def __init__(self, message, depth, limit, line, column):
        super().__init__(message, line, column)
        self.depth = depth
        self.limit = limit


class BytecodeError(ParseGuardError):
    """The bytes are not MLIR bytecode that can be read safely."""


class ElementCountError(ParseGuardError):
    """A shaped type's static element count overflows int64 (`type_text` is its text)."""

    def __init__(self, message, type_text, line=None, column=None):
        super().__init__(message, line, column)
        self.type_text = type_text


def _as_bytes(text):
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass")
    return bytes(text)


def nesting_depth(text):
    """The deepest bracket nesting of `text` (str or bytes), 0 for bytecode."""
    data = _as_bytes(text)
    if data.startswith(MAGIC):
        return 0
    if b"//" not in data and b"\\" not in data and data.count(b'"') % 2 == 0:
        # No comments or escapes: the strings are every other piece between
        # quotes (a few times faster than the regular expression).
        kept = b"".join(data.split(b'"')[::2]).replace(b"->", b"").replace(b">=", b"")
    else:
        kept = _IGNORED.sub(b"", data.replace(b"\\\\", b"").replace(b'\\"', b""))
    brackets = kept.translate(None, _OTHERS)
    if not brackets:
        return 0
    steps = memoryview(brackets.translate(_STEPS)).cast("b")
    return max(0, max(accumulate(steps)))


def _line_column(data, offset):
    """1-based (line, column) of byte `offset` in `data`."""
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def _where_deeper(data, limit):
    """(line, column) of the first bracket nested deeper than `limit`."""
    depth = 0
    for match in _TOKENS.finditer(data):
        token = match.group()
        if len(token) != 1:
            continue
        if token in b"([{<":
            depth += 1
            if depth > limit:
                return _line_column(data, match.start())
        else:
            depth -= 1
    return None, None


def check_nesting(text, limit=None):
    """Raises :class:`NestingError` if `text` nests deeper than `limit`
    (default :data:`MAX_NESTING_DEPTH`; 0 or a negative limit: no check)."""
    limit = MAX_NESTING_DEPTH if limit is None else limit
    if limit <= 0:
        return
    data = _as_bytes(text)
    # Cheap bound first: fewer opening brackets than the limit cannot nest deeper.
    if sum(data.count(c) for c in (b"(", b"[", b"{", b"<")) <= limit:
        return
    depth = nesting_depth(data)
    if depth <= limit:
        return
    line, column = _where_deeper(data, limit)
    raise NestingError(
        f"input nests {depth} levels deep, more than the limit of {limit}: the MLIR "
        f"parser would overflow its stack on deeply nested text", depth, limit, line, column)


# --- element counts of shaped types ---------------------------------------------
#
# ShapedType::getNumElements asserts (assertions are on) when the product of
# the dimensions overflows int64, and MLIR calls it while parsing (a splat
# `dense<...>` of such a type), verifying and folding. Overflowing needs at
# least 19 digits among the dimensions, so a dimension list with fewer than 19
# characters of digits, `x`, `?`, brackets and blanks cannot overflow: the
# candidates are found with one C-speed search; only those (or a dimension
# list holding a comment, which the lexer allows) are read exactly.
INT64_MAX = (1 << 63) - 1
# ('<' first, the keyword checked behind it: a few times faster than an alternation.)
_SHAPED_CANDIDATE = re.compile(rb"<(?=[0-9x?\[\]\s]{19}|[0-9x?\[\]\s]*/)(?<=tensor<|vector<|memref<)")
_SEP = rb"(?:\s|//[^\n]*)*"
_DIM = rb"(?:[0-9]+|\?|\[" + _SEP + rb"[0-9]+" + _SEP + rb"\])"
_SHAPED_DIMS = re.compile(rb"(?:tensor|vector|memref)<" + _SEP + rb"(" + _DIM + rb"(?:" + _SEP + rb"x"
                          + _SEP + _DIM + rb")*)")
_DIM_NUMBER = re.compile(rb"//[^\n]*|([0-9]+)")
# Strings and comments of MLIR text (both end at the line's end at the latest).
_STRING_OR_COMMENT = re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|//[^\n]*')


def _element_count_overflows(dims_text):
    count = 1
    for match in _DIM_NUMBER.finditer(dims_text):
        if match.group(1) is None:
            continue  # a comment
        size = int(match.group(1))
        if size == 0:
            return False
        count *= size  # as MLIR's product, left to right; dynamic sizes ('?') do not count
        if count > INT64_MAX:
            return True
    return False


def find_element_count_overflow(text):
    """(offset, type text) of the first shaped type in `text` (str or bytes of MLIR
    text) whose static element count overflows int64, outside strings and comments;
    None if there is none. Linear in the size of `text`."""
    data = _as_bytes(text)
    # Everything before `safe` is classified and `safe` is outside strings and
    # comments; `token` caches the first string or comment at or after `safe`
    # (None: there is none). Each byte is searched once: linear.
    safe, token, token_known = 0, None, False
    for candidate in _SHAPED_CANDIDATE.finditer(data):
        start = candidate.start() - len(b"tensor")
        if start < safe:
            continue  # inside the string or comment skipped last
        newline = data.rfind(b"\n", safe, start)
        if newline >= 0:
            # Strings and comments end on their line: a line start is outside them.
            safe = newline + 1
            token_known = token_known and (token is None or token.start() > newline)
        while True:
            if not token_known:
                token, token_known = _STRING_OR_COMMENT.search(data, safe), True
            if token is None or token.end() > start:
                break
            safe, token_known = token.end(), False
        if token is not None and token.start() < start:
            safe, token_known = token.end(), False
            continue  # the candidate is inside a string or comment
        safe = start  # no string or comment starts between `safe` and here
        match = _SHAPED_DIMS.match(data, start)
        if match is not None and _element_count_overflows(match.group(1)):
            end = data.find(b">", match.end())
            end = len(data) if end < 0 or end - start > 200 else end + 1
            return start, data[start:end].decode("utf-8", "replace")
    return None


def check_element_counts(data) -> None:
    """Raises :class:`ElementCountError` (with line and column) if a shaped type in
    `data` (MLIR text) has a static element count that overflows int64."""
    data = _as_bytes(data)
    found = find_element_count_overflow(data)
    if found is None:
        return
    offset, type_text = found
    line, column = _line_column(data, offset)
    raise ElementCountError(
        f"the element count of '{type_text}' overflows int64 (MLIR asserts on such shaped "
        f"types)", type_text, line, column)


def check_text(data, max_depth=None) -> None:
    """Raises :class:`ParseGuardError` if `data` nests deeper than `max_depth`
    (:func:`check_nesting`), uses a result number MLIR's parser cannot afford or holds
    a shaped type whose element count overflows int64 (:func:`check_element_counts`)."""
    data = _as_bytes(data)
    check_nesting(data, max_depth)
    check_element_counts(data)
    for match in _RESULT_USE.finditer(data):
        number = int(match.group(1))
        if number >= MAX_RESULT_NUMBER:
            line, column = _line_column(data, match.start())
            name = match.group(0)[:match.group(0).index(b"#")].decode("utf-8", "replace")
            raise ParseGuardError(
                f"result number {number} of '{name}' is not below {MAX_RESULT_NUMBER} "
                f"(tfmlir's bound on results per op)", line, column)


def is_bytecode(data) -> bool:
    """Whether `data` (bytes, or str for text) starts with the bytecode magic number."""
    return not isinstance(data, str) and bytes(data[:4]) == MAGIC


def _varint(data, pos):
    """MLIR's prefix varint at `pos`: (value, next position)."""
    if pos >= len(data):
        raise BytecodeError(f"truncated bytecode: a varint at offset {pos} is missing")
    first = data[pos]
    if first & 1:
        return first >> 1, pos + 1
    if first == 0:
        if pos + 9 > len(data):
            raise BytecodeError(f"truncated bytecode: a 9-byte varint at offset {pos}")
        return int.from_bytes(data[pos + 1:pos + 9], "little"), pos + 9
    size = (first & -first).bit_length()  # trailing zeros + 1 = bytes in the varint
    if pos + size > len(data):
        raise BytecodeError(f"truncated bytecode: a {size}-byte varint at offset {pos}")
    return int.from_bytes(data[pos:pos + size], "little") >> size, pos + size


def check_structure(data) -> None:
    """Raises :class:`BytecodeError` unless the header and section table are consistent."""
    data = bytes(data)
    if not is_bytecode(data):
        raise BytecodeError("not MLIR bytecode (bad magic number)")
    _, pos = _varint(data, len(MAGIC))  # version: the reader checks the range itself
    end = data.find(b"\0", pos)
    if end < 0:
        raise BytecodeError("truncated bytecode: the producer string is not terminated")
    pos = end + 1
    seen = set()
    while pos < len(data):
        start = pos
        code = data[pos]
        section, aligned = code & 0x7F, bool(code & 0x80)
        if section >= _NUM_SECTIONS:
            raise BytecodeError(f"unknown bytecode section id {section} at offset {start}")
        if section in seen:
            raise BytecodeError(f"duplicate bytecode section {section} at offset {start}")
        seen.add(section)
        length, pos = _varint(data, pos + 1)
        if aligned:
            alignment, pos = _varint(data, pos)
            if alignment == 0 or alignment > _MAX_ALIGNMENT or alignment & (alignment - 1):
                raise BytecodeError(f"bad alignment {alignment} of bytecode section {section}")
            while pos % alignment and pos < len(data):
                pos += 1
        if length > len(data) - pos:
            raise BytecodeError(f"bytecode section {section} at offset {start} claims {length} "
                                f"bytes, only {len(data) - pos} remain")
        pos += length




def probe(data, timeout=None) -> None:
    """Parses `data` in a child process; raises :class:`BytecodeError` if MLIR's reader dies."""
    data = bytes(data)
    # About 0.6 GB of address space to start; real inputs need a small multiple
    # of their size. A corrupted count asks for gigabytes at once.
    limit = (3 << 29) + 64 * len(data)
    # Some corruptions send the reader into a very long loop: bounded too.
    timeout = timeout if timeout is not None else 20 + len(data) / 5e6
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    try:
        child = subprocess.run([sys.executable, _PROBE, str(limit), str(int(timeout) + 1)], input=data,
                               capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise BytecodeError(f"MLIR's bytecode reader did not finish within {timeout:.0f} s "
                            "(corrupted input?)") from None
    if child.returncode == 0 and child.stdout.strip().endswith(b"survived"):
        return
    detail = child.stderr.decode("utf-8", "replace").strip().splitlines()
    reason = detail[-1] if detail else f"exit status {child.returncode}"
    for line in detail:
        if "LLVM ERROR" in line or "Assertion" in line:
            reason = line.strip()
            break
    raise BytecodeError(f"MLIR's bytecode reader cannot read this input safely (corrupted?): "
                        f"{reason}")


def check(data) -> None:
    """:func:`check_structure`, then :func:`probe`."""
    check_structure(data)
    probe(data)


def guard(data, max_depth=None) -> None:
    """The checks for one parser input: :func:`check` for bytecode, :func:`check_text` for text."""
    if is_bytecode(data):
        check(data)
    else:
        check_text(data, max_depth)


def parse_module(data, context=None, *, max_depth=None):
    """``ir.Module.parse`` for text or bytecode, guarded (:func:`check_text` / :func:`check`).

    Raises :class:`ParseGuardError` or ``ir.MLIRError``; the MLIRError's
    message holds the parser's errors read safely (upstream's own MLIRError
    fails with RuntimeError when a message is not UTF-8), and its
    ``diagnostics`` attribute the errors themselves (:class:`irsafe.Diagnostic`).
    """
    from mlir import ir

    from . import irsafe

    guard(data, max_depth)
    context = context if context is not None else ir.Context.current
    try:
        return irsafe.parse(data, context)
    except ir.MLIRError as error:
        error.diagnostics = error.error_diagnostics
        raise
    except MemoryError:
        # MLIR's bytecode reader allocates what a (corrupt) size field asks for.
        error = ir.MLIRError("Unable to parse module: reading the input ran out of memory "
                             "(std::bad_alloc); a size in the bytecode is larger than the "
                             "input can hold", [])
        error.diagnostics = []
        raise error from None
