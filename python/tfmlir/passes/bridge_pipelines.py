"""TF 2.21's TPU clustering bridge as named pipelines.

``tf-replicated-clustering-bridge-v2`` is TF's replicated clustering pipeline
for TF2 programs (TF's ``CreateReplicatedClusteringPipelineV2``: input
validation, then ``AddReplicatedBridgeClusteringPipelinePasses`` of
``clustering_bridge_passes.cc``), with TF's default flags
(``tf_mlir_enable_merge_control_flow_pass`` on, ``tf_mlir_enable_strict_clusters``
off). ``tf-replicated-clustering-bridge-v1`` is what TF registers under that
name: the TF1 front (``CreateReplicatedBridgePipelineV1``) that extracts the
TPU computations of a ``tf_executor`` graph into the nested module
``_tpu_v1_compat_outlined``; TF then runs the clustering passes on that
submodule separately (``RunClusteringPipelineOnSubmodule``), outside the
registered pipeline.

Each is a list of passes by their TF names, so the same text runs in TF
(``tf.mlir.experimental.run_pass_pipeline``) and in tfmlir; the passes that are
not yet part of tfmlir are listed by :func:`missing_passes`.
"""
from .framework import Option, get_pass, register_pipeline

# Ops TF's graph pruning keeps in the bridge even when nothing fetches them.
_OPS_TO_PRESERVE = "tf.TPUReplicateMetadata,tf.TPUCompilationResult,tf.TPUReplicatedOutput"

CLUSTERING_PASSES = (
    f"func.func(tf-executor-graph-pruning{{ops-to-preserve={_OPS_TO_PRESERVE}}}),"
    "func.func(tf-executor-to-functional-conversion),"
    "tf-guarantee-all-funcs-one-use,"
    "tf-shape-inference,"
    "func.func(tf-tpu-partitioned-op-conversion),"
    "func.func(tf-tpu-reorder-replicate-partitioned-inputs),"
    "func.func(tf-decompose-reduce-dataset),"
    "tf-embedding-pipelining,"
    "tf-embedding-sequencing,"
    "tf-tpu-cluster-formation,"
    "tf-guarantee-all-funcs-one-use,"
    "tf-tpu-cleanup-cluster-attributes,"
    "func.func(tf-device-attribute-to-launch),"
    "func.func(canonicalize),"
    "tf-device-decompose-resource-ops-in-cluster,"
    "func.func(tf-tpu-host-computation-expansion),"
    "func.func(tf-tpu-update-embedding-enqueue-op-inputs),"
    "func.func(tf-launch-to-device-attribute),"
    "tf-functional-control-flow-to-regions,"
    "inline,"
    "func.func(tf-drop-while-shape-invariant-in-device-cluster),"
    "tf-shape-inference,"
    "func.func(canonicalize),"
    "tf-tpu-cleanup-cluster-attributes,"
    "tf-resource-op-lifting,"
    "func.func(canonicalize),"
    "func.func(cse),"
    "tf-merge-control-flow,"
    "tf-mark-ops-for-outside-compilation,"
    "tf-extract-head-tail-outside-compilation,"
    "tf-extract-outside-compilation,"
    "func.func(tf-verify-no-outside-compilation-markers),"
    "func.func(tf-device-constant-sinking),"
    "tf-resource-device-inference,"
    "func.func(tf-hoist-broadcast-read),"
    "func.func(tf-xla-broadcast),"
    "tf-device-cluster-outlining,"
    "tf-tpu-resource-read-for-write,"
    "tf-device-mark-input-output-aliases,"
    "tf-tpu-sharding-identification,"
    "func.func(tf-tpu-resource-partition),"
    "tf-annotate-parameter-replication,"
    "func.func(tf-rewrite-tpu-embedding-ops),"
    "tf-tpu-annotate-dynamic-shape-inputs,"
    "func.func(tf-hoist-replicate-invariant-resource-writes),"
    "func.func(verify-clustering-pass)"
)

BRIDGE_V2 = ("tf-tpu-validate-inputs,"
             "func.func(tf-canonicalize-compile-and-replicate-attributes)," + CLUSTERING_PASSES)

