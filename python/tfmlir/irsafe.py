"""Reading names, locations and diagnostics from IR that may hold non-UTF-8 bytes.

MLIR names are byte strings: ``"tf.\\FF"(...)``, ``loc("\\FF":1:2)`` and
``@"\\FF"`` parse and verify. The upstream Python bindings turn them into
``str``, and two of their getters (``Operation.name``, ``Location.filename``)
abort the whole process on bytes that are not UTF-8; others raise
``RuntimeError``. tfmlir therefore reads them only through this module:

* :func:`op_name`, :func:`location_filename`, :func:`location_name` never
  fail; bytes that are not UTF-8 appear as ``\\XX``, the way MLIR prints them.
* :func:`check_utf8` is the guard at tfmlir's entry points (every Python pass,
  the exporter): IR whose op names, attribute names, symbol names or location
  names are not UTF-8 is refused with :class:`NonUtf8Error`, naming the op and
  its location, before any Python code reads it.
* :class:`DiagnosticHandler` is a diagnostic handler whose text is read in
  C++, so a diagnostic about such IR is printed, never fatal.
* :func:`attribute_items` / :func:`attribute_dict` read an op's attributes or a
  dictionary's entries; the bindings' ``NamedAttribute.attr`` aborts the process
  on some attributes (complex dense constants).
* :func:`parse` and :func:`verify` are ``ir.Module.parse`` and
  ``Operation.verify`` whose diagnostics are collected in C++ on whichever
  thread emits them. MLIR verifies isolated regions on worker threads; on
  nested modules some of their diagnostics reach the context's handlers on
  the worker thread, where upstream's error capture touches Python objects
  without the GIL (a fatal nanobind error) and a Python handler waits forever
  for the GIL the caller holds.

String attribute *values* may hold any bytes (TensorFlow string attributes
are bytes); read them with ``StringAttr.value_bytes``.
"""
from collections import namedtuple

from mlir import ir

from . import _tfmlir

__all__ = ["op_name", "location_filename", "location_name", "find_non_utf8", "check_utf8",
           "NonUtf8Error", "Diagnostic", "DiagnosticHandler", "parse", "verify", "attribute_items",
           "attribute_dict"]


def _operation(op):
    return op.operation if hasattr(op, "operation") else op


def op_name(op) -> str:
    """The name of `op` (Operation or OpView); non-UTF-8 bytes as ``\\XX``."""
    return _tfmlir.operation_name(_operation(op))


def location_filename(loc):
    """The file of a ``file:line:col`` location (None for other kinds)."""
    return _tfmlir.location_filename(loc)


def location_name(loc):
    """The name of a name location ``loc("name"(...))`` (None for other kinds)."""
    return _tfmlir.location_name(loc)


def find_non_utf8(op):
    """(operation, what) for the first op under `op` with a non-UTF-8 name, or None."""
    return _tfmlir.find_non_utf8(_operation(op))


class NonUtf8Error(ValueError):
    """IR holds a name that is not UTF-8; `op` is the operation, `location` its location."""

    def __init__(self, message, op=None):
        super().__init__(message)
        self.op = op
        self.location = op.location if op is not None else None


def attribute_items(owner):
    """[(name, attribute)] of an op's attributes (inherent and discardable) or of a
    ``DictAttr``'s entries, in order; each attribute downcast where the bindings can."""
    return _tfmlir.attribute_items(owner)


def attribute_dict(owner):
    """:func:`attribute_items` as a dict."""
    return dict(_tfmlir.attribute_items(owner))


def check_utf8(op, consumer: str = "tfmlir") -> None:
    """Raises :class:`NonUtf8Error` if a name under `op` is not UTF-8.

    Checked: operation names, attribute names, ``sym_name`` and symbol
    references (inside arrays and dictionaries too) and the file names and
    names inside locations.
    """
    found = find_non_utf8(op)
    if found is None:
        return
    bad, what = found
    raise NonUtf8Error(
        f"{consumer} needs UTF-8 names: {what} of '{op_name(bad)}' at {bad.location} is not valid UTF-8",
        bad)


Diagnostic = namedtuple("Diagnostic", ["severity", "location", "message", "notes"])
Diagnostic.__doc__ = """A diagnostic copied while its handler runs: `severity` an
``ir.DiagnosticSeverity``, `location` an ``ir.Location``, `message` a str
(non-UTF-8 bytes as ``\\XX``), `notes` a list of Diagnostic."""


def _to_diagnostic(raw) -> Diagnostic:
    severity, location, message, notes = raw
    return Diagnostic(ir.DiagnosticSeverity(severity), location, message,
                      [_to_diagnostic(n) for n in notes])


class DiagnosticHandler:
    """Attaches `callback(Diagnostic) -> bool` to `context` until :meth:`detach`.

    Like ``Context.attach_diagnostic_handler`` (return True when handled),
    except that no text is read through getters that abort on non-UTF-8
    bytes, and an exception raised by `callback` is kept in :attr:`error`
    (the diagnostic then counts as not handled) instead of unwinding
    through MLIR. Usable as a context manager.
    """

    def __init__(self, context, callback):
        self.context = context
        self.callback = callback
        self.error = None
        self._id = _tfmlir.attach_diagnostic_handler(context, self._call)

    def _call(self, raw) -> bool:
        try:
            return bool(self.callback(_to_diagnostic(raw)))
        except BaseException as err:  # never let it reach C++
            if self.error is None:
                self.error = err
            return False

    def detach(self) -> None:
        if self._id is not None:
            _tfmlir.detach_diagnostic_handler(self.context, self._id)
            self._id = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.detach()
        return False


def _split_errors(raw):
    """The errors among collected diagnostics; warnings and remarks are emitted again
    on this thread (to the context's other handlers)."""
    errors = []
    for diag in (_to_diagnostic(r) for r in raw):
        if diag.severity == ir.DiagnosticSeverity.ERROR:
            errors.append(diag)
        else:
            _reemit(diag)
    return errors


def _reemit(diag) -> None:
    notes = [(note.location, note.message) for note in diag.notes]
    try:
        _tfmlir.emit_diagnostic(diag.location, diag.severity, diag.message, notes)
    except Exception:  # a handler's failure never hides the parse result
        pass


def parse(data, context=None, *, path=None, title="Unable to parse module assembly"):
    """``ir.Module.parse(data)`` (or ``parseFile(path)`` when `path` is given) that is safe on
    every thread layout: raises ``ir.MLIRError(title, errors)`` whose ``error_diagnostics``
    are :class:`Diagnostic`; warnings and remarks go on to the context's handlers."""
    context = context if context is not None else ir.Context.current
    if path is not None:
        module, raw = _tfmlir.parse_file_collecting(context, str(path))
    else:
        if isinstance(data, str):
            data = data.encode("utf-8")
        module, raw = _tfmlir.parse_collecting(context, bytes(data))
    errors = _split_errors(raw)
    if module is None:
        raise ir.MLIRError(title, errors)
    return module


def verify(op) -> None:
    """``Operation.verify()`` that is safe on every thread layout (see :func:`parse`):
    raises ``ir.MLIRError("Verification failed", errors)``."""
    ok, raw = _tfmlir.verify_collecting(_operation(op))
    errors = _split_errors(raw)
    if not ok:
        raise ir.MLIRError("Verification failed", errors)
