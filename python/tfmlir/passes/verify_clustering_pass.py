"""Verify that the Bridge output is correct and errors if verification fails.

As TF 2.21's -verify-clustering-pass (the last pass of TF's clustering
bridge), on each function: its ops (the function itself included, in
post-order) must all be in the dialects the bridge hands on, ``func``,
``builtin``, ``tf`` and ``tf_device``, and none may carry
``_xla_outside_compilation``. The first op that breaks a rule fails the pass
with TF's message, at the op:

* "op is in dialect <dialect> not in tf functional dialect" (a
  ``tf_executor`` graph left over, an upstream dialect's op ...);
* "op has outside compilation attribute _xla_outside_compilation which is
  not allowed after clustering".

The IR is never changed. Where TF's process crashes -- an unregistered op
whose dialect is not loaded (TF reads its dialect as null) -- the op is
reported like any other op of a dialect not in the list, the dialect being the
prefix of the op's name. A function that passes is not looked at again, and
the first failing function ends the pass (TF checks all functions, in
parallel).
"""
from mlir import ir

from .analysis.outside_compilation import OUTSIDE_COMPILATION_ATTR
from .framework import Pass, register_pass

# TF's builtin namespaces ("return" is no dialect's) and the bridge's own.
ACCEPTED_DIALECTS = frozenset({"func", "return", "builtin", "tf", "tf_device"})

_POST_ORDER = ir.WalkOrder.POST_ORDER
_ADVANCE = ir.WalkResult.ADVANCE
_INTERRUPT = ir.WalkResult.INTERRUPT


def _dialect(name):
    # Ops of the builtin dialect print without it (``module``); their names carry it.
    return name.split(".", 1)[0] if "." in name else "builtin"


@register_pass
class VerifyClusteringPass(Pass):
    argument = "verify-clustering-pass"

    def run_on_operation(self, func):
        self.mark_all_analyses_preserved()  # read-only: the IR is never changed
        found = []

        def visit(op):
            op = op.operation
            name = op.name
            dialect = _dialect(name)
            if dialect not in ACCEPTED_DIALECTS:
                found.append((op, f"op is in dialect {dialect} not in tf functional dialect"))
                return _INTERRUPT
            if OUTSIDE_COMPILATION_ATTR in op.attributes:
                found.append((op, f"op has outside compilation attribute "
                                  f"{OUTSIDE_COMPILATION_ATTR} which is not allowed after "
                                  f"clustering"))
                return _INTERRUPT
            return _ADVANCE

        func.operation.walk(visit, _POST_ORDER)
        if found:
            op, message = found[0]
            self.fail(message, op)
