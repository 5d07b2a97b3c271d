//===- TfExecutor.cpp - the tf_executor dialect ---------------------------===//
//
// Custom assembly follows TF 2.21's printed form so that TF's output parses
// and prints back byte-identical; verifiers enforce the executor rules.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfExecutor.h"
#include "tfmlir/Limits.h"
#include "tfmlir/TfBase.h"
#include "tfmlir/TfType.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FoldInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tfmlir;
using namespace tfmlir::tf_executor;

#include "tfmlir/TfExecutorDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfmlir/TfExecutorTypes.cpp.inc"

namespace {
/// TF's tf_executor inliner interface: every call is legal to inline, into
/// an island when the inlined region has one block; tf_executor ops
/// themselves are never inlined (the default).
struct ExecutorInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *dest, Region *src, bool,
                       IRMapping &) const final {
    return llvm::isa<IslandOp>(dest->getParentOp()) &&
           llvm::hasSingleElement(*src);
  }
};

/// Constants materialized by folding go inside the island, not the graph.
struct ExecutorFolderInterface : public DialectFoldInterface {
  using DialectFoldInterface::DialectFoldInterface;
  bool shouldMaterializeInto(Region *region) const final {
    return llvm::isa<IslandOp>(region->getParentOp());
  }
};
} // namespace

void TfExecutorDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tfmlir/TfExecutorOps.cpp.inc"
      >();
  addInterfaces<ExecutorInlinerInterface, ExecutorFolderInterface>();
}

void TfExecutorDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfmlir/TfExecutorTypes.cpp.inc"
      >();
}

/// `!tf_executor.control` and `!tf_executor.token`; any other name gets TF's
/// diagnostic.
Type TfExecutorDialect::parseType(DialectAsmParser &parser) const {
  SMLoc loc = parser.getNameLoc();
  StringRef name;
  if (parser.parseKeyword(&name))
    return Type();
  if (name == "control")
    return ControlType::get(getContext());
  if (name == "token")
    return TokenType::get(getContext());
  parser.emitError(loc) << "unknown tf_executor type: " << name;
  return Type();
}

