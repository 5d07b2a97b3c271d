"""Hoists replicate invariant operations out of replicate

Moves the ops of a ``tf_device.replicate`` body that give the same result in
every replica in front of the replicate, so they run once instead of ``n``
times (the point: one ``_TPUCompile`` for all replicas). Behaviour, as
TensorFlow's C++ pass (replicates in post-order, each body in order):

* ``tf.Shape`` ops anywhere in the replicate whose input is a block argument
  of the replicate take replica 0's operand instead (the shape is assumed
  equal across replicas); a ``tf.Shape`` of a ``tf.ReadVariableOp`` of such a
  block argument becomes a ``tf.VariableShape`` of replica 0's resource.
  Shapes on (or inside ops on) a virtual device of the replicate's
  ``devices`` are left alone.
* An op of the body (the terminator excepted) is hoisted when neither it nor
  an op nested in it is placed on a virtual device (a key of ``devices``),
  and every value it uses (operands and values its regions use from above)
  is defined outside the replicate -- values of ops hoisted before it count
  as outside, so chains of invariant ops move together.

Where TensorFlow 2.21 is wrong, this pass keeps the program's meaning:

* Side effects: an op is hoisted only if every op of the body it must follow
  (its control predecessors in TF's side-effect analysis, with resource
  aliasing; a resource block argument of the replicate aliases the operands
  it is bound to) was hoisted too. TF hoists e.g. a ``tf.ReadVariableOp`` of
  an outer variable in front of a write to it inside the replicate.
* ``tf._TPUDeviceOrdinalPlaceholder`` (different in each replica) is never
  hoisted, also when nested in the op (TF only looks at the op itself).

The pass has no failure of its own: malformed replicates are rejected by the
verifier before it runs.
"""
from mlir import ir

from .names import (FUNC, READ_VARIABLE, REPLICATE, SHAPE,
                             TPU_DEVICE_ORDINAL_PLACEHOLDER, VARIABLE_SHAPE)
from .analysis.side_effects import SideEffectAnalysis, is_pure_op, is_resource_type
from .framework import Pass, erase_op, register_pass
from .lib.ir_helpers import captured_values
from .walk import ADVANCE, INTERRUPT, POST_ORDER


@register_pass
class ReplicateInvariantOpHoistingPass(Pass):
    argument = "tf-replicate-invariant-op-hoisting"
    anchor = FUNC
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, func):
        func = func.operation
        replicates = []
        func.walk(lambda op: (replicates.append(op.operation)
                              if op.operation.name == REPLICATE else None) or ADVANCE,
                  POST_ORDER)
        if not replicates:
            return
        hoister = _Hoister(func)
        for replicate in replicates:
            hoister.hoist(replicate)


class _Replicate:
    """The parts of one ``tf_device.replicate`` the pass reads."""

    def __init__(self, op):
        self.op = op
        view = op.opview
        self.n = ir.IntegerAttr(op.attributes["n"]).value
        self.block = op.regions[0].blocks[0]
        self.replicated = list(view.replicated_inputs)
        self.packed = list(view.packed_inputs)
        self.num_replicated_args = len(self.replicated) // self.n
        self.virtual_devices = set()
        if "devices" in op.attributes:
            devices = ir.DictAttr(op.attributes["devices"])
            self.virtual_devices = {devices[k].name for k in range(len(devices))}

    def operands_of_arg(self, number):
        """The replicate operands bound to block argument `number`, replica 0 first."""
        if number < self.num_replicated_args:
            return self.replicated[number * self.n:(number + 1) * self.n]
        return [self.packed[number - self.num_replicated_args]]

    def on_virtual_device(self, op):
        device = op.attributes["device"] if "device" in op.attributes else None
        return isinstance(device, ir.StringAttr) and device.value in self.virtual_devices


