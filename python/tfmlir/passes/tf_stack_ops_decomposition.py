"""Decomposes stack operations into local variable operations.

As TF 2.21's -tf-stack-ops-decomposition, a module pass over the function ``@main`` (nothing
happens without one): a stack becomes two local variables (``tf.MlirLocalVarOp``), one
holding a buffer with every element (a new first dimension for the position in the stack),
one holding the stack's size (``tensor<1xi32>``), read and written with
``tf.ReadVariableOp`` / ``tf.AssignVariableOp``; a later resource lifting pass can remove
the variables. The maximum size must be a ``tf.Const``; the element type is the first
static type a ``tf.StackPushV2`` pushes (found at the stack's uses, following ``tf.While``
/ ``tf.If`` / calls into their functions and identities), not the ``elem_type``
attribute.

* ``tf.StackV2``: both variables, the size assigned 0, the buffer a zero buffer
  (``tf.BroadcastTo``); the handle's uses take the buffer variable;
* ``tf.StackPushV2``: the element is written at the size (``tf.XlaDynamicUpdateSlice``),
  the size grows by one (``tf.AddV2``); the push's result is the pushed element;
* ``tf.StackPopV2``: the size shrinks by one (``tf.Sub``), the element there is read
  (``tf.Slice`` and ``tf.Reshape``); the buffer is left as it is;
* ``tf.StackCloseV2``: removed, the stack is not known after it;
* ``tf.Identity`` / ``tf.IdentityN`` (of any value) are removed.

Stacks cross ``tf.While``, ``tf.If`` and ``tf.PartitionedCall`` /
``tf.StatefulPartitionedCall``: the functions' stack arguments take the buffer variable's
type and a size variable argument is appended for each (the loop body returns it too; the
loop condition's stacks are not known in it); the op is rebuilt with the size variables as
extra operands. A resource result that forwards its operand (the same argument of a loop
body, the same argument of both branches, any argument of a callee) is replaced by that
operand; other resource results are not known stacks. Functions are changed in place, the
loop's and the branches' even when no stack crosses them (their type is set from their
arguments and return). A callee is decomposed once: a private one in place, a public one
whose signature changes in a private copy ``<name>_stack_decomposed`` (added at the end of
the module before it is decomposed), a public one whose signature does not in place.
``tf.WhileRegion`` / ``tf.IfRegion`` / ``tf.CaseRegion`` regions are decomposed in place
(stacks from outside are known there); the ops must not take or give resources.

Failures (TF's messages; the module is left unchanged): "cannot infer element shape of
stack", "unknown max element count", "unknown stack" (a push, pop or call's stack operand
that is not a known stack), "found unexpected type ... of operand #i / result #i, resource
type ... are expected to have been canonicalized away for region based control flow ops",
"stack decomposition does not support call with nested references" (a
``tf.PartitionedCall`` whose callee is not found). Where TF crashes (a function that cannot
be found), a diagnostic says so.

Functions are looked up as MLIR does, from the closest module, nested references
(``@module::@func``) included: a public callee of a nested module whose signature changes is
copied to the end of the top module (the call then names the copy).
"""
from mlir import ir

from ..dialects import tf_type
from .analysis.symbols import symbol_name
from .framework import Pass, erase_op, register_pass
from .lib.collection_ops import (IDENTITY, IDENTITY_N, check_region_op_resources, is_resource_type, Functions, OpBuilder,
                                 element_type_from_access, get_element, init_buffer, is_private,
                                 op_error, r1_const, read_local_variable, recreate_op,
                                 replace_results, run_steps, set_element, set_private,
                                 set_symbol_name, size_type, update_func_type,
                                 write_local_variable)
from .names import (CASE_REGION, IF, IF_REGION, MODULE, PARTITIONED_CALL, RETURN,
                    STATEFUL_PARTITIONED_CALL, WHILE, WHILE_REGION)