void TfExecutorDialect::printType(Type type, DialectAsmPrinter &os) const {
  if (failed(generatedTypePrinter(type, os)))
    os << "<unknown tf_executor type>";
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

LogicalResult
tfmlir::tf_executor::OpTrait::verifyControlOperandsAfterAllData(Operation *op) {
  bool seenControl = false;
  for (auto [idx, operand] : llvm::enumerate(op->getOperands())) {
    if (llvm::isa<ControlType>(operand.getType())) {
      seenControl = true;
    } else if (seenControl) {
      // The offending operand, then the constraint that failed (TF reports
      // both, the second from its ODS predicate trait).
      op->emitOpError() << "found non-control operand #" << idx
                        << " after control operand";
      return op->emitOpError()
             << "failed to verify that all control inputs must appear after "
                "any non-control input";
    }
  }
  return success();
}

static bool isControl(Type t) { return llvm::isa<ControlType>(t); }

/// Names results the way TF does: `names[i]` names the group starting at
/// result i (an empty name leaves the result unnamed). The last name is used
/// for the final control token; data names cover the leading results.
static void nameResults(Operation *op, OpAsmSetValueNameFn setNameFn,
                        ArrayRef<StringRef> dataNames) {
  unsigned numResults = op->getNumResults();
  if (numResults == 0)
    return;
  bool hasControl = isControl(op->getResult(numResults - 1).getType());
  unsigned numData = hasControl ? numResults - 1 : numResults;
  for (unsigned i = 0, e = std::min<unsigned>(numData, dataNames.size()); i < e; ++i)
    if (!dataNames[i].empty())
      setNameFn(op->getResult(i), dataNames[i]);
  if (hasControl)
    setNameFn(op->getResult(numResults - 1), "control");
}

/// Resolves `operands`: the first `dataTypes.size()` against `dataTypes`, the
/// remaining ones as `!tf_executor.control`.
static ParseResult
resolveDataThenControl(OpAsmParser &parser, SMLoc loc,
                       ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                       ArrayRef<Type> dataTypes, OperationState &result) {
  if (operands.size() < dataTypes.size())
    return parser.emitError(loc) << "expects at least " << dataTypes.size()
                                 << " operand(s) for the given types, got "
                                 << operands.size();
  SmallVector<Type> types(dataTypes);
  types.append(operands.size() - dataTypes.size(),
               ControlType::get(parser.getContext()));
  return parser.resolveOperands(operands, types, loc, result.operands);
}

/// Parses `: T` or `: (inputs) -> (results)`: for the functional form `fnType`
/// is set, otherwise `single`. A list of types is refused with TF's diagnostic
/// (`: T1, T2` is not a single data type).
static ParseResult parseSingleOrFunctionalType(OpAsmParser &parser,
                                               FunctionType &fnType,
                                               Type &single) {
  SmallVector<Type, 1> types;
  if (parser.parseColonTypeList(types))
    return failure();
  if (types.size() != 1)
    return parser.emitError(parser.getNameLoc())
           << " expects only a single data type";
  fnType = llvm::dyn_cast<FunctionType>(types.front());
  single = fnType ? Type() : types.front();
  return success();
}

/// Prints `T` when `shortForm`, else the full functional type of `op`.
static void printShortOrFunctionalType(OpAsmPrinter &p, Operation *op,
                                       bool shortForm, Type shortType) {
  p << " : ";
  if (shortForm)
    p << shortType;
  else
    p.printFunctionalType(op);
}

/// `t` without ref element types and without resource/variant subtypes.
static TensorType dropRefAndSubtypes(TensorType t) {
  Type elt = tf_type::dropRefType(t.getElementType());
  if (llvm::isa<tf_type::ResourceType>(elt))
    elt = tf_type::ResourceType::get(t.getContext());
  else if (llvm::isa<tf_type::VariantType>(elt))
    elt = tf_type::VariantType::get(t.getContext());
  return t.clone(elt);
}

/// TF's rule for a value flowing from `operand` to `result` in Merge and
/// _SwitchN: a ref result needs a ref operand; otherwise the types must
/// broadcast once ref types and subtypes are dropped. On failure, `op`'s error
/// in TF's words (`notBroadcastable` starts the second message).
static LogicalResult checkTensorFlow(Operation *op, TensorType operand, TensorType result,
                                     StringRef notBroadcastable) {
  if (tf_type::isRefType(result.getElementType()) &&
      !tf_type::isRefType(operand.getElementType()))
    return op->emitOpError() << "expects same operand and output element type but got "
                             << operand << " vs " << result;
  if (!mlir::OpTrait::util::getBroadcastedType(dropRefAndSubtypes(result),
                                               dropRefAndSubtypes(operand)))
    return op->emitOpError() << notBroadcastable << " but got " << operand << " vs " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// tf_executor.graph
//===----------------------------------------------------------------------===//

FetchOp GraphOp::GetFetch() { return llvm::cast<FetchOp>(GetBody().back()); }

LogicalResult GraphOp::verify() {
  Block &body = GetBody();
  Dialect *executor = (*this)->getDialect();
  for (Operation &op : body) {
    if (op.getDialect() != executor)
      return op.emitOpError() << "unallowed inside a tf_executor.graph region";
    if (llvm::isa<GraphOp>(op))
      return op.emitOpError() << "unallowed directly inside another tf_executor.graph";
  }
  auto fetch = llvm::dyn_cast<FetchOp>(body.back());
  if (!fetch)
    return body.back().emitOpError()
           << "invalid tf_executor.graph terminator, fetch expected";
  if (fetch.getNumOperands() < getNumResults())
    return fetch.emitOpError()
           << "does not have enough operands to cover the graph returned values";
  for (auto [idx, operand] : llvm::enumerate(fetch.getOperands())) {
    if (isControl(operand.getType())) {
      if (idx != getNumResults())
        return fetch.emitOpError() << "operand #" << idx
                                   << " is a control type, can't be bound to a graph result";
      break;
    }
    if (idx >= getNumResults())
      return fetch.emitOpError() << "operand #" << idx
                                 << " does not have a graph results to bind";
    if (getResult(idx).getType() != operand.getType())
      return fetch.emitOpError() << "operand #" << idx
                                 << " type mismatch graph results ("
                                 << getResult(idx).getType() << " != "
                                 << operand.getType() << ")";
  }
  return success();
}

void GraphOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  Region &body = *result.addRegion();
  if (parser.parseRegion(body))
    return failure();
  if (body.empty())
    body.push_back(new Block);
  if (!llvm::hasSingleElement(body))
    return parser.emitError(loc) << "expects a single block region";
  GraphOp::ensureTerminator(body, parser.getBuilder(), result.location);
  auto fetch = llvm::dyn_cast<FetchOp>(body.front().back());
  if (!fetch)
    return parser.emitError(loc) << "expects a tf_executor.fetch terminator";
  for (Type t : fetch.getOperandTypes()) {
    if (isControl(t))
      break;
    result.types.push_back(t);
  }
  return parser.parseOptionalAttrDict(result.attributes);
}

namespace {
/// A graph holding only its fetch forwards the fetched values.
struct DropEmptyGraph : public OpRewritePattern<GraphOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GraphOp op, PatternRewriter &rewriter) const override {
    Block &body = op.GetBody();
    if (&body.front() != &body.back())
      return failure();
    rewriter.replaceOp(op, op.GetFetch().getFetches().take_front(op.getNumResults()));
    return success();
  }
};

