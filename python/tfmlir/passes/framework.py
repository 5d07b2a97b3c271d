"""The Python pass framework: pass classes, options, the registry and running pipelines.

A pass is a subclass of :class:`Pass` (usually one module per pass, named after
its flag) registered with :func:`register_pass`; :func:`function_pass` turns a
plain function into one. Registered passes are usable by name in textual
pipelines, mixed with upstream C++ passes::

    run(module, "builtin.module(func.func(tf-executor-graph-pruning,canonicalize),cse)")

Every pass, Python or C++, runs inside one ``mlir.passmanager.PassManager``, so
verification after each pass, ``print_ir_after_all`` and timing cover them all.
A Python pass is registered with the PassManager as an op-agnostic pass on the
top-level module that visits its anchor operations (``func.func`` or
``builtin.module``), following the nesting given in the pipeline.

A failing pass (:meth:`Pass.fail`, or any exception) reports an error
diagnostic at the anchor op (or the op it names); a run that fails (in any
pass, Python or upstream) puts the module back as it was before the run (one
copy per run, not per pass), and ``run`` raises ``mlir.ir.MLIRError``.

Fixed costs are per run, not per pass: the module is verified once before the
first pass, names are checked for UTF-8 once (again only after a pass that is
not tfmlir's own changed the IR), and Python passes that changed the IR (not
:meth:`Pass.mark_all_analyses_preserved`) are verified before the next upstream
pass and at the end of the pipeline. ``verify_each=True`` (tfmlir-opt's
default, as mlir-opt's) verifies after every pass instead.

What the framework guards against (several upstream calls abort the whole
process instead of raising; docs/pass-safety.md lists them for pass authors):

* Pipelines run single-threaded: the tf dialect's folding and inlining hooks
  call Python (``tfmlir._hooks``), which they do only on the thread holding
  the GIL.
* Upstream passes never see invalid IR (MLIR's assertions are on): ``run``
  verifies the module first, and IR Python passes changed is verified before
  the next upstream pass even with ``verify_each=False``.
* Nothing a pass raises unwinds into the C++ pass manager: exceptions become
  diagnostics (an exception from an ``Operation.walk`` callback arrives as a
  RuntimeError carrying whole tracebacks; the diagnostic keeps its last line),
  and KeyboardInterrupt is re-raised once the pass manager has returned.
* While a pass runs, Python's recursion limit is at most the current depth
  plus :data:`RECURSION_LIMIT`: recursion through walk callbacks costs C
  stack at every level and would otherwise crash the process.
* :func:`erase_op` erases an op only if none of its results is still used
  (``Operation.erase()`` aborts on that); while a Python pass runs,
  :func:`guarded_bindings` makes ``Operation.erase()`` check the same way,
  ``ir.Module.parse`` run tfmlir's parser guards and ``Operation.walk`` keep
  exceptions from nested walk callbacks short (they grew with the cube of the
  depth). The rollback swaps the module's whole body and keeps the ops the
  passes saw alive (detached, as long as the module object lives): objects a
  failed pass kept of them stay valid.
* Anchors are checked alive before each is handed to a pass (a function pass
  may erase later functions); erased ones are skipped.
* ``run`` refuses, before any pass: modules holding a shaped type whose element
  count overflows int64 (``ShapedType::getNumElements`` asserts), and being
  called from inside a pass running in the same context (PipelineError; MLIR
  asserts when the context's settings change while its passes run). Arguments
  of the wrong type raise :class:`PipelineError` (a ValueError).
* Pipelines are checked when built: Python passes cannot run inside an
  upstream pass's option pipeline (the inliner's ``default-pipeline`` ...),
  option pipelines the inliner would parse (and ignore errors of) only when
  it runs are parsed first, and errors upstream prints on stderr while
  parsing options are put into the :class:`PipelineError`.
"""
import contextlib
import ctypes
import gc
import inspect
import os
import re
import sys
import tempfile
import traceback
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence

from mlir import ir
from mlir import passmanager

from .. import _tfmlir as _native
from .. import irsafe
from .. import parsing

from .names import FUNC, MODULE
from .pipeline import (PipelineError, PythonStage, UpstreamStage, expand_named_pipelines,
                       parse_pipeline, schedule, split_list, split_options, unquote)

_REGISTRY: Dict[str, type] = {}

# The bindings' own methods, before guarded_bindings() wraps them.
_OPERATION_BASE = next(k for k in ir.Operation.__mro__ if "erase" in vars(k) and "walk" in vars(k))
_ORIGINAL_ERASE = vars(_OPERATION_BASE)["erase"]
_ORIGINAL_WALK = vars(_OPERATION_BASE)["walk"]
_ORIGINAL_MODULE_PARSE = vars(ir.Module)["parse"]

# Upstream passes that collect all symbol uses through the call graph and
# assert (instead of failing) when an op may be a symbol table they cannot
# see into (one region, dialect not loaded).
_NEED_ALL_SYMBOL_USES = frozenset({"inline"})


class PassFailure(Exception):
    """Raised by :meth:`Pass.fail`: the pass failed with a diagnostic at `op`."""

    def __init__(self, message, op=None):
        super().__init__(message)
        self.op = op


def outside_use(op):
    """``(result number, user op)`` of a use of a result of `op` by an op
    not nested in `op`, or None."""
    op = op.operation
    results = op.results
    for number in range(len(results)):
        for use in results[number].uses:
            user = use.owner.operation
            if not _inside(user, op):
                return number, user
    return None


