"""tfmlir: TensorFlow's MLIR dialects for the upstream MLIR Python bindings.

Importing this package makes every new ``mlir.ir.Context`` know the dialects
``tf_type``, ``tf``, ``tf_executor`` and ``tf_device``; parsed ops downcast to
the generated classes in ``tfmlir.dialects.*``.

TensorFlow may be imported before or after tfmlir. TensorFlow loads its own
(different) LLVM/MLIR with RTLD_GLOBAL; loading the upstream MLIR libraries
after that would bind their symbols to TensorFlow's copies and crash. tfmlir
therefore loads the MLIR extension modules with RTLD_DEEPBIND, so they always
resolve against their own libraries. One MLIR (the upstream one) serves every
``mlir.ir`` object in the process.
"""
from ._loader import load_native as _load_native

_native = _load_native()

from ._registration import register_dialects, load_dialects  # noqa: E402
from . import _hooks  # noqa: E402,F401  (the tf dialect's folding and inlining hooks)
from .parsing import parse_module  # noqa: E402


def print_ir(op, *, generic=False, debug_info=False, pretty_debug_info=False, local_scope=False,
             assume_verified=False, large_elements_limit=None):
    """The text of `op` (an ir.Module, Operation or OpView), as ``str()`` prints it.

    Printed into one native buffer: much faster than ``str()``/``get_asm`` on
    large modules, whose printer calls back into Python for every token.
    ``assume_verified=True`` skips the verification the printer otherwise
    runs first (it falls back to the generic form for invalid IR).
    """
    operation = op.operation if hasattr(op, "operation") else op
    return _native.print_operation(operation, generic, debug_info, pretty_debug_info, local_scope,
                                   assume_verified, large_elements_limit)


__all__ = ["register_dialects", "load_dialects", "print_ir", "parse_module"]
__version__ = "0.1.0"
