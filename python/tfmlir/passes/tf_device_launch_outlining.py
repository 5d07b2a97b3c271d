"""Outlines regions of tf_device.launch operations

Moves the body of every ``tf_device.launch`` into a new private function and
replaces the launch by a ``tf_device.launch_func`` calling it, as TF 2.21's
-tf-device-launch-outlining: launches in post-order (nested ones first),
functions appended to the end of the module, named ``@_func`` made unique as
one MLIR SymbolTable does (``_func_0``, ``_func_1`` ...) unless the launch has
a string ``_cluster_outlined_function_name`` (then removed); captured values
become arguments and operands in getUsedValuesDefinedAbove order; the
launch_func keeps ``device`` and every other attribute of the launch.

Option ``globally-unique-func-names`` (default true) is TF's: TF 2.21 declares
it but its pass never reads it, so names are module-unique either way, as
here.

Errors, found before anything changes: a body returning other types than the
launch's results, a launch inside a nested module (TF leaves a launch_func
calling a function it cannot reach), an empty
``_cluster_outlined_function_name`` (see tfmlir.passes.lib.device_outlining).
"""
from .names import LAUNCH, LAUNCH_FUNC
from .lib.device_outlining import outline_all
from .framework import MODULE, Option, Pass, register_pass


@register_pass
class LaunchOutliningPass(Pass):
    argument = "tf-device-launch-outlining"
    anchor = MODULE
    options = [Option("globally-unique-func-names", bool, True,
                      "If true, the pass adds extra identifiers to make function names globally "
                      "unique within a process, not just within a module (declared by TF 2.21, "
                      "which does not use it).")]
    dependent_dialects = ("tf_device", "func")

    def run_on_operation(self, module):
        with module.context:
            outline_all(module.operation, LAUNCH, LAUNCH_FUNC)