STACK = "tf.StackV2"
PUSH = "tf.StackPushV2"
POP = "tf.StackPopV2"
CLOSE = "tf.StackCloseV2"
LOCAL_VAR = "tf.MlirLocalVarOp"


def _entry(func):
    return func.regions[0].blocks[0]


def _terminator(block):
    operations = block.operations
    return operations[len(operations) - 1].operation




def _func_type(func):
    return ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)


def _size_var_type():
    """TF's ``GetSizeVarType``: a resource holding a ``tensor<1xi32>``."""
    return ir.RankedTensorType.get([], tf_type.ResourceType.get([size_type()]))


def _aliased_input(func, index):
    """TF's ``FindAliasedInput``: the argument number result `index` of `func` returns, else -1."""
    value = _terminator(_entry(func)).operands[index]
    return value.arg_number if isinstance(value, ir.BlockArgument) else -1


def _stack_type_lookup(operands, sizes, offset=0):
    """TF's ``find_arg_stack_type``: argument `index` takes the type of operand `index` +
    `offset` when that is a known stack. A function that already gained size arguments has
    more arguments than the op has operands: those are not stacks."""
    def stack_type(index):
        if index + offset >= len(operands):
            return None
        value = operands[index + offset]
        return value.type if value in sizes else None

    return stack_type


def _modify_signature(func, sizes, stack_type, on_new_size_args=None):
    """TF's ``ModifyFunctionSignature``: stack arguments take their variable type and get a
    size variable argument appended (recorded in `sizes` unless None); `on_new_size_args`
    sees the new arguments; then the function's type is set from its arguments and its
    return (whatever changed)."""
    block = _entry(func)
    loc = func.location
    size_var_type = _size_var_type()
    new_args = []
    for index, arg in enumerate(list(block.arguments)):
        var_type = stack_type(index)
        if var_type is None:
            continue
        arg.set_type(var_type)
        size_arg = block.add_argument(size_var_type, loc)
        new_args.append(size_arg)
        if sizes is not None:
            sizes[arg] = size_arg
    if on_new_size_args is not None:
        on_new_size_args(new_args)
    update_func_type(func)


class _CalleeInfo:
    """TF's ``PartitionedCallStackOpsInfo``."""

    def __init__(self):
        self.signature_change = False
        self.decomposed_callee = None
        self.stack_arg_to_size_arg = {}


