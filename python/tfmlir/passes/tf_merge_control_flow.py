"""Merges IfRegion ops together with a common predicate.

Inside every ``tf_device.cluster`` (in walk order), ``tf.IfRegion`` ops
(found anywhere in the cluster, in post-order) are grouped by their
predicate value; each group is cut into segments of ifs that can be merged,
and each segment of two or more becomes one ``tf.IfRegion``. Behaviour, as
TensorFlow's C++ pass:

* An if joins the segment when it is in the same block as every earlier if
  of the segment and, for each earlier one, no op depends on that earlier if
  (its results' users, and the control successors from TF's side-effect
  analysis of it and of the ops of its branches, followed transitively, a
  nested op standing for its parent as well) that the ifs between them or
  the new one depend on.
* The merged if is created at the last if of the segment, with the
  predicate, ``_then_func_name`` / ``_else_func_name`` of the first and
  ``is_stateless`` when all are stateless (other attributes are dropped).
  Its branches hold the branch ops of the ifs in order; a result of an if
  used inside a later if of the segment is replaced there by the value its
  branch yields; the merged results are the results of each if that are used
  outside the segment's ifs, in order.
* Ops between the ifs that depend (data or side effects) on an earlier if of
  the segment move after the merged if, in their order.

The side-effect analysis is TF's (with resource aliasing), computed for each
cluster before it changes. No failure of its own: a rewrite that produced
invalid IR would be reported by the verifier with the module unchanged.
"""
from mlir import ir

from .analysis.executor import op_key
from .names import CLUSTER, IF_REGION, TF_YIELD
from .analysis.side_effects import SideEffectAnalysis, is_pure_op
from .framework import MODULE, Pass, erase_op, register_pass
from .lib.ir_helpers import ancestor_in_block, is_proper_ancestor, move_ops_before, users
from .walk import ADVANCE, POST_ORDER


@register_pass
class MergeControlFlowPass(Pass):
    argument = "tf-merge-control-flow"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        module = module.operation
        clusters = []
        module.walk(lambda op: (clusters.append(op.operation)
                                if op.operation.name == CLUSTER else None) or ADVANCE,
                    POST_ORDER)
        for cluster in clusters:
            _optimize_if_regions(cluster.regions[0].blocks[0], module)


# -- dependencies ---------------------------------------------------------------------

class _Successors:
    """Direct control successors of ops (TF's DirectControlSuccessors), one block at a time."""

    def __init__(self, module):
        self.analysis = SideEffectAnalysis(module)
        self.successors = {}  # op_key -> [ops]
        self.analysed = set()  # op_keys of the ops of the blocks analysed so far

    def of(self, op):
        key = op_key(op)
        found = self.successors.get(key)
        if found is not None:
            return found
        if key in self.analysed:
            return ()
        ops = [o.operation for o in op.block.operations]
        keys = [op_key(o) for o in ops]
        self.analysed.update(keys)
        names = [o.name for o in ops]
        if not all(is_pure_op(name) for name in names):
            predecessors = self.analysis.control_predecessors(ops, names=names)
            for k, preds in enumerate(predecessors):
                for p in preds:
                    self.successors.setdefault(keys[p], []).append(ops[k])
        return self.successors.get(key, ())


class _IfOps:
    """Per if: the if op and the ops of its branch blocks (TF's GetAllOpsFromIf), as keys."""

    def __init__(self):
        self.cache = {}

    def of(self, if_op):
        key = op_key(if_op)
        found = self.cache.get(key)
        if found is None:
            found = {key}
            for region in if_op.regions:
                for op in region.blocks[0].operations:
                    found.add(op_key(op))
            self.cache[key] = found
        return found


