"""Symbol uses as MLIR's SymbolTable finds and replaces them, for passes that clone or rename symbols.

MLIR counts a use of a symbol wherever an op's attributes hold a symbol reference, at any
depth: in arrays, in dictionaries (a function's ``arg_attrs`` too) and in attributes made of
other attributes (TF's ``#tf_type.func<@f, {...}>``). A reference ``@a::@b`` uses ``@a`` in the
op's symbol table (and ``@b`` inside ``@a``); an op using a symbol several times is one user.

* :func:`referenced_roots` -- the root names of the symbol references in an op's attributes;
  :func:`flat_references` -- the names of its flat references.
* :func:`replace_root` -- rewrites an op's attributes so that the references rooted at one name
  are rooted at another (what ``SymbolTable::replaceAllSymbolUses`` does to each op it visits).
* :class:`UnreadableAttribute` -- an attribute of a kind the Python API cannot take apart that
  may hold a symbol reference (its text holds an ``@``): its uses cannot be known.
"""
from mlir import ir

from ... import irsafe
from ... import _tfmlir

# Attribute kinds without symbol references inside (the Python API gives them their class).
_LEAVES = frozenset({
    ir.StringAttr, ir.IntegerAttr, ir.FloatAttr, ir.BoolAttr, ir.UnitAttr,
    ir.DenseElementsAttr, ir.DenseIntElementsAttr, ir.DenseFPElementsAttr, ir.DenseResourceElementsAttr,
    ir.DenseBoolArrayAttr, ir.DenseI8ArrayAttr, ir.DenseI16ArrayAttr, ir.DenseI32ArrayAttr,
    ir.DenseI64ArrayAttr, ir.DenseF32ArrayAttr, ir.DenseF64ArrayAttr,
    ir.AffineMapAttr, ir.IntegerSetAttr, ir.OpaqueAttr, ir.StridedLayoutAttr})
# tf_type attributes without symbol references (the API gives them as plain ir.Attribute).
_TF_LEAVES = (_tfmlir.ShapeAttr, _tfmlir.PlaceholderAttr, _tfmlir.TensorProtoAttr)
_FuncAttr = _tfmlir.FuncAttr

_NONE = ()


class UnreadableAttribute(ValueError):
    """`name`'s attribute is of a kind that may hold symbol references the pass cannot see."""

    def __init__(self, name, attr):
        text = str(attr)
        if len(text) > 200:
            text = text[:200] + "..."
        super().__init__(f"attribute '{name}' ({text}) may hold symbol references, but its kind "
                         f"cannot be taken apart from Python")
        self.name = name


def _roots(attr, name, cache):
    """The root names of the references in `attr` (a tuple, possibly empty)."""
    kind = type(attr)
    if kind in _LEAVES:
        return _NONE
    if kind is ir.FlatSymbolRefAttr:
        return (attr.value,)
    if kind is ir.SymbolRefAttr:
        return (attr.value[0],)
    found = cache.get(attr)
    if found is not None:
        return found
    if "@" not in str(attr):
        # No reference can hide in it (the printed form is produced without recursion in
        # Python, so deeply nested attributes cost no stack here).
        cache[attr] = _NONE
        return _NONE
    if kind is ir.ArrayAttr:
        names = []
        for element in attr:
            names.extend(_roots(element, name, cache))
        found = tuple(names)
    elif kind is ir.DictAttr:
        names = []
        for _key, value in irsafe.attribute_items(attr):
            names.extend(_roots(value, name, cache))
        found = tuple(names)
    elif kind is ir.TypeAttr:
        # Types may hold attributes (a tensor encoding); none of TF's does.
        if "@" in str(attr):
            raise UnreadableAttribute(name, attr)
        found = _NONE
    elif _FuncAttr.isinstance(attr):
        func = _FuncAttr(attr)
        found = _roots(func.name, name, cache) + _roots(func.attrs, name, cache)
    elif any(leaf.isinstance(attr) for leaf in _TF_LEAVES):
        found = _NONE
    elif "@" in str(attr):
        raise UnreadableAttribute(name, attr)
    else:
        found = _NONE
    cache[attr] = found
    return found


