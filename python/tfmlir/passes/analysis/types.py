"""Predicates on TensorFlow types that TF's TPU passes share.

* :func:`can_be_refined`: TF's ``CanBeRefined`` (shape inference): a shaped type that is not
  static, or whose resource/variant element type has no subtypes or a refinable one.
* :func:`type_valid_for_xla`: TF's ``TypeValidForXLA``: the element type (of a shaped type,
  else the type itself) is neither a resource nor a string.
"""
from mlir import ir

from ...dialects import tf_type

__all__ = ["can_be_refined", "element_type_or_self", "type_valid_for_xla"]


def element_type_or_self(type_):
    """MLIR's ``getElementTypeOrSelf``."""
    if isinstance(type_, ir.ShapedType):
        return ir.ShapedType(type_).element_type
    return type_


def _subtypes(element):
    if tf_type.ResourceType.isinstance(element):
        return list(tf_type.ResourceType(element).subtypes)
    if tf_type.VariantType.isinstance(element):
        return list(tf_type.VariantType(element).subtypes)
    return None


def can_be_refined(type_):
    """TF's ``CanBeRefined``: whether shape inference could refine `type_`."""
    if not isinstance(type_, ir.ShapedType):
        return False
    shaped = ir.ShapedType(type_)
    subtypes = _subtypes(shaped.element_type)
    if subtypes is not None and (not subtypes or any(can_be_refined(s) for s in subtypes)):
        return True
    return not (shaped.has_rank and shaped.has_static_shape)


def type_valid_for_xla(type_):
    """TF's ``TypeValidForXLA``: the element type is not a resource or a string."""
    element = element_type_or_self(type_)
    return not (tf_type.ResourceType.isinstance(element) or tf_type.StringType.isinstance(element))
