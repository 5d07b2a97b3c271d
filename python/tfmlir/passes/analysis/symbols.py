"""Small symbol helpers shared by the passes that move functions between modules.

* :data:`NESTED_TPU_MODULE`: the name TF gives the nested module of the TPU V1
  compatibility bridge (``_tpu_v1_compat_outlined``).
* :func:`symbol_ops`: ``{name: op}`` of the symbols directly in a module.
* :func:`flat_symbol_refs`: the flat symbol references an op's attributes
  hold, directly or as elements of an array attribute (what TF's outlining
  pass follows to move callees).
* :func:`append_to_module`: moves or inserts an op at the end of a module body.
"""
from mlir import ir

from ... import irsafe

NESTED_TPU_MODULE = "_tpu_v1_compat_outlined"
from ..names import FUNC as FUNC_OP, MODULE as MODULE_OP  # noqa: F401


def module_body(module):
    return module.regions[0].blocks[0]


def symbol_name(op):
    """The ``sym_name`` of `op` as a str, or None."""
    attributes = op.attributes
    if "sym_name" not in attributes:
        return None
    attr = attributes["sym_name"]
    return ir.StringAttr(attr).value if isinstance(attr, ir.StringAttr) else None


def symbol_ops(module):
    """``{name: op}`` of the ops with a symbol name directly in `module`'s body."""
    table = {}
    for op in module_body(module).operations:
        name = symbol_name(op.operation)
        if name is not None and name not in table:
            table[name] = op.operation
    return table


def flat_symbol_refs(op):
    """Names referenced by flat symbol refs in `op`'s attributes (or array elements)."""
    names = []
    for _name, attr in irsafe.attribute_items(op):
        if isinstance(attr, ir.FlatSymbolRefAttr):
            names.append(attr.value)
        elif isinstance(attr, ir.ArrayAttr):
            for element in attr:
                if isinstance(element, ir.FlatSymbolRefAttr):
                    names.append(element.value)
    return names


def append_to_module(module, op):
    """Puts `op` (attached anywhere or detached) at the end of `module`'s body."""
    if op.parent is not None:
        op.detach_from_parent()
    ir.InsertionPoint(module_body(module)).insert(op)
