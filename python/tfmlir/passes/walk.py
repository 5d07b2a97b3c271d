"""MLIR's walk constants, named once for every pass.

``ir.WalkResult.ADVANCE`` is two attribute lookups each time a walk callback returns it;
passes read these module-level names instead (as fast as a local alias).
"""
from mlir import ir

ADVANCE = ir.WalkResult.ADVANCE
SKIP = ir.WalkResult.SKIP
INTERRUPT = ir.WalkResult.INTERRUPT
PRE_ORDER = ir.WalkOrder.PRE_ORDER
POST_ORDER = ir.WalkOrder.POST_ORDER
