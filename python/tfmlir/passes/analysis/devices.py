"""TensorFlow device names as TF's passes read them.

* :func:`parse_full_name` / :func:`is_tpu_replicated_core`: from :mod:`tfmlir.device_names`
  (the one parser of ``DeviceNameUtils::ParseFullName``).
* :func:`module_devices_error`: the error TF's ``GetDevicesFromOp`` reports
  for a module's ``tf.devices`` attribute (a list of device names, or a
  dictionary keyed by them), or None when it is fine or absent.
"""
from mlir import ir

from ...device_names import TPU_REPLICATED_CORE, ParsedName, is_tpu_replicated_core, parse_full_name  # noqa: F401

DEVICES_ATTR = "tf.devices"


def module_devices_error(module):
    """The message of TF's ``GetDevicesFromOp`` error for `module`'s ``tf.devices`` (without
    the ``'builtin.module' op`` prefix), or None when the attribute is absent or valid."""
    attributes = module.operation.attributes
    if DEVICES_ATTR not in attributes:
        return None
    attr = attributes[DEVICES_ATTR]
    if isinstance(attr, ir.ArrayAttr):
        attr = ir.ArrayAttr(attr)
        for index, element in enumerate(attr):
            if not isinstance(element, ir.StringAttr):
                return f"bad '{DEVICES_ATTR}' attribute at index {index}, not a string"
            device = ir.StringAttr(element).value
            if parse_full_name(device) is None:
                return f"bad '{DEVICES_ATTR}' attribute, '{device}', not a valid device"
        return None
    if isinstance(attr, ir.DictAttr):
        attr = ir.DictAttr(attr)
        for index in range(len(attr)):
            device = attr[index].name
            if parse_full_name(device) is None:
                return f"bad '{DEVICES_ATTR}' attribute, '{device}', not a valid device"
        return None
    return f"unsupported '{DEVICES_ATTR}' attribute"
