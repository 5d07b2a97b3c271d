"""Names of the structural ops passes look for, defined once for every pass and analysis."""

MODULE = "builtin.module"
FUNC = "func.func"
RETURN = "func.return"
CALL = "func.call"
CALL_INDIRECT = "func.call_indirect"

GRAPH = "tf_executor.graph"
ISLAND = "tf_executor.island"
YIELD = "tf_executor.yield"
FETCH = "tf_executor.fetch"
NEXT_ITERATION_SOURCE = "tf_executor.NextIteration.Source"
NEXT_ITERATION_SINK = "tf_executor.NextIteration.Sink"

LAUNCH = "tf_device.launch"
LAUNCH_FUNC = "tf_device.launch_func"
CLUSTER = "tf_device.cluster"
CLUSTER_FUNC = "tf_device.cluster_func"
REPLICATE = "tf_device.replicate"
PARALLEL_EXECUTE = "tf_device.parallel_execute"
DEVICE_RETURN = "tf_device.return"

IF = "tf.If"
CASE = "tf.Case"
WHILE = "tf.While"
IF_REGION = "tf.IfRegion"
CASE_REGION = "tf.CaseRegion"
WHILE_REGION = "tf.WhileRegion"
TF_YIELD = "tf.Yield"
CONST = "tf.Const"
PARTITIONED_CALL = "tf.PartitionedCall"
STATEFUL_PARTITIONED_CALL = "tf.StatefulPartitionedCall"
LEGACY_CALL = "tf.LegacyCall"
TPU_PARTITIONED_CALL = "tf.TPUPartitionedCall"
REMOTE_CALL = "tf.RemoteCall"
TO_BOOL = "tf.ToBool"
CAST = "tf.Cast"
GENERATOR_DATASET = "tf.GeneratorDataset"
GENERATOR_DATASET_REGION = "tf.GeneratorDatasetRegion"

# Ops with MLIR's ConstantLike trait that fold to their value (what ``m_Constant()`` matches):
# tf.Const is TF's only one; the rest are upstream dialects' constants.
CONSTANT_LIKE = frozenset({"tf.Const", "arith.constant", "func.constant", "complex.constant",
                           "ub.poison", "tosa.const", "spirv.Constant", "llvm.mlir.constant",
                           "stablehlo.constant", "mhlo.constant"})

SHAPE = "tf.Shape"
VARIABLE_SHAPE = "tf.VariableShape"
READ_VARIABLE = "tf.ReadVariableOp"
ASSIGN_VARIABLE = "tf.AssignVariableOp"
TPU_DEVICE_ORDINAL_PLACEHOLDER = "tf._TPUDeviceOrdinalPlaceholder"

# Ops with MLIR's CallOpInterface that call a symbol (TF's call ops, func.call,
# tf_device.cluster_func) and the attribute naming the callee; func.call_indirect calls a value.
CALLEE_ATTRS = {CALL: "callee", PARTITIONED_CALL: "f", STATEFUL_PARTITIONED_CALL: "f",
                LEGACY_CALL: "f", TPU_PARTITIONED_CALL: "f", REMOTE_CALL: "f", CLUSTER_FUNC: "func"}

# TPU programs as TF's graph import writes them (before cluster formation).
TPU_REPLICATE_METADATA = "tf.TPUReplicateMetadata"
TPU_COMPILATION_RESULT = "tf.TPUCompilationResult"
TPU_REPLICATED_INPUT = "tf.TPUReplicatedInput"
TPU_REPLICATED_OUTPUT = "tf.TPUReplicatedOutput"
TPU_PARTITIONED_INPUT = "tf.TPUPartitionedInput"
TPU_PARTITIONED_INPUT_V2 = "tf.TPUPartitionedInputV2"
TPU_PARTITIONED_OUTPUT = "tf.TPUPartitionedOutput"
TPU_PARTITIONED_OUTPUT_V2 = "tf.TPUPartitionedOutputV2"
INFEED_DEQUEUE_TUPLE = "tf.InfeedDequeueTuple"
OUTFEED_ENQUEUE_TUPLE = "tf.OutfeedEnqueueTuple"
IDENTITY = "tf.Identity"
ASSERT = "tf.Assert"
XLA_SET_DYNAMIC_DIMENSION_SIZE = "tf.XlaSetDynamicDimensionSize"
WRITE_SUMMARY = "tf.WriteSummary"

# Attributes of TPU computations in TF1 graphs (after
# tf-canonicalize-compile-and-replicate-attributes).
REPLICATION_INFO_ATTR = "_replication_info"
COMPILE_DEVICE_TYPE_ATTR = "_xla_compile_device_type"
TPU_DEVICE = "TPU"
TPU_COMPILATION_STATUS_ATTR = "_tpu_compilation_status"
SKIP_ISLAND_OUTLINING_ATTR = "_skip_island_outlining"