/// A graph holding one island (and its fetch) is replaced by the island's ops.
struct HoistSingleIslandGraph : public OpRewritePattern<GraphOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GraphOp op, PatternRewriter &rewriter) const override {
    Block &body = op.GetBody();
    if (body.getOperations().size() != 2)
      return failure();
    auto island = llvm::dyn_cast<IslandOp>(body.front());
    if (!island)
      return failure();
    YieldOp yield = island.GetYield();
    SmallVector<Value> results;
    for (Value v : op.GetFetch().getFetches().take_front(op.getNumResults())) {
      if (v.getDefiningOp() == island.getOperation())
        results.push_back(yield.getOperand(llvm::cast<OpResult>(v).getResultNumber()));
      else
        results.push_back(v);
    }
    Block &islandBody = island.GetBody();
    Block *parent = op->getBlock();
    parent->getOperations().splice(op->getIterator(), islandBody.getOperations(),
                                   islandBody.begin(), std::prev(islandBody.end()));
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void GraphOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<DropEmptyGraph, HoistSingleIslandGraph>(context);
}

//===----------------------------------------------------------------------===//
// tf_executor.island
//===----------------------------------------------------------------------===//

YieldOp IslandOp::GetYield() { return llvm::cast<YieldOp>(GetBody().back()); }

bool IslandOp::WrapsSingleOp() {
  Block &body = GetBody();
  if (body.empty() || &body.front() == &body.back())
    return false;
  Operation &wrapped = body.front();
  if (std::next(Block::iterator(&wrapped)) != Block::iterator(&body.back()))
    return false;
  YieldOp yield = GetYield();
  return wrapped.getNumResults() == yield.getNumOperands() &&
         llvm::equal(wrapped.getResults(), yield.getOperands());
}

LogicalResult IslandOp::verify() {
  Block &body = GetBody();
  if (body.getNumArguments() != 0)
    return emitOpError() << "expects body without any arguments";
  if (body.empty())
    return emitOpError() << "expects a non-empty body";
  auto yield = llvm::dyn_cast<YieldOp>(body.back());
  if (!yield)
    return body.back().emitOpError()
           << "invalid tf_executor.island terminator, yield expected";
  unsigned numData = getNumResults() - 1;
  if (yield.getNumOperands() != numData)
    return yield.emitOpError() << "has " << yield.getNumOperands()
                               << " operand, but island returns " << numData;
  for (auto [idx, operand] : llvm::enumerate(yield.getOperands())) {
    if (getResult(idx).getType() != operand.getType())
      return yield.emitOpError() << "operand #" << idx
                                 << " type mismatch island results";
  }
  for (unsigned idx = 0; idx < numData; ++idx)
    if (isControl(getResult(idx).getType()))
      return yield.emitOpError() << "unexpected control type for operand #" << idx;
  return success();
}

void IslandOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"outputs"});
}

