"""tfmlir.runtime: bridged TensorFlow programs on the XLA runtime (PJRT through jaxlib).

* :class:`Session` (:mod:`.api`) -- the front door: a session of the kind the
  program needs (:func:`open_session` is the same factory as a function);
* :class:`ProgramSession` / :func:`run` -- a bridged program (``main`` after
  ``tf-tpu-rewrite``) with TF1 session semantics: device programs on XLA, host
  computations as XLA host callbacks, host ops on TensorFlow's kernels,
  variables kept across calls (:mod:`.session`, the host plan in :mod:`.host`);
* :class:`GraphSession` / :func:`run_graph_def` -- a TF1 GraphDef with TPU
  computations: imported, functionalized, bridged by tfmlir's ``tf-tpu-bridge``
  and run with ``tf.compat.v1.Session`` semantics (:mod:`.graph_session`);
  :func:`run_function` does the same for a TF2 ``ConcreteFunction``;
* :mod:`.legalize` -- a device program (the tf-dialect module of a
  ``tf._TPUCompileMlir``) to StableHLO: the on-disk cache, then
  :mod:`.mlir_route` (TensorFlow's own legalization passes) and, for ops
  those leave, :mod:`.graph_route` (``tf.function(jit_compile=True)``) when
  the program has no host computation; ops left unlowered are an error naming
  them (``data/legalization_coverage.json`` records which ops take which
  route). Both routes run in TensorFlow's child process (:mod:`tfmlir.tf_child`);
* :mod:`.errors` -- the runtime's exceptions;
* :mod:`.host_transfer` -- the host transfers TensorFlow lowers
  ``tf._XlaHostComputeMlir`` to become XLA host callbacks (with the replica id);
* :mod:`.device` -- compiled executables per replica count, arguments checked
  against the compiled signature, N replicas on N XLA devices;
* :mod:`.distributed` -- several processes as one XLA job (PJRT's distributed
  runtime): joining a job, launching one locally, the values processes exchange;
* :mod:`._jaxlib` -- every private jaxlib entry point, behind a version check.

docs/runtime.md describes the design and its limits.
"""
from .errors import LegalizationError, ProgramError, RunError
from .api import Session, open_session
from .session import ProgramSession, run
from .graph_session import GraphSession, run_function, run_graph_def
from . import distributed

__all__ = ["Session", "open_session", "distributed", "ProgramSession", "GraphSession", "run", "run_graph_def", "run_function", "ProgramError", "RunError",
           "LegalizationError"]
