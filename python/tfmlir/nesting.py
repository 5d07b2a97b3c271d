"""A guard against textual IR nested deeper than the MLIR parser can take.

The upstream parser is recursive: every nested region, attribute array or
dictionary, type or parenthesised list costs C stack. Text nested a few
thousand levels deep overflows the 8 MB stack of the main thread and kills
the process (segmentation fault) before any diagnostic: about 1,500 nested
``tf_executor.graph``/``tf_executor.island`` pairs, 2,300 nested
``tf.IfRegion`` ops or 8,500 nested arrays (``[[[...]]]``). The verifier,
printer and walks handle deeper nests than the parser, so the parser sets
the limit.

:func:`nesting_depth` measures how deeply the brackets of a text nest
(``(``, ``[``, ``{``, ``<``, ignoring string literals, comments, ``->`` and
``>=``) with a few passes of C-speed byte operations; :func:`check_nesting`
raises :class:`NestingError` (a ValueError, with the line and column where
the limit is passed) above :data:`MAX_NESTING_DEPTH`, which leaves the
parser a wide margin (the worst construct measured overflows at ~3,200
levels). :func:`parse_module` checks, then parses. MLIR bytecode is not
checked.
"""
import re
from itertools import accumulate

from mlir import ir

__all__ = ["MAX_NESTING_DEPTH", "NestingError", "nesting_depth", "check_nesting",
           "parse_module"]

# Deepest bracket nesting accepted in textual IR. Real models nest a few
# dozen levels; the parser's stack runs out near 3,200 (see the docstring).
MAX_NESTING_DEPTH = 1000

_BYTECODE_MAGIC = b"ML\xefR"
# What does not count: string literals (single-line in MLIR), comments, and
# the '>' of '->' and '>='.
_IGNORED = re.compile(rb'"(?:[^"\\\n]|\\.)*"|//[^\n]*|->|>=')
_OPENING = b"([{<"
_CLOSING = b")]}>"
_OTHERS = bytes(b for b in range(256) if b not in _OPENING + _CLOSING)
# Opening bracket -> +1, closing -> -1 (as signed bytes).
_STEPS = bytes.maketrans(_OPENING + _CLOSING, b"\x01" * 4 + b"\xff" * 4)
_TOKENS = re.compile(rb'"(?:[^"\\\n]|\\.)*"|//[^\n]*|->|>=|[(\[{<)\]}>]')


class NestingError(ValueError):
    """Text nests deeper than the limit; `line` and `column` (1-based) say where."""

    def __init__(self, message, depth, limit, line, column):
        super().__init__(message)
        self.depth = depth
        self.limit = limit
        self.line = line
        self.column = column


def _as_bytes(text):
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass")
    return bytes(text)


def nesting_depth(text):
    """The deepest bracket nesting of `text` (str or bytes), 0 for bytecode."""
    data = _as_bytes(text)
    if data.startswith(_BYTECODE_MAGIC):
        return 0
    if b"//" not in data and b"\\" not in data and data.count(b'"') % 2 == 0:
        # No comments or escapes: the strings are every other piece between
        # quotes (a few times faster than the regular expression).
        kept = b"".join(data.split(b'"')[::2]).replace(b"->", b"").replace(b">=", b"")
    else:
        kept = _IGNORED.sub(b"", data)
    brackets = kept.translate(None, _OTHERS)
    if not brackets:
        return 0
    steps = memoryview(brackets.translate(_STEPS)).cast("b")
    return max(0, max(accumulate(steps)))


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
                start = match.start()
                line = data.count(b"\n", 0, start) + 1
                column = start - (data.rfind(b"\n", 0, start) + 1) + 1
                return line, column
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
    where = f" (first deeper than that at line {line}, column {column})" if line else ""
    raise NestingError(
        f"input nests {depth} levels deep{where}, more than the limit of {limit}: the MLIR "
        f"parser would overflow its stack on deeply nested text", depth, limit, line, column)


def parse_module(text, context=None, *, max_depth=None):
    """``ir.Module.parse`` after :func:`check_nesting` (raises NestingError first)."""
    check_nesting(text, max_depth)
    return ir.Module.parse(text, context=context)
