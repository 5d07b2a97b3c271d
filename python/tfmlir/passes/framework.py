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
diagnostic at the anchor op (or the op it names); the anchor op is restored to
its state before the pass (unless the pass opts out with
``rollback_on_failure = False`` because it never mutates before validating),
and ``run`` raises ``mlir.ir.MLIRError``.
"""
import inspect
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence

from mlir import ir
from mlir import passmanager

from .. import _tfmlir as _native
from .. import irsafe

from .pipeline import (PipelineError, PythonStage, UpstreamStage, parse_pipeline,
                       schedule, split_list, split_options, unquote)

_REGISTRY: Dict[str, type] = {}

# Upstream passes that collect all symbol uses through the call graph and
# assert (instead of failing) when an op may be a symbol table they cannot
# see into (one region, dialect not loaded).
_NEED_ALL_SYMBOL_USES = frozenset({"inline"})

MODULE = "builtin.module"
FUNC = "func.func"


class PassFailure(Exception):
    """Raised by :meth:`Pass.fail`: the pass failed with a diagnostic at `op`."""

    def __init__(self, message, op=None):
        super().__init__(message)
        self.op = op


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
      rollback_on_failure: restore the anchor op when the pass fails.

    The description is the class docstring, or else its module's docstring.
    """

    argument: str = ""
    anchor: str = FUNC
    options: Sequence[Option] = ()
    dependent_dialects: Sequence[str] = ()
    rollback_on_failure: bool = True

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

    def fail(self, message, op=None):
        """Aborts the pass with an error diagnostic at `op` (default: the anchor op)."""
        raise PassFailure(message, op)


def register_pass(cls):
    """Class decorator: makes `cls` usable by its `argument` in pipelines."""
    if not (isinstance(cls, type) and issubclass(cls, Pass)):
        raise TypeError("register_pass expects a Pass subclass")
    if not cls.argument:
        raise ValueError(f"{cls.__name__} has no 'argument' (its pipeline name)")
    if cls.anchor not in (FUNC, MODULE):
        raise ValueError(f"{cls.argument}: anchor must be '{FUNC}' or '{MODULE}'")
    existing = _REGISTRY.get(cls.argument)
    if existing is not None and existing is not cls and (
            existing.__module__, existing.__qualname__) != (cls.__module__, cls.__qualname__):
        raise ValueError(f"a pass named '{cls.argument}' is already registered "
                         f"({existing.__module__}.{existing.__qualname__})")
    _REGISTRY[cls.argument] = cls
    return cls


def function_pass(argument, anchor=FUNC, options=(), dependent_dialects=(), description=None):
    """Decorator: registers ``fn(op, **options)`` as a pass named `argument`."""

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
        register_pass(cls)
        fn.pass_class = cls
        return fn

    return wrap


def registered_passes():
    """{argument: pass class} of every registered Python pass."""
    _load_builtin_passes()
    return dict(_REGISTRY)


def get_pass(argument):
    _load_builtin_passes()
    return _REGISTRY.get(argument)


_BUILTINS_LOADED = False


def _load_builtin_passes():
    # Each module in this package (but the framework's own) defines one pass.
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    import importlib
    import pkgutil

    from . import __path__ as package_path
    for info in pkgutil.iter_modules(package_path):
        if not info.name.startswith("_") and info.name not in ("framework", "pipeline", "analysis"):
            importlib.import_module(f"{__package__}.{info.name}")


# --- running ---------------------------------------------------------------

def _children_named(op, name):
    result = []
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                if child.operation.name == name:
                    result.append(child.operation)
    return result


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


def _restore(anchor, snapshot):
    """Puts `snapshot` (a detached clone of `anchor`) back in place of `anchor`."""
    if anchor.name == MODULE:
        body = anchor.regions[0].blocks[0]
        for op in list(body.operations):
            op.operation.erase()
        for op in list(snapshot.regions[0].blocks[0].operations):
            body.append(op.operation.detach_from_parent())
        for named in list(anchor.attributes):
            del anchor.attributes[named.name]
        for named in snapshot.attributes:
            anchor.attributes[named.name] = named.attr
        snapshot.erase()
        return anchor
    ir.InsertionPoint(anchor).insert(snapshot)
    for old, new in zip(anchor.results, snapshot.results):
        old.replace_all_uses_with(new)
    anchor.erase()
    return snapshot