class _Hoister:
    def __init__(self, func):
        self.func = func
        self.analysis = None

    def _side_effects(self):
        if self.analysis is None:
            module = self.func.parent
            self.analysis = SideEffectAnalysis(module.operation if module is not None else self.func)
        return self.analysis

    def hoist(self, op):
        rep = _Replicate(op)
        self._make_shapes_invariant(rep)
        ops = [o.operation for o in rep.block.operations]
        ops = ops[:-1]  # the tf_device.return (the verifier guarantees it)
        predecessors = None
        hoisted = [False] * len(ops)
        for k, inner in enumerate(ops):
            if rep.virtual_devices and self._uses_virtual_device(rep, inner):
                continue
            if not self._invariant(rep, inner):
                continue
            if not is_pure_op(inner.name):
                if predecessors is None:
                    predecessors = self._predecessors(rep, ops)
                if not all(hoisted[p] for p in predecessors[k]):
                    continue
            inner.move_before(op)
            hoisted[k] = True

    # -- tf.Shape ----------------------------------------------------------------

    def _make_shapes_invariant(self, rep):
        shapes = []
        rep.op.walk(lambda o: (shapes.append(o.operation) if o.operation.name == SHAPE else None)
                    or ADVANCE, POST_ORDER)
        for shape in shapes:
            if rep.virtual_devices and self._ancestor_uses_virtual_device(rep, shape):
                continue
            value = shape.operands[0]
            if isinstance(value, ir.BlockArgument):
                if value.owner == rep.block:
                    shape.operands[0] = rep.operands_of_arg(value.arg_number)[0]
                continue
            read = value.owner.operation
            if read.name != READ_VARIABLE:
                continue
            resource = read.operands[0]
            if not isinstance(resource, ir.BlockArgument) or resource.owner != rep.block:
                continue
            variable_shape = ir.Operation.create(
                VARIABLE_SHAPE, results=[shape.results[0].type],
                operands=[rep.operands_of_arg(resource.arg_number)[0]],
                loc=shape.location, ip=ir.InsertionPoint(shape))
            shape.results[0].replace_all_uses_with(variable_shape.results[0])
            erase_op(shape)

    def _ancestor_uses_virtual_device(self, rep, op):
        while op is not None and op.name != REPLICATE:
            if rep.on_virtual_device(op):
                return True
            parent = op.parent
            op = parent.operation if parent is not None else None
        return False

    def _uses_virtual_device(self, rep, op):
        found = []

        def visit(nested):
            if rep.on_virtual_device(nested.operation):
                found.append(True)
                return INTERRUPT
            return ADVANCE

        op.walk(visit, POST_ORDER)
        return bool(found)

    # -- invariance ----------------------------------------------------------------

    def _invariant(self, rep, op):
        """Every value `op` uses is defined outside the replicate, and it is not replica-dependent."""
        if len(op.regions):
            values, _ = captured_values([op])
            ordinal = []
            op.walk(lambda o: (ordinal.append(True)
                               if o.operation.name == TPU_DEVICE_ORDINAL_PLACEHOLDER else None)
                    or ADVANCE, POST_ORDER)
            if ordinal:
                return False
        else:
            if op.name == TPU_DEVICE_ORDINAL_PLACEHOLDER:
                return False
            values = op.operands
        block = rep.block
        for value in values:
            if isinstance(value, ir.BlockArgument):
                if value.owner == block:
                    return False
            elif value.owner.operation.block == block:
                return False
        return True

    # -- side effects ----------------------------------------------------------------

    def _predecessors(self, rep, ops):
        """Control predecessors (indices) of each op of the body, with the replicate's resource
        block arguments aliasing the operands bound to them."""
        analysis = self._side_effects()
        alias = {}
        for arg in rep.block.arguments:
            if not is_resource_type(arg.type):
                continue
            ids = set()
            for operand in rep.operands_of_arg(arg.arg_number):
                ids |= analysis.resource_ids(operand)
            for rid in analysis.resource_ids(arg):
                alias[rid] = alias.get(rid, frozenset()) | frozenset(ids)
        effects = []
        for op in ops:
            if is_pure_op(op.name):
                effects.append({})
                continue
            found = analysis.effects(op)
            if alias and found:
                mapped = {}
                for rid, bits in found.items():
                    for target in alias.get(rid, (rid,)):
                        mapped[target] = mapped.get(target, 0) | bits
                found = mapped
            effects.append(found)
        return analysis.control_predecessors(ops, effects=effects)
