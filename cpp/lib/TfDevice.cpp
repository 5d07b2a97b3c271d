//===- TfDevice.cpp - the tf_device dialect -------------------------------===//
#include "tfmlir/TfDevice.h"
#include "tfmlir/Limits.h"
#include "tfmlir/TfInterfaces.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

// As TF: the callee must be a func.func (any other symbol is "undefined").
LogicalResult ClusterFuncOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  StringAttr name = getFuncAttr().getRootReference();
  if (!symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, name))
    return emitError() << "'func' attribute refers to an undefined function: "
                       << name.getValue();
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

// TF's checks and wording. The regions' terminators are checked afterwards
// (SingleBlockImplicitTerminator verifies once the regions have been); here
// the last op of each region stands for it.
LogicalResult ParallelExecuteOp::verify() {
  if (getRegions().empty())
    return emitOpError() << "must have at least one region.";
  unsigned numOutputs = 0;
  for (Region &region : getRegions()) {
    if (region.empty() || region.front().empty())
      continue;
    for (Type t : region.front().back().getOperandTypes()) {
      // A returned value without a result is a mismatch too (what TF reports).
      if (numOutputs >= getNumResults() || getResult(numOutputs).getType() != t)
        return emitOpError() << "output types must be a concatenated "
                                "list of output types for each regions.";
      ++numOutputs;
    }
  }
  if (numOutputs != getNumResults())
    return emitOpError() << "number of output types (" << getNumResults()
                         << ") must match the total number of outputs from all regions ("
                         << numOutputs << ").";
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
    } else {
      OpAsmParser::UnresolvedOperand operand;
      if (parser.parseOperand(operand))
        return failure();
      operands.push_back(operand);
    }
    OpAsmParser::Argument arg;
    if (parser.parseKeyword("as", isReplicated
                                      ? " between replicated inputs and block argument"
                                      : " between packed input and block argument") ||
        parser.parseArgument(arg) || parser.parseColonType(arg.type))
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
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();

  // TF's checks and wording: a missing `n` counts as 0.
  Attribute nValue = result.attributes.get("n");
  auto nAttr = llvm::dyn_cast_or_null<IntegerAttr>(nValue);
  // Read as TF reads it (a signless integer; anything else but an integer counts as 0): an
  // integer of another kind, or wider than 64 bits, would abort the reading.
  if (nAttr && (!nAttr.getType().isSignlessInteger() ||
                nAttr.getType().getIntOrFloatBitWidth() > 64))
    return parser.emitError(loc) << "expects 'n' to be a signless integer, got " << nValue;
  int64_t n = nAttr ? nAttr.getInt() : 0;
  if (n < 2)
    return parser.emitError(loc) << "expects 'n' to be at least 2, got " << n;
  if (Attribute devices = result.attributes.get("devices");
      devices && !llvm::isa<DictionaryAttr>(devices))
    return parser.emitError(loc) << "expects 'devices' to be a dictionary, got " << devices;
  for (auto [idx, group] : llvm::enumerate(groupSizes))
    if (static_cast<int64_t>(group.second) != n)
      return parser.emitError(loc)
             << "expects number of operands for replicated input " << idx
             << " to be 'n' (" << n << "), got " << group.second;
  if (parser.resolveOperands(replicated, replicatedTypes, loc, result.operands) ||
      parser.resolveOperands(packed, packedTypes, loc, result.operands))
    return failure();

  auto &props = result.getOrAddProperties<ReplicateOp::Properties>();
  props.operandSegmentSizes = {static_cast<int32_t>(replicated.size()),
                               static_cast<int32_t>(packed.size())};

  SmallVector<OpAsmParser::Argument> args(replicatedArgs);
  args.append(packedArgs.begin(), packedArgs.end());
  Region &body = *result.addRegion();
  if (parser.parseRegion(body, args))
    return failure();
  ReplicateOp::ensureTerminator(body, parser.getBuilder(), result.location);
  if (!llvm::hasSingleElement(body))
    return parser.emitError(loc) << "expects a single block region";
  Operation &terminator = body.front().back();
  if (!llvm::isa<ReturnOp>(terminator))
    return parser.emitError(loc) << "expects a tf_device.return terminator";
  // Results: each returned value once per replica, grouped by value.
  // n is bounded first so that the product cannot overflow.
  int64_t numResults = std::min(n, tfmlir_limits::kMaxParsedResults) *
                       int64_t(terminator.getNumOperands());
  if (n >= tfmlir_limits::kMaxParsedResults ||
      numResults >= tfmlir_limits::kMaxParsedResults)
    return parser.emitError(loc) << "expects fewer than " << tfmlir_limits::kMaxParsedResults
                                 << " results (returned values times n), got n = " << n
                                 << " times " << terminator.getNumOperands();
  for (Type t : terminator.getOperandTypes())
    result.types.append(n, t);
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

