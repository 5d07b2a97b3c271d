"""Reading an op's attributes by name: the one place passes read strings, booleans and integers.

Each reader takes an op (Operation or OpView), looks the attribute up once (inherent and
discardable alike) and answers `default` when the op has no such attribute or it is of
another kind: what a missing or ill-typed attribute means is the pass's decision.
"""
from mlir import ir


def get(op, name):
    """`op`'s attribute `name` (downcast by the bindings), or None."""
    attributes = op.attributes
    return attributes[name] if name in attributes else None


def string(op, name, default=None):
    """The text of string attribute `name` (str; the bindings' UTF-8 decoding), or `default`."""
    attr = get(op, name)
    return attr.value if isinstance(attr, ir.StringAttr) else default


def string_bytes(op, name, default=None):
    """The bytes of string attribute `name`, or `default`."""
    attr = get(op, name)
    return attr.value_bytes if isinstance(attr, ir.StringAttr) else default


def text(op, name, default=None):
    """The bytes of string attribute `name` as str, bytes that are not UTF-8 kept as surrogates
    (never fails; encode with ``surrogateescape`` to get the bytes back), or `default`."""
    attr = get(op, name)
    return attr.value_bytes.decode("utf-8", "surrogateescape") if isinstance(attr, ir.StringAttr) \
        else default


def boolean(op, name, default=None):
    """The value of boolean attribute `name`, or `default`."""
    attr = get(op, name)
    return attr.value if isinstance(attr, ir.BoolAttr) else default


def integer(op, name, default=None):
    """The value of integer attribute `name` (as stored: signless integers read signed), or
    `default`."""
    attr = get(op, name)
    return attr.value if isinstance(attr, ir.IntegerAttr) else default
