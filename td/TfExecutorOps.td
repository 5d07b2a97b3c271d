//===- TfExecutorOps.td - the tf_executor dialect ---------*- tablegen -*-===//
//
// The TensorFlow executor model: a graph of islands and the v1 control-flow
// primitives, with control tokens and deadness semantics (see the seed
// document tf-mlir-dialects.md). Custom assembly matches TF 2.21's printer.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TF_EXECUTOR_OPS_TD
#define TFMLIR_TF_EXECUTOR_OPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def TfExecutor_Dialect : Dialect {
  let name = "tf_executor";
  let cppNamespace = "::tfmlir::tf_executor";
  let summary = "The TensorFlow executor: dataflow graphs with deadness and control dependencies";
  let description = [{
    Models the TensorFlow graph executor: a `tf_executor.graph` holds islands
    (sequential `tf` code) and the v1 control-flow ops (Switch, Merge, Enter,
    Exit, NextIteration, LoopCond, ControlTrigger). Every op but fetch and
    NextIteration.Sink produces a `!tf_executor.control` token last.
  }];
  // Hand-written type parser: TF's diagnostic for an unknown type name.
  let useDefaultTypePrinterParser = 0;
  let extraClassDeclaration = [{
    void registerTypes();
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type, ::mlir::DialectAsmPrinter &os) const override;
  }];
}

class TfExecutor_Type<string name, string typeMnemonic>
    : TypeDef<TfExecutor_Dialect, name> {
  let mnemonic = typeMnemonic;
}
def TfExecutor_ControlType : TfExecutor_Type<"Control", "control"> {
  let summary = "a control dependency token";
}
def TfExecutor_TokenType : TfExecutor_Type<"Token", "token"> {
  let summary = "pairs a NextIteration.Source with its NextIteration.Sink";
}

def TfeControl : Type<CPred<"::llvm::isa<::tfmlir::tf_executor::ControlType>($_self)">,
                      "control", "::tfmlir::tf_executor::ControlType">;
def TfeToken : Type<CPred<"::llvm::isa<::tfmlir::tf_executor::TokenType>($_self)">,
                    "token", "::tfmlir::tf_executor::TokenType">;
def TfeNonControl : Type<And<[CPred<"!::llvm::isa<::tfmlir::tf_executor::ControlType>($_self)">,
                              CPred<"!::llvm::isa<::tfmlir::tf_executor::TokenType>($_self)">]>,
                         "non-control, non-token type">;
def TfeI1Tensor : TensorOf<[I1]>;

// Every control operand comes after all data operands. Like TF's predicate
// trait, a violation reports the offending operand and then
// "failed to verify that all control inputs must appear after any non-control
// input".
def TfeControlOperandsAfterAllData : NativeOpTrait<"ControlOperandsAfterAllData"> {
  let cppNamespace = "::tfmlir::tf_executor::OpTrait";
}

// Operand `opIdx` is broadcast compatible with result `resIdx` (TF's
// BroadcastCompatible: ref types dropped, resource/variant subtypes matched
// where both have them, broadcastable shapes).
class TfeOperandBroadcastableToResult<int opIdx, int resIdx> : And<[
    TCOpResIsShapedTypePred<opIdx, resIdx>,
    CPred<"::tfmlir::TF::areBroadcastCompatible($_op.getOperand(" # opIdx #
          ").getType(), $_op.getResult(" # resIdx # ").getType())">]>;
def TfeInGraph : HasParent<"GraphOp">;

class TfExecutor_Op<string mnemonic, list<Trait> traits = []>
    : Op<TfExecutor_Dialect, mnemonic, traits>;

// Ops with TF's hand-written assembly and TF's SSA result names.
class TfExecutor_CustomOp<string mnemonic, list<Trait> traits = []>
    : TfExecutor_Op<mnemonic, !listconcat(traits,
        [DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>])> {
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Structure: graph / fetch / island / yield
//===----------------------------------------------------------------------===//

def TfExecutor_GraphOp : TfExecutor_Op<"graph",
    [SingleBlockImplicitTerminator<"FetchOp">]> {
  let summary = "a TensorFlow dataflow graph";
  let description = [{
    A single-block region holding only `tf_executor` operations, executed with
    the TensorFlow executor's semantics (dataflow, deadness). It captures its
    feeds implicitly; the `tf_executor.fetch` terminator's data operands are
    the graph's results, followed by control tokens the graph waits for.
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &GetBody() { return getBody().front(); }
    FetchOp GetFetch();
  }];
}

def TfExecutor_FetchOp : TfExecutor_Op<"fetch",
    [Terminator, HasParent<"GraphOp">, Pure, TfeControlOperandsAfterAllData]> {
  let summary = "terminates a tf_executor.graph: its results, then awaited control tokens";
  let arguments = (ins Variadic<AnyType>:$fetches);
  let assemblyFormat = "($fetches^ `:` type($fetches))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange{}); }]>];
}

def TfExecutor_IslandOp : TfExecutor_CustomOp<"island",
    [HasParent<"GraphOp">, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a sequentially executed region of tf operations inside a graph";
  let description = [{
    Wraps ordinary (non-executor) operations. It runs once all captured values
    and control operands are live; its results are the operands of the
    `tf_executor.yield` terminator plus a control token. When it wraps a
    single operation whose results are forwarded unchanged, TF prints the
    short form `tf_executor.island wraps "tf.Op"(...) ...`.
  }];
  let arguments = (ins Variadic<TfeControl>:$controlInputs);
  let results = (outs Variadic<AnyType>:$outputs, TfeControl:$control);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &GetBody() { return getBody().front(); }
    YieldOp GetYield();
    /// True if the body is one op whose results are yielded in order.
    bool WrapsSingleOp();
  }];
}

