//===- TfOps.td - hand-written tf dialect operations ------*- tablegen -*-===//
//
// The ops the bridge needs with custom semantics: constants, identity,
// functional control flow, calls, resource variables, send/recv and the TPU
// compile/execute family. Stored attribute names and defaults follow TF 2.21.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TF_OPS_TD
#define TFMLIR_TF_OPS_TD

include "TfOpBase.td"

//===----------------------------------------------------------------------===//
// Constants and identity
//===----------------------------------------------------------------------===//

// As in TF: the result type is inferred from the value, and a declared one
// need only be broadcast-compatible with it (dense<1> : tensor<i32> may be a
// tensor<*xi32>).
def TF_ConstOp : TF_Op<"Const", [ConstantLike, Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "A constant tensor.";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs TF_Tensor:$output);
  let hasFolder = 1;
  let extraClassDeclaration = [{
    static bool isCompatibleReturnTypes(::mlir::TypeRange inferred, ::mlir::TypeRange actual);
  }];
  TF_DerivedResultTypeAttr dtype = TF_DerivedResultTypeAttr<0>;
}

def TF_IdentityOp : TF_Op<"Identity", [Pure, TF_NoConstantFold]> {
  let summary = "Return a tensor with the same shape and contents as the input tensor or value.";
  let arguments = (ins AnyTensor:$input);
  let results = (outs AnyTensor:$output);
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF_IdentityNOp : TF_Op<"IdentityN", [Pure]> {
  let summary = "Returns a list of tensors with the same shapes and contents as the input tensors.";
  let arguments = (ins Variadic<AnyTensor>:$input);
  let results = (outs Variadic<AnyTensor>:$output);
  TF_DerivedOperandTypeListAttr T = TF_DerivedOperandTypeListAttr<0>;
}

def TF_NoOp : TF_Op<"NoOp", [Pure]> {
  let summary = "Does nothing. Only useful as a placeholder for control edges.";
}

//===----------------------------------------------------------------------===//
// Functional control flow
//===----------------------------------------------------------------------===//

def TF_IfOp : TF_Op<"If", [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "output = cond ? then_branch(input) : else_branch(input)";
  // TF's FoldConstantIfOp and DropAttributes (cpp/lib/TfCanonicalize.cpp).
  let hasCanonicalizer = 1;
  let arguments = (ins TF_Tensor:$cond, Variadic<TF_Tensor>:$input,
                   FlatSymbolRefAttr:$then_branch, FlatSymbolRefAttr:$else_branch,
                   BoolAttr:$is_stateless);
  let results = (outs Variadic<TF_Tensor>:$output);
  TF_DerivedOperandTypeAttr Tcond = TF_DerivedOperandTypeAttr<0>;
  TF_DerivedOperandTypeListAttr Tin = TF_DerivedOperandTypeListAttr<1>;
  TF_DerivedResultTypeListAttr Tout = TF_DerivedResultTypeListAttr<0>;
  DerivedAttr output_shapes = TF_DerivedResultShapeListAttr;
}

def TF_WhileOp : TF_Op<"While", [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "output = input; While (Cond(output)) { output = Body(output) }";
  let arguments = (ins Variadic<TF_Tensor>:$input,
                   FlatSymbolRefAttr:$cond, FlatSymbolRefAttr:$body,
                   ConfinedAttr<DefaultValuedOptionalAttr<I64Attr, "10">, [IntMinValue<1>]>:$parallel_iterations,
                   BoolAttr:$is_stateless,
                   UnitAttr:$shape_invariant);
  let results = (outs Variadic<TF_Tensor>:$output);
  TF_DerivedOperandTypeListAttr T = TF_DerivedOperandTypeListAttr<0>;
  DerivedAttr output_shapes = TF_DerivedResultShapeListAttr;
}

def TF_CaseOp : TF_Op<"Case", [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "An n-way switch statement which calls a single branch function.";
  // TF's FoldConstantCaseOp and DropAttributes (cpp/lib/TfCanonicalize.cpp).
  let hasCanonicalizer = 1;
  let arguments = (ins TF_Int32Tensor:$branch_index, Variadic<TF_Tensor>:$input,
                   ConfinedAttr<SymbolRefArrayAttr, [ArrayMinCount<1>]>:$branches,
                   BoolAttr:$is_stateless);
  let results = (outs Variadic<TF_Tensor>:$output);
  let hasVerifier = 1;
  TF_DerivedOperandTypeListAttr Tin = TF_DerivedOperandTypeListAttr<1>;
  TF_DerivedResultTypeListAttr Tout = TF_DerivedResultTypeListAttr<0>;
  DerivedAttr output_shapes = TF_DerivedResultShapeListAttr;
}

// The parent is one of CaseRegion, IfRegion, WhileRegion or the generated
// GeneratorDatasetRegion (checked by name in the verifier, TF's ParentOneOf).
def TF_YieldOp : TF_Op<"Yield", [Terminator, Pure, ReturnLike]> {
  let summary = "Yields the values of a region of IfRegion, WhileRegion or CaseRegion.";
  let arguments = (ins Variadic<AnyType>:$operands);
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange{}); }]>];
}