void IslandOp::print(OpAsmPrinter &p) {
  if (!getControlInputs().empty()) {
    p << '(';
    p.printOperands(getControlInputs());
    p << ')';
  }
  // The short form carries one location, so it is used only when the island,
  // the wrapped op and the yield share it.
  if ((*this)->getAttrs().empty() && WrapsSingleOp()) {
    Operation &wrapped = GetBody().front();
    if (wrapped.getLoc() == getLoc() && GetYield().getLoc() == getLoc()) {
      p << " wraps ";
      p.printGenericOp(&wrapped);
      return;
    }
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult IslandOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type controlType = ControlType::get(parser.getContext());
  SmallVector<OpAsmParser::UnresolvedOperand> controls;
  if (parser.parseOperandList(controls, OpAsmParser::Delimiter::OptionalParen) ||
      parser.resolveOperands(controls, controlType, loc, result.operands))
    return failure();

  Region &body = *result.addRegion();
  if (succeeded(parser.parseOptionalKeyword("wraps"))) {
    // The generic-op parser expects a quoted op name; check first (it asserts).
    SMLoc opLoc = parser.getCurrentLocation();
    if (!opLoc.getPointer() || *opLoc.getPointer() != '"')
      return parser.emitError(opLoc)
             << "expected a generic operation (quoted name) after 'wraps'";
    Block *block = new Block;
    body.push_back(block);
    Operation *wrapped = parser.parseGenericOperation(block, block->begin());
    if (!wrapped)
      return failure();
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToEnd(block);
    builder.create<YieldOp>(wrapped->getLoc(), wrapped->getResults());
    result.location = wrapped->getLoc();
  } else {
    if (parser.parseRegion(body))
      return failure();
    if (body.empty())
      body.push_back(new Block);
    IslandOp::ensureTerminator(body, parser.getBuilder(), result.location);
  }
  Operation &terminator = body.back().back();
  if (!llvm::isa<YieldOp>(terminator))
    return parser.emitError(loc) << "expects a tf_executor.yield terminator";
  result.types.append(terminator.operand_type_begin(), terminator.operand_type_end());
  result.types.push_back(controlType);
  return parser.parseOptionalAttrDict(result.attributes);
}

LogicalResult IslandOp::fold(FoldAdaptor, SmallVectorImpl<OpFoldResult> &results) {
  // An empty island with one control operand and no data is that control.
  if (getNumOperands() != 1 || getNumResults() != 1 ||
      &GetBody().front() != &GetBody().back())
    return failure();
  results.push_back(getOperand(0));
  return success();
}

/// True if `use` is a control input of a tf_executor op (an operand that can
/// be dropped without changing the op's data inputs).
static bool isControlInputUse(OpOperand &use) {
  Operation *owner = use.getOwner();
  unsigned idx = use.getOperandNumber();
  if (!isControl(use.get().getType()))
    return false;
  if (llvm::isa<IslandOp, ControlTriggerOp>(owner))
    return true;
  if (auto fetch = llvm::dyn_cast<FetchOp>(owner))
    return idx >= fetch->getParentOfType<GraphOp>().getNumResults();
  unsigned numData = llvm::TypeSwitch<Operation *, unsigned>(owner)
                         .Case<SwitchOp, SwitchNOp, NextIterationSinkOp>([](auto) { return 2; })
                         .Case<EnterOp, ExitOp, LoopCondOp>([](auto) { return 1; })
                         .Case<MergeOp>([](MergeOp merge) {
                           unsigned n = 0;
                           for (Type t : merge->getOperandTypes()) {
                             if (isControl(t))
                               break;
                             ++n;
                           }
                           return n;
                         })
                         .Default([](Operation *op) { return op->getNumOperands(); });
  return idx >= numData;
}

/// True if every use of `control` is a droppable control input.
static bool allUsesAreControlInputs(Value control) {
  return llvm::all_of(control.getUses(), [](OpOperand &use) { return isControlInputUse(use); });
}

namespace {
/// Drops control uses of an empty island with no operands and no data.
struct DropEmptyIslandNoData : public OpRewritePattern<IslandOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IslandOp op, PatternRewriter &rewriter) const override {
    if (op.getNumOperands() != 0 || op.getNumResults() != 1 ||
        &op.GetBody().front() != &op.GetBody().back() ||
        !allUsesAreControlInputs(op.getControl()))
      return failure();
    for (OpOperand &use : llvm::make_early_inc_range(op.getControl().getUses())) {
      Operation *owner = use.getOwner();
      rewriter.modifyOpInPlace(owner, [&] { owner->eraseOperand(use.getOperandNumber()); });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// An empty island forwarding one value with an unused control is dropped.
struct DropEmptyIslandOneData : public OpRewritePattern<IslandOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IslandOp op, PatternRewriter &rewriter) const override {
    if (op.getNumOperands() != 0 || op.getNumResults() != 2 ||
        !op.getControl().use_empty() ||
        &op.GetBody().front() != &op.GetBody().back())
      return failure();
    rewriter.replaceOp(op, {op.GetYield().getOperand(0), Value()});
    return success();
  }
};
} // namespace

void IslandOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<DropEmptyIslandNoData, DropEmptyIslandOneData>(context);
}

//===----------------------------------------------------------------------===//
// tf_executor.Switch
//===----------------------------------------------------------------------===//

void SwitchOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"falseOutput", "trueOutput"});
}

void SwitchOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperands(getOperands());
  Type dataType = getData().getType();
  Builder b(getContext());
  bool shortForm = getTrueOutput().getType() == dataType &&
                   getFalseOutput().getType() == dataType &&
                   getPredicate().getType() == RankedTensorType::get({}, b.getI1Type());
  printShortOrFunctionalType(p, *this, shortForm, dataType);
  p.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult SwitchOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType fnType;
  Type single;
  if (parser.parseOperandList(operands) ||
      parseSingleOrFunctionalType(parser, fnType, single))
    return failure();
  // TF's wording (its messages start with a space).
  if (fnType ? fnType.getNumInputs() < 2 : operands.size() < 2)
    return parser.emitError(parser.getNameLoc())
           << " expects a single data type and a predicate";
  SmallVector<Type> dataTypes;
  if (fnType) {
    dataTypes.assign(fnType.getInputs().begin(), fnType.getInputs().end());
    result.types.assign(fnType.getResults().begin(), fnType.getResults().end());
  } else {
    Builder &b = parser.getBuilder();
    dataTypes = {single, RankedTensorType::get({}, b.getI1Type())};
    result.types = {single, single, ControlType::get(parser.getContext())};
  }
  if (resolveDataThenControl(parser, loc, operands, dataTypes, result))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

//===----------------------------------------------------------------------===//
// tf_executor._SwitchN
//===----------------------------------------------------------------------===//

void SwitchNOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"outputs"});
}

LogicalResult SwitchNOp::verify() {
  // TF accepts num_outs = 0 (the control output alone) in the generic form.
  int64_t numOuts = getNumOuts();
  if (static_cast<int64_t>(getNumResults()) != numOuts + 1)
    return emitOpError() << "expect `num_outs` (" << numOuts
                         << ") results but got " << (getNumResults() - 1);
  Type dataType = getData().getType();
  auto dataTensor = llvm::dyn_cast<TensorType>(dataType);
  if (!dataTensor)
    return emitOpError() << "expects data operand to have tensor type but got "
                         << dataType;
  for (Type outType : getOutputs().getTypes()) {
    auto outTensor = llvm::dyn_cast<TensorType>(outType);
    if (!outTensor)
      return emitOpError() << "expects outputs to have tensor type but got " << outType;
    if (failed(checkTensorFlow(*this, dataTensor, outTensor,
                               "expects data operand to be broadcastable with all output types")))
      return failure();
  }
  return success();
}

void SwitchNOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperands(getOperands().take_front(2));
  p << " of " << (getNumResults() - 1);
  if (!getControlInputs().empty()) {
    p << " (";
    p.printOperands(getControlInputs());
    p << ")";
  }
  // TF prints only the first output type; when the outputs differ from the
  // data type that form cannot be parsed back, so the functional type is used.
  Type dataType = getData().getType();
  Builder b(getContext());
  bool shortForm = llvm::all_of(getOutputs().getTypes(),
                                [&](Type t) { return t == dataType; }) &&
                   getIndex().getType() == RankedTensorType::get({}, b.getI32Type());
  printShortOrFunctionalType(p, *this, shortForm, dataType);
  p.printOptionalAttrDict((*this)->getAttrs(), {"num_outs"});
}