def erase_op(op):
    """Erases `op` after checking that none of its results is still used.

    MLIR's ``Operation.erase()`` on an op with used results does not fail: it
    aborts the whole process (``LLVM ERROR: operation destroyed but still has
    uses``). Erase through this helper instead (after moving the uses with
    ``replace_all_uses_with``); a remaining use raises :class:`PassFailure`
    (an internal error of the pass, reported as a diagnostic). Uses by ops
    nested in `op` itself do not count: erasing `op` drops them first.
    """
    op = op.operation
    if _op_key(op) in _TOP_LEVEL:
        # The op the pipeline runs on (the module): erasing it leaves the caller's module
        # without its body and its Python object dangling (an abort when it is collected).
        raise PassFailure(f"internal error: erasing the top-level '{irsafe.op_name(op)}' (the op "
                          f"the pipeline runs on)", op)
    found = outside_use(op)
    if found is not None:
        number, user = found
        raise PassFailure(
            f"internal error: erasing '{irsafe.op_name(op)}' whose result #{number} is "
            f"still used by '{irsafe.op_name(user)}'", op)
    _ORIGINAL_ERASE(op)


def erase_ops(ops):
    """:func:`erase_op` of each of `ops` in order (users before the ops defining what they
    use): their uses are checked natively in one call (instead of a Python walk over every
    use), before any is erased -- a use that would remain fails the pass with nothing erased."""
    ops = [op.operation for op in ops]
    for op in ops:
        if _op_key(op) in _TOP_LEVEL:
            raise PassFailure(f"internal error: erasing the top-level '{irsafe.op_name(op)}' (the "
                              f"op the pipeline runs on)", op)
    found = _native.first_use_blocking_erase(ops)
    if found is not None:
        k, number, user = found
        op = ops[k]
        raise PassFailure(
            f"internal error: erasing '{irsafe.op_name(op)}' whose result #{number} is "
            f"still used by '{irsafe.op_name(user)}'", op)
    for op in ops:
        _ORIGINAL_ERASE(op)


def _inside(op, ancestor):
    while op is not None:
        if op == ancestor:
            return True
        parent = op.parent
        op = parent.operation if parent is not None else None
    return False


@dataclass(frozen=True)
class Option:
    """A pass option with TF's name and default.

    `type` is bool, int, float or str; `list=True` makes a comma-separated list
    (``{a,b}`` or ``a,b`` in pipeline text).
    """
    name: str
    type: type = str
    default: Any = None
    help: str = ""
    list: bool = False

    @property
    def attr(self):
        return self.name.replace("-", "_")

    def parse(self, text):
        if self.list:
            return [self._scalar(v) for v in split_list(text or "")]
        if text is None:
            if self.type is bool:
                return True
            raise PipelineError(f"option '{self.name}' needs a value")
        return self._scalar(unquote(text.strip()))

    def _scalar(self, text):
        if self.type is bool:
            lowered = text.lower()
            if lowered in ("true", "1", ""):
                return True
            if lowered in ("false", "0"):
                return False
            raise PipelineError(f"option '{self.name}': expected true/false, got '{text}'")
        try:
            return self.type(text)
        except ValueError:
            raise PipelineError(f"option '{self.name}': expected {self.type.__name__}, got '{text}'")

    def default_value(self):
        if self.list:
            return list(self.default or [])
        return self.default


class Pass:
    """Base class of Python passes.

    Class attributes a subclass sets:
      argument: the flag name (``tf-executor-graph-pruning``).
      anchor: ``"func.func"`` (run once per function) or ``"builtin.module"``.
      options: a sequence of :class:`Option` (values become attributes, with
        ``-`` replaced by ``_``).
      dependent_dialects: dialect namespaces the pass creates ops of; they are
        loaded before the pipeline runs.
      opaque_dialects: namespaces of dialects tfmlir does not load whose
        attributes or types the pass creates as opaque ones (``#mhlo.x<...>``);
        the context allows unregistered dialects while the pipeline runs (MLIR
        refuses to create them otherwise, and the setting cannot change while
        passes run).
      aliases: other flag names of the pass (a name the seed gives a pass that TF
        renamed, ...).

    The description is the class docstring, or else its module's docstring.
    """

    argument: str = ""
    anchor: str = FUNC
    options: Sequence[Option] = ()
    dependent_dialects: Sequence[str] = ()
    opaque_dialects: Sequence[str] = ()
    aliases: Sequence[str] = ()

    def __init__(self, **values):
        known = {o.attr: o for o in self.options}
        for key in values:
            if key not in known:
                raise PipelineError(f"pass '{self.argument}' has no option '{key}'")
        for attr, option in known.items():
            setattr(self, attr, values.get(attr, option.default_value()))

    @classmethod
    def description(cls):
        doc = cls.__doc__ if cls.__doc__ and cls.__doc__ is not Pass.__doc__ else None
        if not doc:
            doc = getattr(sys.modules.get(cls.__module__), "__doc__", None) or ""
        return inspect.cleandoc(doc)

    @classmethod
    def parse_options(cls, text):
        """Option values from pipeline text ``a=1 b={x,y}`` (unknown names are errors)."""
        by_name = {o.name: o for o in cls.options}
        values = {}
        for key, value in split_options(text or ""):
            option = by_name.get(key) or by_name.get(key.replace("_", "-"))
            if option is None:
                known = ", ".join(sorted(by_name)) or "none"
                raise PipelineError(
                    f"pass '{cls.argument}' has no option '{key}' (options: {known})")
            values[option.attr] = option.parse(value)
        return values

    def run_on_operation(self, op):
        """Transforms `op` (an anchor op, as its OpView). Override this."""
        raise NotImplementedError

    def mark_all_analyses_preserved(self):
        """Says that this run on the current anchor changed nothing (MLIR's
        ``markAllAnalysesPreserved``): the framework then skips verifying the IR after
        the pass, as MLIR's pass manager does. Call it only when nothing was changed."""
        self._preserved = True

    def fail(self, message, op=None):
        """Aborts the pass with an error diagnostic at `op` (default: the anchor op)."""
        raise PassFailure(message, op)

    def warn(self, message, op):
        """Emits a warning diagnostic at `op` (prefixed with the pass name); the pass goes on."""
        _native.emit_diagnostic(_location_of(op.operation), ir.DiagnosticSeverity.WARNING,
                                f"{self.argument}: {message}")

    def emit_error(self, message, op):
        """Emits an error diagnostic at `op` (prefixed with the pass name) without stopping the
        pass: for passes that report several errors, then :meth:`fail` with the last one."""
        _location_of(op.operation).emit_error(f"{self.argument}: {message}")


