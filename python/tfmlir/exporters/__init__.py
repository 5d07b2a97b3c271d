"""MLIR -> TensorFlow graphs: a GraphDef (+ FunctionDefLibrary) exporter that TensorFlow runs.

    from tfmlir import exporters
    graph_def_bytes = exporters.export_graph_def(module)
    text = exporters.export_graph_def(module, as_text=True)

See :mod:`tfmlir.exporters.graphdef` for what is exported and which IR cannot
be (:class:`TFExportError`, a ``ValueError``).
"""
from ..tfcore.errors import TFExportError
from ..tfcore import protobuf as _pb

__all__ = ["export_graph_def", "export_graph_def_message", "TFExportError"]


def export_graph_def_message(module, *, function_name=None, validate=True):
    """The exported GraphDef as a :class:`tfmlir.tfcore.protobuf.Message`."""
    from .graphdef import export_graph_def
    return export_graph_def(module, function_name=function_name, validate=validate)


def export_graph_def(module, *, function_name=None, as_text=False, validate=True):
    """Serialized GraphDef bytes (or its text format with `as_text`) of `module`.

    The main function is ``@main`` (or the module's only public function, or
    `function_name`); the other functions form the function library. With
    `validate` the result is checked the way TensorFlow's importer checks a
    graph (TFExportError if it would refuse it).
    """
    gd = export_graph_def_message(module, function_name=function_name, validate=validate)
    return _pb.to_text(gd) if as_text else _pb.encode(gd)
