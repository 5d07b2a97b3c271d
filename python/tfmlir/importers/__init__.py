"""TensorFlow graphs into MLIR: GraphDef, FunctionDef and SavedModel importers.

The output is what TensorFlow's own importer produces with an empty pass
pipeline (``tf.mlir.experimental.convert_graph_def / convert_function(...,
pass_pipeline='')``): a ``func.func`` per graph or function holding one
``tf_executor.graph`` with one island per node, control edges as
``!tf_executor.control`` operands, v1 control flow as tf_executor
Switch/Merge/Enter/Exit/NextIteration/LoopCond, library functions as private
functions, and ``tf.entry_function`` / ``tf._user_specified_name`` /
``tf.versions`` attributes.

    from tfmlir import importers
    module = importers.import_graph_def(graph_def_bytes)
    module = importers.import_function(concrete_function)

TensorFlow is not needed: the protocol buffers are decoded by
:mod:`tfmlir.tfcore.protobuf` and TensorFlow's op registry is a data file.
Invalid input raises :class:`ImportError` (a ``ValueError``) naming the node.
"""
from ..tfcore.errors import TFImportError, TFExportError
from .api import import_function, import_function_def, import_graph_def, import_saved_model  # noqa: F401

# The name for the error class; shadows the builtin only inside this namespace.
ImportError = TFImportError  # noqa: A001

__all__ = ["import_graph_def", "import_function", "import_function_def", "import_saved_model",
           "ImportError", "TFImportError", "TFExportError"]
