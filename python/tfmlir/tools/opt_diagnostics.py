"""tfmlir-opt's diagnostics: printing them as mlir-opt does and ``-verify-diagnostics``."""
from __future__ import annotations

import dataclasses
import re
import sys
from typing import List, Optional, Tuple

from .opt_source import Diag, FileLoc, LocInfo, SourceBuffer


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
