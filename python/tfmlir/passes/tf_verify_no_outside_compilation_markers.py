"""Verifies that after Outside Compilation passes complete, there are no more _xla_outside_compilation attributes and no tf_device.launch ops.

As TF 2.21's -tf-verify-no-outside-compilation-markers (a function pass): the
ops of the function, the function itself included, are visited in post-order
(nested ops before the op holding them, as MLIR's ``walk``); the first one
that is

* a ``tf_device.cluster`` with a ``tf_device.launch`` nested in it (at any
  depth), fails with TF's error at the cluster: ``Node `tf_device.cluster` is
  a launch op which should have been removed by outside compilation``;
* an op with a string ``_xla_outside_compilation`` (anywhere, inside a
  cluster or not; another attribute kind does not count), fails with TF's
  error at the op: ``Node `<op name>` has _xla_outside_compilation set which
  should have been removed by outside compilation``;

and the walk stops there (one error per function). A cluster that is both is
reported for its launch. Launches outside clusters are fine. Nothing changes
the IR.
"""
from .. import _tfmlir as _native
from .names import CLUSTER, LAUNCH
from .analysis.outside_compilation import OUTSIDE_COMPILATION_ATTR
from .framework import Pass, PassFailure, register_pass


@register_pass
class VerifyNoOutsideCompilationMarkersPass(Pass):
    argument = "tf-verify-no-outside-compilation-markers"
    dependent_dialects = ("tf_device",)

    def run_on_operation(self, func):
        self.mark_all_analyses_preserved()  # read-only: the IR is never changed
        problem = find_marker_problem(func)
        if problem is not None:
            raise PassFailure(*problem)


def find_marker_problem(root):
    """``(message, op)`` of TF's first error for `root` (walked in post-order), or None.
    One native table of the ops (post-order: nested ops come before the op holding them, so
    whether a cluster holds a launch is known when the cluster is reached)."""
    table = _native.OpTable(root.operation, "post")
    names = table.names()
    parents = table.parents()
    markers = table.strings(OUTSIDE_COMPILATION_ATTR)
    holds_launch = bytearray(len(names))
    for i, name in enumerate(names):
        if name == CLUSTER and holds_launch[i]:
            return (f"Node `{name}` is a launch op which should have been removed by outside "
                    f"compilation", table.op(i))
        if isinstance(markers[i], bytes):  # a string attribute (TF's test)
            return (f"Node `{name}` has {OUTSIDE_COMPILATION_ATTR} set which should have been "
                    f"removed by outside compilation", table.op(i))
        parent = parents[i]
        if parent >= 0 and (holds_launch[i] or name == LAUNCH):
            holds_launch[parent] = 1
    return None