class _Decomposition:
    def __init__(self, functions):
        self.functions = functions
        self.callees = {}
        self.handlers = {
            IDENTITY: self._identity, IDENTITY_N: self._identity,
            STACK: self._stack, PUSH: self._push, POP: self._pop, CLOSE: self._close,
            WHILE: self._while, IF: self._if,
            WHILE_REGION: self._region_op, IF_REGION: self._region_op,
            CASE_REGION: self._region_op,
            PARTITIONED_CALL: self._partitioned_call,
            STATEFUL_PARTITIONED_CALL: self._stateful_partitioned_call,
        }

    def block(self, block, sizes):
        """TF's ``DecomposeStackOpsInternal`` on the ops of `block` (those there now), nested
        functions and regions included, without Python recursion: a handler that decomposes
        another block yields that block's step (:func:`run_steps`). `sizes` maps each known
        stack's buffer variable to its size variable."""
        run_steps(self._block(block, sizes))

    def _block(self, block, sizes):
        handlers = self.handlers
        for op in list(block.operations):
            op = op.operation
            handler = handlers.get(op.name)
            if handler is not None:
                step = handler(op, sizes)
                if step is not None:
                    yield step

    # -- stack ops ------------------------------------------------------------------------------

    def _identity(self, op, sizes):
        replace_results(op, list(op.operands))

    def _stack(self, op, sizes):
        """TF's ``HandleStackV2Op``."""
        def pushed_type(user):
            return user.operands[1].type if user.name == PUSH else None

        found = element_type_from_access(op.results[0], self.functions, pushed_type)
        if found is None:
            raise op_error(op, "cannot infer element shape of stack")
        b = OpBuilder(op)
        buffer = init_buffer(list(found.shape), op.operands[0], op, found.element_type, b)
        var_type = ir.RankedTensorType.get([], tf_type.ResourceType.get([buffer.type]))
        local_var = b.value(LOCAL_VAR, [], var_type)
        size_var = b.value(LOCAL_VAR, [], _size_var_type())
        write_local_variable(size_var, r1_const([0], b), b)
        write_local_variable(local_var, buffer, b)
        op.results[0].replace_all_uses_with(local_var)
        sizes[local_var] = size_var
        erase_op(op)

    def _size_var(self, op, sizes):
        size_var = sizes.get(op.operands[0])
        if size_var is None:
            raise op_error(op, "unknown stack")
        return size_var

    def _push(self, op, sizes):
        """TF's ``HandleStackPushV2Op``."""
        size_var = self._size_var(op, sizes)
        handle, element = op.operands[0], op.operands[1]
        op.results[0].replace_all_uses_with(element)
        b = OpBuilder(op)
        buffer = read_local_variable(handle, b)
        index = read_local_variable(size_var, b)
        buffer = set_element(index, buffer, element, b)
        write_local_variable(handle, buffer, b)
        new_size = b.value("tf.AddV2", [index, r1_const([1], b)], index.type)
        write_local_variable(size_var, new_size, b)
        erase_op(op)

    def _pop(self, op, sizes):
        """TF's ``HandleStackPopV2Op``."""
        size_var = self._size_var(op, sizes)
        handle = op.operands[0]
        b = OpBuilder(op)
        buffer = read_local_variable(handle, b)
        size = read_local_variable(size_var, b)
        new_size = b.value("tf.Sub", [size, r1_const([1], b)], size.type)
        element = get_element(new_size, buffer, b)
        op.results[0].replace_all_uses_with(element)
        write_local_variable(size_var, new_size, b)
        erase_op(op)

    def _close(self, op, sizes):
        sizes.pop(op.operands[0], None)
        erase_op(op)

    # -- functional control flow ----------------------------------------------------------------

    def _while(self, op, sizes):
        """TF's ``HandleWhileOp``."""
        operands = list(op.operands)
        stack_type = _stack_type_lookup(operands, sizes)
        body = self.functions.branch(op, "body")

        def return_size_args(new_args):
            if not new_args:
                return
            old = _terminator(_entry(body))
            ir.Operation.create(RETURN, operands=list(old.operands) + new_args,
                                loc=old.location, ip=ir.InsertionPoint(old))
            erase_op(old)

        body_sizes = {}
        _modify_signature(body, body_sizes, stack_type, return_size_args)
        signature_change = bool(body_sizes)
        yield self._block(_entry(body), body_sizes)
        # The condition does not change stacks: none is known in it.
        cond = self.functions.branch(op, "cond")
        _modify_signature(cond, None, stack_type)
        yield self._block(_entry(cond), {})
        if not signature_change:
            return
        count = len(op.results)
        new_operands = operands + [sizes[operands[i]] for i in range(count)
                                   if operands[i] in sizes]
        new = recreate_op(op, list(_func_type(body).inputs), new_operands)
        for index in range(count):
            if not is_resource_type(operands[index].type):
                continue
            if _aliased_input(body, index) == index:
                op.results[index].replace_all_uses_with(operands[index])
        replace_results(op, list(new.results)[:count])

    def _if(self, op, sizes):
        """TF's ``HandleIfOp``."""
        then_branch = self.functions.branch(op, "then_branch")
        else_branch = self.functions.branch(op, "else_branch")
        operands = list(op.operands)
        stack_type = _stack_type_lookup(operands, sizes, offset=1)
        then_sizes = {}
        else_sizes = {}
        _modify_signature(then_branch, then_sizes, stack_type)
        _modify_signature(else_branch, else_sizes, stack_type)
        signature_change = bool(then_sizes) or bool(else_sizes)
        yield self._block(_entry(then_branch), then_sizes)
        yield self._block(_entry(else_branch), else_sizes)
        if not signature_change:
            return
        new_operands = operands + [sizes[v] for v in operands if v in sizes]
        new = recreate_op(op, list(_func_type(then_branch).results), new_operands)
        for index, result in enumerate(list(op.results)):
            if not is_resource_type(result.type):
                continue
            then_aliased = _aliased_input(then_branch, index)
            else_aliased = _aliased_input(else_branch, index)
            if then_aliased >= 0 and then_aliased == else_aliased:
                result.replace_all_uses_with(operands[then_aliased + 1])
        replace_results(op, list(new.results))

    def _region_op(self, op, sizes):
        """TF's ``HandleRegionControlFlowOps``: the regions share the known stacks."""
        check_region_op_resources(op)
        for region in op.regions:
            yield self._block(region.blocks[0], sizes)

    # -- calls ----------------------------------------------------------------------------------

    def _partitioned_call(self, op, sizes):
        callee = self.functions.lookup(op, "f")
        if callee is None:
            raise op_error(op, "stack decomposition does not support call with nested "
                               "references")
        return self._call(op, callee, sizes)

    def _stateful_partitioned_call(self, op, sizes):
        return self._call(op, self.functions.branch(op, "f"), sizes)

    def _call(self, call, callee, sizes):
        """TF's ``HandlePartitionedCallOp``."""
        name = symbol_name(callee)
        info = self.callees.get(name)
        if info is not None:
            if info.signature_change:
                self._recreate_caller(call, info, sizes)
            return
        info = self.callees[name] = _CalleeInfo()
        stack_type = _stack_type_lookup(list(call.operands), sizes)
        arg_count = len(_entry(callee).arguments)
        callee_sizes = {}
        if not any(stack_type(index) is not None for index in range(arg_count)):
            # TF changes a copy of a public callee (dropped, its signature unchanged), a
            # private callee in place (its type set again).
            if is_private(callee):
                update_func_type(callee)
            yield self._block(_entry(callee), callee_sizes)
            return
        lowered = callee
        if not is_private(callee):
            lowered = callee.clone()
            set_private(lowered)
        _modify_signature(lowered, callee_sizes, stack_type)
        info.signature_change = True
        info.decomposed_callee = lowered
        for arg, size_arg in callee_sizes.items():
            info.stack_arg_to_size_arg[arg.arg_number] = size_arg.arg_number
        if lowered != callee:
            # Added to the module before it is decomposed.
            set_symbol_name(lowered, f"{name}_stack_decomposed")
            self.functions.insert(lowered)
        yield self._block(_entry(lowered), callee_sizes)
        self._recreate_caller(call, info, sizes)

    def _recreate_caller(self, call, info, sizes):
        operands = list(call.operands)
        new_operands = list(operands)
        for index, value in enumerate(operands):
            if index not in info.stack_arg_to_size_arg:
                continue
            size_var = sizes.get(value)
            if size_var is None:
                raise op_error(call, "unknown stack")
            new_operands.append(size_var)
        callee = info.decomposed_callee
        new = recreate_op(call, list(_func_type(callee).results), new_operands)
        new.attributes["f"] = ir.FlatSymbolRefAttr.get(symbol_name(callee))
        for index, result in enumerate(list(call.results)):
            if not is_resource_type(result.type):
                continue
            aliased = _aliased_input(callee, index)
            if 0 <= aliased < len(operands):
                result.replace_all_uses_with(operands[aliased])
        replace_results(call, list(new.results))


@register_pass
class StackOpsDecompositionPass(Pass):
    argument = "tf-stack-ops-decomposition"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        functions = Functions(module, nested_refs=True)
        main = functions.get("main")
        if main is None:
            self.mark_all_analyses_preserved()
            return
        if not len(main.regions[0].blocks):
            self.fail("'func.func' op @main has no body (TensorFlow crashes here)", main)
        _Decomposition(functions).block(_entry(main), {})