# A pass name is a pipeline token: no '.' (op names), braces, parentheses,
# commas or blanks, which the pipeline syntax gives a meaning.
_PASS_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
_UPSTREAM_NAMES = {}
_UPSTREAM_CONTEXT = None


def _is_upstream_pass(name):
    """Whether upstream MLIR (or a C++ library loaded into it) registers a pass or
    pipeline named `name`."""
    global _UPSTREAM_CONTEXT
    if name not in _UPSTREAM_NAMES:
        if _UPSTREAM_CONTEXT is None:
            _UPSTREAM_CONTEXT = ir.Context()
        known = False
        for text in (f"{MODULE}({name})", f"{MODULE}({FUNC}({name}))"):
            try:
                _capturing_stderr(lambda: passmanager.PassManager.parse(
                    text, context=_UPSTREAM_CONTEXT))
                known = True
                break
            except ValueError:
                pass
        _UPSTREAM_NAMES[name] = known
    return _UPSTREAM_NAMES[name]


def _is_builtin_pass(cls):
    return cls.__module__.startswith(__package__ + ".")


def register_pass(cls=None, *, override=False):
    """Class decorator: makes `cls` usable by its `argument` (and `aliases`) in pipelines.

    ``@register_pass``, ``@register_pass(override=True)`` or ``register_pass(cls,
    override=True)``. A name must be a pipeline token (letters, digits, ``-``, ``_``;
    no ``.``, braces, parentheses, commas or blanks). A name that upstream MLIR
    already gives a pass (``canonicalize``), that another registered pass has
    (``tf-tpu-rewrite``) or that names a pipeline is refused with a ValueError unless
    `override` is true: the new pass then runs for that name in pipelines. Re-running
    the same class definition (a reloaded module) replaces the old class.
    """
    if cls is None:
        return lambda klass: register_pass(klass, override=override)
    if not (isinstance(cls, type) and issubclass(cls, Pass)):
        raise TypeError("register_pass expects a Pass subclass")
    if not cls.argument:
        raise ValueError(f"{cls.__name__} has no 'argument' (its pipeline name)")
    if cls.anchor not in (FUNC, MODULE):
        raise ValueError(f"{cls.argument}: anchor must be '{FUNC}' or '{MODULE}'")
    names = (cls.argument, *cls.aliases)
    for name in names:
        if not isinstance(name, str) or not _PASS_NAME.match(name):
            raise ValueError(f"{cls.__name__}: {name!r} is not a valid pass name (letters, "
                             f"digits, '-' and '_'; no '.', braces, parentheses, commas or "
                             f"blanks)")
    builtin = _is_builtin_pass(cls)
    if not builtin:
        _load_builtin_passes()  # a user pass must not take a name tfmlir gives a pass
    for name in names:
        existing = _REGISTRY.get(name)
        same = existing is not None and (existing is cls or (
            existing.__module__, existing.__qualname__) == (cls.__module__, cls.__qualname__))
        if override or same:
            continue
        if existing is not None:
            raise ValueError(f"a pass named '{name}' is already registered "
                             f"({existing.__module__}.{existing.__qualname__}); pass "
                             f"override=True to replace it")
        if name in _PIPELINES:
            raise ValueError(f"'{name}' is already registered as a pipeline; pass "
                             f"override=True to replace it")
        if not builtin and _is_upstream_pass(name):
            raise ValueError(f"'{name}' is the name of an upstream MLIR pass; pass "
                             f"override=True to run this Python pass for it instead")
    for name in names:
        _REGISTRY[name] = cls
    return cls


def function_pass(argument, anchor=FUNC, options=(), dependent_dialects=(), description=None,
                  *, override=False):
    """Decorator: registers ``fn(op, **options)`` as a pass named `argument`
    (`override` as :func:`register_pass`)."""

    def wrap(fn):
        def run_on_operation(self, op):
            fn(op, **{o.attr: getattr(self, o.attr) for o in self.options})

        cls = type(fn.__name__, (Pass,), {
            "__doc__": description or fn.__doc__ or "",
            "__module__": fn.__module__,
            "argument": argument,
            "anchor": anchor,
            "options": tuple(options),
            "dependent_dialects": tuple(dependent_dialects),
            "run_on_operation": run_on_operation,
        })
        register_pass(cls, override=override)
        fn.pass_class = cls
        return fn

    return wrap


_PIPELINES = {}


def register_pipeline(name, text, description, anchor="builtin.module"):
    """Makes `name` stand for the pipeline `text` (elements running on `anchor`) in pipelines.

    Named pipelines are expanded where they appear (``tfmlir-opt -name`` or
    ``builtin.module(name)``). `text` is the pipeline text, or a function from the options
    text (``a=1 b=2``, "" without options) to the pipeline text for a pipeline with options;
    it raises PipelineError on options it does not take.
    """
    if name in _PIPELINES or name in _REGISTRY:
        raise ValueError(f"'{name}' is already registered")
    parse_pipeline(text("") if callable(text) else text)  # a malformed definition fails here
    _PIPELINES[name] = (text, anchor, description)


def registered_pipelines():
    """{name: (pipeline text, anchor op, description)} of the named pipelines."""
    _load_builtin_passes()
    return dict(_PIPELINES)


def get_pipeline(name):
    """(pipeline text, anchor op, description) of the named pipeline `name`, or None."""
    _load_builtin_passes()
    return _PIPELINES.get(name)


def registered_passes():
    """{argument: pass class} of every registered Python pass."""
    _load_builtin_passes()
    return dict(_REGISTRY)


def get_pass(argument):
    _load_builtin_passes()
    return _REGISTRY.get(argument)


