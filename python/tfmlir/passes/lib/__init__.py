"""What passes share and are not passes themselves: IR helpers (:mod:`.ir_helpers`), attribute
readers (:mod:`.attributes`), MLIR's walk constants (:mod:`.walk`), and the rewrites several
passes apply (resource-op decomposition, device outlining, TPU partitioned ops).

The analyses passes share are in :mod:`tfmlir.passes.analysis`; the pass framework, the
pipeline parser and the named pipelines are :mod:`tfmlir.passes.framework`,
:mod:`~tfmlir.passes.pipeline` and :mod:`~tfmlir.passes.bridge_pipelines`."""