def TF_IfRegionOp : TF_Op<"IfRegion", [SingleBlockImplicitTerminator<"YieldOp">, NoRegionArguments]> {
  let summary = "output = cond ? then_branch output : else_branch output";
  // TF's FoldConstantIfRegionOp and CaseOrIfRegionEliminatePassThrough
  // (cpp/lib/TfCanonicalize.cpp).
  let hasCanonicalizer = 1;
  let arguments = (ins 0DTensorOf<[I1]>:$cond, BoolAttr:$is_stateless,
                   OptionalAttr<StrAttr>:$_then_func_name,
                   OptionalAttr<StrAttr>:$_else_func_name);
  let results = (outs Variadic<TF_Tensor>:$output);
  let regions = (region SizedRegion<1>:$then_branch, SizedRegion<1>:$else_branch);
  // As TF's: checked after the regions' blocks (a block without terminator is
  // reported as such first).
  let hasRegionVerifier = 1;
}

def TF_WhileRegionOp : TF_Op<"WhileRegion", [SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "while (cond(input)) { input = body(input) }, with both as regions";
  let arguments = (ins Variadic<AnyTensor>:$input,
                   ConfinedAttr<DefaultValuedOptionalAttr<I64Attr, "10">, [IntMinValue<1>]>:$parallel_iterations,
                   BoolAttr:$is_stateless,
                   UnitAttr:$shape_invariant);
  let results = (outs Variadic<AnyTensor>:$output);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasVerifier = 1;
  // TF's WhileRegionExplicitCast and WhileRegionEliminatePassThrough
  // (cpp/lib/TfCanonicalize.cpp).
  let hasCanonicalizer = 1;
}

def TF_CaseRegionOp : TF_Op<"CaseRegion", [SingleBlockImplicitTerminator<"YieldOp">, NoRegionArguments]> {
  let summary = "An n-way switch statement with one region per branch.";
  // TF's CaseOrIfRegionEliminatePassThrough (cpp/lib/TfCanonicalize.cpp).
  let hasCanonicalizer = 1;
  let arguments = (ins TF_Int32Tensor:$branch_index, BoolAttr:$is_stateless);
  let results = (outs Variadic<TF_Tensor>:$output);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

class TF_CallOp<string mnemonic, list<Trait> traits = []>
    : TF_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<CallOpInterface>,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  let results = (outs Variadic<AnyTensor>:$output);
}