_BUILTINS_LOADED = False


def _load_builtin_passes():
    # Every module of this package is imported; those that register a pass are
    # pass modules (one pass each, named after its flag), the others helpers
    # (the framework's own, shared IR helpers ...). Subpackages (analysis) hold
    # helpers only.
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    import importlib
    import pkgutil

    from . import __path__ as package_path
    for info in pkgutil.iter_modules(package_path):
        if not info.ispkg and not info.name.startswith("_"):
            importlib.import_module(f"{__package__}.{info.name}")


def pass_modules():
    """{module name: pass argument} of the package's pass modules (those registering a pass)."""
    _load_builtin_passes()
    return {cls.__module__.rsplit(".", 1)[-1]: argument for argument, cls in _REGISTRY.items()
            if cls.__module__.startswith(__package__ + ".") and argument == cls.argument}


# --- running ---------------------------------------------------------------

def _children_named(op, name):
    result = []
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                if irsafe.op_name(child) == name:
                    result.append(child)
    return result


_OPERATION_CAPSULE = b"mlir.ir.Operation._CAPIPtr"
_CONTEXT_CAPSULE = b"mlir.ir.Context._CAPIPtr"
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _op_key(op):
    # The C++ pointer; reading it never touches the op (safe for erased ones).
    return _capsule_pointer(op._CAPIPtr, _OPERATION_CAPSULE)


def _context_key(context):
    return _capsule_pointer(context._CAPIPtr, _CONTEXT_CAPSULE)


class _Anchors:
    """The anchor ops of a stage, in order, each handed out only while it is alive.

    A pass may erase ops it was not given (a function pass erasing a later
    function): the Python objects of the anchors listed up front would then
    point to freed memory. Anchors that are functions directly in the module
    body are checked before each use: the body still has as many ops and the op
    at the anchor's index is the same op (the object handed out is fetched from
    the block, so it is alive); otherwise, and always for deeper nestings, the
    list is collected again and the anchors not visited yet are kept (those erased
    meanwhile are skipped; ops created meanwhile are not visited, as in MLIR).
    """

    def __init__(self, module_op, stage):
        self.module_op = module_op
        self.stage = stage
        level = stage.path[-1] if stage.path else MODULE
        anchor = stage.pass_cls.anchor
        # Anchors in the module body itself: cheap checks; others: collected again.
        self.flat = anchor == FUNC and stage.path in ((), (FUNC,))
        self.module_level = anchor == MODULE and not stage.path
        if not (anchor == level or (anchor == FUNC and level == MODULE)):
            raise PipelineError(f"pass '{stage.pass_cls.argument}' runs on '{anchor}' and "
                                f"cannot be nested under '{level}'")
        self.expected_len = None
        self._collect(None)
        self.count = len(self.pending)

    def _body(self):
        return self.module_op.regions[0].blocks[0]

    def _collect(self, keep):
        """(Re)lists the anchors; `keep`: the keys still to visit (None: all)."""
        if self.module_level:
            found = [(self.module_op, 0)]
        elif self.flat:
            body = self._body()
            found = []
            for index, child in enumerate(body.operations):
                child = child.operation
                if irsafe.op_name(child) == FUNC:
                    found.append((child, index))
            self.expected_len = len(body.operations)
        else:
            found = [(op, None) for op in _anchor_ops(self.module_op, self.stage)]
        # [(key, index, op)], the next one last; the ops are alive until a pass runs.
        self.pending = [(_op_key(op), index, op) for op, index in found
                        if keep is None or _op_key(op) in keep]
        self.pending.reverse()
        self.fresh = True

    def next(self):
        """The next anchor (alive), or None when all are done."""
        if not self.pending:
            return None
        if not self.fresh and not self.module_level:
            key, index, _ = self.pending[-1]
            current = None
            if self.flat:
                body = self._body()
                if len(body.operations) == self.expected_len:
                    op = body.operations[index].operation
                    if _op_key(op) == key and irsafe.op_name(op) == FUNC:
                        current = op
            if current is not None:
                self.pending[-1] = (key, index, current)
            else:
                self._collect({k for k, _, _ in self.pending})
                if not self.pending:
                    return None
        self.fresh = False
        return self.pending.pop()[2]


def _anchor_ops(module_op, stage):
    ops = [module_op]
    for name in stage.path:
        ops = [child for op in ops for child in _children_named(op, name)]
    level = stage.path[-1] if stage.path else MODULE
    anchor = stage.pass_cls.anchor
    if anchor == level:
        return ops
    if anchor == FUNC and level == MODULE:
        # Implicit nesting, as mlir-opt does for a function pass given at module level.
        return [f for op in ops for f in _children_named(op, FUNC)]
    raise PipelineError(
        f"pass '{stage.pass_cls.argument}' runs on '{anchor}' and cannot be nested under '{level}'")


def _graveyard_block(graveyard, location):
    """A block of the detached holder op in `graveyard` (a list, created on first use)."""
    if not graveyard:
        holder = ir.Operation.create(MODULE, regions=1, loc=location)
        holder.regions[0].blocks.append()
        graveyard.append(holder)
    return graveyard[0].regions[0].blocks[0]


def _restore(module_op, snapshot, graveyard):
    """Puts the body and attributes of `snapshot` (a detached clone of `module_op`) back
    into `module_op`.

    The ops the passes ran on are not destroyed: the old body moves into a detached
    holder op kept in `graveyard` (see :meth:`PassPipeline.run`), so Python objects a
    failed pass kept of them stay usable (they no longer belong to the module) instead
    of pointing to freed memory.
    """
    region, spare = module_op.regions[0], snapshot.regions[0]
    old_body = region.blocks[0]
    spare.blocks[0].append_to(region)   # region: [old body, restored body]
    _graveyard_block(graveyard, _location_of(module_op))
    old_body.append_to(graveyard[0].regions[0])  # region: [restored body]
    attributes = module_op.attributes
    for name in [name for name, _ in _native.attribute_items(module_op)]:
        del attributes[name]
    # (By the native reader: NamedAttribute.attr aborts the process on
    # attributes the bindings cannot downcast, e.g. complex constants.)
    for name, value in _native.attribute_items(snapshot):
        attributes[name] = value
    _ORIGINAL_ERASE(snapshot)


