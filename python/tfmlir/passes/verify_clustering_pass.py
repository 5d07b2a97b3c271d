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
from .. import _tfmlir as _native

from .analysis.outside_compilation import OUTSIDE_COMPILATION_ATTR
from .framework import Pass, register_pass

# TF's builtin namespaces ("return" is no dialect's) and the bridge's own.
ACCEPTED_DIALECTS = frozenset({"func", "return", "builtin", "tf", "tf_device"})



def _dialect(name):
    # Ops of the builtin dialect print without it (``module``); their names carry it.
    return name.split(".", 1)[0] if "." in name else "builtin"


@register_pass
class VerifyClusteringPass(Pass):
    argument = "verify-clustering-pass"

    def run_on_operation(self, func):
        self.mark_all_analyses_preserved()  # read-only: the IR is never changed
        # One native table (post-order, as TF's walk): names and markers in bulk.
        table = _native.OpTable(func.operation, "post")
        markers = table.attributes(OUTSIDE_COMPILATION_ATTR)
        accepted = {}
        for i, name in enumerate(table.names()):
            ok = accepted.get(name)
            if ok is None:
                ok = accepted[name] = _dialect(name) in ACCEPTED_DIALECTS
            if not ok:
                self.fail(f"op is in dialect {_dialect(name)} not in tf functional dialect", table.op(i))
            if markers[i] is not None:
                self.fail(f"op has outside compilation attribute {OUTSIDE_COMPILATION_ATTR} which "
                          f"is not allowed after clustering", table.op(i))
