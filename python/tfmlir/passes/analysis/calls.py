"""Calls as TF's passes follow them from device clusters.

* :data:`CALLEE_ATTRS` / :data:`CALL_INDIRECT` (from :mod:`.names`): the call ops and their
  callee attribute.
* :func:`resolve_callee`: the ``func.func`` a call calls, looked up from the call's closest module
  (MLIR's call graph resolution, nested references included), or PassFailure naming the problem.
* :func:`nearest_module`: the closest module around an op, memoized for all ancestors passed.
"""
from mlir import ir

from ..framework import PassFailure
from .executor import op_key
from ..names import CALL_INDIRECT, CALLEE_ATTRS, FUNC, MODULE  # noqa: F401  (re-exported)
from .symbols import symbol_ops


def resolve_callee(call, table, tables):
    """The ``func.func`` `call` calls (MLIR's call graph resolution: the callee is looked up from
    `table`, the call's closest module), or PassFailure."""
    name = call.name
    if name == CALL_INDIRECT:
        raise PassFailure(f"cannot follow '{name}' from a tf_device.cluster: its callee is a value, "
                          f"not a symbol", call)
    attr = call.attributes[CALLEE_ATTRS[name]]
    if isinstance(attr, ir.FlatSymbolRefAttr):
        path = [ir.FlatSymbolRefAttr(attr).value]
    elif isinstance(attr, ir.SymbolRefAttr):
        path = list(ir.SymbolRefAttr(attr).value)
    else:
        raise PassFailure(f"cannot follow '{name}' from a tf_device.cluster: its callee is not a "
                          f"symbol reference", call)
    reference = "::".join("@" + part for part in path)
    found = None
    if table is not None:
        found = _lookup(table, path[0], tables)
        for part in path[1:]:
            if found is None or found.name != MODULE:
                found = None
                break
            found = _lookup(found, part, tables)
    if found is None:
        problem = "no such symbol"
    elif found.name != FUNC:
        problem = f"'{found.name}' is not a func.func"
    elif not len(found.regions[0].blocks):
        problem = "a function declaration without a body"
    else:
        return found
    raise PassFailure(f"cannot follow '{name}' from a tf_device.cluster into {reference}: {problem}",
                      call)


def nearest_module(op, modules):
    """The closest module around `op`; `modules` (op_key -> module) remembers the answer for
    every ancestor passed, so that all lookups together visit each op once."""
    chain = []
    found = None
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        key = op_key(parent)
        if key in modules:
            found = modules[key]
            break
        if parent.name == MODULE:
            found = parent
            break
        chain.append(key)
        parent = parent.parent
    for key in chain:
        modules[key] = found
    return found


def _lookup(table, name, tables):
    key = op_key(table)
    symbols = tables.get(key)
    if symbols is None:
        symbols = tables[key] = symbol_ops(table)
    return symbols.get(name)


def function_callee(op, table, attr="func", with_body=False):
    """The ``func.func`` that `op`'s flat symbol attribute `attr` names in `table` (a
    SymbolTable), or PassFailure at `op` when there is none (or it has no body and
    `with_body` is set)."""
    name = ir.FlatSymbolRefAttr(op.attributes[attr]).value
    try:
        callee = table[name]
    except KeyError:
        callee = None
    if (callee is None or callee.operation.name != FUNC
            or (with_body and not len(callee.operation.regions[0].blocks))):
        raise PassFailure(f"'{op.name}' op callee @{name} is not a function of the module"
                          + (" with a body" if with_body else ""), op)
    return callee