def _safe_to_merge(first_if, second_if, downstream, successors, if_ops):
    """TF's SafeToMerge: nothing depending on `first_if` is needed by the ifs in `downstream`."""
    if second_if.block != first_if.block:
        return False
    destination = if_ops.of(first_if)
    dependencies = [u for u in users(first_if) if op_key(u) not in downstream]
    dependencies += [s for s in successors.of(first_if) if op_key(s) not in downstream]
    for region in first_if.regions:
        for op in region.blocks[0].operations:
            for s in successors.of(op.operation):
                key = op_key(s)
                if key not in downstream and key not in destination:
                    dependencies.append(s)
    block = first_if.block
    visited = set()
    while dependencies:
        dependency = dependencies.pop()
        key = op_key(dependency)
        if key in visited:
            continue
        visited.add(key)
        for user in users(dependency):
            if op_key(user) in downstream:
                return False
            dependencies.append(user)
        for s in successors.of(dependency):
            if op_key(s) in downstream:
                return False
            dependencies.append(s)
        if dependency.block != block:
            dependencies.append(dependency.parent.operation)
    return True


def _can_add_to_segment(ifs, first, last, successors, if_ops):
    if last == len(ifs):
        return False
    downstream = set()
    second = ifs[last]
    for index in range(last - 1, first - 1, -1):
        downstream |= if_ops.of(ifs[index + 1])
        if not _safe_to_merge(ifs[index], second, downstream, successors, if_ops):
            return False
    return True


def _moved_between(result_op, after_op, middle, successors):
    """TF's GetMoveOpsBetweenTwoIfRegions: ops of `after_op`'s block before it that depend on
    `result_op` (keys -> ops)."""
    block = after_op.block
    queue = []
    visited = set()
    moved = {}

    def enqueue(source):
        for user in users(source):
            key = op_key(user)
            if key not in visited and key not in middle:
                visited.add(key)
                queue.append(user)
        walked = []
        source.walk(lambda o: walked.append(o.operation) or ADVANCE, POST_ORDER)
        for op in walked:
            for s in successors.of(op):
                if is_proper_ancestor(source, s):
                    continue
                key = op_key(s)
                if key not in visited and key not in middle:
                    visited.add(key)
                    queue.append(s)

    enqueue(result_op)
    position = 0
    while position < len(queue):
        op = ancestor_in_block(queue[position], block)
        position += 1
        if op is None:
            continue
        if op.is_before_in_block(after_op):
            moved[op_key(op)] = op
            enqueue(op)
    return moved


def _move_list(segment, successors, if_ops):
    """TF's GetMoveOpList: the ops to move after the merged if (keys)."""
    last = segment[-1]
    moved = {}
    middle = set()
    for index in range(len(segment) - 2, -1, -1):
        moved.update(_moved_between(segment[index], last, set(middle), successors))
        middle |= if_ops.of(segment[index])
    return set(moved)


# -- merging ----------------------------------------------------------------------------

def _optimize_if_regions(block, module):
    ifs_by_cond = {}
    order = []
    found = []
    for op in block.operations:
        op.operation.walk(lambda o: (found.append(o.operation)
                                     if o.operation.name == IF_REGION else None) or ADVANCE,
                          POST_ORDER)
    for if_op in found:
        cond = if_op.operands[0]
        if cond not in ifs_by_cond:
            ifs_by_cond[cond] = []
            order.append(cond)
        ifs_by_cond[cond].append(if_op)
    if not any(len(ifs) > 1 for ifs in ifs_by_cond.values()):
        return
    successors = _Successors(module)
    if_ops = _IfOps()
    plans = []  # per predicate: [(segment, moved keys)]
    for cond in order:
        ifs = ifs_by_cond[cond]
        segments = []
        begin = 0
        while begin < len(ifs):
            last = begin
            while _can_add_to_segment(ifs, begin, last, successors, if_ops):
                last += 1
            segment = ifs[begin:last]
            segments.append((segment, _move_list(segment, successors, if_ops)
                             if len(segment) >= 2 else set()))
            begin = last
        plans.append(segments)
    merged_into = {}  # old if key -> new if
    to_remove = []
    for segments in plans:
        for segment, moved in segments:
            if len(segment) < 2:
                continue
            moved = _update_moved(moved, merged_into)
            new_if = _merge_segment(segment, moved)
            for old in segment:
                merged_into[op_key(old)] = new_if
                to_remove.append(old)
    seen = set()
    for old in to_remove:
        key = op_key(old)
        if key not in seen:
            seen.add(key)
            erase_op(old)