ParseResult SwitchNOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  int64_t numOuts;
  if (parser.parseOperandList(operands, 2) || parser.parseKeyword("of"))
    return failure();
  SMLoc numLoc = parser.getCurrentLocation();
  FunctionType fnType;
  Type single;
  if (parser.parseInteger(numOuts) ||
      parser.parseOperandList(operands, OpAsmParser::Delimiter::OptionalParen) ||
      parseSingleOrFunctionalType(parser, fnType, single))
    return failure();
  if (numOuts <= 0)
    return parser.emitError(parser.getNameLoc()) << " expects a positive number of outputs";
  if (numOuts >= tfmlir_limits::kMaxParsedResults)
    return parser.emitError(numLoc) << "expects fewer than " << tfmlir_limits::kMaxParsedResults
                                    << " outputs, got " << numOuts;
  Builder &b = parser.getBuilder();
  result.getOrAddProperties<SwitchNOp::Properties>().num_outs =
      b.getI64IntegerAttr(numOuts);
  SmallVector<Type> dataTypes;
  if (fnType) {
    dataTypes.assign(fnType.getInputs().begin(), fnType.getInputs().end());
    result.types.assign(fnType.getResults().begin(), fnType.getResults().end());
  } else {
    dataTypes = {single, RankedTensorType::get({}, b.getI32Type())};
    result.types.append(numOuts, single);
    result.types.push_back(ControlType::get(parser.getContext()));
  }
  if (resolveDataThenControl(parser, loc, operands, dataTypes, result))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

//===----------------------------------------------------------------------===//
// tf_executor.Merge
//===----------------------------------------------------------------------===//

void MergeOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"output", "value_index"});
}

LogicalResult MergeOp::verify() {
  if (getNumOperands() == 0)
    return emitOpError() << "expects at least one operand";
  if (isControl(getOperand(0).getType()))
    return emitOpError() << "expects a non-control input";
  Type outType = getOutput().getType();
  auto outTensor = llvm::dyn_cast<TensorType>(outType);
  if (!outTensor)
    return emitOpError() << "expects output to have tensor type but got " << outType;
  for (Type t : getOperandTypes()) {
    if (isControl(t))
      break;
    auto operandTensor = llvm::dyn_cast<TensorType>(t);
    if (!operandTensor)
      return emitOpError() << "expects data operands to have tensor type but got " << t;
    if (failed(checkTensorFlow(*this, operandTensor, outTensor,
                               "expects all operands to be broadcastable with output type")))
      return failure();
  }
  return success();
}

void MergeOp::print(OpAsmPrinter &p) {
  Type outType = getOutput().getType();
  unsigned numData = 0;
  bool allMatch = true;
  for (Type t : getOperandTypes()) {
    if (isControl(t))
      break;
    ++numData;
    allMatch &= t == outType;
  }
  Builder b(getContext());
  bool indexIsScalar =
      getValueIndex().getType() == RankedTensorType::get({}, b.getI32Type());
  p << ' ';
  p.printOperands(getOperands());
  printShortOrFunctionalType(p, *this, allMatch && numData == 2 && indexIsScalar, outType);
  p.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult MergeOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType fnType;
  Type single;
  if (parser.parseOperandList(operands) ||
      parseSingleOrFunctionalType(parser, fnType, single))
    return failure();
  SmallVector<Type> dataTypes;
  if (fnType) {
    dataTypes.assign(fnType.getInputs().begin(), fnType.getInputs().end());
    result.types.assign(fnType.getResults().begin(), fnType.getResults().end());
  } else {
    if (operands.size() < 2)
      return parser.emitError(loc)
             << "the short form expects two data operands";
    dataTypes = {single, single};
    Builder &b = parser.getBuilder();
    result.types = {single, RankedTensorType::get({}, b.getI32Type()),
                    ControlType::get(parser.getContext())};
  }
  if (resolveDataThenControl(parser, loc, operands, dataTypes, result))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

//===----------------------------------------------------------------------===//
// tf_executor.Enter
//===----------------------------------------------------------------------===//

static constexpr int64_t kDefaultParallelIterations = 10;

void EnterOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"output"});
}

void EnterOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperands(getOperands());
  p << " frame ";
  p.printString(getFrameName());
  if (getParallelIterations() != kDefaultParallelIterations)
    p << " parallel_iterations " << getParallelIterations();
  if (getIsConstant())
    p << " constant ";
  Type dataType = getData().getType();
  printShortOrFunctionalType(p, *this, dataType == getOutput().getType(), dataType);
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"frame_name", "parallel_iterations", "is_constant"});
}

ParseResult EnterOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  std::string frame;
  if (parser.parseOperandList(operands))
    return failure();
  if (operands.empty())
    return parser.emitError(loc) << " expects at least one data operand";
  if (parser.parseKeyword("frame") || parser.parseString(&frame))
    return failure();
  int64_t parallelIterations = kDefaultParallelIterations;
  if (succeeded(parser.parseOptionalKeyword("parallel_iterations")) &&
      parser.parseInteger(parallelIterations))
    return failure();
  bool isConstant = succeeded(parser.parseOptionalKeyword("constant"));
  Builder &b = parser.getBuilder();
  auto &props = result.getOrAddProperties<EnterOp::Properties>();
  props.frame_name = b.getStringAttr(frame);
  props.parallel_iterations = b.getI64IntegerAttr(parallelIterations);
  props.is_constant = b.getBoolAttr(isConstant);

  FunctionType fnType;
  Type single;
  if (parseSingleOrFunctionalType(parser, fnType, single))
    return failure();
  SmallVector<Type> dataTypes;
  if (fnType) {
    if (fnType.getNumInputs() < 1)
      return parser.emitError(parser.getNameLoc()) << " expects a data input";
    dataTypes.assign(fnType.getInputs().begin(), fnType.getInputs().end());
    result.types.assign(fnType.getResults().begin(), fnType.getResults().end());
  } else {
    dataTypes = {single};
    result.types = {single, ControlType::get(parser.getContext())};
  }
  if (resolveDataThenControl(parser, loc, operands, dataTypes, result))
    return failure();
  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  for (StringRef name : {"frame_name", "parallel_iterations", "is_constant"})
    if (result.attributes.get(name))
      return parser.emitError(attrLoc)
             << "'" << name << "' is given by the Enter syntax, not the attribute dictionary";
  return success();
}

//===----------------------------------------------------------------------===//
// tf_executor.Exit and tf_executor.LoopCond: `%x[, ctl...] : T` or functional.
//===----------------------------------------------------------------------===//

template <typename OpT>
static void printForwardingOp(OpT op, OpAsmPrinter &p, Value input, Value output) {
  p << ' ';
  p.printOperands(op->getOperands());
  printShortOrFunctionalType(p, op, input.getType() == output.getType(),
                             input.getType());
  p.printOptionalAttrDict(op->getAttrs());
}

static ParseResult parseForwardingOp(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType fnType;
  Type single;
  if (parser.parseOperandList(operands))
    return failure();
  if (operands.empty())
    return parser.emitError(parser.getNameLoc()) << "expects at least one operand";
  if (parseSingleOrFunctionalType(parser, fnType, single))
    return failure();
  SmallVector<Type> dataTypes;
  if (fnType) {
    if (llvm::count_if(fnType.getInputs(), [](Type t) { return !isControl(t); }) != 1)
      return parser.emitError(parser.getNameLoc()) << " expects a single data type";
    dataTypes.assign(fnType.getInputs().begin(), fnType.getInputs().end());
    result.types.assign(fnType.getResults().begin(), fnType.getResults().end());
  } else {
    dataTypes = {single};
    result.types = {single, ControlType::get(parser.getContext())};
  }
  if (resolveDataThenControl(parser, loc, operands, dataTypes, result))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void ExitOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"output"});
}
void ExitOp::print(OpAsmPrinter &p) {
  printForwardingOp(*this, p, getData(), getOutput());
}
ParseResult ExitOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseForwardingOp(parser, result);
}

void LoopCondOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"output"});
}
void LoopCondOp::print(OpAsmPrinter &p) {
  printForwardingOp(*this, p, getInput(), getOutput());
}
ParseResult LoopCondOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseForwardingOp(parser, result);
}

//===----------------------------------------------------------------------===//
// tf_executor.NextIteration.Source / Sink
//===----------------------------------------------------------------------===//

NextIterationSinkOp NextIterationSourceOp::GetSink() {
  Value token = getToken();
  if (!token.hasOneUse())
    return {};
  return llvm::dyn_cast<NextIterationSinkOp>(*token.user_begin());
}

