"""TensorFlow device names as TF's passes read them.

* :func:`parse_full_name` / :func:`is_tpu_replicated_core`: from :mod:`tfmlir.device_names`
  (the one parser of ``DeviceNameUtils::ParseFullName``).
* :func:`module_devices` / :func:`module_devices_error`: the devices of a module's
  ``tf.devices`` and the error TF's ``GetDevicesFromOp`` reports
  for a module's ``tf.devices`` attribute (a list of device names, or a
  dictionary keyed by them), or None when it is fine or absent.
"""
from mlir import ir

from ...device_names import TPU_REPLICATED_CORE, ParsedName, is_tpu_replicated_core, parse_full_name  # noqa: F401

__all__ = ["DEVICES_ATTR", "TPU_REPLICATED_CORE", "ParsedName", "is_tpu_replicated_core", "module_devices",
           "module_devices_error", "parse_full_name"]

DEVICES_ATTR = "tf.devices"


def module_devices(module):
    """``(names, error)`` of `module`'s ``tf.devices`` as TF's ``GetDevicesFromOp`` reads it:
    the device names in order with their parsed forms (``[(name, ParsedName)]``), and the
    message of TF's error (without the ``'builtin.module' op`` prefix) or None."""
    attributes = module.operation.attributes
    if DEVICES_ATTR not in attributes:
        return [], None
    attr = attributes[DEVICES_ATTR]
    if isinstance(attr, ir.ArrayAttr):
        names = []
        for index, element in enumerate(ir.ArrayAttr(attr)):
            if not isinstance(element, ir.StringAttr):
                return [], f"bad '{DEVICES_ATTR}' attribute at index {index}, not a string"
            names.append(ir.StringAttr(element).value)
    elif isinstance(attr, ir.DictAttr):
        attr = ir.DictAttr(attr)
        names = [attr[index].name for index in range(len(attr))]
    else:
        return [], f"unsupported '{DEVICES_ATTR}' attribute"
    parsed = []
    for device in names:
        p = parse_full_name(device)
        if p is None:
            return [], f"bad '{DEVICES_ATTR}' attribute, '{device}', not a valid device"
        parsed.append((device, p))
    return parsed, None


def module_devices_error(module):
    """The message of TF's ``GetDevicesFromOp`` error for `module`'s ``tf.devices``, or None
    when the attribute is absent or valid."""
    return module_devices(module)[1]
