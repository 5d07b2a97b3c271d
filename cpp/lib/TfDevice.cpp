//===- TfDevice.cpp - the tf_device dialect -------------------------------===//
#include "tfmlir/TfDevice.h"
#include "tfmlir/Limits.h"
#include "tfmlir/TfInterfaces.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tfmlir;
using namespace tfmlir::tf_device;

#include "tfmlir/TfDeviceDialect.cpp.inc"

namespace {
/// TF's tf_device inliner interface: calls other than cluster_func inline,
/// into any tf_device region, all tf_device ops legal; type mismatches at the
/// call boundary become tf.Cast {Truncate = false} (as in the tf dialect).
struct DeviceInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *call, Operation *, bool) const final {
    return !llvm::isa<ClusterFuncOp>(call);
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }
  Operation *materializeCallConversion(OpBuilder &builder, Value input, Type resultType,
                                       Location loc) const final {
    return TF::createCallConversionCast(builder, input, resultType, loc);
  }
};
} // namespace

void TfDeviceDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfmlir/TfDeviceOps.cpp.inc"
      >();
  addInterfaces<DeviceInlinerInterface>();
}

//===----------------------------------------------------------------------===//
// launch / cluster
//===----------------------------------------------------------------------===//

// launch and cluster have no verifier: TF's accept any results, e.g. a
// `tensor<?xi32>` result for a returned `tensor<*xi32>` (TF's own tests).

bool LaunchOp::WrapsSingleOp() {
  Block &body = GetBody();
  return !body.empty() && &body.front() != &body.back() &&
         std::next(body.begin(), 2) == body.end();
}

//===----------------------------------------------------------------------===//
// cluster_func: a call with a symbol callee.
//===----------------------------------------------------------------------===//

CallInterfaceCallable ClusterFuncOp::getCallableForCallee() { return getFuncAttr(); }

void ClusterFuncOp::setCalleeFromCallable(CallInterfaceCallable callee) {
  setFuncAttr(llvm::cast<FlatSymbolRefAttr>(llvm::cast<SymbolRefAttr>(callee)));
}

Operation::operand_range ClusterFuncOp::getArgOperands() { return getArgs(); }

MutableOperandRange ClusterFuncOp::getArgOperandsMutable() {
  return getArgsMutable();
}

LogicalResult ClusterFuncOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee = symbolTable.lookupNearestSymbolFrom(*this, getFuncAttr());
  if (!callee)
    return emitOpError() << "references an undefined function " << getFuncAttr();
  auto fn = llvm::dyn_cast<FunctionOpInterface>(callee);
  if (!fn)
    return emitOpError() << "'" << getFunc() << "' does not reference a function";
  return success();
}

//===----------------------------------------------------------------------===//
// parallel_execute
//===----------------------------------------------------------------------===//

Operation::result_range ParallelExecuteOp::GetRegionOutputs(unsigned index) {
  unsigned start = 0;
  for (unsigned i = 0; i < index; ++i)
    start += GetRegionBlockWithIndex(i).getTerminator()->getNumOperands();
  unsigned count = GetRegionBlockWithIndex(index).getTerminator()->getNumOperands();
  return getResults().slice(start, count);
}

LogicalResult ParallelExecuteOp::verify() {
  if (getRegions().empty())
    return emitOpError() << "must have at least one region.";
  unsigned expected = 0;
  for (auto [idx, region] : llvm::enumerate(getRegions())) {
    if (region.empty() || !llvm::isa<ReturnOp>(region.front().back()))
      return emitOpError() << "region #" << idx
                           << " must end with a tf_device.return";
    Operation *ret = region.front().getTerminator();
    for (auto [i, t] : llvm::enumerate(ret->getOperandTypes())) {
      unsigned resultIdx = expected + i;
      if (resultIdx < getNumResults() && getResult(resultIdx).getType() != t)
        return emitOpError() << "output #" << resultIdx << " type "
                             << getResult(resultIdx).getType()
                             << " does not match region #" << idx
                             << " returned type " << t;
    }
    expected += ret->getNumOperands();
  }
  if (expected != getNumResults())
    return emitOpError() << "has " << getNumResults()
                         << " outputs but its regions return " << expected
                         << " values";
  return success();
}