def _check_anchoring(stage):
    """PipelineError unless the pass can run where the pipeline nests it."""
    level = stage.path[-1] if stage.path else MODULE
    anchor = stage.pass_cls.anchor
    if anchor == level or (anchor == FUNC and level == MODULE):
        return
    raise PipelineError(
        f"pass '{stage.pass_cls.argument}' runs on '{anchor}' and cannot be nested under '{level}'")


# Options of upstream passes holding a pass pipeline that the pass parses
# only when it runs, ignoring errors (the inliner prints the parse error and
# goes on without the pipeline). They are parsed here first.
_LAZY_PIPELINE_OPTIONS = frozenset({"default-pipeline"})


def _check_lazy_pipelines(stage, context):
    for element in stage.elements:
        for key, value in split_options(element.options):
            if key.replace("_", "-") not in _LAZY_PIPELINE_OPTIONS or value is None:
                continue
            text = unquote(value.strip())
            if text.startswith("{") and text.endswith("}"):
                text = text[1:-1]
            if not text.strip():
                continue
            errors = []
            # The inliner parses it for each callable op kind (func.func in
            # TF's IR); `any` accepts op-agnostic pipelines for other ops.
            for anchor in (FUNC, "any"):
                try:
                    _capturing_stderr(lambda: passmanager.PassManager.parse(
                        f"{MODULE}({anchor}({text}))", context=context))
                    break
                except ValueError as exc:
                    errors.append(str(exc).strip())
            else:
                raise PipelineError(
                    f"invalid pipeline in option '{key}' of pass '{element.name}': {errors[0]}")


def _capturing_stderr(fn):
    """Calls `fn()` with file descriptor 2 captured; returns its result.

    Upstream code prints parse errors straight to stderr (llvm::errs) and
    raises a ValueError that does not say what went wrong; the printed text
    is put into the exception instead (a ValueError, re-raised with it).
    """
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to capture
        return fn()
    error = None
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            result = fn()
        except ValueError as exc:
            error = exc
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        printed = captured.read().decode("utf-8", "replace").strip()
    if error is not None:
        detail = str(error).strip()
        raise ValueError("\n".join(part for part in (printed, detail) if part)) from None
    if printed:
        if "error" in printed.lower():
            raise ValueError(printed)
        sys.stderr.write(printed + "\n")
    return result


def _add_upstream(pm, text):
    try:
        _capturing_stderr(lambda: pm.add(text))
    except ValueError as exc:
        raise PipelineError(f"invalid pipeline element '{text}': {exc}") from None


def _location_of(op):
    try:
        return op.location
    except Exception:  # detached or invalid op
        try:
            return ir.Location.unknown(op.context)
        except Exception:
            return ir.Location.unknown()


# Recursion a Python pass gets (None: leave Python's limit alone). Recursion
# that goes through C++ (an Operation.walk callback calling code that walks
# again, ...) uses the C stack at every level, about 0.75 KB per Python
# frame: with Python's limit raised far above its default of 1000, a deep
# enough recursion overflows the 8 MB stack of the main thread and kills the
# process instead of raising RecursionError. While a pass runs, the limit is
# lowered (never raised) to the current depth plus this many frames. (An
# exception escaping N nested walk callbacks also costs O(N^2) in the
# bindings, which format the whole traceback at every level.)
RECURSION_LIMIT = 1000

# Longest internal-error text put into a diagnostic.
_MAX_DETAIL = 2000
_CALLBACK_MARKER = "Exception raised in callback: "


def _frame_depth():
    depth = 0
    frame = sys._getframe(1)
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


@contextlib.contextmanager
def _recursion_capped():
    if RECURSION_LIMIT is None:
        yield
        return
    limit = _frame_depth() + RECURSION_LIMIT
    previous = sys.getrecursionlimit()
    if previous <= limit:
        yield
        return
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


def _exception_summary(exc):
    """One line for a diagnostic about an exception a pass raised."""
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    if _CALLBACK_MARKER in text:
        # Raised in an Operation.walk callback: the bindings re-raise it as a
        # RuntimeError carrying the callback's whole traceback, once more per
        # nested walk (quadratic in the depth). Keep the exception itself.
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        text = lines[-1] if lines else text
        while _CALLBACK_MARKER in text:
            text = text[text.index(_CALLBACK_MARKER) + len(_CALLBACK_MARKER):]
    if len(text) > _MAX_DETAIL:
        text = text[:_MAX_DETAIL] + f"... ({len(text)} characters)"
    return text


