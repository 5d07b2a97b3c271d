"""What TF's collection decompositions share: buffers standing for tensor lists and arrays.

Helpers of ``-tf-tensor-list-ops-decomposition``, ``-tf-tensor-array-ops-decomposition`` and
``-tf-stack-ops-decomposition`` (no pass here), as TF 2.21's ``collection_ops_util``: a
collection of ``N`` elements of shape ``S`` becomes one buffer tensor of shape ``[N] + S``.
Every op is built where TF's builder stands (before an op, :class:`~.tf_builders.OpBuilder`),
in TF's order, with the result types TF's builders give it (``GetTypeFromTFTensorShape``: a
dimension ``-1`` is unknown):

* :func:`scalar_const` / :func:`r1_const` -- ``tf.Const`` scalars (i32) and vectors (i32 or
  i64; values wrap to the width, as TF's ``APInt`` does);
* :func:`size_type` / :func:`reshape_scalar_to_size_type` -- sizes and indices are
  ``tensor<1xi32>``;
* :func:`get_element` / :func:`set_element` -- one element read with ``tf.Slice`` (and
  ``tf.Reshape``), written with ``tf.XlaDynamicUpdateSlice``;
* :func:`init_buffer` -- a zero buffer (``tf.BroadcastTo`` of a zero, cast to the element
  type), its size a constant or a ``tf.Const`` operand ("unknown max element count");
* :func:`element_type_from_access` -- the element type found at the uses of a collection,
  following ``tf.While`` / ``tf.If`` / calls into their functions and identities;
* :func:`read_local_variable` / :func:`write_local_variable` -- ``tf.ReadVariableOp`` /
  ``tf.AssignVariableOp`` of a local variable holding a buffer;
* :func:`accumulate_buffers`, :func:`gather_elements`, :func:`scatter_accumulate_elements` --
  adding buffers, gathering elements (a ``tf.Slice`` for contiguous constant indices, else
  ``tf.GatherV2``), scattering with accumulation (element by element).

The passes' common mechanics are here too: :func:`update_func_type`, :func:`op_error`,
:func:`const_ints`, :func:`recreate_op` (an op rebuilt with more operands and results, its
regions moved over), :func:`run_steps` (nested decomposition without Python recursion) and
:class:`Functions` (the module's functions as the passes look them up from an op --
nothing from a function not yet in the module, as in TF -- and insert them with MLIR's
``SymbolTable`` renaming).
"""
import numpy as np
from mlir import ir

from ... import irsafe
from ...dialects import tf_type
from ..walk import trampoline
from ..analysis.executor import op_key
from ..analysis.symbols import module_body, symbol_name, symbol_ops
from ..framework import PassFailure, erase_op
from ..names import CALLEE_ATTRS, CONST, FUNC, IF, MODULE, WHILE
from .ir_helpers import unique_symbol
from .tf_builders import OpBuilder, element_type

__all__ = ["OpBuilder", "op_error", "tf_tensor_type", "const_ints", "scalar_const", "r1_const",
           "size_type", "reshape_scalar_to_size_type", "indices_for_element", "get_element",
           "set_element", "init_buffer", "element_type_from_access", "read_local_variable",
           "write_local_variable", "accumulate_buffers", "gather_elements",
           "scatter_accumulate_elements", "update_func_type", "recreate_op", "Functions",
           "resource_subtype", "wrap_int", "run_steps", "IDENTITY", "IDENTITY_N",
           "is_resource_type", "check_region_op_resources"]

_DYNAMIC = ir.ShapedType.get_dynamic_size()
_TF_DYNAMIC = -1  # tensorflow::kTFDynamicSize

IDENTITY = "tf.Identity"
IDENTITY_N = "tf.IdentityN"
CAST = "tf.Cast"


def op_error(op, message):
    """TF's ``op->emitOpError(message)``: a PassFailure at `op`."""
    return PassFailure(f"'{op.operation.name}' op {message}", op)


# -- types and constants --------------------------------------------------------------------

def is_resource_type(value_type):
    """Whether `value_type` is a tensor of ``!tf_type.resource``."""
    return tf_type.ResourceType.isinstance(element_type(value_type))


