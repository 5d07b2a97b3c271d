"""MLIR's walk constants, named once for every pass, and :func:`trampoline` (walking chains
of any length without Python recursion).

``ir.WalkResult.ADVANCE`` is two attribute lookups each time a walk callback returns it;
passes read these module-level names instead (as fast as a local alias).
"""
from mlir import ir

ADVANCE = ir.WalkResult.ADVANCE
SKIP = ir.WalkResult.SKIP
INTERRUPT = ir.WalkResult.INTERRUPT
PRE_ORDER = ir.WalkOrder.PRE_ORDER
POST_ORDER = ir.WalkOrder.POST_ORDER


def trampoline(root):
    """Runs generator `root` to its return value, without Python recursion.

    Analyses and passes follow chains (forwarding ops, nested regions, calls) as
    long as the IR makes them; written recursively, a long chain exhausts
    Python's recursion limit (or, through ``Operation.walk`` callbacks, the C
    stack). Each step is a generator instead: where it needs the result of
    another step it yields that step's generator and receives its return
    value; exceptions propagate to the yielding step.
    """
    stack = [root]
    value = None
    error = None
    while True:
        gen = stack[-1]
        try:
            if error is not None:
                raised, error = error, None
                step = gen.throw(raised)
            else:
                step = gen.send(value)
        except StopIteration as stop:
            stack.pop()
            if not stack:
                return stop.value
            value = stop.value
            continue
        except BaseException as exc:  # propagate to the step that asked
            stack.pop()
            if not stack:
                raise
            error = exc
            continue
        stack.append(step)
        value = None
