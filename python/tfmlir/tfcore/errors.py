"""Errors raised by the TensorFlow graph importers and exporters."""


class TFImportError(ValueError):
    """A TensorFlow graph, function or SavedModel cannot be imported.

    The message names the offending node (and function) where there is one;
    ``node`` and ``function`` carry them for programs. No partial module is
    returned when this is raised.
    """

    def __init__(self, message, *, node=None, function=None):
        self.node = node
        self.function = function
        where = []
        if node:
            where.append(f"node '{node}'")
        if function:
            where.append(f"function '{function}'")
        if where and not message.startswith(where[0]):
            message = f"{' in '.join(where)}: {message}"
        super().__init__(message)


class TFExportError(ValueError):
    """An MLIR module cannot be expressed as a TensorFlow GraphDef.

    The message names the operation (and its location) that cannot be exported.
    """
