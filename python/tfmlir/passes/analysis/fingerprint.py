"""TensorFlow's ``Fingerprint64``: FarmHash's 64-bit fingerprint (the ``farmhashna`` hash, seedless).
TF's tf-tpu-rewrite sets ``TPUCompileMetadataProto.mlir_fingerprint`` to it of the serialized
device module; ``tf.fingerprint(data, method="farmhash64")`` computes it per row. Computed
natively (``_tfmlir.fingerprint64``): device modules are megabytes of text."""
from ... import _tfmlir


def fingerprint64(data):
    """TensorFlow's ``Fingerprint64(data)`` (FarmHash Fingerprint64) as an unsigned 64-bit int.
    `data`: bytes-like; a str is taken as its UTF-8 encoding."""
    return _tfmlir.fingerprint64(data.encode("utf-8") if isinstance(data, str) else bytes(data))
