"""Building TF ops from Python with the result types TF's C++ builders give them.

Rewrite patterns that re-create TF's (DRR ``Pat``s and C++ patterns) build ops whose result
types TF's builders infer; they live here once:

* :func:`broadcast_shape` / :func:`broadcast_type` -- MLIR's ``getBroadcastedShape`` /
  ``getBroadcastedType`` (TF's ``WithBroadcastableBinOpBuilder``);
* :func:`scalar_attr` -- TF's ``GetScalarOfType``;
* :class:`OpBuilder` -- ops created before an op (where a rewriter stands), with the
  builders of TF's binary, comparison, unary, select, constant and cast ops.

A builder that cannot type an op where TF's C++ would crash or build invalid IR raises
:class:`BuildError` (the caller turns it into a diagnostic).
"""
from mlir import ir

_DYNAMIC = ir.ShapedType.get_dynamic_size()


class BuildError(Exception):
    """An op cannot be built where TF's C++ would crash (reported as a diagnostic)."""


def element_type(value_type):
    """The element type of a shaped type (a scalar type as is)."""
    return ir.ShapedType(value_type).element_type if isinstance(value_type, ir.ShapedType) else value_type


def broadcast_shape(shape1, shape2):
    """MLIR's ``OpTrait::util::getBroadcastedShape`` (TF's rules for unknown dims), or None."""
    result = list(shape1 if len(shape1) > len(shape2) else shape2)
    for i in range(1, min(len(shape1), len(shape2)) + 1):
        a, b = shape1[-i], shape2[-i]
        if a == _DYNAMIC or b == _DYNAMIC:
            if a > 1:
                d = a
            elif b > 1:
                d = b
            elif a == 1:
                d = b
            elif b == 1:
                d = a
            else:
                d = _DYNAMIC
        elif a == b or b == 1:
            d = a
        elif a == 1:
            d = b
        else:
            return None
        result[-i] = d
    return result


def broadcast_type(type1, type2, element=None):
    """MLIR's ``getBroadcastedType`` for tensors (None where it gives a null type)."""
    if element is None:
        element = element_type(type1)
        if element != element_type(type2):
            return None
    if isinstance(type1, ir.UnrankedTensorType) or isinstance(type2, ir.UnrankedTensorType):
        return ir.UnrankedTensorType.get(element)
    ranked1 = isinstance(type1, ir.RankedTensorType)
    ranked2 = isinstance(type2, ir.RankedTensorType)
    shape = broadcast_shape(list(type1.shape) if ranked1 else [], list(type2.shape) if ranked2 else [])
    if shape is None:
        return None
    if ranked1 or ranked2:
        return ir.RankedTensorType.get(shape, element)
    return element


def scalar_attr(element, value):
    """TF's GetScalarOfType: a scalar dense attribute of `element` holding `value`."""
    scalar = ir.RankedTensorType.get([], element)
    if isinstance(element, ir.FloatType):
        return ir.DenseElementsAttr.get_splat(scalar, ir.FloatAttr.get(element, float(value)))
    if isinstance(element, ir.IntegerType):
        return ir.DenseElementsAttr.get_splat(scalar, ir.IntegerAttr.get(element, value))
    if isinstance(element, ir.ComplexType) and str(ir.ComplexType(element).element_type) in ("f32", "f64"):
        return ir.Attribute.parse(f"dense<({float(value)},0.0)> : {scalar}")
    raise BuildError(f"no scalar constant of element type {element}")


class OpBuilder:
    """Creates ops before `root` (where TF's rewriter inserts them), with TF's builders' types,
    at `loc` (default: `root`'s location)."""

    def __init__(self, root, loc=None):
        self.root = root
        self.ip = ir.InsertionPoint(root)
        self.loc = root.location if loc is None else loc

    def op(self, name, operands, result_types=(), attributes=None):
        return ir.Operation.create(name, results=list(result_types), operands=list(operands),
                                   attributes=attributes or {}, loc=self.loc, ip=self.ip)

    def value(self, name, operands, result_type, attributes=None):
        return self.op(name, operands, [result_type], attributes).result

    # TF's WithBroadcastableBinOpBuilder (AddV2, Sub, Mul, Div, Pow, Maximum, Add).
    def binary(self, name, x, y):
        result = broadcast_type(x.type, y.type)
        if result is None:
            raise BuildError(f"'{name}': non-broadcastable operands {x.type} and {y.type}")
        return self.value(name, [x, y], result)

    def add(self, x, y):
        return self.binary("tf.AddV2", x, y)

    def sub(self, x, y):
        return self.binary("tf.Sub", x, y)

    def mul(self, x, y):
        return self.binary("tf.Mul", x, y)

    def div(self, x, y):
        return self.binary("tf.Div", x, y)

    # TF's WithBroadcastableCmpOpBuilder (Greater, Less).
    def compare(self, name, x, y):
        i1 = ir.IntegerType.get_signless(1)
        if isinstance(x.type, ir.UnrankedTensorType) or isinstance(y.type, ir.UnrankedTensorType):
            result = ir.UnrankedTensorType.get(i1)
        else:
            shape = broadcast_shape(list(x.type.shape), list(y.type.shape))
            if shape is None:
                raise BuildError(f"'{name}': operands have no broadcastable shapes")
            result = ir.RankedTensorType.get(shape, i1)
        return self.value(name, [x, y], result)

    # Ops with TF_SameOperandsAndResultTypeResolveRef (Sqrt, Square, Rsqrt, Neg, Sign, Abs).
    def unary(self, name, x):
        return self.value(name, [x], x.type)

    def select_v2(self, condition, e, t):
        """TF's SelectV2Op builder (InferSelectV2OpType)."""
        element = element_type(e.type)
        unranked = ir.UnrankedTensorType.get(element)
        result = unranked
        broadcast = broadcast_type(e.type, t.type)
        if (broadcast is not None and isinstance(condition.type, ir.RankedTensorType)
                and isinstance(broadcast, ir.RankedTensorType)):
            shape = broadcast_shape(list(condition.type.shape), list(broadcast.shape))
            if shape is not None:
                result = ir.RankedTensorType.get(shape, element)
        return self.value("tf.SelectV2", [condition, e, t], result)

    def const(self, attr):
        return self.value("tf.Const", [], attr.type, {"value": attr})

    def scalar(self, like, value):
        """``tf.Const`` of TF's GetScalarOfType<value> on `like`'s element type."""
        return self.const(scalar_attr(element_type(like.type), value))

    def cast(self, x, result_type, truncate=False):
        """``tf.Cast`` of `x` to `result_type` with an explicit ``Truncate``."""
        return self.value("tf.Cast", [x], result_type, {"Truncate": ir.BoolAttr.get(truncate)})
