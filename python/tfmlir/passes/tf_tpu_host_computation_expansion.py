"""Expands host computation before and after TPU computation.

A TPU computation often starts with ``tf.Identity`` / ``tf.Cast`` ops whose
results only feed ops placed on the host (outside compilation); marking them
for outside compilation too lets the head outside-compiled ops move to the
host together. As TF 2.21's -tf-tpu-host-computation-expansion, for each
``tf_device.cluster`` of a function (in post-order: nested clusters first):

1. The head ops are found among the top-level ops of the cluster's body, in
   order (the terminator excepted): a ``tf.Cast``, a ``tf.Identity`` or an op
   with a string ``_xla_outside_compilation`` is a head op when no operand of
   it, or of an op nested in it, is defined by a non-head top-level op of the
   body -- or is a block argument of one of its own regions (TF looks at the
   region's owner, the op itself, which is not a head op yet).
2. The head ops are visited in reverse order: a ``tf.Cast`` or
   ``tf.Identity`` without a string ``_xla_outside_compilation`` whose results
   have uses, all by ops with a string ``_xla_outside_compilation`` (nested
   ops count by themselves, not by their ancestors), gets
   ``_xla_outside_compilation = ""`` (replacing a non-string value). Going
   backwards, an op marked so makes the ops feeding it eligible in turn, so
   chains of casts and identities in front of host ops are marked.

Only ``tf.Cast`` and ``tf.Identity`` are expanded (not ``tf.IdentityN``), and
only at the top level of a cluster (not inside control flow or callees). The
pass cannot fail.
"""
from mlir import ir

from .analysis.executor import op_key
from .names import CAST, CLUSTER
from .analysis.outside_compilation import OUTSIDE_COMPILATION_ATTR, is_outside_compiled
from .framework import Pass, register_pass
from .lib.ir_helpers import ops_named, users
from .walk import ADVANCE, INTERRUPT, POST_ORDER

IDENTITY = "tf.Identity"
_TRIVIAL_UNARY = frozenset({CAST, IDENTITY})


@register_pass
class TPUHostComputationExpansionPass(Pass):
    argument = "tf-tpu-host-computation-expansion"
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        clusters = ops_named(func.operation, CLUSTER)
        if not clusters:
            return
        empty = ir.StringAttr.get("", func.context)
        for cluster in clusters:
            _expand_head_outside_compiled_ops(cluster, empty)


def _expand_head_outside_compiled_ops(cluster, empty):
    body = cluster.regions[0].blocks[0]
    heads = []
    head_keys = set()
    ops = [op.operation for op in body.operations]
    for op in ops[:-1]:  # the terminator is not looked at
        if op.name not in _TRIVIAL_UNARY and not is_outside_compiled(op):
            continue
        if _uses_non_head_value(op, body, head_keys):
            continue
        heads.append(op)
        head_keys.add(op_key(op))
    for op in reversed(heads):
        if is_outside_compiled(op):
            continue
        consumers = users(op)
        if consumers and all(is_outside_compiled(user) for user in consumers):
            op.attributes[OUTSIDE_COMPILATION_ATTR] = empty


def _defining_op(value):
    """The op defining `value`; for a block argument, the op owning the block's region."""
    if isinstance(value, ir.OpResult):
        return value.owner.operation
    return value.owner.owner.operation


def _uses_non_head_value(op, body, head_keys):
    """True if `op` or an op nested in it has an operand defined by an op of `body` (the
    cluster's block) that is not a head op (a block argument counts as defined by its
    region's owner)."""

    def bad(nested):
        for value in nested.operands:
            defining = _defining_op(value)
            if defining.block == body and op_key(defining) not in head_keys:
                return True
        return False

    if not len(op.regions):
        return bad(op)
    found = []

    def visit(nested):
        if bad(nested.operation):
            found.append(True)
            return INTERRUPT
        return ADVANCE

    op.walk(visit, POST_ORDER)
    return bool(found)
