"""Decompose composite resource ops inside device clusters and the functions they reach.

The decompositions of -tf-device-decompose-resource-ops (TF 2.21's
``decompose_resource_ops`` patterns), applied where TF's in-cluster pass
applies them:

* Functions reachable from a ``tf_device.cluster``: top-level functions whose
  symbol an op nested in a cluster uses (a call, a ``tf.While`` body, any
  symbol reference), then the functions those use, transitively. Each gets
  the whole-function treatment of -tf-device-decompose-resource-ops (folding,
  constant hoisting and deduplication, dead code removal, region
  simplification), clusters inside it included; functions are not cloned, so
  a reachable function's other callers see the decomposed body too.
* Every ``tf_device.cluster`` (nested ones too) of the other top-level
  functions: its ops are decomposed and folded in place until nothing
  changes -- constants a fold produces stay right before the op they
  replace, nothing is deduplicated or moved out of the cluster, dead ops of
  the cluster are erased; ops outside clusters are not touched.

Functions of nested modules are left alone, as TF does. Fails with TF's
"Resource ops decomposition did not converge" (at the function, or at the
cluster after 20 sweeps), or at an op TF's C++ cannot build (see
-tf-device-decompose-resource-ops); the module is then unchanged.
"""
from mlir import ir

from .names import CLUSTER, FUNC, MODULE
from .lib.decompose_resource_ops import (Patterns, cluster_reachable_functions, decompose_cluster,
                                     decompose_function)
from .framework import Pass, register_pass


@register_pass
class DecomposeResourceOpsInCluster(Pass):
    argument = "tf-device-decompose-resource-ops-in-cluster"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        patterns = Patterns()
        reachable = cluster_reachable_functions(module)
        for func in reachable.values():
            decompose_function(func, patterns)
        for op in module.regions[0].blocks[0].operations:
            op = op.operation
            if op.name != FUNC or any(op == r for r in reachable.values()):
                continue
            clusters = []

            def collect(nested):
                if nested.name == CLUSTER:
                    clusters.append(nested.operation)
                return ir.WalkResult.ADVANCE

            op.walk(collect)
            for cluster in clusters:
                decompose_cluster(cluster, patterns)