def _location_of(op):
    try:
        return op.location
    except Exception:  # detached or invalid op
        return ir.Location.unknown()


def _python_stage_callable(stage):
    cls = stage.pass_cls

    def run(module_op, pass_):
        try:
            # Python reads names as str: refuse IR whose names are not UTF-8
            # before any pass code touches it.
            irsafe.check_utf8(module_op, f"{cls.argument} (a Python pass)")
        except irsafe.NonUtf8Error as err:
            err.location.emit_error(str(err))
            pass_.signal_pass_failure()
            return
        instance = cls(**stage.options)
        for anchor in _anchor_ops(module_op, stage):
            snapshot = anchor.clone(ip=False) if cls.rollback_on_failure else None
            try:
                # The pass runs with the IR's context and the anchor's location
                # as defaults, so `ir.*.get(...)` calls need no explicit context.
                with anchor.context, anchor.location:
                    instance.run_on_operation(anchor.opview)
            except PassFailure as failure:
                target = failure.op.operation if failure.op is not None else anchor
                _location_of(target).emit_error(f"{cls.argument}: {failure}")
                if snapshot is not None:
                    _restore(anchor, snapshot)
                pass_.signal_pass_failure()
                return
            except Exception as exc:  # a bug in the pass: report it, never abort
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                _location_of(anchor).emit_error(
                    f"{cls.argument}: internal error: {detail}")
                if snapshot is not None:
                    _restore(anchor, snapshot)
                pass_.signal_pass_failure()
                return
            if snapshot is not None:
                snapshot.erase()

    run.__name__ = cls.__name__
    return run


class PassPipeline:
    """A parsed and scheduled pipeline, ready to run on modules of one context.

    Args:
      pipeline: textual pipeline (``builtin.module(...)`` or a bare list).
      context: the mlir.ir.Context (default: the current one).
      verify_each: verify after every pass (default True).
      print_ir_after_all / print_ir_before_all / print_ir_module_scope /
      print_generic / print_debuginfo: IR printing, as mlir-opt's flags.
      timing: print a per-pass timing report (stderr) after each run.
    """

    def __init__(self, pipeline, context=None, *, verify_each=True, print_ir_after_all=False,
                 print_ir_before_all=False, print_ir_module_scope=False, print_generic=False,
                 print_debuginfo=False, timing=False):
        _load_builtin_passes()
        self.text = pipeline
        self.context = context or ir.Context.current
        self.stages = schedule(parse_pipeline(pipeline), _REGISTRY)
        self.upstream_passes = [name for stage in self.stages if isinstance(stage, UpstreamStage)
                                for name in stage.passes]
        for stage in self.stages:
            if isinstance(stage, PythonStage):
                for dialect in stage.pass_cls.dependent_dialects:
                    self.context.dialects[dialect]  # loads it
        self.pm = passmanager.PassManager(MODULE, context=self.context)
        self.pm.enable_verifier(verify_each)
        for stage in self.stages:
            if isinstance(stage, UpstreamStage):
                try:
                    self.pm.add(stage.text)
                except ValueError as exc:
                    raise PipelineError(f"invalid pipeline element '{stage.text}': {exc}") from None
            else:
                cls = stage.pass_cls
                self.pm.add(_python_stage_callable(stage), name=cls.__name__,
                            argument=cls.argument, description=cls.description().split("\n")[0])
        if print_ir_after_all or print_ir_before_all:
            self.pm.enable_ir_printing(print_before_all=print_ir_before_all,
                                       print_after_all=print_ir_after_all,
                                       print_module_scope=print_ir_module_scope,
                                       enable_debug_info=print_debuginfo,
                                       print_generic_op_form=print_generic)
        if timing:
            self.pm.enable_timing()

    def run(self, module):
        """Runs the pipeline on `module` (ir.Module or its operation); raises MLIRError on failure."""
        op = module.operation if hasattr(module, "operation") else module
        op.verify()  # never hand invalid IR to upstream passes (assertions are on)
        self._check_symbol_uses(op)
        self.pm.run(op)
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
    """Parses `pipeline` and runs it on `module` in the module's context."""
    op = module.operation if hasattr(module, "operation") else module
    return PassPipeline(pipeline, op.context, **kwargs).run(module)
