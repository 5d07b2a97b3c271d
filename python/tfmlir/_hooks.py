"""The Python side of the tf dialect's C++ hooks (``cpp/include/tfmlir/TfInterfaces.h``).

TensorFlow's dialect interfaces call into TF's runtime: the constant-folding
hook runs TF's kernels, the inliner's multi-device placement merges device
names with ``DeviceNameUtils``. tfmlir's C++ has neither; importing the
package installs these Python callbacks instead, so device names are parsed
once (:mod:`tfmlir.device_names`) and op semantics are evaluated once
(:mod:`tfmlir.constant_folding` over :mod:`tfmlir.shapes.values`).

The hooks run Python only on the thread that holds the GIL (the one calling
into MLIR); on MLIR's worker threads they decline (no fold, no device
merge), so :mod:`tfmlir.passes.framework` runs pipelines with the context's
multithreading off.
"""
import atexit

from . import _tfmlir
from .constant_folding import evaluate
from .device_names import merged_device


def install():
    """Installs the callbacks (idempotent) and removes them at interpreter exit."""
    _tfmlir.set_constant_evaluator(evaluate)
    _tfmlir.set_device_name_merger(merged_device)


install()
atexit.register(_tfmlir.clear_hooks)
