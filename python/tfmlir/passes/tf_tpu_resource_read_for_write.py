"""Adds a read of every resource a TPU computation only writes, so the write can later fuse into TPUExecute.

As TF 2.21's -tf-tpu-resource-read-for-write, for every
``tf_device.cluster_func`` of the module (in post-order):

* a result with exactly one use, a ``tf.AssignVariableOp``, writes the
  variable that op assigns -- unless another ``tf.AssignVariableOp`` of the
  same handle assigns another result of the same cluster_func;
* when no ``tf.ReadVariableOp`` of that handle has a result used by the
  cluster_func or by any ``tf_device.replicate``, a ``tf.ReadVariableOp`` of
  the handle (result type: the written value's type; location: the handle's)
  is created before the cluster_func.

The reads, in result order, become extra operands of a new cluster_func (same
attributes, results and location) and extra arguments of the called function
(location: the cluster_func's), whose type is updated; the old cluster_func
is erased. Argument attributes are not extended (as TF; a callee that has
them then fails verification).

Failure (module unchanged): a callee that is not a function of the module
with a body (TF's process crashes).
"""
from mlir import ir

from .. import irsafe
from .analysis.calls import function_callee
from .names import ASSIGN_VARIABLE, CLUSTER_FUNC, MODULE, READ_VARIABLE, REPLICATE
from .framework import Pass, erase_op, register_pass
from .lib.ir_helpers import ops_named


@register_pass
class TPUResourceReadForWritePass(Pass):
    argument = "tf-tpu-resource-read-for-write"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        cluster_funcs = ops_named(module, CLUSTER_FUNC)
        table = ir.SymbolTable(module.operation) if cluster_funcs else None
        for cluster_func in cluster_funcs:
            _add_reads(cluster_func.operation, table)


def _written_resource(cluster_func, result):
    """(handle, written type) when `result` only feeds a tf.AssignVariableOp, else None."""
    uses = list(result.uses)
    if len(uses) != 1 or uses[0].owner.name != ASSIGN_VARIABLE:
        return None
    assign = uses[0].owner
    handle = assign.operands[0]
    for use in handle.uses:
        other = use.owner
        if other == assign or other.name != ASSIGN_VARIABLE:
            continue
        value = other.operands[1]
        if not isinstance(value.owner, ir.Block) and value.owner.operation == cluster_func:
            return None
    return handle, assign.operands[1].type


def _read_by_cluster(cluster_func, handle):
    for use in handle.uses:
        read = use.owner
        if read.name != READ_VARIABLE:
            continue
        for read_use in read.results[0].uses:
            user = read_use.owner
            if user == cluster_func or user.name == REPLICATE:
                return True
    return False


def _location(value):
    owner = value.owner
    if isinstance(owner, ir.Block):
        return value.location
    return owner.location


def _add_reads(cluster_func, table):
    reads = []
    for result in cluster_func.results:
        written = _written_resource(cluster_func, result)
        if written is None or _read_by_cluster(cluster_func, written[0]):
            continue
        handle, value_type = written
        read = ir.Operation.create(READ_VARIABLE, results=[value_type], operands=[handle],
                                   loc=_location(handle), ip=ir.InsertionPoint(cluster_func))
        reads.append(read.results[0])
    if not reads:
        return
    callee = function_callee(cluster_func, table, with_body=True)
    attributes = irsafe.attribute_dict(cluster_func)
    new = ir.Operation.create(CLUSTER_FUNC, results=[r.type for r in cluster_func.results],
                              operands=list(cluster_func.operands) + reads, attributes=attributes,
                              loc=cluster_func.location, ip=ir.InsertionPoint(cluster_func))
    for old, replacement in zip(cluster_func.results, new.results):
        old.replace_all_uses_with(replacement)
    block = callee.operation.regions[0].blocks[0]
    for read in reads:
        block.add_argument(read.type, cluster_func.location)
    function_type = ir.FunctionType(ir.TypeAttr(callee.operation.attributes["function_type"]).value)
    callee.operation.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get([a.type for a in block.arguments], list(function_type.results)))
    erase_op(cluster_func)