BRIDGE_V1 = ("tf-tpu-validate-session-inputs,"
             "func.func(tf-canonicalize-compile-and-replicate-attributes),"
             "tf-guarantee-all-funcs-one-use,"
             "tf-shape-inference,"
             "tf-executor-tpu-v1-island-coarsening,"
             "tf-executor-tpu-v1-island-outlining")

register_pipeline("tf-replicated-clustering-bridge-v2", BRIDGE_V2,
                  "TF's TPU clustering bridge for TF2 programs (cluster formation, outside "
                  "compilation, outlining)")
register_pipeline("tf-replicated-clustering-bridge-v1", BRIDGE_V1,
                  "TF's TPU bridge front for TF1 graphs: TPU computations outlined into the "
                  "nested module _tpu_v1_compat_outlined")

# TF's AddTPULowerClusterToRuntimeOpsPassPipeline (tf_mlir_enable_tpu_variable_runtime_reformatting_pass
# off, TF's default): the clustered program becomes TPU runtime ops.
LOWER_TO_RUNTIME_OPS_TPU = ("tf-tpu-rewrite,"
                            "symbol-dce,"
                            "func.func(tf-replicate-invariant-op-hoisting),"
                            "func.func(tf-embedding-program-key),"
                            "tf-tpu-merge-variables-with-execute,"
                            "func.func(tf-extract-tpu-copy-with-dynamic-shape-op),"
                            "func.func(tf-tpu-colocate-composite-resource-ops)")

register_pipeline("tfrt-lower-cluster-to-runtime-ops-tpu", LOWER_TO_RUNTIME_OPS_TPU,
                  "TF's TPU runtime lowering after clustering: tf_device.cluster_func to "
                  "_TPUCompileMlir / TPUExecute(AndUpdateVariables)")


def tpu_bridge(options=""):
    """The text of ``tf-tpu-bridge{v1-compat=...}``: TF's whole TPU bridge as TF's MLIR bridge
    passes run it before execution. ``v1-compat=false`` (default; TF2 programs): the
    replicated clustering bridge v2, then the runtime lowering. ``v1-compat=true`` (TF1
    graphs, TF's ``MlirBridgeV1CompatPass``): the v1 front outlines the TPU computations of
    the ``tf_executor`` graph into the nested module ``_tpu_v1_compat_outlined``, the
    clustering passes and the runtime lowering run on that module, and
    ``tf-executor-tpu-v1-island-inlining`` inlines it back."""
    from .pipeline import PipelineError, split_options
    option = Option("v1-compat", bool, False)
    v1 = option.default
    for key, value in split_options(options or ""):
        if key.replace("_", "-") != option.name:
            raise PipelineError(f"pipeline 'tf-tpu-bridge' has no option '{key}' (options: v1-compat)")
        v1 = option.parse(value)
    if not v1:
        return BRIDGE_V2 + "," + LOWER_TO_RUNTIME_OPS_TPU
    return (BRIDGE_V1 + ",builtin.module(" + CLUSTERING_PASSES + "," + LOWER_TO_RUNTIME_OPS_TPU
            + "),tf-executor-tpu-v1-island-inlining")


register_pipeline("tf-tpu-bridge", tpu_bridge,
                  "TF's whole TPU bridge: clustering, outside compilation, TPU rewrite to runtime "
                  "ops (option v1-compat=true for TF1 graphs: TPU v1 outlining/inlining around it)")

_UPSTREAM = frozenset({"canonicalize", "cse", "inline", "symbol-dce"})


def pass_names(pipeline_text):
    """The pass names of `pipeline_text`, in order (nesting and options dropped)."""
    from .pipeline import NestedPipeline, parse_pipeline

    names = []

    def visit(elements):
        for element in elements:
            if isinstance(element, NestedPipeline):
                visit(element.elements)
            else:
                names.append(element.name)

    visit(parse_pipeline(pipeline_text))
    return names


def missing_passes(pipeline_text):
    """The passes of `pipeline_text` that tfmlir does not have (neither Python nor upstream)."""
    seen = []
    for name in pass_names(pipeline_text):
        if name not in _UPSTREAM and get_pass(name) is None and name not in seen:
            seen.append(name)
    return seen
