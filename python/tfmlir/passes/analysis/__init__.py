"""Analyses shared by the Python passes (not passes themselves).

* :mod:`.executor`: one-scan structural view of a ``tf_executor.graph`` (ops,
  islands, their bodies, def-use edges between graph-level ops) plus small
  helpers to build islands, for passes that rewrite executor graphs.
* :mod:`.side_effects`: which ops TensorFlow considers side-effecting, which
  resources they touch, and a port of TF's side-effect analysis (control
  predecessors between side-effecting ops of a block).
* :mod:`.symbols`: symbol tables and references; :mod:`.symbol_uses`: symbol
  uses as MLIR finds and replaces them (the op names passes look for are
  :mod:`tfmlir.passes.names`, below the framework and this package).
* :mod:`.devices`: TF's device name parser (``ParseFullName``,
  ``IsTPUReplicatedCore``), its checks of a module's ``tf.devices`` and the
  host device of a cluster's outside compilation;
  :mod:`.calls`: callee resolution from device clusters.
* :mod:`.string_map`: the iteration order of LLVM's ``StringMap`` (XXH3
  hashes), for TF passes that report the first problem found iterating one.
* :mod:`.tpu_protos`: TF's ``TPUCompileMetadataProto`` (and ``TopologyProto``) as
  protobuf classes built from descriptors generated out of the TF wheel
  (:mod:`tfmlir.passes.generated.tpu_protos`, ``scripts/gen_tpu_protos.py``), their binary and text
  forms; :mod:`.fingerprint`: TF's ``Fingerprint64`` (FarmHash).

The framework skips this package when it auto-imports pass modules. Import
the submodules themselves (``from tfmlir.passes.analysis import executor``);
the package imports none of them.
"""
