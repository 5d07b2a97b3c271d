"""Tables generated from TensorFlow by ``scripts/`` (never edited by hand; each has a
regenerate-and-diff test): op effects (``gen_tf_ops.py``), tf2xla's op lists
(``gen_tf2xla_defs.py``), TPU protobuf descriptors (``gen_tpu_protos.py``) and the ops XLA
supports (``dump_xla_supported_ops.py``)."""