// Pure in TF (its callee's effects are looked at by the side-effect analysis);
// an unused call is dead, as in TF.
def TF_PartitionedCallOp : TF_CallOp<"PartitionedCall", [Pure]> {
  let summary = "returns `f(inputs)`, where `f`'s body is placed and partitioned.";
  let arguments = (ins Variadic<AnyTensor>:$args, SymbolRefAttr:$f,
                   StrAttr:$config, StrAttr:$config_proto, StrAttr:$executor_type,
                   OptionalAttr<DictArrayAttr>:$arg_attrs,
                   OptionalAttr<DictArrayAttr>:$res_attrs);
  TF_DerivedOperandTypeListAttr Tin = TF_DerivedOperandTypeListAttr<0>;
  TF_DerivedResultTypeListAttr Tout = TF_DerivedResultTypeListAttr<0>;
}

def TF_StatefulPartitionedCallOp : TF_CallOp<"StatefulPartitionedCall"> {
  let summary = "returns `f(inputs)`, where `f`'s body is placed and partitioned (stateful).";
  let arguments = (ins Variadic<AnyTensor>:$args, FlatSymbolRefAttr:$f,
                   StrAttr:$config, StrAttr:$config_proto, StrAttr:$executor_type,
                   OptionalAttr<DictArrayAttr>:$arg_attrs,
                   OptionalAttr<DictArrayAttr>:$res_attrs);
  TF_DerivedOperandTypeListAttr Tin = TF_DerivedOperandTypeListAttr<0>;
  TF_DerivedResultTypeListAttr Tout = TF_DerivedResultTypeListAttr<0>;
}

def TF_LegacyCallOp : TF_CallOp<"LegacyCall", [Pure]> {
  let summary = "returns `f(inputs)`, a call of a FunctionDef as a TF1 graph node";
  let arguments = (ins Variadic<TF_Tensor>:$args, FlatSymbolRefAttr:$f,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$_disable_call_shape_inference,
                   OptionalAttr<DictArrayAttr>:$arg_attrs,
                   OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<TF_Tensor>:$output);
}

//===----------------------------------------------------------------------===//
// Resource variables
//===----------------------------------------------------------------------===//

// The allocation is on the result (as TF declares it): an unused handle is
// dead, as in TF.
def TF_VarHandleOp : TF_Op<"VarHandleOp", []> {
  let summary = "Creates a handle to a Variable resource.";
  let arguments = (ins DefaultValuedOptionalAttr<StrAttr, "\"\"">:$container,
                   DefaultValuedOptionalAttr<StrAttr, "\"\"">:$shared_name);
  let results = (outs Res<TF_ResourceTensor, "", [MemAlloc<TF_VariableResource>]>:$resource);
  let hasVerifier = 1;
  TF_DerivedResultSubtypeTypeAttr dtype = TF_DerivedResultSubtypeTypeAttr<0>;
  TF_DerivedResultSubtypeShapeAttr shape = TF_DerivedResultSubtypeShapeAttr<0>;
}

def TF_ReadVariableOp : TF_Op<"ReadVariableOp", [MemoryEffects<[MemRead<TF_VariableResource>]>]> {
  let summary = "Reads the value of a variable.";
  // TF's ReadVariableOfCast (cpp/lib/TfPatternsRewrite.cpp, by name).
  let hasCanonicalizer = 1;
  let arguments = (ins TF_ResourceTensor:$resource);
  let results = (outs AnyTensor:$value);
  TF_DerivedResultTypeAttr dtype = TF_DerivedResultTypeAttr<0>;
}

def TF_AssignVariableOp : TF_Op<"AssignVariableOp", [MemoryEffects<[MemWrite<TF_VariableResource>]>]> {
  let summary = "Assigns a new value to a variable.";
  let arguments = (ins TF_ResourceTensor:$resource, AnyTensor:$value,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$validate_shape);
  TF_DerivedOperandTypeAttr dtype = TF_DerivedOperandTypeAttr<1>;
}

def TF_AssignAddVariableOp : TF_Op<"AssignAddVariableOp",
    [MemoryEffects<[MemRead<TF_VariableResource>, MemWrite<TF_VariableResource>]>]> {
  let summary = "Adds a value to the current value of a variable.";
  let arguments = (ins TF_ResourceTensor:$resource, AnyTensor:$value);
  TF_DerivedOperandTypeAttr dtype = TF_DerivedOperandTypeAttr<1>;
}