@contextlib.contextmanager
def paused_gc():
    """Pauses Python's cyclic garbage collector while a Python pass runs.

    A pass over a big graph allocates several binding objects per op; the
    collector would run full collections over all of them again and again
    (about a quarter of the pass time, and slower than linear in op count).
    Passes create no cycles worth collecting meanwhile; reference counting
    still frees everything, and the previous state is restored.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _guarded_erase(self):
    """``Operation.erase`` while a Python pass runs: a used op raises PassFailure
    (a diagnostic) instead of aborting the process (see :func:`erase_op`)."""
    erase_op(self)


def _guarded_walk(self, *args, **kwargs):
    """``Operation.walk`` while a Python pass runs: an exception from a nested
    walk's callback comes out short.

    The bindings turn an exception raised in a walk callback into a RuntimeError
    holding the formatted traceback, chained exceptions included; a callback
    that walks again nests that text once per level, so its size and the time
    spent formatting it grow with the cube of the depth (a recursion stopped by
    RecursionError at 1,000 frames took minutes). Here each level keeps one
    line: linear.
    """
    try:
        return _ORIGINAL_WALK(self, *args, **kwargs)
    except RuntimeError as exc:
        text = str(exc)
        if _CALLBACK_MARKER not in text:
            raise
        raise RuntimeError(_CALLBACK_MARKER + _exception_summary(exc)) from None


def _guarded_module_parse(asm, *args, **kwargs):
    """``ir.Module.parse`` while a Python pass runs: text or bytecode is checked
    first (:func:`tfmlir.parsing.guard`: nesting depth, result numbers, element
    counts, corrupted bytecode); refused input raises ParseGuardError (a ValueError), and
    so do names that are not UTF-8 in what it parsed (NonUtf8Error). Its diagnostics are
    collected thread-safely (:func:`tfmlir.irsafe.parse`)."""
    if isinstance(asm, (str, bytes, bytearray, memoryview)) and len(args) <= 1 and set(kwargs) <= {"context"}:
        parsing.guard(asm)
        context = args[0] if args else kwargs.get("context")
        module = irsafe.parse(asm, context)
        # The pipeline checks names for UTF-8 once; IR parsed by a pass is checked here.
        irsafe.check_utf8(module.operation, "ir.Module.parse inside a pass")
        return module
    return _ORIGINAL_MODULE_PARSE(asm, *args, **kwargs)


_GUARD_DEPTH = 0


@contextlib.contextmanager
def guarded_bindings():
    """While a Python pass runs, three upstream calls that would end the process
    are replaced (restored afterwards; nested uses are counted):

    * ``Operation.erase()`` / ``OpView.erase()`` on an op whose results are still
      used (``LLVM ERROR: operation destroyed but still has uses``) raises
      :class:`PassFailure` instead (:func:`erase_op`);
    * ``ir.Module.parse`` refuses text that would overflow the parser's stack
      or trip its assertions (:func:`tfmlir.parsing.guard`);
    * ``Operation.walk`` keeps an exception from nested walk callbacks to one
      line per level (see :func:`_guarded_walk`).

    The replacement is process-wide while it lasts (the bindings' classes are
    shared): code on other threads calling these methods then gets the checks too.
    """
    global _GUARD_DEPTH
    _GUARD_DEPTH += 1
    if _GUARD_DEPTH == 1:
        _OPERATION_BASE.erase = _guarded_erase
        _OPERATION_BASE.walk = _guarded_walk
        ir.Module.parse = staticmethod(_guarded_module_parse)
    try:
        yield
    finally:
        _GUARD_DEPTH -= 1
        if _GUARD_DEPTH == 0:
            _OPERATION_BASE.erase = _ORIGINAL_ERASE
            _OPERATION_BASE.walk = _ORIGINAL_WALK
            ir.Module.parse = _ORIGINAL_MODULE_PARSE


class _RunState:
    """What one run of a pipeline knows about the module between its passes.

    ``utf8_checked``: every name in the module was found UTF-8 and no pass that may create
    other names (a pass that is not one of tfmlir's own) has changed the IR since.
    ``changed_by``: the Python passes that changed the IR since it was last verified.
    """

    __slots__ = ("utf8_checked", "changed_by")

    def __init__(self):
        self.utf8_checked = False
        self.changed_by = []


def _run_python_stage(cls, stage, module_op, state, verify=False):
    """Runs a Python pass on its anchors; False (diagnostics emitted) on failure. With
    `verify`, the IR is verified afterwards if a Python pass changed it since it was last
    verified (invalid IR is a failure)."""
    if not state.utf8_checked:
        try:
            # Python reads names as str: refuse IR whose names are not UTF-8
            # before any pass code touches it.
            irsafe.check_utf8(module_op, f"{cls.argument} (a Python pass)")
        except irsafe.NonUtf8Error as err:
            err.location.emit_error(str(err))
            return False
        state.utf8_checked = True
    instance = cls(**stage.options)
    with paused_gc(), guarded_bindings():
        ok, changed = _run_on_anchors(cls, instance, stage, module_op)
    if not ok:
        return False
    if changed:
        state.changed_by.append(cls.argument)
        if not _is_builtin_pass(cls):
            state.utf8_checked = False  # its names come from wherever the pass took them
    if verify and state.changed_by:
        if not _verify_output(state.changed_by, module_op):
            return False
        del state.changed_by[:]
    return True


def _run_on_anchors(cls, instance, stage, module_op):
    """(ok, changed): runs `instance` on each live anchor; stops at the first failure (the
    pipeline then puts the module back as it was before the run)."""
    anchors = _Anchors(module_op, stage)
    changed = False
    while True:
        anchor = anchors.next()
        if anchor is None:
            break
        location = _location_of(anchor)
        instance._preserved = False
        try:
            # The pass runs with the IR's context and the anchor's location
            # as defaults, so `ir.*.get(...)` calls need no explicit context.
            with anchor.context, location:
                instance.run_on_operation(anchor.opview)
        except PassFailure as failure:
            target = failure.op.operation if failure.op is not None else None
            (_location_of(target) if target is not None else location).emit_error(
                f"{cls.argument}: {failure}")
            return False, True
        except Exception as exc:  # a bug in the pass: report it, never abort
            location.emit_error(f"{cls.argument}: internal error: {_exception_summary(exc)}")
            return False, True
        changed = changed or not instance._preserved
        del anchor
    return True, changed


def _verify_output(changed_by, module_op):
    """Verifies `module_op` after Python passes changed it; False (diagnostics emitted) if
    invalid, after an error naming the passes that changed the IR since it was last verified."""
    try:
        irsafe.verify(module_op)
        return True
    except ir.MLIRError as err:
        # The verifier's own diagnostics first (as the pass manager's verifier reports them),
        # then which passes made the IR invalid.
        for diagnostic in err.error_diagnostics:
            _location_of(diagnostic).emit_error(diagnostic.message)
        names = ", ".join(dict.fromkeys(changed_by))
        _location_of(module_op).emit_error(
            f"{changed_by[-1]}: the pass produced invalid IR (Python passes that changed the IR since "
            f"it was last verified: {names}; checked before upstream passes and at the end of the "
            f"pipeline; the module is restored)")
        return False


def _python_stage_callable(stage, state, verify_after=False, interrupted=None):
    """The callable the PassManager runs for a Python stage.

    Nothing raised by the pass unwinds into the C++ pass manager: exceptions
    become error diagnostics (KeyboardInterrupt and the like are kept in
    `interrupted` and re-raised once the pass manager returns). With
    `verify_after`, the module is verified after the pass if Python passes changed it.
    """
    cls = stage.pass_cls

    def run(module_op, pass_):
        try:
            with _recursion_capped():
                ok = _run_python_stage(cls, stage, module_op, state, verify=verify_after)
        except Exception as exc:  # outside the pass's own code: still never abort
            _location_of(module_op).emit_error(
                f"{cls.argument}: internal error: {_exception_summary(exc)}")
            ok = False
        except BaseException as exc:  # KeyboardInterrupt, SystemExit
            if interrupted is not None:
                interrupted.append(exc)
            ok = False
        if not ok:
            pass_.signal_pass_failure()

    run.__name__ = cls.__name__
    return run


# Contexts (their C++ pointers) a pipeline is running in right now.
_RUNNING = set()
_TOP_LEVEL = set()  # the ops pipelines are running on (_op_key)

# Rolled-back IR kept for modules that cannot hold it themselves (see PassPipeline.run).
_KEPT_GRAVEYARDS = []

_PIPELINE_FLAGS = ("verify_each", "print_ir_after_all", "print_ir_before_all",
                   "print_ir_module_scope", "print_generic", "print_debuginfo", "timing")


def _module_operation(module):
    """The builtin.module operation of `module` (ir.Module, its Operation or OpView)."""
    if isinstance(module, ir.Module):
        op = module.operation
    elif isinstance(module, (ir.Operation, ir.OpView)):
        op = module.operation
    else:
        raise PipelineError(f"passes run on an mlir.ir.Module (or its operation), not "
                            f"{type(module).__name__}")
    name = irsafe.op_name(op)
    if name != MODULE:
        raise PipelineError(f"passes run on a '{MODULE}' operation, not '{name}'")
    return op


def _check_not_running(context):
    if _context_key(context) in _RUNNING:
        raise PipelineError(
            "a pass pipeline is already running in this context (tfmlir.passes.run called "
            "from inside a pass): MLIR cannot change the context's settings or load "
            "dialects while its passes run. Add the passes to the outer pipeline, or run "
            "them on a module parsed into a separate mlir.ir.Context")


def _check_element_counts(op):
    """Refuses IR holding a shaped type whose element count overflows int64.

    ``ShapedType::getNumElements`` asserts on such types (verifiers and folders
    call it); tfmlir's parsers refuse them in text, but types built in Python
    (``RankedTensorType.get``) are not checked there. One native walk (each
    uniqued type and attribute looked at once). Raises MLIRError with a
    diagnostic at the op holding the type.
    """
    found = _native.find_element_count_overflow(op)
    if found is None:
        return
    culprit, type_text = found
    message = (f"the element count of '{type_text}' overflows int64: MLIR asserts on such "
               f"shaped types, so no pass runs on this module")
    _location_of(culprit).emit_error(message)
    raise ir.MLIRError(message, [])


def _keep_graveyard(module, graveyard):
    """Keeps rolled-back IR alive as long as `module` (the object run was given)."""
    try:
        weakref.finalize(module, graveyard.clear)
    except TypeError:  # an Operation (not weakly referenceable): kept for good
        _KEPT_GRAVEYARDS.append(graveyard)


class PassPipeline:
    """A parsed and scheduled pipeline, ready to run on modules of one context.

    Args:
      pipeline: textual pipeline (``builtin.module(...)`` or a bare list).
      context: the mlir.ir.Context (default: the current one).
      verify_each: verify after every pass (default False: the module is verified
        before the first pass, and IR Python passes changed before each upstream
        pass and at the end).
      print_ir_after_all / print_ir_before_all / print_ir_module_scope /
      print_generic / print_debuginfo: IR printing, as mlir-opt's flags.
      timing: print a per-pass timing report (stderr) after each run.

    Arguments of the wrong type raise :class:`PipelineError` (a ValueError), as do
    malformed pipelines. A pipeline cannot be built or run in a context whose
    passes are running (from inside a pass): that raises PipelineError too.
    """

    def __init__(self, pipeline, context=None, *, verify_each=False, print_ir_after_all=False,
                 print_ir_before_all=False, print_ir_module_scope=False, print_generic=False,
                 print_debuginfo=False, timing=False):
        if not isinstance(pipeline, str):
            raise PipelineError(f"a pipeline is a str, not {type(pipeline).__name__}")
        flags = dict(verify_each=verify_each, print_ir_after_all=print_ir_after_all,
                     print_ir_before_all=print_ir_before_all,
                     print_ir_module_scope=print_ir_module_scope, print_generic=print_generic,
                     print_debuginfo=print_debuginfo, timing=timing)
        for name, value in flags.items():
            if not isinstance(value, (bool, int)):
                raise PipelineError(f"'{name}' is a bool, not {type(value).__name__}")
        if context is None:
            try:
                context = ir.Context.current
            except ValueError:
                raise PipelineError("no context given and no current mlir.ir.Context") from None
        if not isinstance(context, ir.Context):
            raise PipelineError(f"'context' is an mlir.ir.Context, not {type(context).__name__}")
        _check_not_running(context)
        _load_builtin_passes()
        self.text = pipeline
        self.context = context
        named = {name: (text, anchor) for name, (text, anchor, _) in _PIPELINES.items()}
        self.stages = schedule(expand_named_pipelines(parse_pipeline(pipeline), named), _REGISTRY)
        self.upstream_passes = [name for stage in self.stages if isinstance(stage, UpstreamStage)
                                for name in stage.passes]
        for stage in self.stages:
            if isinstance(stage, PythonStage):
                _check_anchoring(stage)
                for dialect in stage.pass_cls.dependent_dialects:
                    self.context.dialects[dialect]  # loads it
        self._opaque_dialects = any(stage.pass_cls.opaque_dialects for stage in self.stages
                                    if isinstance(stage, PythonStage))
        self._interrupted = []
        self._graveyard = []
        self._state = _RunState()  # shared with the Python stages' callables
        self.pm = passmanager.PassManager(MODULE, context=self.context)
        self.pm.enable_verifier(bool(verify_each))
        for k, stage in enumerate(self.stages):
            if isinstance(stage, UpstreamStage):
                _check_lazy_pipelines(stage, self.context)
                _add_upstream(self.pm, stage.text)
            else:
                cls = stage.pass_cls
                # Upstream passes must never see invalid IR (MLIR's assertions
                # abort the process): without verify_each (the pass manager's
                # verifier then runs after every pass), IR Python passes changed is
                # verified before the next upstream pass and at the end.
                following = self.stages[k + 1] if k + 1 < len(self.stages) else None
                verify_after = not verify_each and (following is None or isinstance(following, UpstreamStage))
                self.pm.add(_python_stage_callable(stage, self._state, verify_after, self._interrupted),
                            name=cls.__name__, argument=cls.argument,
                            description=cls.description().split("\n")[0])
        if print_ir_after_all or print_ir_before_all:
            self.pm.enable_ir_printing(print_before_all=bool(print_ir_before_all),
                                       print_after_all=bool(print_ir_after_all),
                                       print_module_scope=bool(print_ir_module_scope),
                                       enable_debug_info=bool(print_debuginfo),
                                       print_generic_op_form=bool(print_generic))
        if timing:
            self.pm.enable_timing()

    def run(self, module):
        """Runs the pipeline on `module` (ir.Module or its operation); raises MLIRError on failure.

        Before any pass: the module must be a ``builtin.module`` of the pipeline's
        context (else PipelineError), no pipeline may be running in that context
        (re-entrant runs from inside a pass raise PipelineError), shaped types must
        not overflow int64 in element count, and the module must verify.

        When a pass fails, the module's body is replaced by a copy taken before the
        run; the ops the passes worked on are kept (detached from the module) as
        long as `module` lives, so Python objects of them a pass kept stay valid.
        """
        op = _module_operation(module)
        if op.context != self.context:
            raise PipelineError("the module belongs to another mlir.ir.Context than the pipeline")
        _check_not_running(self.context)
        _check_element_counts(op)
        irsafe.verify(op)  # never hand invalid IR to upstream passes (assertions are on)
        self._check_symbol_uses(op)
        del self._interrupted[:]
        graveyard = self._graveyard
        del graveyard[:]
        self._state.__init__()
        key = _context_key(self.context)
        allowed = self.context.allow_unregistered_dialects
        if self._opaque_dialects and not allowed:
            self.context.allow_unregistered_dialects = True
        # The tf dialect's hooks (constant evaluation, device names) run Python only on the
        # thread holding the GIL: upstream passes run on this thread alone.
        threaded = _native.is_multithreading_enabled(self.context)
        if threaded:
            self.context.enable_multithreading(False)
        _RUNNING.add(key)
        top = _op_key(op)
        _TOP_LEVEL.add(top)
        snapshot = op.clone(ip=False)  # what a failed run puts back
        failed = True
        try:
            # The guards Python passes need, installed once for the whole run (each stage's
            # own `with` then only counts a nesting level: no class attributes set per pass).
            with guarded_bindings():
                self.pm.run(op)
            failed = bool(self._interrupted)
        finally:
            _RUNNING.discard(key)
            _TOP_LEVEL.discard(top)
            if failed:
                _restore(op, snapshot, graveyard)
            else:
                _ORIGINAL_ERASE(snapshot)
            if threaded:
                self.context.enable_multithreading(True)
            if self.context.allow_unregistered_dialects != allowed:
                self.context.allow_unregistered_dialects = allowed
            if graveyard:
                _keep_graveyard(module, list(graveyard))
                del graveyard[:]
            if self._interrupted:
                raise self._interrupted[0]
        return module

    def _check_symbol_uses(self, op):
        """Refuses IR the upstream passes that need every symbol use would assert on."""
        needs = sorted(set(self.upstream_passes) & _NEED_ALL_SYMBOL_USES)
        if not needs:
            return
        bad = _native.find_potentially_unknown_symbol_table(op)
        if bad is None:
            return
        message = (f"'{needs[0]}' needs every symbol use, but '{irsafe.op_name(bad)}' has a region "
                   f"and its dialect is not registered (it may be a symbol table MLIR cannot see "
                   f"into); register the dialect or leave '{needs[0]}' out")
        bad.location.emit_error(message)
        raise ir.MLIRError(message, [])


def run(module, pipeline, **kwargs):
    """Parses `pipeline` and runs it on `module` in the module's context.

    `kwargs` are :class:`PassPipeline`'s flags. Arguments of the wrong type or
    unknown flags raise :class:`PipelineError`; a failing pass raises
    ``mlir.ir.MLIRError``. Not re-entrant: called from inside a pass running in the
    same context, it raises PipelineError before touching anything (run the inner
    pipeline on a module in a separate ``mlir.ir.Context``, or add its passes to the
    outer pipeline).
    """
    unknown = sorted(set(kwargs) - set(_PIPELINE_FLAGS))
    if unknown:
        raise PipelineError(f"run() got unknown flag(s) {', '.join(unknown)} "
                            f"(flags: {', '.join(_PIPELINE_FLAGS)})")
    op = _module_operation(module)
    return PassPipeline(pipeline, op.context, **kwargs).run(module)