def check_region_op_resources(op):
    """TF's check in ``HandleRegionControlFlowOps`` (stacks and tensor arrays): resource
    operands and results of region control flow must have been canonicalized away."""
    for number, operand in enumerate(op.operands):
        if is_resource_type(operand.type):
            raise op_error(op, f"found unexpected type '{operand.type}' of operand #{number}, "
                               f"resource type operands are expected to have been canonicalized "
                               f"away for region based control flow ops")
    for number, result in enumerate(op.results):
        if is_resource_type(result.type):
            raise op_error(op, f"found unexpected type '{result.type}' of result #{number}, "
                               f"resource type results are expected to have been canonicalized "
                               f"away for region based control flow ops")


def tf_tensor_type(shape, element):
    """TF's ``GetTypeFromTFTensorShape``: a ranked tensor type, ``-1`` standing for unknown."""
    return ir.RankedTensorType.get([_DYNAMIC if d == _TF_DYNAMIC else d for d in shape], element)


def wrap_int(value, bits):
    """`value` as an ``APInt`` of `bits` bits keeps it (two's complement), read back signed."""
    mask = (1 << bits) - 1
    value &= mask
    return value - (1 << bits) if value >> (bits - 1) else value


def _int_attr(values, shape, bits):
    dtype = np.int32 if bits == 32 else np.int64
    array = np.array([wrap_int(int(v), bits) for v in values], dtype=dtype).reshape(shape)
    return ir.DenseElementsAttr.get(array, type=ir.IntegerType.get_signless(bits))


def const_ints(value):
    """The integers of `value` when a ``tf.Const`` defines it (TF's ``dyn_cast<TF::ConstOp>`` of
    the defining op and ``getValues<APInt>``, sign-extended), else None."""
    if not isinstance(value, ir.OpResult):
        return None
    owner = value.owner.operation
    if owner.name != CONST:
        return None
    attr = owner.attributes["value"]
    if isinstance(attr, ir.DenseIntElementsAttr):
        return [int(x) for x in ir.DenseIntElementsAttr(attr)]
    return None


def scalar_const(value, b):
    """TF's ``CreateScalarConst``: an i32 scalar ``tf.Const``."""
    return b.const(_int_attr([value], [], 32))


def r1_const(values, b, bitwidth=32):
    """TF's ``GetR1Const``: a rank-1 ``tf.Const`` of `bitwidth`-bit integers."""
    values = list(values)
    return b.const(_int_attr(values, [len(values)], bitwidth))


def size_type():
    """TF's ``GetSizeType``: ``tensor<1xi32>``."""
    return ir.RankedTensorType.get([1], ir.IntegerType.get_signless(32))


def reshape_scalar_to_size_type(b, scalar):
    """TF's ``ReshapeScalarToSizeType``: `scalar` reshaped to ``tensor<1xi32>``."""
    result = size_type()
    return b.value("tf.Reshape", [scalar, r1_const(result.shape, b)], result)


def resource_subtype(value_type):
    """The first subtype of the resource `value_type` holds (a local variable's buffer type)."""
    subtypes = list(tf_type.ResourceType(element_type(value_type)).subtypes)
    return subtypes[0] if subtypes else None


# -- elements of a buffer -------------------------------------------------------------------

def indices_for_element(index, buffer, b):
    """TF's ``GetIndicesForElement``: the start indices of element `index` (``tensor<1xi32>``)
    in `buffer`: `index` itself for a rank-1 buffer, else `index` followed by zeros."""
    rank = ir.RankedTensorType(buffer.type).rank
    if rank == 1:
        return index
    zeros = r1_const([0] * (rank - 1), b)
    axis = scalar_const(0, b)
    return b.value("tf.ConcatV2", [index, zeros, axis],
                   tf_tensor_type([rank], element_type(index.type)))


def get_element(index, buffer, b, keep_slice_shape=False):
    """TF's ``GetElement``: element `index` of `buffer` (a ``tf.Slice`` with a leading dimension
    of 1, reshaped away unless `keep_slice_shape`)."""
    buffer_type = ir.RankedTensorType(buffer.type)
    slice_size = list(buffer_type.shape)
    slice_size[0] = 1
    size = r1_const(slice_size, b)
    slice_type = tf_tensor_type(slice_size, buffer_type.element_type)
    starts = indices_for_element(index, buffer, b)
    sliced = b.value("tf.Slice", [buffer, starts, size], slice_type)
    if keep_slice_shape:
        return sliced
    element_shape = list(buffer_type.shape)[1:]
    element = tf_tensor_type(element_shape, buffer_type.element_type)
    return b.value("tf.Reshape", [sliced, r1_const(ir.RankedTensorType(element).shape, b)], element)


