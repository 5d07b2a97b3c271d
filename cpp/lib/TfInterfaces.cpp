//===- TfInterfaces.cpp - inliner and constant folding of the tf dialect --===//
//
// TF 2.21's TFInlinerInterface and TFConstantFoldInterface (tf_ops.cc) with
// the fold hook TF installs (transforms/constant_fold.cc): the same legality
// rules, policy and thresholds. What TF computes with its runtime (kernels,
// DeviceNameUtils) goes through the hooks of tfmlir/TfInterfaces.h.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfInterfaces.h"
#include "tfmlir/Tf.h"

#include "mlir/Interfaces/FoldInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tfmlir;
using namespace tfmlir::TF;

namespace {
struct Hooks {
  ConstantEvaluator evaluator = nullptr;
  void *evaluatorData = nullptr;
  DeviceNameMerger merger = nullptr;
  void *mergerData = nullptr;
};
Hooks &hooks() {
  static Hooks instance;
  return instance;
}
} // namespace

void tfmlir::TF::setConstantEvaluator(ConstantEvaluator fn, void *userData) {
  hooks().evaluator = fn;
  hooks().evaluatorData = fn ? userData : nullptr;
}

void tfmlir::TF::setDeviceNameMerger(DeviceNameMerger fn, void *userData) {
  hooks().merger = fn;
  hooks().mergerData = fn ? userData : nullptr;
}

/// Where TF asks `Operation::isRegistered()` (the ops of TF's registry that
/// TF's dialect does not define are unknown ops here too).
static bool isRegisteredInTF(Operation *op) { return op->isRegistered(); }

bool tfmlir::TF::canDuplicate(Operation *op) {
  if (op->hasTrait<trait::CannotDuplicate>())
    return false;
  if (isMemoryEffectFree(op))
    return true;
  if (auto stateless = op->getAttrOfType<BoolAttr>("is_stateless"))
    return stateless.getValue();
  return isRegisteredInTF(op);
}

