"""Folds tf.Identity / tf.IdentityN ops that copy a tensor to the device it is already on.

As TF 2.21's -tf-tensor-device-copy (``TensorDeviceCopyConversionPass``), on each
function: first every ``tf.Identity`` (in post-order, nested regions included),
then every ``tf.IdentityN``, is replaced by its operand(s) and erased when each
operand may be forwarded. An operand may be forwarded when:

* the identity's ``device`` contains ``TPU``, or the operand is a result of
  ``tf.TPUExecute`` / ``tf.TPUExecuteAndUpdateVariables`` (TFRT's TPU transfers
  are explicit);
* the operand is an argument of the function (of any block of its body) whose
  ``tf.device`` argument attribute equals the identity's ``device`` -- an
  argument of a nested region (a loop body) is never forwarded;
* the operand's defining op has a string ``device`` equal to the identity's;
* the operand's device is not known (no string ``device`` attribute, no
  ``tf.device`` argument attribute).

An identity without a ``device`` attribute is not on the device of an operand
that has one (even the empty one). Identities are decided one after another,
so an identity fed by a folded identity is decided on what that one forwarded.
The pass cannot fail (a forwarded value of another type than the identity's
result makes the IR invalid, which the verifier after the pass reports, as in
TF).
"""
from mlir import ir

from . import attributes
from .framework import Pass, erase_op, register_pass
from .lib.ir_helpers import arg_attr, ops_named

IDENTITY = "tf.Identity"
IDENTITY_N = "tf.IdentityN"
_TPU_EXECUTE = ("tf.TPUExecute", "tf.TPUExecuteAndUpdateVariables")


@register_pass
class TensorDeviceCopyConversionPass(Pass):
    argument = "tf-tensor-device-copy"

    def run_on_operation(self, func):
        func = func.operation
        body = func.regions[0]
        changed = False
        for name in (IDENTITY, IDENTITY_N):
            for op in ops_named(func, name):
                device = attributes.string(op, "device")
                operands = list(op.operands)
                if not all(self._same_device(func, body, value, device) for value in operands):
                    continue
                for result, value in zip(op.results, operands):
                    result.replace_all_uses_with(value)
                erase_op(op)
                changed = True
        if not changed:
            self.mark_all_analyses_preserved()

    @staticmethod
    def _same_device(func, body, value, device):
        """TF's ``should_fold_op_func``: may `value` be forwarded past an identity on `device`
        (None: the identity has no string ``device``)?"""
        if device is not None and "TPU" in device:
            return True
        if isinstance(value, ir.BlockArgument):
            if value.owner.region != body:
                return False
            attr = arg_attr(func, value.arg_number, "tf.device")
            if isinstance(attr, ir.StringAttr):
                return attr.value == device
            return True
        owner = value.owner.operation
        if owner.name in _TPU_EXECUTE:
            return True
        source = attributes.string(owner, "device")
        if source is not None:
            return source == device
        return True