//===----------------------------------------------------------------------===//
// replicate: `([%a, %b] as %x: T, %p as %y: T) {attrs} { region }`
//===----------------------------------------------------------------------===//

unsigned ReplicateOp::GetNumReplicatedBlockArguments() {
  return getReplicatedInputs().size() / getN();
}

unsigned ReplicateOp::GetNumPackedBlockArguments() {
  return getPackedInputs().size();
}

ParseResult ReplicateOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> replicated, packed;
  SmallVector<Type> replicatedTypes, packedTypes;
  SmallVector<OpAsmParser::Argument> replicatedArgs, packedArgs;
  // The group size of each bracketed list, checked against `n` below.
  SmallVector<std::pair<SMLoc, size_t>> groupSizes;

  auto parseEntry = [&]() -> ParseResult {
    SMLoc entryLoc = parser.getCurrentLocation();
    SmallVector<OpAsmParser::UnresolvedOperand> operands;
    bool isReplicated = succeeded(parser.parseOptionalLSquare());
    if (isReplicated) {
      if (parser.parseOperandList(operands) || parser.parseRSquare())
        return failure();
      if (operands.empty())
        return parser.emitError(entryLoc) << "expects at least one replicated value";
    } else {
      OpAsmParser::UnresolvedOperand operand;
      if (parser.parseOperand(operand))
        return failure();
      operands.push_back(operand);
    }
    OpAsmParser::Argument arg;
    if (parser.parseKeyword("as") || parser.parseArgument(arg) ||
        parser.parseColonType(arg.type))
      return failure();
    if (isReplicated) {
      groupSizes.push_back({entryLoc, operands.size()});
      replicated.append(operands.begin(), operands.end());
      replicatedTypes.append(operands.size(), arg.type);
      replicatedArgs.push_back(arg);
    } else {
      packed.push_back(operands.front());
      packedTypes.push_back(arg.type);
      packedArgs.push_back(arg);
    }
    return success();
  };
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen())) {
      if (parser.parseCommaSeparatedList(parseEntry) || parser.parseRParen())
        return failure();
    }
  }
  if (parser.resolveOperands(replicated, replicatedTypes, loc, result.operands) ||
      parser.resolveOperands(packed, packedTypes, loc, result.operands) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();

  auto nAttr = llvm::dyn_cast_or_null<IntegerAttr>(result.attributes.get("n"));
  if (!nAttr)
    return parser.emitError(loc) << "expects an integer attribute 'n'";
  if (nAttr.getInt() < 2)
    return parser.emitError(loc) << "expects 'n' to be at least 2, got " << nAttr.getInt();
  if (Attribute devices = result.attributes.get("devices");
      devices && !llvm::isa<DictionaryAttr>(devices))
    return parser.emitError(loc) << "expects 'devices' to be a dictionary, got " << devices;
  for (auto [groupLoc, size] : groupSizes)
    if (static_cast<int64_t>(size) != nAttr.getInt())
      return parser.emitError(groupLoc)
             << "expects " << nAttr.getInt() << " replicated values (n), got " << size;

  auto &props = result.getOrAddProperties<ReplicateOp::Properties>();
  props.operandSegmentSizes = {static_cast<int32_t>(replicated.size()),
                               static_cast<int32_t>(packed.size())};

  SmallVector<OpAsmParser::Argument> args(replicatedArgs);
  args.append(packedArgs.begin(), packedArgs.end());
  Region &body = *result.addRegion();
  if (parser.parseRegion(body, args))
    return failure();
  ReplicateOp::ensureTerminator(body, parser.getBuilder(), result.location);
  Operation &terminator = body.front().back();
  if (!llvm::isa<ReturnOp>(terminator))
    return parser.emitError(loc) << "expects a tf_device.return terminator";
  // Results: each returned value once per replica, grouped by value.
  // n is bounded first so that the product cannot overflow.
  int64_t numResults = std::min(nAttr.getInt(), tfmlir_limits::kMaxParsedResults) *
                       int64_t(terminator.getNumOperands());
  if (nAttr.getInt() >= tfmlir_limits::kMaxParsedResults ||
      numResults >= tfmlir_limits::kMaxParsedResults)
    return parser.emitError(loc) << "expects fewer than " << tfmlir_limits::kMaxParsedResults
                                 << " results (returned values times n), got n = " << nAttr.getInt()
                                 << " times " << terminator.getNumOperands();
  for (Type t : terminator.getOperandTypes())
    result.types.append(nAttr.getInt(), t);
  return success();
}