// TF's checks, in its order and wording. The terminator itself is checked
// after the region (SingleBlockImplicitTerminator); the block's last op
// stands for it here.
LogicalResult ReplicateOp::verify() {
  int64_t n = getN();
  if (auto devices = getDevicesAttr()) {
    for (NamedAttribute entry : devices) {
      auto list = llvm::dyn_cast<ArrayAttr>(entry.getValue());
      if (!list)
        return emitError() << "expects 'devices' to be a map alias and device name list.";
      if (!llvm::all_of(list, [](Attribute a) { return llvm::isa<StringAttr>(a); }))
        return emitOpError()
               << "expects 'devices' to be a consists of string list as values.";
      if (static_cast<int64_t>(list.size()) != n)
        return emitOpError() << "expects number of devices (" << list.size()
                             << ") to be equal to 'n' (" << n << ")";
    }
  }
  Block &block = GetBody();
  int64_t numReplicatedInputs = getReplicatedInputs().size();
  int64_t numPackedInputs = getPackedInputs().size();
  if (numReplicatedInputs % n != 0)
    return emitOpError() << "expects number of replicated inputs (" << numReplicatedInputs
                         << ") to be evenly divisible by 'n' (" << n << ")";
  int64_t numReplicatedArgs = numReplicatedInputs / n;
  if (numReplicatedArgs + numPackedInputs != static_cast<int64_t>(block.getNumArguments()))
    return emitOpError() << "expects number of block arguments (" << block.getNumArguments()
                         << ") to be equal to number of replicated inputs ("
                         << numReplicatedInputs << ") / 'n' (" << n
                         << ") + number of packed inputs (" << numPackedInputs << ")";
  auto checkOperand = [&](BlockArgument arg, int64_t operandIdx) -> LogicalResult {
    Type operandType = getOperand(operandIdx).getType();
    if (compatibleTypes(arg.getType(), operandType))
      return success();
    return emitOpError() << "expects operand " << operandIdx << " (" << operandType
                         << ") and block argument " << arg.getArgNumber() << " ("
                         << arg.getType() << ") to have compatible types";
  };
  for (BlockArgument arg : block.getArguments()) {
    int64_t argNum = arg.getArgNumber();
    if (argNum < numReplicatedArgs) {
      for (int64_t i = n * argNum, e = i + n; i < e; ++i)
        if (failed(checkOperand(arg, i)))
          return failure();
    } else if (failed(checkOperand(arg, argNum - numReplicatedArgs + numReplicatedInputs))) {
      return failure();
    }
  }
  if (block.empty())
    return success();
  Operation &terminator = block.back();
  if (static_cast<int64_t>(getNumResults()) != n * terminator.getNumOperands())
    return emitOpError() << "expects number of results (" << getNumResults()
                         << ") to be equal to 'n' * number of terminator operands (" << n
                         << " * " << terminator.getNumOperands() << ")";
  for (auto [operandIdx, type] : llvm::enumerate(terminator.getOperandTypes()))
    for (int64_t i = n * operandIdx, e = i + n; i < e; ++i)
      if (!compatibleTypes(type, getResult(i).getType()))
        return emitOpError() << "incompatible types for result " << i
                             << " and terminator operand " << operandIdx;
  return success();
}

#define GET_OP_CLASSES
#include "tfmlir/TfDeviceOps.cpp.inc"
