"""Converts legacy compilation and replication attributes into the unified ones.

As TF 2.21's -tf-canonicalize-compile-and-replicate-attributes, on every op of
the function (post-order):

* ``_tpu_replicate = X`` becomes ``_replication_info = X`` plus
  ``_xla_compile_device_type = "TPU"`` (an existing ``_replication_info`` or
  ``_xla_compile_device_type`` is overwritten);
* ``_XlaMustCompile`` is removed. When it is ``true`` and the op has no
  ``_xla_compile_device_type``, that attribute gets the device type of the
  op's ``device`` (TF's ``ParseFullOrLocalName``: ``/device:GPU:0`` and
  ``GPU:0`` give ``GPU``; a name that does not parse gives what TF's parser
  left, usually ``""``), or ``""`` when the op has no string ``device``.

Failures (the module is left unchanged): ``_XlaMustCompile = false`` beside an
``_xla_compile_device_type`` ("... contradicts each other", TF's wording); a
device type other than ``""``, ``CPU``, ``GPU`` and ``TPU`` ("'device' has
invalid value"); an ``_XlaMustCompile`` that is not a bool, where TF's
process crashes.
"""
from mlir import ir

from ..device_names import parse_full_or_local_name
from .generated import tf2xla_defs
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import ops_with_attributes

TPU_REPLICATE = "_tpu_replicate"
REPLICATION_INFO = "_replication_info"
COMPILE_DEVICE_TYPE = "_xla_compile_device_type"
MUST_COMPILE = "_XlaMustCompile"
DEVICE = "device"
TPU = "TPU"
VALID_DEVICE_TYPES = frozenset(tf2xla_defs.VALID_DEVICE_TYPES)


@register_pass
class CanonicalizeCompileAndReplicateAttributesPass(Pass):
    argument = "tf-canonicalize-compile-and-replicate-attributes"
    dependent_dialects = ("tf",)

    def run_on_operation(self, func):
        # Only ops carrying one of the two legacy attributes change (or fail); one native walk
        # finds them in TF's post-order.
        context = func.context
        for op in ops_with_attributes(func, (TPU_REPLICATE, MUST_COMPILE)):
            _canonicalize(op, context)


def _canonicalize(op, context):
    attributes = op.attributes
    if TPU_REPLICATE in attributes:
        attributes[REPLICATION_INFO] = attributes[TPU_REPLICATE]
        del attributes[TPU_REPLICATE]
        attributes[COMPILE_DEVICE_TYPE] = ir.StringAttr.get(TPU, context)
    if MUST_COMPILE not in attributes:
        return
    must_compile = attributes[MUST_COMPILE]
    if not isinstance(must_compile, ir.BoolAttr):
        raise PassFailure(f"'{op.name}' op has a '{MUST_COMPILE}' attribute that is not a bool "
                          f"({must_compile})", op)
    del attributes[MUST_COMPILE]
    if not must_compile.value:
        if COMPILE_DEVICE_TYPE in attributes:
            raise PassFailure(f"'{op.name}' op has both '{MUST_COMPILE} = false' and "
                              f"'{COMPILE_DEVICE_TYPE}' attribute which contradicts each other", op)
        return
    if COMPILE_DEVICE_TYPE in attributes:
        return
    device = attributes[DEVICE] if DEVICE in attributes else None
    if not isinstance(device, ir.StringAttr):  # as TF: a device that is not a string is none
        attributes[COMPILE_DEVICE_TYPE] = ir.StringAttr.get("", context)
        return
    _, parsed = parse_full_or_local_name(device.value)
    if parsed.type not in VALID_DEVICE_TYPES:
        raise PassFailure(f"'{op.name}' op '{DEVICE}' has invalid value", op)
    attributes[COMPILE_DEVICE_TYPE] = ir.StringAttr.get(parsed.type, context)
