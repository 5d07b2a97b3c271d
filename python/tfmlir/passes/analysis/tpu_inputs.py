"""Checks shared by TF's input validation passes of the TPU bridge (TF's
``tpu_validate_inputs_utils``): ops TF warns about, read from the IR TF's
graph import produces.

Diagnostics are returned as ``(severity, op, message)`` tuples, in the order
TF emits them; the passes emit them (:data:`WARNING` through
``Pass.warn``).
"""
from mlir import ir

from ... import _tfmlir
from ..names import GRAPH, INFEED_DEQUEUE_TUPLE, ISLAND

ERROR = "error"
WARNING = "warning"

DEVICE_ATTR = "device"
TPU_REPLICATED_CORE_ZERO = "TPU_REPLICATED_CORE:0"



class NotAString(Exception):
    """An attribute TF reads as a string (and crashes on otherwise) is not a ``StringAttr``."""

    def __init__(self, op, name):
        super().__init__(f"'{op.name}' op attribute '{name}' is not a string attribute "
                         f"(TF's input check crashes on it)")
        self.op = op


def string_attr(op, name):
    """The bytes of `op`'s string attribute `name`, or None when it has none; raises
    :class:`NotAString` when the attribute is there but not a string (TF reads
    ``getAttrOfType<StringAttr>(name).str()`` after ``hasAttr`` and crashes)."""
    attributes = op.attributes
    if name not in attributes:
        return None
    attr = attributes[name]
    if not isinstance(attr, ir.StringAttr):
        raise NotAString(op, name)
    return ir.StringAttr(attr).value_bytes


def text(data):
    """Bytes of a string attribute as diagnostic text (non-UTF-8 bytes as ``\\xXX``)."""
    return data.decode("utf-8", "backslashreplace")


def potential_unsupported_op(op):
    """TF's ``IsPotentialUnsupportedOp``: the warning for a ``tf.InfeedDequeueTuple`` placed on a
    device whose name holds ``TPU_REPLICATED_CORE:0`` (a diagnostic tuple), or None."""
    if op.name != INFEED_DEQUEUE_TUPLE:
        return None
    device = string_attr(op, DEVICE_ATTR)
    if device is None or TPU_REPLICATED_CORE_ZERO.encode() not in device:
        return None
    return (WARNING, op, f"{TPU_REPLICATED_CORE_ZERO} device is not supported for op = "
                         f"{op.name} in TF2XLA MLIR Bridge")


def v1_control_flow_warnings(module, table=None):
    """TF's ``HasV1ControlFlow`` over every ``tf_executor.graph`` under `module` (post-order): per
    graph, a warning at its first op other than an island and the terminator. `table`: a
    post-order ``OpTable`` of `module` if the caller has one."""
    table = table if table is not None else _tfmlir.OpTable(module, "post")
    graphs = table.named(GRAPH)
    if not graphs:
        return []
    names = table.names()
    children = {g: [] for g in graphs}
    for i, parent in enumerate(table.parents()):
        into = children.get(parent)
        if into is not None:
            into.append(i)  # post-order keeps the block order of siblings
    found = []
    for g in graphs:
        for i in children[g][:-1]:
            if names[i] != ISLAND:
                found.append((WARNING, table.op(i),
                              " is v1 control flow op which is not supported in TF2XLA MLIR "
                              "Bridge."))
                break
    return found
