"""What passes share and are not passes themselves: IR helpers (:mod:`.ir_helpers`) and the
rewrites several passes apply (resource-op decomposition, device outlining, TPU partitioned
ops).

The analyses passes share are in :mod:`tfmlir.passes.analysis`; below both, the leaf modules
:mod:`tfmlir.passes.names` (op names), :mod:`~tfmlir.passes.attributes` (attribute readers)
and :mod:`~tfmlir.passes.walk` (MLIR's walk constants); the pass framework, the pipeline
parser and the named pipelines are :mod:`tfmlir.passes.framework`,
:mod:`~tfmlir.passes.pipeline` and :mod:`~tfmlir.passes.bridge_pipelines`."""