bool tfmlir::TF::canBeConstantFolded(Operation *op) {
  if (!op || op->getNumResults() == 0 || op->hasTrait<trait::NoConstantFold>() ||
      op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  for (Type type : op->getResultTypes())
    if (auto tensor = llvm::dyn_cast<TensorType>(type))
      if (llvm::isa<tf_type::VariantType>(tensor.getElementType()))
        return false;
  if (llvm::isa<WhileOp, CaseOp, IfOp, CallOpInterface>(op))
    return false;
  return true;
}

Operation *tfmlir::TF::createCallConversionCast(OpBuilder &builder, Value input, Type type,
                                                Location loc) {
  if (!llvm::isa<TensorType>(type) || !llvm::isa<TensorType>(input.getType()))
    return nullptr;
  OperationState state(loc, "tf.Cast");
  state.addOperands(input);
  state.addTypes(type);
  state.addAttribute("Truncate", builder.getBoolAttr(false));
  return builder.create(state);
}

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

/// TF's IsFoldedByDefaultPolicy: operands of at most 1 Gibit, results of at
/// most 64 Kibit or at most twice the operands (bits of statically shaped
/// integer and float tensors; other types count nothing).
static bool isFoldedByDefaultPolicy(Operation *op) {
  bool tensorsOnly = true;
  auto sizeOf = [&](TypeRange types) {
    int64_t size = 0;
    for (Type type : types) {
      auto tensor = llvm::dyn_cast<TensorType>(type);
      if (!tensor) {
        tensorsOnly = false;  // TF's cast would abort; such ops are not folded
        continue;
      }
      if (!tensor.getElementType().isIntOrFloat() || !tensor.hasStaticShape())
        continue;
      size += tensor.getNumElements() * tensor.getElementType().getIntOrFloatBitWidth();
    }
    return size;
  };
  int64_t resultsSize = sizeOf(op->getResultTypes());
  int64_t operandsSize = sizeOf(op->getOperandTypes());
  constexpr int64_t kSizeFactor = 2;
  constexpr int64_t kResultsSizeThreshold = int64_t(1) << 16;
  constexpr int64_t kOperandsSizeThreshold = int64_t(1) << 30;
  return tensorsOnly && operandsSize <= kOperandsSizeThreshold &&
         (resultsSize <= kResultsSizeThreshold || resultsSize <= kSizeFactor * operandsSize);
}

namespace {
struct TFConstantFoldInterface : public DialectFoldInterface {
  using DialectFoldInterface::DialectFoldInterface;

  LogicalResult fold(Operation *op, ArrayRef<Attribute> operands,
                     SmallVectorImpl<OpFoldResult> &results) const final {
    if (!canBeConstantFolded(op) || !isFoldedByDefaultPolicy(op))
      return failure();
    // Empty numerical results fold whatever the operands are.
    bool emptyNumerical = llvm::all_of(op->getResultTypes(), [](Type type) {
      auto shaped = llvm::dyn_cast<ShapedType>(type);
      return shaped && shaped.hasStaticShape() && shaped.getNumElements() == 0 &&
             shaped.getElementType().isIntOrFloat();
    });
    if (emptyNumerical && isRegisteredInTF(op)) {
      for (Type type : op->getResultTypes())
        results.push_back(DenseElementsAttr::get(llvm::cast<ShapedType>(type),
                                                 ArrayRef<Attribute>()));
      return success();
    }
    if (llvm::any_of(operands, [](Attribute a) { return !llvm::isa_and_nonnull<ElementsAttr>(a); }))
      return failure();
    const Hooks &h = hooks();
    if (!h.evaluator)
      return failure();
    SmallVector<Attribute> values;
    if (!h.evaluator(op->getName().getStringRef(), op->getAttrDictionary(), operands,
                     op->getResultTypes(), values, h.evaluatorData))
      return failure();
    if (values.size() != op->getNumResults() ||
        llvm::any_of(values, [](Attribute a) { return !llvm::isa_and_nonnull<ElementsAttr>(a); }))
      return failure();
    results.assign(values.begin(), values.end());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Inlining
//===----------------------------------------------------------------------===//

/// TF's multi-device placement of inlined call bodies: every tf op gets the
/// call's device where it has none, and the parts its own device leaves unset
/// (DeviceNameUtils::MergeUnsetDevNames) where it has one. Nothing changes
/// if the call's device does not parse.
void placeInlinedOpsOnCallDevice(Operation *call, iterator_range<Region::iterator> blocks) {
  auto callerDevice = call->getAttrOfType<StringAttr>("device");
  const Hooks &h = hooks();
  if (!callerDevice || !h.merger)
    return;
  std::string merged;
  if (!h.merger(callerDevice.getValue(), callerDevice.getValue(), merged, h.mergerData))
    return;
  MLIRContext *context = call->getContext();
  auto deviceOf = [&](Operation *op) -> StringAttr {
    auto device = op->getAttrOfType<StringAttr>("device");
    if (!device || device.getValue().empty())
      return callerDevice;
    merged.clear();
    if (!h.merger(callerDevice.getValue(), device.getValue(), merged, h.mergerData))
      return device;
    return StringAttr::get(context, merged);
  };
  for (Block &block : blocks)
    block.walk([&](Operation *op) {
      if (op->getDialect() == call->getDialect())
        op->setAttr("device", deviceOf(op));
    });
}

struct TFInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable, bool) const final {
    StringRef name = call->getName().getStringRef();
    if (name == "tf.TPUPartitionedCall" || name == "tf.RemoteCall")
      return false;
    if (callable->hasAttr("tf._XlaMustCompile"))
      return true;
    if (auto noinline = callable->getAttrOfType<BoolAttr>("tf._noinline"))
      return !noinline.getValue();
    return true;
  }

  bool isLegalToInline(Region *dest, Region *src, bool, IRMapping &) const final {
    return llvm::isa<IfRegionOp, CaseRegionOp, WhileRegionOp>(dest->getParentOp()) &&
           llvm::hasSingleElement(*src);
  }

  bool isLegalToInline(Operation *op, Region *, bool wouldBeCloned, IRMapping &) const final {
    return !wouldBeCloned || canDuplicate(op);
  }

  Operation *materializeCallConversion(OpBuilder &builder, Value input, Type resultType,
                                       Location loc) const final {
    return createCallConversionCast(builder, input, resultType, loc);
  }

  /// TF's GetFunctionCallInlinePolicy: the multi-device placer for
  /// (Stateful)PartitionedCall and calls marked
  /// `_lower_as_multi_device_function = true`; the single-device placer
  /// (nothing to do here) otherwise.
  void processInlinedCallBlocks(Operation *call,
                                iterator_range<Region::iterator> blocks) const final {
    bool multiDevice = llvm::isa<PartitionedCallOp, StatefulPartitionedCallOp>(call);
    if (auto lower = call->getAttrOfType<BoolAttr>("_lower_as_multi_device_function"))
      multiDevice |= lower.getValue();
    if (multiDevice)
      placeInlinedOpsOnCallDevice(call, blocks);
  }
};
} // namespace

void tfmlir::TF::addTFDialectInterfaces(TFDialect &dialect) {
  dialect.addInterfaces<TFInlinerInterface, TFConstantFoldInterface>();
}
