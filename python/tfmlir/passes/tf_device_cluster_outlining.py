"""Outlines regions of tf_device.cluster operations

Moves the body of every ``tf_device.cluster`` into a new private function and
replaces the cluster by a ``tf_device.cluster_func`` calling it, as TF 2.21's
-tf-device-cluster-outlining:

* clusters are outlined in post-order (a cluster nested in another first),
  every function appended to the end of the module;
* values the body uses but does not define become the function's arguments
  and the call's operands, in MLIR's getUsedValuesDefinedAbove order;
* the function is ``@_func`` (made unique as one MLIR SymbolTable does for the
  whole run: ``_func_0``, ``_func_1`` ...), or the cluster's string
  ``_cluster_outlined_function_name`` (then removed);
* the cluster_func carries every attribute of the cluster (``_replication_info``,
  ``device``, ``num_cores_per_replica``, ``policy`` ...).

Errors, found before anything changes: a body returning other types than the
cluster's results, a cluster inside a nested module, an empty
``_cluster_outlined_function_name`` (see tfmlir.passes.lib.device_outlining).
"""
from .names import CLUSTER, CLUSTER_FUNC
from .lib.device_outlining import outline_all
from .framework import MODULE, Pass, register_pass


@register_pass
class ClusterOutliningPass(Pass):
    argument = "tf-device-cluster-outlining"
    anchor = MODULE
    dependent_dialects = ("tf_device", "func")

    def run_on_operation(self, module):
        with module.context:
            outline_all(module.operation, CLUSTER, CLUSTER_FUNC)
