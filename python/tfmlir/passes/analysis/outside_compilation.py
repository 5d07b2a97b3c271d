"""The attributes that mark ops for outside compilation, and TF's tests of them.

An op nested in a ``tf_device.cluster`` with a string ``_xla_outside_compilation``
attribute runs on the host instead of the device; its value names the outside
compilation cluster the op belongs to. ``_xla_map_outside_compilation`` (a
bool) marks ops of a map outside compilation (sharded per core), which only
``tf-extract-outside-compilation`` handles.
"""
from mlir import ir

from ... import _tfmlir

OUTSIDE_COMPILATION_ATTR = "_xla_outside_compilation"
MAP_OUTSIDE_COMPILATION_ATTR = "_xla_map_outside_compilation"


def is_outside_compiled(op):
    """True if `op` has a string ``_xla_outside_compilation`` (TF's test)."""
    attributes = op.operation.attributes
    return (OUTSIDE_COMPILATION_ATTR in attributes
            and isinstance(attributes[OUTSIDE_COMPILATION_ATTR], ir.StringAttr))


def is_map_outside_compiled(op):
    """True if `op` has a bool ``_xla_map_outside_compilation`` (whatever its value)."""
    attributes = op.operation.attributes
    return (MAP_OUTSIDE_COMPILATION_ATTR in attributes
            and isinstance(attributes[MAP_OUTSIDE_COMPILATION_ATTR], ir.BoolAttr))


def _element_type(value_type):
    if isinstance(value_type, ir.ShapedType):
        return ir.ShapedType(value_type).element_type
    return value_type


def has_string_type(value_type):
    """TF's IsStringType on the element type of `value_type`: ``!tf_type.string``, or a
    resource / variant with a subtype of string elements. Type checks only (no text)."""
    element = _element_type(value_type)
    if _tfmlir.StringType.isinstance(element):
        return True
    for kind in (_tfmlir.ResourceType, _tfmlir.VariantType):
        if kind.isinstance(element):
            return any(_tfmlir.StringType.isinstance(_element_type(sub))
                       for sub in kind(element).subtypes)
    return False
