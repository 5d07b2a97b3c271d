"""TensorFlow's shape functions as one Python library.

- :mod:`.algebra`: shapes as Python values (``None`` = unknown rank, ``-1`` = unknown
  dimension) and InferenceContext's operations on them (merge, rank checks, broadcasting).
- :mod:`.functions`: ``SHAPE_FNS``, TensorFlow's registered shape function per op type, over a
  :class:`~.functions.Context` that adapters fill.
- :mod:`.values`: constant values and partial shapes of shape tensors (what shape functions
  read from their inputs), over primitives adapters supply.
- :mod:`.strided_slice`: StridedSlice's slicing rules (shapes and values).
- :mod:`.xla_tpu`: the XLA, TPU and collective ops' shape functions (registered into
  ``SHAPE_FNS``); :mod:`.xla_protos` decodes the XLA protos they read from string attributes.

The importer (``tfmlir.importers.shape_inference``) and the ``tf-shape-inference`` pass adapt
their ops to this library; nothing else implements shape functions.
"""

# Importing any module of the library registers every shape function: TensorFlow's core ops
# (.functions), then the XLA, TPU and collective ops (.xla_tpu, which builds on .functions).
from . import functions  # noqa: E402,F401
from . import xla_tpu  # noqa: E402,F401
