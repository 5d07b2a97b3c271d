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
from mlir import ir

from .analysis.names import CLUSTER, LAUNCH
from .analysis.outside_compilation import OUTSIDE_COMPILATION_ATTR, is_outside_compiled
from .framework import Pass, PassFailure, register_pass

_POST_ORDER = ir.WalkOrder.POST_ORDER
_ADVANCE = ir.WalkResult.ADVANCE
_INTERRUPT = ir.WalkResult.INTERRUPT


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
    Linear: whether a cluster holds a launch is known from the same walk."""
    found = []
    holds_launch = []  # per op being walked (outermost first): a launch was seen below it

    def pre(op):
        holds_launch.append(False)

    def post(op):
        below = holds_launch.pop()
        name = op.name
        if name == CLUSTER and below:
            found.append((f"Node `{name}` is a launch op which should have been removed by "
                          f"outside compilation", op))
            return _INTERRUPT
        if is_outside_compiled(op):
            found.append((f"Node `{name}` has {OUTSIDE_COMPILATION_ATTR} set which should have "
                          f"been removed by outside compilation", op))
            return _INTERRUPT
        if holds_launch and (below or name == LAUNCH):
            holds_launch[-1] = True
        return _ADVANCE

    _walk_pre_post(root.operation, pre, post)
    return found[0] if found else None


def _walk_pre_post(root, pre, post):
    """Calls pre(op) before and post(op) after the ops nested in each op, in MLIR's walk order;
    post returning INTERRUPT stops. Iterative (no Python recursion)."""
    pre(root)
    stack = [(root, iter(_children(root)))]
    while stack:
        op, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if post(op) == _INTERRUPT:
                return
            continue
        pre(child)
        stack.append((child, iter(_children(child))))


def _children(op):
    for region in op.regions:
        for block in region.blocks:
            for nested in block.operations:
                yield nested.operation
