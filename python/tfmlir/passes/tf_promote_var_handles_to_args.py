"""Promote tf.VarHandleOps to function arguments.

As TF 2.21's -tf-promote-var-handles-to-args, a module pass over every
function directly in the module, in order. Each must have exactly one block
("expects function 'f' to have 1 block, got N"; a declaration has 0). Every
``tf.VarHandleOp`` directly in the body, except those with
``_is_initialized = false``, is replaced by a new resource argument (its
result type) appended to the function, one argument per ``shared_name`` (in
order of first appearance; later handles of the same name use it). Each new
argument gets ``tf.resource_name`` (the shared name). The users of the
handles are left as they are (any op may use them). See
-tf-promote-resources-to-args for promoting the reads and writes too.
"""
from .framework import MODULE, Pass, register_pass
from .lib.functional_resource_lifting import function_type, set_arg_attrs
from .names import FUNC
from .tf_promote_resources_to_args import (RESOURCE_NAME_ATTR, check_single_block,
                                           promote_var_handles_to_arguments)


@register_pass
class PromoteVarHandlesToArgsPass(Pass):
    argument = "tf-promote-var-handles-to-args"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        body = module.operation.regions[0].blocks[0]
        for func in list(body.operations):
            func = func.operation
            if func.name != FUNC:
                continue
            check_single_block(func)
            names = promote_var_handles_to_arguments(func, validate=False)
            offset = len(function_type(func).inputs) - len(names)
            set_arg_attrs(func, [(offset + index, RESOURCE_NAME_ATTR, name)
                                 for index, name in enumerate(names)])