def set_element(index, buffer, element, b):
    """TF's ``SetElement``: `buffer` with element `index` replaced by `element` (reshaped to a
    leading dimension of 1 unless it has that type already)."""
    buffer_type = ir.RankedTensorType(buffer.type)
    slice_shape = list(buffer_type.shape)
    slice_shape[0] = 1
    slice_type = tf_tensor_type(slice_shape, buffer_type.element_type)
    update = element
    if element.type != slice_type:
        update = b.value("tf.Reshape", [element, r1_const(slice_shape, b)], slice_type)
    starts = indices_for_element(index, buffer, b)
    return b.value("tf.XlaDynamicUpdateSlice", [buffer, update, starts], buffer.type)


def init_buffer(element_shape, max_size, op, element_dtype, b):
    """TF's ``CreateInitBufferValue``: a zero buffer of `max_size` elements of `element_shape`
    and `element_dtype`. `max_size` is an int or a value a ``tf.Const`` defines (else
    PassFailure "unknown max element count" at `op`)."""
    if isinstance(max_size, ir.Value):
        values = const_ints(max_size)
        if values is None:
            raise op_error(op, "unknown max element count")
        max_size = values[0]
    buffer_shape = [max_size] + list(element_shape)
    zero = scalar_const(0, b)
    if element_type(zero.type) != element_dtype:
        zero = b.value(CAST, [zero], tf_tensor_type([], element_dtype))
    buffer_type = tf_tensor_type(buffer_shape, element_dtype)
    return b.value("tf.BroadcastTo", [zero, r1_const(buffer_shape, b)], buffer_type)


def element_type_from_access(collection, functions, infer_from_op):
    """TF's ``GetElementTypeFromAccess``: the first static element type `infer_from_op(user)`
    gives at a use of `collection` (in use-list order), following ``tf.While`` (body),
    ``tf.If`` (then, else) and calls into their function's argument and ``tf.Identity`` /
    ``tf.IdentityN`` to their result (depth first, as TF's recursion, without Python's);
    None if none."""
    stack = [iter(list(collection.uses))]
    while stack:
        use = next(stack[-1], None)
        if use is None:
            stack.pop()
            continue
        owner = use.owner.operation
        name = owner.name
        number = use.operand_number
        if name == WHILE:
            body = functions.branch(owner, "body")
            stack.append(iter(list(_argument(body, number).uses)))
        elif name == IF:
            then_branch = functions.branch(owner, "then_branch")
            else_branch = functions.branch(owner, "else_branch")
            stack.append(iter(list(_argument(then_branch, number - 1).uses)
                              + list(_argument(else_branch, number - 1).uses)))
        elif name in CALLEE_ATTRS:
            callee = functions.branch(owner, CALLEE_ATTRS[name])
            stack.append(iter(list(_argument(callee, number).uses)))
        elif name in (IDENTITY, IDENTITY_N):
            stack.append(iter(list(owner.results[number].uses)))
        else:
            found = infer_from_op(owner)
            if isinstance(found, ir.RankedTensorType) and ir.RankedTensorType(found).has_static_shape:
                return ir.RankedTensorType(found)
    return None


def _argument(func, number):
    return func.regions[0].blocks[0].arguments[number]


# -- local variables ------------------------------------------------------------------------

def read_local_variable(var, b):
    """TF's ``ReadLocalVariable``: a ``tf.ReadVariableOp`` of the buffer `var` holds."""
    return b.value("tf.ReadVariableOp", [var], resource_subtype(var.type))


def write_local_variable(var, value, b):
    """TF's ``WriteLocalVariable``: a ``tf.AssignVariableOp`` of `value` to `var`."""
    return b.op("tf.AssignVariableOp", [var, value])


def accumulate_buffers(a, c, b):
    """TF's ``AccumulateBuffers``: ``tf.LogicalOr`` of booleans, else ``tf.AddV2`` (typed as
    `a`)."""
    name = "tf.LogicalOr" if element_type(a.type) == ir.IntegerType.get_signless(1) else "tf.AddV2"
    return b.value(name, [a, c], a.type)


