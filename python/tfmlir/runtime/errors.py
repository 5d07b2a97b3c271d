"""The runtime's exceptions, in one place below every runtime module.

:class:`ProgramError` and :class:`RunError` are what users catch (a program the
runtime cannot take; a run that failed). Legalization raises
:class:`LegalizationError` (neither route gave StableHLO); the graph route raises
:class:`GraphRouteError` (TensorFlow's child process itself raises
:class:`tfmlir.tf_child.TensorFlowChildError`).
"""


class ProgramError(ValueError):
    """The program cannot be run by tfmlir.runtime (said before anything runs)."""


class RunError(RuntimeError):
    """Running the program failed; the message names the op and its location."""


class LegalizationError(RuntimeError):
    """A device program did not become StableHLO; `ops` lists (op name, location) left over."""

    def __init__(self, message, ops=()):
        super().__init__(message)
        self.ops = list(ops)


class GraphRouteError(RuntimeError):
    """TensorFlow's graph route could not turn a device program into StableHLO."""


class GraphRouteRefused(GraphRouteError):
    """The program is not one the graph route takes (host computation, resource arguments)."""
