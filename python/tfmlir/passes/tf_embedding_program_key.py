"""Gives the SparseCore preprocessing ops the program key of the TPU compilation.

The SparseCore preprocessing ops (``tf.GetMinibatchSplitsWithPhysicalReplica``,
``tf.StoreMinibatchStatisticsInFdo``, ``tf.GetMinibatchesInCsrWithPhysicalReplica``
...) run on the host and take the program key of the compiled TPU program as
operand 0; until the bridge compiles the program that operand is a placeholder
(a ``tf.Const``). As TF 2.21's -tf-embedding-program-key, run on each function:

1. Ops with a ``mini_batch_splits`` attribute (post-order, collected first),
   one at a time:

   * If a *compile predecessor* exists (below), nothing moves.
   * Else, if the op is directly in a ``tf_device.launch`` and a
     ``tf._TPUCompileMlir`` directly in a ``tf_device.launch`` (the first in
     post-order) follows that launch in its block: the op and, transitively,
     every op using its results (not ``tf_device.return``) that lies directly
     in the launch's body move, in body order, into a new launch (same device;
     location: the compile launch's) right after the compile launch; the
     launch's other ops move into a second new launch (same device and
     location) in its place. Each new launch returns its values used outside
     it (in op and result order); the uses outside it take its results, as do
     the users of the old launch's results (the values the old launch returned
     from its body; a returned value of an enclosing region is used directly),
     and the old launch is erased. Only the ``device`` attribute of the launch
     is kept.
   * Else, if the op is not in a launch and such a compile launch follows the
     op itself in its block: the compile launch moves right before the op.

   Then the op's program key is set (below).
2. Then ops with a ``mini_batch_in_csr`` attribute (post-order) get their
   program key set; nothing moves for them.
3. An op with either attribute whose operand 0 is still a ``tf.Const`` fails
   the pass: "Couldn't find a program key to insert into this op.".

A *compile predecessor* of an op is the first ``tf._TPUCompileMlir`` of the
function (post-order) that comes before the op: where the ancestors of the
compile op first reach a block holding the op or one of its ancestors, the
compile op's ancestor there is before the op's one; and whose program (result
1) reaches that block, through the ``tf_device.return`` of the
``tf_device.launch`` ops (the launch's matching result) and
``tf_device.replicate`` ops (the result of replica 0) around it. Setting the
program key makes operand 0 of the op that program value.

Where an op wrapping the compile op returns its program through
``tf_device.return`` but is neither a launch nor a replicate, that compile op
is no predecessor and an error diagnostic "'<op>' op Unsupported wrapper op."
is reported at the wrapper while the pass goes on (as TF).

Failures besides the check of step 3 (module unchanged; TF's process crashes
on all but the first):

* a launch with no string ``device`` when its ops would move ("Launch op has
  an invalid device attribute.");
* a ``tf._TPUCompileMlir`` without a program result reached while looking for
  a predecessor;
* an op with either attribute that has no operand to hold the program key;
* a launch whose ops moved that still has used results afterwards (it returns
  a value defined outside it, or one of the moved ops' values twice).
"""
from collections import deque

from mlir import ir

from ..dialects import tf_device
from .analysis.executor import op_key
from .names import CONST, DEVICE_RETURN, FUNC, LAUNCH, REPLICATE
from .framework import Pass, erase_op, outside_use, register_pass
from .lib.ir_helpers import is_proper_ancestor, ops_named, walk_ops

MINI_BATCH_SPLITS_ATTR = "mini_batch_splits"
MINI_BATCH_IN_CSR_ATTR = "mini_batch_in_csr"
TPU_COMPILE_MLIR = "tf._TPUCompileMlir"
DEVICE_ATTR = "device"