def _first_if_contiguous(indices):
    """TF's ``GetFirstIfIndicesAreContiguous``: the first of constant ranked `indices` that count
    up by one, else -1 (literally TF's loop, a first index of -1 included)."""
    if not isinstance(indices.type, ir.RankedTensorType):
        return -1
    values = const_ints(indices)
    if values is None:
        return -1
    last = first = -1
    for value in values:
        if last == -1:
            last = first = value
            continue
        if last + 1 != value:
            return -1
        last += 1
    return first


def gather_elements(indices, buffer, b):
    """TF's ``GatherElements``: the elements of `buffer` at `indices` (a ``tf.Slice`` when they
    are contiguous constants, else a ``tf.GatherV2`` on axis 0)."""
    buffer_type = ir.RankedTensorType(buffer.type)
    result_shape = list(buffer_type.shape)
    result_shape[0] = ir.RankedTensorType(indices.type).shape[0]
    start = _first_if_contiguous(indices)
    result_type = tf_tensor_type(result_shape, buffer_type.element_type)
    if start >= 0:
        starts = [0] * len(result_shape)
        starts[0] = start
        return b.value("tf.Slice", [buffer, r1_const(starts, b), r1_const(result_shape, b)],
                       result_type)
    return b.value("tf.GatherV2", [buffer, indices, scalar_const(0, b)], result_type)


def scatter_accumulate_elements(indices, updates, buffer, b):
    """TF's ``ScatterAccumulateElements``: `buffer` with the slices of `updates` added at
    `indices` (the whole buffer at once when the indices count up from 0 and the types
    match, else element by element, as TF's old bridge)."""
    buffer_type = ir.RankedTensorType(buffer.type)
    updates_type = ir.RankedTensorType(updates.type)
    if _first_if_contiguous(indices) == 0 and buffer.type == updates.type:
        return accumulate_buffers(buffer, updates, b)
    per_slice_shape = list(buffer_type.shape)
    per_slice_shape[0] = 1
    slice_sizes = r1_const(per_slice_shape, b)
    starts_in_update = [0] * buffer_type.rank
    for i in range(updates_type.shape[0]):
        index = b.value("tf.Slice", [indices, r1_const([i], b), r1_const([1], b)], size_type())
        old_slice = get_element(index, buffer, b, keep_slice_shape=True)
        starts_in_update[0] = i
        update_starts = r1_const(starts_in_update, b)
        piece = b.value("tf.Slice", [updates, update_starts, slice_sizes], old_slice.type)
        piece = accumulate_buffers(old_slice, piece, b)
        buffer = set_element(index, buffer, piece, b)
    return buffer


# -- functions and ops ----------------------------------------------------------------------

def update_func_type(func):
    """TF's ``UpdateFuncType``: `func`'s type from its arguments and its terminator's operands."""
    block = func.regions[0].blocks[0]
    operations = block.operations
    terminator = operations[len(operations) - 1].operation
    func_type = ir.FunctionType.get([a.type for a in block.arguments],
                                    [v.type for v in terminator.operands])
    func.attributes["function_type"] = ir.TypeAttr.get(func_type)


def recreate_op(op, result_types, operands, ip=None):
    """A new op like `op` (name, attributes, location) with `result_types` and `operands`,
    created before `op` (or at `ip`); the blocks of `op`'s regions move over (MLIR's
    ``takeBody``). Uses and `op` itself are left to the caller."""
    op = op.operation
    attributes = irsafe.attribute_dict(op)
    new = ir.Operation.create(op.name, results=list(result_types), operands=list(operands),
                              attributes=attributes, regions=len(op.regions), loc=op.location,
                              ip=ip or ir.InsertionPoint(op))
    for old_region, new_region in zip(op.regions, new.regions):
        for block in list(old_region.blocks):
            block.append_to(new_region)
    return new


def run_steps(root):
    """Runs generator `root` to its end without Python recursion (however deep functions and
    regions nest): where a step needs another one done (a nested block), it yields that
    step's generator and gets its return value back; exceptions reach the yielding step."""
    return trampoline(root)


def replace_results(op, values):
    """Replaces the uses of `op`'s results by `values` (one per result), then erases `op`."""
    for result, value in zip(op.results, values):
        result.replace_all_uses_with(value)
    erase_op(op)


