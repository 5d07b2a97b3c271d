"""tfmlir.passes: Python passes for the TF dialects, usable by name in pipelines.

Each pass lives in its own module named after its flag (``tf_executor_graph_pruning``
for ``-tf-executor-graph-pruning``); its docstring is the pass description.
See :mod:`tfmlir.passes.framework` for writing passes and running pipelines.
"""
from .framework import (  # noqa: F401
    FUNC, MODULE, Option, Pass, PassFailure, PassPipeline, function_pass, get_pass, get_pipeline,
    register_pass, register_pipeline, registered_passes, registered_pipelines, run,
)
from .pipeline import PipelineError, parse_pipeline  # noqa: F401