def _update_moved(moved, merged_into):
    """TF's UpdateMovedOpList: merged ifs stand for the ifs they replaced."""
    updated = set()
    for key in moved:
        new_if = merged_into.get(key)
        updated.add(op_key(new_if) if new_if is not None else key)
    return updated


def _kept_results(if_op, segment):
    """Indices of `if_op`'s results used outside the other ifs of the segment."""
    others = {op_key(o) for o in segment if o != if_op}
    block = if_op.block
    kept = []
    for result in if_op.results:
        for use in result.uses:
            holder = ancestor_in_block(use.owner, block)
            user = use.owner.operation
            if holder is None or op_key(holder) not in others or holder == user:
                kept.append(result.result_number)
                break
    return kept


def _yield_of(if_op, region):
    ops = if_op.regions[region].blocks[0].operations
    return ops[len(ops) - 1].operation


def _merge_segment(segment, moved):
    first = segment[0]
    kept = [_kept_results(if_op, segment) for if_op in segment]
    result_types = [if_op.results[i].type for if_op, indices in zip(segment, kept) for i in indices]
    attributes = {"is_stateless": ir.BoolAttr.get(all(
        ir.BoolAttr(o.attributes["is_stateless"]).value for o in segment))}
    for name in ("_then_func_name", "_else_func_name"):
        if name in first.attributes:
            attributes[name] = first.attributes[name]
    new_if = ir.Operation.create(IF_REGION, results=result_types, operands=[first.operands[0]],
                                 attributes=attributes, regions=2, loc=first.location,
                                 ip=ir.InsertionPoint(segment[-1]))
    blocks = [new_if.regions[0].blocks.append(), new_if.regions[1].blocks.append()]

    _replace_internal_uses(segment)
    position = 0
    for if_op, indices in zip(segment, kept):
        for i in indices:
            if_op.results[i].replace_all_uses_with(new_if.results[position])
            position += 1
    _move_after(new_if, moved)
    for region in (0, 1):
        values = [_yield_of(if_op, region).operands[i] for if_op, indices in zip(segment, kept)
                  for i in indices]
        ir.Operation.create(TF_YIELD, operands=values, loc=_yield_of(first, region).location,
                            ip=ir.InsertionPoint(blocks[region]))
    for if_op in segment:
        for region in (0, 1):
            ops = [o.operation for o in if_op.regions[region].blocks[0].operations][:-1]
            move_ops_before(ops, _yield_of(new_if, region))
    return new_if


def _replace_internal_uses(segment):
    """In each if, results of earlier ifs of the segment become the values their branch yields."""
    for position in range(1, len(segment)):
        target = segment[position]
        for region in (0, 1):
            mapping = {}
            for earlier in segment[:position]:
                yielded = _yield_of(earlier, region).operands
                for result in earlier.results:
                    mapping[result] = yielded[result.result_number]
            if not mapping:
                continue
            uses = []

            def visit(op):
                op = op.operation
                operands = op.operands
                for k in range(len(operands)):
                    if operands[k] in mapping:
                        uses.append((op, k))
                return ADVANCE

            for op in target.regions[region].blocks[0].operations:
                op.operation.walk(visit, POST_ORDER)
            for op, k in uses:
                op.operands[k] = mapping[op.operands[k]]


def _move_after(new_if, moved):
    """TF's MoveOpsAfter: the moved ops before `new_if` follow it, in block order."""
    if not moved:
        return
    ordered = []
    for op in new_if.block.operations:
        op = op.operation
        if op == new_if:
            break
        if op_key(op) in moved:
            ordered.append(op)
    last = new_if
    for op in ordered:
        op.move_after(last)
        last = op