def TF_ShapeOp : TF_Op<"Shape", [Pure]> {
  let summary = "Returns the shape of a tensor.";
  let arguments = (ins AnyTensor:$input);
  let results = (outs TF_I32OrI64Tensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
  TF_DerivedResultTypeAttr out_type = TF_DerivedResultTypeAttr<0>;
}

def TF_VariableShapeOp : TF_Op<"VariableShape", [MemoryEffects<[MemRead<TF_VariableResource>]>]> {
  let summary = "Returns the shape of the variable pointed to by `resource`.";
  let arguments = (ins TF_ResourceTensor:$input);
  let results = (outs TF_I32OrI64Tensor:$output);
  let hasVerifier = 1;
  TF_DerivedResultTypeAttr out_type = TF_DerivedResultTypeAttr<0>;
}

//===----------------------------------------------------------------------===//
// Send / Recv (unknown side effects: never reordered or removed)
//===----------------------------------------------------------------------===//

def TF__SendOp : TF_Op<"_Send"> {
  let summary = "Sends the named tensor from send_device to recv_device.";
  let arguments = (ins AnyTensor:$tensor, StrAttr:$tensor_name, StrAttr:$send_device,
                   I64Attr:$send_device_incarnation, StrAttr:$recv_device,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$client_terminated);
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF__RecvOp : TF_Op<"_Recv"> {
  let summary = "Receives the named tensor from send_device on recv_device.";
  let arguments = (ins StrAttr:$tensor_name, StrAttr:$send_device,
                   I64Attr:$send_device_incarnation, StrAttr:$recv_device,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$client_terminated);
  let results = (outs AnyTensor:$tensor);
  TF_DerivedResultTypeAttr tensor_type = TF_DerivedResultTypeAttr<0>;
}

//===----------------------------------------------------------------------===//
// TPU replication, compilation and execution
//===----------------------------------------------------------------------===//

def TF_TPUReplicateMetadataOp : TF_Op<"TPUReplicateMetadata"> {
  let summary = "Metadata indicating how the TPU computation(s) should be replicated.";
  let arguments = (ins
    ConfinedAttr<I64Attr, [IntMinValue<0>]>:$num_replicas,
    DefaultValuedOptionalAttr<I64Attr, "1">:$num_cores_per_replica,
    DefaultValuedOptionalAttr<StrAttr, "\"\"">:$topology,
    DefaultValuedOptionalAttr<BoolAttr, "true">:$use_tpu,
    DefaultValuedOptionalAttr<I64ArrayAttr, "{}">:$device_assignment,
    DefaultValuedOptionalAttr<I64ArrayAttr, "{}">:$computation_shape,
    DefaultValuedOptionalAttr<StrArrayAttr, "{}">:$host_compute_core,
    DefaultValuedOptionalAttr<StrArrayAttr, "{}">:$padding_map,
    DefaultValuedOptionalAttr<StrAttr, "\"STEP_MARK_AT_ENTRY\"">:$step_marker_location,
    DefaultValuedOptionalAttr<BoolAttr, "false">:$allow_soft_placement,
    DefaultValuedOptionalAttr<BoolAttr, "false">:$use_spmd_for_xla_partitioning,
    DefaultValuedOptionalAttr<BoolAttr, "false">:$use_shardy_partitioner,
    DefaultValuedOptionalAttr<StrAttr, "\"\"">:$tpu_compile_options_proto
  );
}

def TF_TPUReplicatedInputOp : TF_Op<"TPUReplicatedInput", [Pure]> {
  let summary = "Connects N inputs to an N-way replicated TPU computation.";
  let arguments = (ins Variadic<AnyTensor>:$inputs,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$is_mirrored_variable,
                   DefaultValuedOptionalAttr<I64Attr, "-1">:$index,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$is_packed);
  let results = (outs AnyTensor:$output);
  TF_DerivedSizeAttr N = TF_DerivedSizeAttr<"(*this)->getNumOperands()">;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF_TPUReplicatedOutputOp : TF_Op<"TPUReplicatedOutput", [Pure]> {
  let summary = "Connects N outputs from an N-way replicated TPU computation.";
  let arguments = (ins AnyTensor:$input);
  let results = (outs Variadic<AnyTensor>:$outputs);
  TF_DerivedSizeAttr num_replicas = TF_DerivedSizeAttr<"(*this)->getNumResults()">;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF_TPUPartitionedInputOp : TF_Op<"TPUPartitionedInput", [Pure]> {
  let summary = "An op that groups a list of partitioned inputs together.";
  let arguments = (ins Variadic<AnyTensor>:$inputs,
                   DefaultValuedOptionalAttr<I64Attr, "0">:$partition_dim,
                   OptionalAttr<StrAttr>:$_XlaSharding,
                   OptionalAttr<StrAttr>:$_XlaShardingV2);
  let results = (outs AnyTensor:$output);
  TF_DerivedSizeAttr N = TF_DerivedSizeAttr<"(*this)->getNumOperands()">;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF_TPUPartitionedInputV2Op : TF_Op<"TPUPartitionedInputV2", [Pure]> {
  let summary = "An op that groups a list of partitioned inputs together (any number of dims).";
  let arguments = (ins Variadic<AnyTensor>:$inputs,
                   I64ArrayAttr:$partition_dims,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$is_packed,
                   OptionalAttr<StrAttr>:$_XlaSharding,
                   OptionalAttr<StrAttr>:$_XlaShardingV2);
  let results = (outs AnyTensor:$output);
  TF_DerivedSizeAttr N = TF_DerivedSizeAttr<"(*this)->getNumOperands()">;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF_TPUPartitionedOutputOp : TF_Op<"TPUPartitionedOutput", [Pure]> {
  let summary = "An op that demultiplexes a tensor to be sharded by XLA to a list of partitioned outputs.";
  let arguments = (ins AnyTensor:$inputs,
                   DefaultValuedOptionalAttr<I64Attr, "0">:$partition_dim,
                   OptionalAttr<StrAttr>:$_XlaSharding,
                   OptionalAttr<StrAttr>:$_XlaShardingV2);
  let results = (outs Variadic<AnyTensor>:$output);
  TF_DerivedSizeAttr num_splits = TF_DerivedSizeAttr<"(*this)->getNumResults()">;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF_TPUPartitionedOutputV2Op : TF_Op<"TPUPartitionedOutputV2", [Pure]> {
  let summary = "An op that demultiplexes a tensor to be sharded by XLA (any number of dims).";
  let arguments = (ins AnyTensor:$inputs,
                   I64ArrayAttr:$partition_dims,
                   OptionalAttr<StrAttr>:$_XlaSharding,
                   OptionalAttr<StrAttr>:$_XlaShardingV2);
  let results = (outs Variadic<AnyTensor>:$output);
  TF_DerivedSizeAttr num_splits = TF_DerivedSizeAttr<"(*this)->getNumResults()">;
  TF_DerivedOperandTypeAttr T = TF_DerivedOperandTypeAttr<0>;
}

def TF__TPUCompileMlirOp : TF_Op<"_TPUCompileMlir",
    [DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "Compiles an MLIR computation for a TPU; returns a status and program keys.";
  let arguments = (ins Variadic<TensorOf<[I64]>>:$dynamic_shapes,
                   DefaultValuedOptionalAttr<StrAttr, "\"\"">:$mlir_module,
                   StrAttr:$metadata);
  let results = (outs TF_StrTensor:$compilation_status,
                      Variadic<TF_StrTensor>:$program);
  TF_DerivedSizeAttr NumDynamicShapes = TF_DerivedSizeAttr<"getDynamicShapes().size()">;
  TF_DerivedSizeAttr num_computations = TF_DerivedSizeAttr<"getProgram().size()">;
}

def TF__TPUCompileMlirPlaceholderProgramKeyOp : TF_Op<"_TPUCompileMlirPlaceholderProgramKey",
    [DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "A placeholder for the program key produced by _TPUCompileMlir.";
  let description = [{
    Used in host computations (outside compilation) before the compile op
    exists; replaced by the real program key when the TPU rewrite runs.
  }];
  let results = (outs TF_StrTensor:$program);
}

def TF_TPUCompileSucceededAssertOp : TF_Op<"TPUCompileSucceededAssert"> {
  let summary = "Asserts that compilation succeeded.";
  let arguments = (ins TF_StrTensor:$compilation_status);
}

def TF_TPUExecuteOp : TF_Op<"TPUExecute"> {
  let summary = "Op that loads and executes a TPU program on a TPU device.";
  let arguments = (ins Variadic<AnyTensor>:$args, TF_StrTensor:$key);
  let results = (outs Variadic<AnyTensor>:$results);
  TF_DerivedOperandTypeListAttr Targs = TF_DerivedOperandTypeListAttr<0>;
  TF_DerivedResultTypeListAttr Tresults = TF_DerivedResultTypeListAttr<0>;
}

def TF_TPUExecuteAndUpdateVariablesOp : TF_Op<"TPUExecuteAndUpdateVariables"> {
  let summary = "Executes a TPU program and updates resource variables in place.";
  let arguments = (ins Variadic<AnyTensor>:$args, TF_StrTensor:$key,
                   I64ArrayAttr:$device_var_reads_indices,
                   I64ArrayAttr:$device_var_updates_indices);
  let results = (outs Variadic<AnyTensor>:$results);
  let hasVerifier = 1;
  TF_DerivedOperandTypeListAttr Targs = TF_DerivedOperandTypeListAttr<0>;
  TF_DerivedResultTypeListAttr Tresults = TF_DerivedResultTypeListAttr<0>;
}

def TF__XlaHostComputeMlirOp : TF_Op<"_XlaHostComputeMlir"> {
  let summary = "A host-side computation called from a TPU computation.";
  let arguments = (ins Variadic<TF_Tensor>:$inputs,
                   StrAttr:$send_key, StrAttr:$recv_key,
                   DefaultValuedOptionalAttr<StrAttr, "\"\"">:$host_mlir_module,
                   DefaultValuedOptionalAttr<BoolAttr, "false">:$manual_sharding);
  let results = (outs Variadic<TF_Tensor>:$outputs);
  // TF's: a non-empty host_mlir_module parses and has a `host_func` taking
  // and returning as many values as the op.
  let hasVerifier = 1;
  TF_DerivedOperandTypeListAttr Tinputs = TF_DerivedOperandTypeListAttr<0>;
  TF_DerivedResultTypeListAttr Toutputs = TF_DerivedResultTypeListAttr<0>;
}

def TF__XlaRecvAtHostOp : TF_Op<"_XlaRecvAtHost"> {
  let summary = "Receives tensors on the host sent by a device computation.";
  let arguments = (ins TF_StrTensor:$dynamic_key, StrAttr:$key, I64Attr:$device_ordinal,
                   DefaultValuedOptionalAttr<StrAttr, "\"TPU\"">:$device_type);
  let results = (outs Variadic<AnyTensor>:$outputs);
  TF_DerivedResultTypeListAttr Toutputs = TF_DerivedResultTypeListAttr<0>;
}

def TF__XlaSendFromHostOp : TF_Op<"_XlaSendFromHost"> {
  let summary = "Sends tensors from the host to a device computation.";
  let arguments = (ins Variadic<AnyTensor>:$inputs, TF_StrTensor:$dynamic_key,
                   StrAttr:$key, I64Attr:$device_ordinal,
                   DefaultValuedOptionalAttr<StrAttr, "\"TPU\"">:$device_type);
  TF_DerivedOperandTypeListAttr Tinputs = TF_DerivedOperandTypeListAttr<0>;
}

#endif // TFMLIR_TF_OPS_TD