NextIterationSourceOp NextIterationSinkOp::GetSource() {
  return getToken().getDefiningOp<NextIterationSourceOp>();
}

void NextIterationSourceOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResults(*this, setNameFn, {"output", "token"});
}

LogicalResult NextIterationSourceOp::verify() {
  Value token = getToken();
  if (!token.hasOneUse())
    return emitOpError() << "expects a single user for produced token";
  if (!llvm::isa<NextIterationSinkOp>(*token.user_begin()))
    return emitOpError() << "token should be consumed by a sink op";
  return success();
}

void NextIterationSourceOp::print(OpAsmPrinter &p) {
  p << " : " << getOutput().getType();
  p.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult NextIterationSourceOp::parse(OpAsmParser &parser, OperationState &result) {
  Type type;
  if (parser.parseColonType(type))
    return failure();
  MLIRContext *ctx = parser.getContext();
  result.types = {type, TokenType::get(ctx), ControlType::get(ctx)};
  return parser.parseOptionalAttrDict(result.attributes);
}

LogicalResult NextIterationSinkOp::verify() {
  Operation *def = getToken().getDefiningOp();
  if (!def)
    return emitOpError()
           << "expects a token directly produced by a tf_executor.NextIteration.Source op";
  auto source = llvm::dyn_cast<NextIterationSourceOp>(def);
  if (!source)
    return emitOpError()
           << "expects a token produced by a tf_executor.NextIteration.Source op";
  if (source.getOutput().getType() != getInput().getType())
    return emitOpError() << "input type " << getInput().getType()
                         << " mismatch the tf_executor.NextIteration.Source output type: "
                         << source.getOutput().getType();
  return success();
}

void NextIterationSinkOp::getAsmResultNames(OpAsmSetValueNameFn) {}

void NextIterationSinkOp::print(OpAsmPrinter &p) {
  p << '[';
  p.printOperand(getToken());
  p << "] ";
  p.printOperands(getOperands().drop_front());
  p << " : " << getInput().getType();
  p.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult NextIterationSinkOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  Type type;
  if (parser.parseOperandList(operands, 1, OpAsmParser::Delimiter::Square) ||
      parser.parseOperandList(operands) || parser.parseColonType(type))
    return failure();
  if (operands.size() < 2)
    return parser.emitError(loc) << "expects a token and a data operand";
  SmallVector<Type> dataTypes = {TokenType::get(parser.getContext()), type};
  if (resolveDataThenControl(parser, loc, operands, dataTypes, result))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

//===----------------------------------------------------------------------===//
// tf_executor.ControlTrigger
//===----------------------------------------------------------------------===//

// TF leaves the ControlTrigger token unnamed.
void ControlTriggerOp::getAsmResultNames(OpAsmSetValueNameFn) {}

void ControlTriggerOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperands(getOperands());
  // With neither operands nor attributes TF prints nothing after the name, so
  // the next line's results would be parsed as operands: print `{}` instead.
  if (getNumOperands() == 0 && (*this)->getAttrs().empty()) {
    p << "{}";
    return;
  }
  p.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult ControlTriggerOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  Type controlType = ControlType::get(parser.getContext());
  if (parser.parseOperandList(operands) ||
      parser.resolveOperands(operands, controlType, loc, result.operands))
    return failure();
  result.types.push_back(controlType);
  return parser.parseOptionalAttrDict(result.attributes);
}

namespace {
/// A ControlTrigger with no control inputs constrains nothing: drop it.
struct DropEmptyControlTrigger : public OpRewritePattern<ControlTriggerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ControlTriggerOp op, PatternRewriter &rewriter) const override {
    if (op.getNumOperands() != 0 || !allUsesAreControlInputs(op.getControl()))
      return failure();
    for (OpOperand &use : llvm::make_early_inc_range(op.getControl().getUses())) {
      Operation *owner = use.getOwner();
      rewriter.modifyOpInPlace(owner, [&] { owner->eraseOperand(use.getOperandNumber()); });
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void ControlTriggerOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<DropEmptyControlTrigger>(context);
}

#define GET_OP_CLASSES
#include "tfmlir/TfExecutorOps.cpp.inc"