@register_pass
class EmbeddingProgramKeyPass(Pass):
    argument = "tf-embedding-program-key"
    anchor = FUNC
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        func = func.operation
        for op in _ops_with(func, MINI_BATCH_SPLITS_ATTR):
            if op.parent.operation.name == LAUNCH:
                self._move_in_launch(func, op)
            else:
                self._move_standalone(func, op)
            self._rewrite_program_key(func, op)
        for op in _ops_with(func, MINI_BATCH_IN_CSR_ATTR):
            self._rewrite_program_key(func, op)
        for op in walk_ops(func):
            if MINI_BATCH_SPLITS_ATTR not in op.attributes and MINI_BATCH_IN_CSR_ATTR not in op.attributes:
                continue
            key = self._key_operand(op)
            owner = key.owner
            if not isinstance(owner, ir.Block) and owner.operation.name == CONST:
                self.fail("Couldn't find a program key to insert into this op.", op)

    # -- finding the compile op -------------------------------------------------------------

    def _compile_predecessor(self, func, op):
        """TF's ``FindCompilePredecessor``: ``(compile op, its program where `op` sees it)``."""
        scope = {}
        blocks = set()
        current = op
        while current is not None and current != func:
            block = current.block
            scope.setdefault(block, current)
            blocks.add(block)
            current = _parent(current)
        for compile_op in ops_named(func, TPU_COMPILE_MLIR):
            current = compile_op
            before = True
            while current is not None and current != func:
                anchor = scope.get(current.block)
                if anchor is not None:
                    before = current.is_before_in_block(anchor)
                    break
                current = _parent(current)
            if not before:
                continue
            program = self._program_in(compile_op, blocks)
            if program is not None:
                return compile_op, program
        return None

    def _program_in(self, compile_op, blocks):
        """TF's ``GetResultInBlock`` for the compile op's program: the value in one of `blocks`
        that wrapping launches and replicates return it as, or None."""
        if len(compile_op.results) < 2:
            self.fail(f"'{TPU_COMPILE_MLIR}' op has no program result (TF's process crashes here)",
                      compile_op)
        value = compile_op.results[1]
        while _block_of(value) not in blocks:
            found = None
            for use in value.uses:
                owner = use.owner.operation
                if owner.name != DEVICE_RETURN:
                    continue
                wrapper = owner.parent.operation
                if wrapper.name == LAUNCH:
                    found = wrapper.results[use.operand_number]
                elif wrapper.name == REPLICATE:
                    replicas = ir.IntegerAttr(wrapper.attributes["n"]).value
                    found = wrapper.results[use.operand_number * replicas]
                else:
                    self.emit_error(f"'{wrapper.name}' op Unsupported wrapper op.", wrapper)
                    return None
            if found is None:
                return None
            value = found
        return value

    @staticmethod
    def _compile_successor(func, op):
        """TF's ``FindCompileSuccessor``: the first compile op directly in a launch that follows
        `op` (or the launch it is directly in) in its block."""
        parent = op.parent.operation
        anchor = parent if parent.name == LAUNCH else op
        for compile_op in ops_named(func, TPU_COMPILE_MLIR):
            launch = _parent(compile_op)
            if launch is None or launch.name != LAUNCH:
                continue
            if launch.block == anchor.block and anchor.is_before_in_block(launch):
                return compile_op
        return None

    # -- moving ops -----------------------------------------------------------------------

    def _move_in_launch(self, func, op):
        """TF's ``MovePreprocessingOpInLaunch``."""
        if self._compile_predecessor(func, op) is not None:
            return
        original = op.parent.operation
        attributes = original.attributes
        if DEVICE_ATTR not in attributes or not isinstance(attributes[DEVICE_ATTR], ir.StringAttr):
            self.fail(f"'{LAUNCH}' op Launch op has an invalid device attribute.", original)
        device = attributes[DEVICE_ATTR]
        successor = self._compile_successor(func, op)
        if successor is None:
            return
        moving = _successor_ops(op)
        body = op.block
        terminator = _terminator(body)
        first_index = {}
        for index, value in enumerate(terminator.operands):
            first_index.setdefault(value, index)
        moved = _launch_after(_parent(successor),
                              [o.operation for o in body.operations if op_key(o) in moving], device)
        for index, value in enumerate(_terminator(moved.regions[0].blocks[0]).operands):
            if value in first_index:
                original.results[first_index[value]].replace_all_uses_with(moved.results[index])
        self._reduce(original, body, device)
        found = outside_use(original)
        if found is not None:
            self.fail(f"result #{found[0]} of the launch is still used after its ops moved: it "
                      f"returns a value defined outside it, or one value twice (TF leaves the "
                      f"use dangling)", original)
        erase_op(original)

    @staticmethod
    def _reduce(original, body, device):
        """TF's ``CreateReducedLaunchOp``: the ops left in `original`'s `body` move into a new
        launch right after it."""
        remaining = [o.operation for o in body.operations if o.operation.name != DEVICE_RETURN]
        reduced = _launch_after(original, remaining, device)
        reduced_returned = list(_terminator(reduced.regions[0].blocks[0]).operands)
        first_index = {}
        for index, value in enumerate(reduced_returned):
            first_index.setdefault(value, index)
        returned = list(_terminator(body).operands)
        for index, value in enumerate(returned):
            owner = value.owner
            if isinstance(owner, ir.Block) or _parent(owner.operation) != reduced:
                continue
            if value in first_index:
                original.results[index].replace_all_uses_with(reduced.results[first_index[value]])
        for index, value in enumerate(reduced_returned):
            uses = [(use.owner.operation, use.operand_number) for use in value.uses]
            for user, number in uses:
                if not is_proper_ancestor(reduced, user):
                    user.operands[number] = reduced.results[index]
        for index, value in enumerate(returned):
            if isinstance(value, ir.BlockArgument):
                original.results[index].replace_all_uses_with(value)

    def _move_standalone(self, func, op):
        """TF's ``MoveStandalonePreprocessingOp``: the compile launch moves before `op`."""
        if self._compile_predecessor(func, op) is not None:
            return
        successor = self._compile_successor(func, op)
        if successor is None:
            return
        launch = _parent(successor)
        if launch.block == op.block:
            launch.move_before(op)

    def _rewrite_program_key(self, func, op):
        """TF's ``RewritePreprocessInputs``: operand 0 of `op` becomes the program of its compile
        predecessor, if there is one."""
        found = self._compile_predecessor(func, op)
        if found is None:
            return
        self._key_operand(op)
        op.operands[0] = found[1]

    def _key_operand(self, op):
        if not len(op.operands):
            self.fail(f"'{op.name}' op has no operand to hold the program key (TF's process "
                      f"crashes here)", op)
        return op.operands[0]