void ReplicateOp::print(OpAsmPrinter &p) {
  Block &block = GetBody();
  int64_t n = getN();
  unsigned numReplicated = GetNumReplicatedBlockArguments();
  if (block.getNumArguments() > 0) {
    p << '(';
    unsigned argIdx = 0;
    OperandRange replicatedInputs = getReplicatedInputs();
    for (unsigned group = 0; group < numReplicated; ++group, ++argIdx) {
      if (argIdx)
        p << ", ";
      p << '[';
      p.printOperands(replicatedInputs.slice(group * n, n));
      p << "] as ";
      p.printRegionArgument(block.getArgument(argIdx));
    }
    for (Value packed : getPackedInputs()) {
      if (argIdx)
        p << ", ";
      p.printOperand(packed);
      p << " as ";
      p.printRegionArgument(block.getArgument(argIdx++));
    }
    p << ')';
  }
  p.printOptionalAttrDict((*this)->getAttrs(), {getOperandSegmentSizesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

/// TF's rule for replicate's inputs, block arguments and results: compatible
/// shapes and the same element type.
static bool compatibleTypes(Type a, Type b) {
  return succeeded(verifyCompatibleShape(a, b)) &&
         getElementTypeOrSelf(a) == getElementTypeOrSelf(b);
}

LogicalResult ReplicateOp::verify() {
  int64_t n = getN();
  unsigned numReplicatedInputs = getReplicatedInputs().size();
  if (numReplicatedInputs % n != 0)
    return emitOpError() << "expects the number of replicated inputs ("
                         << numReplicatedInputs << ") to be a multiple of n (" << n << ")";
  Block &block = GetBody();
  unsigned numReplicatedArgs = numReplicatedInputs / n;
  unsigned expectedArgs = numReplicatedArgs + getPackedInputs().size();
  if (block.getNumArguments() != expectedArgs)
    return emitOpError() << "expects " << expectedArgs
                         << " block arguments (one per replicated group and packed input), got "
                         << block.getNumArguments();
  for (unsigned i = 0; i < numReplicatedInputs; ++i) {
    Type operandType = getReplicatedInputs()[i].getType();
    Type argType = block.getArgument(i / n).getType();
    if (!compatibleTypes(operandType, argType))
      return emitOpError() << "expects replicated input #" << i << " of type "
                           << operandType << " to match block argument #" << (i / n)
                           << " of type " << argType;
  }
  for (auto [i, packed] : llvm::enumerate(getPackedInputs())) {
    Type argType = block.getArgument(numReplicatedArgs + i).getType();
    if (!compatibleTypes(packed.getType(), argType))
      return emitOpError() << "expects packed input #" << i << " of type "
                           << packed.getType() << " to match block argument #"
                           << (numReplicatedArgs + i) << " of type " << argType;
  }
  if (auto devices = getDevicesAttr()) {
    for (NamedAttribute entry : devices) {
      auto list = llvm::dyn_cast<ArrayAttr>(entry.getValue());
      bool ok = list && static_cast<int64_t>(list.size()) == n &&
                llvm::all_of(list, [](Attribute a) { return llvm::isa<StringAttr>(a); });
      if (!ok)
        return emitOpError() << "expects devices entry '" << entry.getName().getValue()
                             << "' to be a list of " << n << " device strings";
    }
  }
  if (block.empty() || !llvm::isa<ReturnOp>(block.back()))
    return emitOpError() << "expects its region to end with tf_device.return";
  Operation *terminator = &block.back();
  unsigned expectedResults = terminator->getNumOperands() * n;
  if (getNumResults() != expectedResults)
    return emitOpError() << "expects " << expectedResults
                         << " results (returned values times n), got " << getNumResults();
  for (auto [i, result] : llvm::enumerate(getResults())) {
    Type returned = terminator->getOperand(i / n).getType();
    if (!compatibleTypes(result.getType(), returned))
      return emitOpError() << "result #" << i << " type " << result.getType()
                           << " does not match returned value #" << (i / n)
                           << " of type " << returned;
  }
  return success();
}

#define GET_OP_CLASSES
#include "tfmlir/TfDeviceOps.cpp.inc"
