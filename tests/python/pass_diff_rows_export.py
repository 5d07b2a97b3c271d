"""Differential rows: preparing TPU computations for export to TF graphs.

Inputs besides the common ones: the chunks of the ``-invalid.mlir`` lit files
(``invalid``), where TF's verifier of ``tf._XlaHostComputeMlir`` or the pass
itself fails with the message tfmlir must give; TPU programs at several stages
of TF's bridge (``tpu``, ``tpu_programs``, ``tpu_clusters``, ``tpu_resources``,
``tpu_partitioned``, ``bridge``, ``replicate``: the last two hold
``tf._XlaHostComputeMlir`` ops under device clusters, where TF's pass fails);
control flow, call graph and embedding programs (the greedy driver folds them).
"""
from pass_diff import Row

_FLAGS = ("prepare-tpu-computation-for-tf-export",)
_EXTRA = ("invalid", "tpu", "tpu_programs", "tpu_clusters", "tpu_resources", "tpu_partitioned",
          "bridge", "replicate", "control_flow", "call_graph", "embedding")
_INVALID = "lit:prepare-tpu-computation-for-tf-export-invalid.mlir"

# Inputs where TF's process dies; tfmlir fails with the given diagnostic instead.
_TF_CRASHES = {
    "@sharded_declaration(": "has a 'mhlo.sharding' but the function has no body",
    "@bodiless_host_func(": "'host_func' in 'host_mlir_module' has no body",
    "@used_by_a_function_attribute(": "holds or uses tf/xla communication ops outside any function",
}

# Several ops that may not hold communication ops do (device clusters, launches, replicates,
# islands ...): TF reports the first in the region it visits first, its regions being a hash set
# of pointers (the op named changes from run to run); tfmlir reports the first in module order.
_REGION_ORDER = "TF's regions come from a hash set: which unsupported op it names varies"
_KNOWN = {
    f"{_INVALID}#5": _REGION_ORDER,
    **{f"bridge:{program}{variant}": _REGION_ORDER
       for program in ("rewrite_outside_compilation", "replicate_outside_compilation", "rewrite_while")
       for variant in ("", ".launch_funcs", ".clusters")},
    "replicate:bridge_rewrite_outside_unaliased": _REGION_ORDER,
    # TF builds a tf.XlaHostCompute without shape_inference_graph, an attribute tfmlir's
    # dialect requires (TF's ODS has it optional): tfmlir fails instead.
    f"{_INVALID}#10": "tfmlir's tf.XlaHostCompute requires shape_inference_graph",
    # The greedy driver folds the whole module, as canonicalize does (pass_diff_rows_upstream).
    **{f"cf:keras_rnn_{form}": "TF materializes folded constants with the op's dynamic result "
                               "type; tfmlir's materializer builds only constants of the value's "
                               "own type" for form in ("functional", "regions")},
}

ROWS = [
    Row("prepare-tpu-computation-for-tf-export", "prepare-tpu-computation-for-tf-export", _FLAGS,
        _EXTRA, _TF_CRASHES, known_differences=_KNOWN),
]