def referenced_roots(op, cache=None):
    """The root names of every symbol reference in `op`'s attributes, each once (a list).

    `cache` (a dict kept by the caller for one context) remembers composite attributes, which
    TF graphs repeat on many ops. Raises :class:`UnreadableAttribute`.
    """
    if cache is None:
        cache = {}
    names = None
    for attr_name, value in irsafe.attribute_items(op):
        found = _roots(value, attr_name, cache)
        if found:
            if names is None:
                names = []
            for root in found:
                if root not in names:
                    names.append(root)
    return names or []


def _flat_names(attr, found):
    kind = type(attr)
    if kind is ir.FlatSymbolRefAttr:
        found.append(attr.value)
    elif kind in (ir.ArrayAttr, ir.DictAttr) and "@" not in str(attr):
        return
    elif kind is ir.ArrayAttr:
        for element in attr:
            _flat_names(element, found)
    elif kind is ir.DictAttr:
        for _key, value in irsafe.attribute_items(attr):
            _flat_names(value, found)
    elif kind is ir.Attribute and _FuncAttr.isinstance(attr):
        func = _FuncAttr(attr)
        _flat_names(func.name, found)
        _flat_names(func.attrs, found)


def flat_references(op):
    """The names of the flat symbol references (``@f``, not ``@f::@x``) in `op`'s attributes,
    in attribute order (with repeats)."""
    found = []
    for _name, value in irsafe.attribute_items(op):
        _flat_names(value, found)
    return found


def _replaced(attr, old, new):
    """`attr` with the references rooted at `old` rooted at `new`, or None if it has none."""
    kind = type(attr)
    if kind in _LEAVES:
        return None
    if kind is ir.FlatSymbolRefAttr:
        return ir.FlatSymbolRefAttr.get(new) if attr.value == old else None
    if kind is ir.SymbolRefAttr:
        path = attr.value
        return ir.SymbolRefAttr.get([new] + path[1:]) if path[0] == old else None
    if old not in str(attr):
        return None  # nothing to rewrite (and no Python recursion into deep nesting)
    if kind is ir.ArrayAttr:
        elements = list(attr)
        changed = False
        for index, element in enumerate(elements):
            replaced = _replaced(element, old, new)
            if replaced is not None:
                elements[index] = replaced
                changed = True
        return ir.ArrayAttr.get(elements) if changed else None
    if kind is ir.DictAttr:
        entries = {}
        changed = False
        for key, value in irsafe.attribute_items(attr):
            replaced = _replaced(value, old, new)
            if replaced is not None:
                changed = True
            entries[key] = value if replaced is None else replaced
        return ir.DictAttr.get(entries) if changed else None
    if kind is not ir.Attribute or not _FuncAttr.isinstance(attr):
        return None  # a kind referenced_roots found no reference in
    func = _FuncAttr(attr)
    name, attrs = func.name, func.attrs
    new_name = _replaced(name, old, new)
    new_attrs = _replaced(attrs, old, new)
    if new_name is None and new_attrs is None:
        return None
    # Parsed back from its parts: the Python constructor takes a flat name only.
    return ir.Attribute.parse(f"#tf_type.func<{name if new_name is None else new_name}, "
                              f"{attrs if new_attrs is None else new_attrs}>")


def replace_root(op, old, new):
    """Makes `op`'s references rooted at `old` rooted at `new` (``@old`` -> ``@new``,
    ``@old::@x`` -> ``@new::@x``); True if one changed. Only `op`'s own attributes."""
    updates = []
    for attr_name, value in irsafe.attribute_items(op):
        replaced = _replaced(value, old, new)
        if replaced is not None:
            updates.append((attr_name, replaced))
    attributes = op.attributes
    for name, replaced in updates:
        attributes[name] = replaced
    return bool(updates)