def TfExecutor_YieldOp : TfExecutor_Op<"yield",
    [Terminator, HasParent<"IslandOp">, Pure, ReturnLike,
     TfeControlOperandsAfterAllData]> {
  let summary = "terminates a tf_executor.island and yields its results";
  let arguments = (ins Variadic<AnyType>:$fetches);
  let assemblyFormat = "($fetches^ `:` type($fetches))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange{}); }]>];
}

//===----------------------------------------------------------------------===//
// v1 control flow
//===----------------------------------------------------------------------===//

// TF checks result 0 under the name "true result" and result 1 as "false
// result" (its names are swapped relative to the results); the messages are
// kept as TF prints them.
def TfExecutor_SwitchOp : TfExecutor_CustomOp<"Switch", [TfeControlOperandsAfterAllData, TfeInGraph,
    PredOpTrait<"data operand must be broadcastable to true result",
                TfeOperandBroadcastableToResult<0, 0>>,
    PredOpTrait<"data operand must be broadcastable to false result",
                TfeOperandBroadcastableToResult<0, 1>>]> {
  let summary = "forwards data to the output selected by a boolean predicate";
  let description = [{
    `data` goes to `trueOutput` if `predicate` is true, to `falseOutput`
    otherwise; the other output is dead.
  }];
  let arguments = (ins AnyType:$data, TfeI1Tensor:$predicate,
                   Variadic<TfeControl>:$controlInputs);
  let results = (outs AnyType:$falseOutput, AnyType:$trueOutput, TfeControl:$control);
}

def TfExecutor_SwitchNOp : TfExecutor_CustomOp<"_SwitchN", [TfeControlOperandsAfterAllData, TfeInGraph]> {
  let summary = "forwards data to the output selected by an index";
  let arguments = (ins AnyType:$data, TensorOf<[I32]>:$index,
                   I64Attr:$num_outs, Variadic<TfeControl>:$controlInputs);
  let results = (outs Variadic<AnyType>:$outputs, TfeControl:$control);
  let hasVerifier = 1;
}

def TfExecutor_MergeOp : TfExecutor_CustomOp<"Merge", [TfeControlOperandsAfterAllData, TfeInGraph]> {
  let summary = "forwards the first live data input and its index";
  let description = [{
    The output is dead only when every data input is dead (or a control
    input is dead).
  }];
  let arguments = (ins Variadic<AnyType>:$inputs_and_control);
  let results = (outs AnyTensor:$output, TensorOf<[I32]>:$value_index, TfeControl:$control);
  let hasVerifier = 1;
}

def TfExecutor_EnterOp : TfExecutor_CustomOp<"Enter", [TfeControlOperandsAfterAllData, TfeInGraph,
    PredOpTrait<"data operand must be broadcastable to result",
                TfeOperandBroadcastableToResult<0, 0>>]> {
  let summary = "forwards its input into the execution frame named frame_name";
  let arguments = (ins AnyType:$data, StrAttr:$frame_name,
                   DefaultValuedAttr<BoolAttr, "false">:$is_constant,
                   DefaultValuedAttr<I64Attr, "10">:$parallel_iterations,
                   Variadic<TfeControl>:$controlInputs);
  let results = (outs AnyType:$output, TfeControl:$control);
}

def TfExecutor_ExitOp : TfExecutor_CustomOp<"Exit", [TfeInGraph,
    PredOpTrait<"data operand must be broadcastable to result",
                TfeOperandBroadcastableToResult<0, 0>>]> {
  let summary = "forwards its input out of the current execution frame";
  let arguments = (ins AnyType:$data, Variadic<TfeControl>:$controlInputs);
  let results = (outs AnyType:$output, TfeControl:$control);
}

def TfExecutor_LoopCondOp : TfExecutor_CustomOp<"LoopCond", [TfeInGraph]> {
  let summary = "forwards the loop predicate; the pivot of a v1 while loop";
  let arguments = (ins TfeI1Tensor:$input, Variadic<TfeControl>:$controlInputs);
  let results = (outs TfeI1Tensor:$output, TfeControl:$control);
}

def TfExecutor_NextIterationSourceOp : TfExecutor_CustomOp<"NextIteration.Source", [TfeInGraph]> {
  let summary = "the source half of a NextIteration back-edge";
  let description = [{
    Produces the value the paired `tf_executor.NextIteration.Sink` received in
    the previous iteration; the token ties the pair together.
  }];
  let results = (outs AnyType:$output, TfeToken:$token, TfeControl:$control);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The sink paired with this source.
    NextIterationSinkOp GetSink();
  }];
}

def TfExecutor_NextIterationSinkOp : TfExecutor_CustomOp<"NextIteration.Sink",
    [TfeInGraph]> {
  let summary = "the sink half of a NextIteration back-edge";
  let arguments = (ins TfeToken:$token, AnyType:$input,
                   Variadic<TfeControl>:$controlInputs);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The source paired with this sink.
    NextIterationSourceOp GetSource();
  }];
}

def TfExecutor_ControlTriggerOp : TfExecutor_CustomOp<"ControlTrigger", [TfeInGraph]> {
  let summary = "produces a live control token once its control inputs have run, even dead ones";
  let arguments = (ins Variadic<TfeControl>:$controlInputs);
  let results = (outs TfeControl:$control);
  let hasCanonicalizer = 1;
}

#endif // TFMLIR_TF_EXECUTOR_OPS_TD
