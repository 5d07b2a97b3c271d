"""Validates inputs to the TPU TF/XLA bridge in session api

As TF 2.21's -tf-tpu-validate-session-inputs (the first pass of
tf-replicated-clustering-bridge-v1): warns, never fails, and never changes
the IR.

* Every ``tf.InfeedDequeueTuple`` (post-order) whose ``device`` contains
  ``TPU_REPLICATED_CORE:0`` gets the warning "TPU_REPLICATED_CORE:0 device is
  not supported for op = tf.InfeedDequeueTuple in TF2XLA MLIR Bridge".
* Then every ``tf_executor.graph`` holding an op other than islands (and its
  terminator) gets the warning " is v1 control flow op which is not
  supported in TF2XLA MLIR Bridge." at the first such op.

TF's log-only messages (LOG(WARNING)) are not reproduced. Where TF's process
crashes, the pass fails with a diagnostic: a ``tf.InfeedDequeueTuple`` whose
``device`` is not a string.
"""
from .names import MODULE
from .analysis.tpu_inputs import NotAString, potential_unsupported_op, v1_control_flow_warnings
from .framework import Pass, register_pass
from .walk import ADVANCE, POST_ORDER


@register_pass
class TPUValidateSessionInputsPass(Pass):
    argument = "tf-tpu-validate-session-inputs"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_executor")

    def run_on_operation(self, module):
        self.mark_all_analyses_preserved()  # read-only: the IR is never changed
        module = module.operation
        ops = []

        def collect(op):
            ops.append(op.operation)
            return ADVANCE

        module.walk(collect, POST_ORDER)
        warnings = []
        for op in ops:
            try:
                found = potential_unsupported_op(op)
            except NotAString as err:
                self.fail(str(err), err.op)
            if found is not None:
                warnings.append(found)
        warnings.extend(v1_control_flow_warnings(module))
        for _, op, message in warnings:
            self.warn(message, op)