class Functions:
    """The module's functions as TF's decompositions look them up and add them.

    :meth:`branch` is TF's ``lookupNearestSymbolFrom``: the function an attribute of `op`
    names, looked up in the module `op` is in. An op of a function not in the module (a
    callee clone TF decomposes before inserting it) finds nothing: :meth:`branch` raises
    PassFailure where TF would crash, :meth:`lookup` returns None. With `nested_refs`, the
    lookup is MLIR's in full: from the closest module around `op` (a nested module's own
    symbols), nested references (``@module::@func``) included; without it, flat references
    name functions of the top module only.
    """

    def __init__(self, module, nested_refs=False):
        self.module = module.operation
        self.table = {}
        for op in module_body(self.module).operations:
            op = op.operation
            name = symbol_name(op)
            if name is not None and name not in self.table:
                self.table[name] = op
        self.names = set(self.table)
        self.nested_refs = nested_refs
        self._nested_tables = {}

    def get(self, name):
        op = self.table.get(name)
        return op if op is not None and op.name == FUNC else None

    def attached(self, op):
        """Whether `op` is nested in the module (not in a detached function)."""
        parent = op.operation.parent
        while parent is not None:
            parent = parent.operation
            if parent == self.module:
                return True
            parent = parent.parent
        return False

    def lookup(self, op, attr_name):
        """The ``func.func`` with a body that attribute `attr_name` of `op` (a flat symbol
        reference) names, or None."""
        op = op.operation
        if attr_name not in op.attributes:
            return None
        attr = op.attributes[attr_name]
        if self.nested_refs:
            func = self._resolve(op, attr)
        elif not isinstance(attr, ir.FlatSymbolRefAttr) or not self.attached(op):
            return None
        else:
            func = self.get(ir.FlatSymbolRefAttr(attr).value)
        if func is None or func.name != FUNC or not len(func.regions[0].blocks):
            return None
        return func

    def _resolve(self, op, attr):
        """MLIR's ``lookupNearestSymbolFrom(op, attr)`` for `op` in the module: the symbol the
        (flat or nested) reference `attr` names from the closest module around `op`."""
        if isinstance(attr, ir.FlatSymbolRefAttr):
            path = [ir.FlatSymbolRefAttr(attr).value]
        elif isinstance(attr, ir.SymbolRefAttr):
            path = list(ir.SymbolRefAttr(attr).value)
        else:
            return None
        scope = None
        parent = op.parent
        while parent is not None:
            parent = parent.operation
            if scope is None and parent.name == MODULE:
                scope = parent
            if parent == self.module:
                break
            parent = parent.parent
        if parent is None:
            return None  # not in the module
        found = None
        for index, part in enumerate(path):
            if index and (found is None or found.name != MODULE):
                return None
            found = self._symbols(scope if index == 0 else found).get(part)
        return found

    def _symbols(self, module):
        if module == self.module:
            return self.table
        key = op_key(module)
        table = self._nested_tables.get(key)
        if table is None:
            table = self._nested_tables[key] = symbol_ops(module)
        return table

    def branch(self, op, attr_name):
        """:meth:`lookup`, or PassFailure where TF dereferences the missing function."""
        func = self.lookup(op, attr_name)
        if func is None:
            raise op_error(op, f"cannot find the function its '{attr_name}' attribute names with "
                               f"a body in the module (TensorFlow crashes here)")
        return func

    def insert(self, func):
        """MLIR's ``SymbolTable(module).insert``: the detached `func` goes to the end of the
        module, renamed ``name_0``, ``name_1`` ... if its name is taken."""
        name = unique_symbol(self.names, symbol_name(func))
        if name != symbol_name(func):
            func.attributes["sym_name"] = ir.StringAttr.get(name)
        ir.InsertionPoint(module_body(self.module)).insert(func)
        self.table[name] = func
        return name

    def erase(self, func):
        name = symbol_name(func)
        if self.table.get(name) == func:
            del self.table[name]
            self.names.discard(name)
        erase_op(func)


def set_symbol_name(func, name):
    func.attributes["sym_name"] = ir.StringAttr.get(name)


def is_private(func):
    attributes = func.attributes
    return ("sym_visibility" in attributes
            and ir.StringAttr(attributes["sym_visibility"]).value == "private")


def set_private(func):
    func.attributes["sym_visibility"] = ir.StringAttr.get("private")