def _ops_with(func, attribute):
    return [op for op in walk_ops(func) if attribute in op.attributes]


def _parent(op):
    parent = op.parent
    return parent.operation if parent is not None else None


def _block_of(value):
    owner = value.owner
    return owner if isinstance(owner, ir.Block) else owner.operation.block


def _terminator(block):
    operations = block.operations
    return operations[len(operations) - 1].operation


def _successor_ops(op):
    """TF's ``GetSuccessorOps``: the keys of `op` and of every op using its results,
    transitively, ``tf_device.return`` ops excepted."""
    found = set()
    queue = deque([op])
    while queue:
        current = queue.popleft()
        if current.name == DEVICE_RETURN:
            continue
        found.add(op_key(current))
        for result in current.results:
            for use in result.uses:
                user = use.owner.operation
                if op_key(user) not in found:
                    queue.append(user)
    return found


def _inside_any(op, keys):
    """True if `op` or one of its ancestors is one of the ops of `keys`."""
    while op is not None:
        if op_key(op) in keys:
            return True
        op = _parent(op)
    return False


def _launch_after(before, ops, device):
    """TF's ``CreateLaunchForBlock``: a launch on `device` (location: `before`'s) right after
    `before` holding `ops` (moved, in order) and returning their results used outside them."""
    keys = {op_key(o) for o in ops}
    returned = []
    for o in ops:
        for result in o.results:
            if any(not _inside_any(use.owner.operation, keys) for use in result.uses):
                returned.append(result)
    launch = ir.Operation.create(LAUNCH, results=[value.type for value in returned],
                                 attributes={DEVICE_ATTR: device}, regions=1, loc=before.location,
                                 ip=ir.InsertionPoint.after(before))
    block = launch.regions[0].blocks.append()
    return_op = tf_device.ReturnOp(returned, loc=before.location,
                                    ip=ir.InsertionPoint(block))
    for o in ops:
        o.move_before(return_op)
    return launch
