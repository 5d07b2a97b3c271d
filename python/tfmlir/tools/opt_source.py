"""tfmlir-opt's input: source buffers, ``-split-input-file`` chunks, locations and diagnostics as values."""
from __future__ import annotations

import dataclasses
from typing import List, Optional, Tuple

from .opt_args import SPLIT_MARKER


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
