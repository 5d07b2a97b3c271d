"""The runtime's front door: one ``Session`` for every kind of program.

``tfmlir.runtime.Session(program, ...)`` is a factory: a TensorFlow GraphDef (a
``GraphDef`` proto, its bytes, or the path of a ``.pb``/``.pbtxt`` file) gives a
:class:`.graph_session.GraphSession` (imported, bridged by tfmlir and run with
``tf.compat.v1.Session`` semantics); a bridged program (``mlir.ir.Module`` or
MLIR text) gives a :class:`.session.ProgramSession`. Both are instances of
``Session`` for ``isinstance``. This module sits above both, so neither imports
the other's way up.
"""
from .graph_session import GraphSession, is_graph_def
from .session import ProgramSession, SessionBase

__all__ = ["Session", "open_session"]


def open_session(program, *args, distributed=None, **options):
    """A :class:`.graph_session.GraphSession` for a GraphDef, a
    :class:`.session.ProgramSession` for a bridged program; `options` are theirs.

    `distributed`: a :class:`.distributed.Job` this process joins first (unless it already
    has): the session then runs in a job of several processes, each opening the same session
    and making the same runs (feeds come from process 0)."""
    if distributed is not None:
        from . import _jaxlib
        from . import distributed as _distributed
        if not _jaxlib.in_job():
            _distributed.join(distributed)
    if is_graph_def(program):
        return GraphSession(program, *args, **options)
    return ProgramSession(program, *args, **options)


class _Factory(type):
    """Calling the class opens a session of the kind the program needs."""

    def __call__(cls, program, *args, **options):
        return open_session(program, *args, **options)

    def __instancecheck__(cls, instance):
        return isinstance(instance, SessionBase)

    def __subclasscheck__(cls, subclass):
        return isinstance(subclass, type) and issubclass(subclass, SessionBase)


class Session(metaclass=_Factory):
    """A session on a TensorFlow program: ``Session(program, device="cpu", progress=None, ...)``.

    A GraphDef (proto, bytes or ``.pb``/``.pbtxt`` path) gives a
    :class:`.graph_session.GraphSession` (options ``v1_compat``,
    ``print_ir_after_bridge``); a bridged program (``mlir.ir.Module`` or MLIR text,
    entry ``main``) a :class:`.session.ProgramSession` (option ``container``). Both run
    with ``tf.compat.v1.Session`` semantics: ``run(fetches, feeds, targets)``,
    ``timings``, ``sync_variables()``, ``close()``, and ``with`` closes them.
    ``distributed=Job(...)`` runs the session in a job of several processes (see
    :func:`open_session`).
    """
