//===- TfVerifiersNn.cpp - verifiers of generated tf ops (pooling, ...) ===//
//
// Hand-written verifiers of generated tf ops: pooling, normalization, losses, fake and uniform quantization, XLA ops.
// Each checks exactly what TensorFlow 2.21's verifier of the op (and its ODS
// traits) checks, no more, with TF's wording: tfmlir accepts every module TF
// accepts. Registered by name in the table of TfVerifiers.cpp (verifyTfOp);
// a registration here replaces an earlier one for the same op.
//
// TF's ODS declares attribute constraints the generated ops do not carry
// (array lengths, string enumerations); they are checked here first, with the
// wording of MLIR's generated constraint checks. Ops TF infers result types
// for (InferTensorType) but tfmlir does not (Conv3D, XlaBroadcastHelper) get
// TF's inference check here too, before the op's own rules, as in TF.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// TF's GetRankedTensorTypeForOperand: the type of a constant's value (a
/// constant's declared type may be less refined), else the operand's type.
RankedTensorType rankedOperand(Value v) {
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return llvm::dyn_cast<RankedTensorType>(attr.getType());
  return llvm::dyn_cast<RankedTensorType>(v.getType());
}

bool rankIsOrUnranked(Value v, int64_t rank) {
  auto t = rankedOperand(v);
  return !t || t.getRank() == rank;
}

bool rankAtLeast(Value v, int64_t rank) {
  auto t = rankedOperand(v);
  return !t || t.getRank() >= rank;
}

/// A ranked float tensor of rank `rank` (TF's IsOfRankedFloatTensorType).
bool isRankedFloat(RankedTensorType t, int64_t rank) {
  return t && t.getRank() == rank && llvm::isa<FloatType>(t.getElementType());
}

int64_t intAttr(Operation *op, StringRef name, int64_t otherwise) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : otherwise;
}

StringRef strAttr(Operation *op, StringRef name, StringRef otherwise) {
  auto attr = op->getAttrOfType<StringAttr>(name);
  return attr ? attr.getValue() : otherwise;
}

/// The integers of an integer array attribute (empty if absent).
SmallVector<int64_t> intList(Operation *op, StringRef name) {
  SmallVector<int64_t> out;
  if (auto attr = op->getAttrOfType<ArrayAttr>(name))
    for (Attribute a : attr)
      if (auto i = llvm::dyn_cast<IntegerAttr>(a))
        out.push_back(i.getInt());
  return out;
}

LogicalResult attrConstraintError(Operation *op, StringRef name, StringRef summary) {
  return op->emitOpError() << "attribute '" << name << "' failed to satisfy constraint: "
                           << summary;
}

/// ConfinedAttr<I64ArrayAttr, [ArrayMinCount<n>]> (absent optional ones pass).
LogicalResult checkArrayMinCount(Operation *op, StringRef name, size_t n) {
  auto attr = op->getAttrOfType<ArrayAttr>(name);
  if (attr && attr.size() < n)
    return attrConstraintError(op, name,
                               "64-bit integer array attribute with at least " +
                                   std::to_string(n) + " elements");
  return success();
}

/// TF_AnyStrAttrOf<cases> (absent optional ones pass).
LogicalResult checkStrAttrOf(Operation *op, StringRef name, ArrayRef<StringRef> cases) {
  auto attr = op->getAttrOfType<StringAttr>(name);
  if (!attr || llvm::is_contained(cases, attr.getValue()))
    return success();
  std::string summary = "string attribute whose value is ";
  for (auto [i, c] : llvm::enumerate(cases)) {
    if (i)
      summary += ", or ";
    summary += c.str();
  }
  return attrConstraintError(op, name, summary);
}

/// TF_ConvnetDataFormatAttr.
LogicalResult checkConvnetDataFormat(Operation *op) {
  auto attr = op->getAttrOfType<StringAttr>("data_format");
  if (!attr || attr.getValue() == "NHWC" || attr.getValue() == "NCHW")
    return success();
  return attrConstraintError(op, "data_format", "'NHWC' or 'NCHW' convnet data format");
}

/// TF's InferTypeOpInterface check of an op tfmlir does not infer: the
/// inferred types (or an inference failure, already reported) against the
/// declared result types, with MLIR's wording.
LogicalResult checkInferredTypes(Operation *op, FailureOr<SmallVector<Type>> inferred) {
  if (succeeded(inferred) &&
      !tfmlir::TF::areCompatibleReturnTypes(*inferred, op->getResultTypes())) {
    op->emitOpError() << "inferred type(s) " << TypeRange(*inferred)
                      << " are incompatible with return type(s) of operation "
                      << op->getResultTypes();
    inferred = failure();
  }
  if (failed(inferred))
    return op->emitOpError() << "failed to infer returned types";
  return success();
}

/// The func.func `attrName` names in the enclosing module (TF's
/// SymbolTable::lookupSymbolIn(module, ...) cast to func::FuncOp).
FunctionOpInterface lookupFunc(Operation *op, StringRef attrName) {
  auto ref = op->getAttrOfType<SymbolRefAttr>(attrName);
  auto module = op->getParentOfType<ModuleOp>();
  if (!ref || !module)
    return {};
  Operation *callee = SymbolTable::lookupSymbolIn(module, ref);
  if (!callee || callee->getName().getStringRef() != "func.func")
    return {};
  return llvm::dyn_cast<FunctionOpInterface>(callee);
}

//===----------------------------------------------------------------------===//
// Pooling, bias, normalization, losses
//===----------------------------------------------------------------------===//

LogicalResult verifyAvgPool(Operation *op) {
  // TF has no verifier for AvgPool: only its ODS attribute constraints.
  if (failed(checkArrayMinCount(op, "ksize", 4)) ||
      failed(checkArrayMinCount(op, "strides", 4)) ||
      failed(checkStrAttrOf(op, "padding", {"SAME", "VALID"})))
    return failure();
  return checkConvnetDataFormat(op);
}

LogicalResult verifyMaxPoolGrad(Operation *op) {
  if (failed(checkArrayMinCount(op, "ksize", 4)) ||
      failed(checkArrayMinCount(op, "strides", 4)) ||
      failed(checkStrAttrOf(op, "padding", {"SAME", "VALID", "EXPLICIT"})) ||
      failed(checkConvnetDataFormat(op)))
    return failure();
  if (!rankIsOrUnranked(op->getOperand(0), 4))
    return op->emitOpError() << "requires orig_input to be rank 4";
  if (!rankIsOrUnranked(op->getOperand(1), 4))
    return op->emitOpError() << "requires orig_output to be rank 4";
  if (!rankIsOrUnranked(op->getOperand(2), 4))
    return op->emitOpError() << "requires grad to be rank 4";
  return success();
}

LogicalResult verifyBiasAdd(Operation *op) {
  if (failed(checkConvnetDataFormat(op)))
    return failure();
  return tfmlir::TF::verifyBiasAddOp(op);
}

LogicalResult verifyBiasAddGrad(Operation *op) {
  if (failed(checkConvnetDataFormat(op)))
    return failure();
  if (strAttr(op, "data_format", "NHWC") == "NCHW") {
    if (!rankAtLeast(op->getOperand(0), 3))
      return op->emitOpError() << "requires out_backprop operand to have rank at least three "
                                  "with `NCHW` data format";
  } else if (!rankAtLeast(op->getOperand(0), 2)) {
    return op->emitOpError() << "requires out_backprop operand to have rank at least two with "
                                "`NHWC` data format";
  }
  return success();
}

LogicalResult verifyFusedBatchNorm(Operation *op) {
  if (failed(checkConvnetDataFormat(op)))
    return failure();
  static const char *const names[] = {"x", "scale", "offset", "mean", "variance"};
  for (unsigned i = 0; i < 5; ++i) {
    auto t = rankedOperand(op->getOperand(i));
    int64_t rank = i == 0 ? 4 : 1;
    if (t && !isRankedFloat(t, rank))
      return op->emitOpError() << "requires " << names[i] << " to be a " << rank
                               << "D float tensor";
  }
  return success();
}

LogicalResult verifySoftmax(Operation *op) {
  if (!rankAtLeast(op->getOperand(0), 1))
    return op->emitOpError() << "requires operand to have rank at least 1";
  return success();
}

LogicalResult verifySoftmaxCrossEntropyWithLogits(Operation *op) {
  auto broadcast = llvm::dyn_cast_or_null<ShapedType>(OpTrait::util::getBroadcastedType(
      op->getOperand(0).getType(), op->getOperand(1).getType()));
  if (!broadcast || (broadcast.hasRank() && broadcast.getRank() != 2))
    return op->emitOpError() << "requires features and labels to be broadcast compatible to "
                                "rank two";
  return success();
}

LogicalResult verifySparseSoftmaxCrossEntropyWithLogits(Operation *op) {
  if (!rankIsOrUnranked(op->getOperand(0), 2))
    return op->emitOpError() << "requires features operand of rank two";
  if (!rankIsOrUnranked(op->getOperand(1), 1))
    return op->emitOpError() << "requires labels operand of rank one";
  auto features = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto labels = llvm::dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  // TF reads the first dimensions of the declared types (ranked as checked
  // above unless a constant's value has another rank).
  if (!features || !labels || features.getRank() < 1 || labels.getRank() < 1)
    return success();
  int64_t a = features.getDimSize(0), b = labels.getDimSize(0);
  if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
    return op->emitOpError() << "requires features and labels with matching first dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// Conv3D: TF's attribute constraints, result type inference and verifier
//===----------------------------------------------------------------------===//

/// TF's inferred result type of Conv3D, or failure when an output size cannot
/// be computed (non-positive stride or dilation, negative output size).
FailureOr<SmallVector<Type>> inferConv3D(Operation *op) {
  constexpr int64_t numDims = 5;
  auto input = llvm::cast<TensorType>(op->getOperand(0).getType());
  auto filter = llvm::cast<TensorType>(op->getOperand(1).getType());
  bool nchw = strAttr(op, "data_format", "NDHWC") == "NCDHW";
  int64_t featureDim = nchw ? 1 : numDims - 1;
  SmallVector<int64_t> strides = intList(op, "strides");
  SmallVector<int64_t> dilations =
      op->getAttr("dilations") ? intList(op, "dilations") : SmallVector<int64_t>(numDims, 1);
  bool same = strAttr(op, "padding", "") == "SAME";
  SmallVector<int64_t> shape(numDims, ShapedType::kDynamic);
  if (input.hasRank())
    shape[0] = input.getDimSize(0);
  if (filter.hasRank())
    shape[featureDim] = filter.getDimSize(numDims - 1);
  if (input.hasRank() && filter.hasRank()) {
    for (int64_t i = 0; i < numDims - 2; ++i) {
      int64_t dim = nchw ? i + 2 : i + 1;
      int64_t stride = strides[dim], dilation = dilations[dim];
      if (input.isDynamicDim(dim) || filter.isDynamicDim(i))
        continue;
      if (stride <= 0 || dilation < 1)
        return failure();
      int64_t in = input.getDimSize(dim);
      int64_t out;
      if (same) {
        out = in / stride + (in % stride != 0);
      } else {
        // TF's (in - window + stride) / stride, without overflowing on hostile sizes.
        int64_t window, numerator;
        if (__builtin_mul_overflow(filter.getDimSize(i) - 1, dilation, &window) ||
            __builtin_add_overflow(window, 1, &window) ||
            __builtin_sub_overflow(in, window, &numerator) ||
            __builtin_add_overflow(numerator, stride, &numerator))
          return failure();
        out = numerator / stride;
      }
      if (out < 0)
        return failure();
      shape[dim] = out;
    }
  }
  return SmallVector<Type>{RankedTensorType::get(shape, input.getElementType())};
}

LogicalResult verifyConv3D(Operation *op) {
  constexpr int64_t numDims = 5;
  if (failed(checkArrayMinCount(op, "strides", numDims)) ||
      failed(checkStrAttrOf(op, "padding", {"SAME", "VALID"})) ||
      failed(checkStrAttrOf(op, "data_format", {"NDHWC", "NCDHW"})))
    return failure();
  // TF's inference indexes the operand shapes and dilations by the rank it
  // expects (and crashes otherwise); such ops are left to the rules below.
  auto input = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto filter = llvm::dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  bool inferable = (!input || input.getRank() == numDims) &&
                   (!filter || filter.getRank() == numDims) &&
                   (!op->getAttr("dilations") || intList(op, "dilations").size() >= numDims);
  if (inferable && failed(checkInferredTypes(op, inferConv3D(op))))
    return failure();

  if (!rankIsOrUnranked(op->getOperand(0), numDims) ||
      !rankIsOrUnranked(op->getOperand(1), numDims))
    return emitError(op->getLoc()) << "requires operands to be " << numDims << "D tensor";
  SmallVector<int64_t> strides = intList(op, "strides");
  SmallVector<int64_t> dilations =
      op->getAttr("dilations") ? intList(op, "dilations") : SmallVector<int64_t>(numDims, 1);
  auto notPositive = [](int64_t v) { return v <= 0; };
  if (static_cast<int64_t>(strides.size()) != numDims)
    return emitError(op->getLoc()) << "requires strides attribute length to be " << numDims;
  if (llvm::any_of(strides, notPositive))
    return emitError(op->getLoc()) << "requires positive strides";
  if (static_cast<int64_t>(dilations.size()) != numDims)
    return emitError(op->getLoc()) << "requires dilations attribute length to be " << numDims;
  if (llvm::any_of(dilations, notPositive))
    return emitError(op->getLoc()) << "requires positive dilations";
  if (!input || !filter)
    return success();
  bool nchw = strAttr(op, "data_format", "NDHWC") == "NCDHW";
  int64_t channels = input.getDimSize(nchw ? 1 : numDims - 1);
  int64_t filterChannels = filter.getDimSize(numDims - 2);
  if (ShapedType::isDynamic(channels) || ShapedType::isDynamic(filterChannels))
    return success();
  // TF divides by zero here (it crashes); this reports it.
  if (filterChannels == 0)
    return op->emitOpError() << "requires the filter's input channels to be non-zero";
  if (channels % filterChannels != 0)
    return op->emitOpError() << "requires the number of input channels to be divisible by the "
                                "number of filter input channels; found "
                             << channels << " and " << filterChannels << ", respectively";
  return success();
}

//===----------------------------------------------------------------------===//
// Fake quantization
//===----------------------------------------------------------------------===//

LogicalResult checkNumBits(Operation *op) {
  int64_t numBits = intAttr(op, "num_bits", 8);
  if (numBits < 2 || numBits > 16)
    return op->emitOpError() << "requires num_bits to be between 2 and 16, inclusive";
  return success();
}

LogicalResult verifyFakeQuantWithMinMaxArgs(Operation *op) {
  auto value = [&](StringRef name, float otherwise) {
    auto attr = op->getAttrOfType<FloatAttr>(name);
    return attr ? static_cast<float>(attr.getValueAsDouble()) : otherwise;
  };
  float rmin = value("min", -6.0f), rmax = value("max", 6.0f);
  if (rmin >= rmax)
    return op->emitOpError() << "range is invalid: [" << std::to_string(rmin) << ","
                             << std::to_string(rmax) << "]";
  return checkNumBits(op);
}

LogicalResult verifyFakeQuantWithMinMaxVars(Operation *op) {
  auto min = rankedOperand(op->getOperand(1));
  if (min && !isRankedFloat(min, 0))
    return op->emitOpError() << "requires min to be a 0d float tensor";
  auto max = rankedOperand(op->getOperand(2));
  if (max && !isRankedFloat(max, 0))
    return op->emitOpError() << "requires max to be a 0d float tensor";
  return checkNumBits(op);
}

LogicalResult verifyFakeQuantWithMinMaxVarsPerChannel(Operation *op) {
  auto min = rankedOperand(op->getOperand(1));
  if (min && !isRankedFloat(min, 1))
    return op->emitOpError() << "requires min to be a 1d float tensor";
  auto max = rankedOperand(op->getOperand(2));
  if (max && !isRankedFloat(max, 1))
    return op->emitOpError() << "requires max to be a 1d float tensor";
  Value inputs = op->getOperand(0);
  if (!rankAtLeast(inputs, 1))
    return emitError(op->getLoc()) << "requires inputs to be at least 1d float tensor";
  if (failed(checkNumBits(op)))
    return failure();
  auto inputsType = llvm::dyn_cast<RankedTensorType>(inputs.getType());
  if (!inputsType || inputsType.getRank() < 1)
    return success();
  // As TF: the last dimension, read into an int, compared as is with the
  // sizes of min and max, so a dynamic size on either side mismatches.
  int64_t depth = static_cast<int32_t>(inputsType.getDimSize(inputsType.getRank() - 1));
  if ((min && min.getDimSize(0) != depth) || (max && max.getDimSize(0) != depth))
    return op->emitOpError() << "requires min and max to have same size as last dimension of "
                                "inputs";
  return success();
}

//===----------------------------------------------------------------------===//
// XLA ops
//===----------------------------------------------------------------------===//

/// TF's inferred result types of XlaBroadcastHelper; errors at the op's
/// location as TF's inference reports them.
FailureOr<SmallVector<Type>> inferXlaBroadcastHelper(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto unranked = [&]() -> SmallVector<Type> {
    return {UnrankedTensorType::get(getElementTypeOrSelf(lhs)),
            UnrankedTensorType::get(getElementTypeOrSelf(rhs))};
  };
  auto lhsType = llvm::dyn_cast<RankedTensorType>(lhs.getType());
  auto rhsType = llvm::dyn_cast<RankedTensorType>(rhs.getType());
  if (!lhsType || !rhsType)
    return unranked();
  DenseIntElementsAttr dims;
  if (!matchPattern(op->getOperand(2), m_Constant(&dims)))
    return unranked();
  int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
  if (dims.empty()) {
    if (lhsRank != rhsRank && lhsRank != 0 && rhsRank != 0) {
      emitError(op->getLoc()) << "if broadcast_dims is empty, both arguments must have equal "
                                 "rank or at least one argument must be a scalar";
      return failure();
    }
    return SmallVector<Type>{lhsType, rhsType};
  }
  bool broadcastLhs = lhsRank < rhsRank;
  RankedTensorType minType = broadcastLhs ? lhsType : rhsType;
  RankedTensorType maxType = broadcastLhs ? rhsType : lhsType;
  if (static_cast<int64_t>(dims.getNumElements()) != minType.getRank()) {
    emitError(op->getLoc()) << "broadcast_dims must have size equal to the smaller argument rank";
    return failure();
  }
  int64_t outRank = maxType.getRank();
  SmallVector<int64_t> shape(outRank, 1);
  SmallVector<bool> seen(outRank, false);
  for (auto [index, value] : llvm::enumerate(dims.getValues<APInt>())) {
    int64_t dim = value.getSExtValue();
    // TF accepts dim == rank here and then indexes past its vectors.
    if (dim < 0 || dim >= outRank) {
      emitError(op->getLoc()) << "out of range broadcast dim";
      return failure();
    }
    if (seen[dim]) {
      emitError(op->getLoc()) << "broadcast_dims has duplicates";
      return failure();
    }
    shape[dim] = minType.getDimSize(index);
    seen[dim] = true;
  }
  Type broadcast = RankedTensorType::get(shape, minType.getElementType());
  if (broadcastLhs)
    return SmallVector<Type>{broadcast, rhsType};
  return SmallVector<Type>{lhsType, broadcast};
}

LogicalResult verifyXlaBroadcastHelper(Operation *op) {
  return checkInferredTypes(op, inferXlaBroadcastHelper(op));
}

LogicalResult verifyXlaConvV2(Operation *op) {
  // Operands: lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
  // feature_group_count; checked only when all five are constants.
  DenseElementsAttr attrs[5];
  for (unsigned i = 0; i < 5; ++i)
    if (!matchPattern(op->getOperand(2 + i), m_Constant(&attrs[i])))
      return success();
  auto [strides, padding, lhsDilation, rhsDilation, groups] =
      std::tuple(attrs[0].getType(), attrs[1].getType(), attrs[2].getType(), attrs[3].getType(),
                 attrs[4].getType());
  if (strides.getRank() != 1)
    return op->emitOpError() << "expects window_stride to be a vector";
  if (padding.getRank() != 2 || padding.getDimSize(1) != 2)
    return op->emitOpError() << "expects padding to be a matrix with minor dimension 2";
  // "vecotr" is TF's spelling.
  if (lhsDilation.getRank() != 1)
    return op->emitOpError() << "expects lhs_dilation to be a vecotr";
  if (rhsDilation.getRank() != 1)
    return op->emitOpError() << "expects rhs_dilation to be a vecotr";
  if (groups.getRank() != 0)
    return op->emitOpError() << "expects feature_group_count to be a scalar";
  return success();
}

/// Window operands of XlaReduceWindow / XlaSelectAndScatter against the
/// input rank; `checkRank` also requires a constant of rank one. The
/// missing space before "to" is TF's.
LogicalResult checkWindowOperand(Operation *op, ShapedType input, Value v, StringRef name,
                                 bool checkRank) {
  ElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return success();
  if (checkRank && attr.getShapedType().getRank() != 1)
    return op->emitOpError() << "expects the rank of " << name << "to be 1, got "
                             << attr.getShapedType().getRank();
  if (input.hasRank() && input.getRank() != attr.getNumElements())
    return op->emitOpError() << "expects the size of " << name
                             << " to be equal to the input rank (" << attr.getNumElements()
                             << " vs. " << input.getRank() << ")";
  return success();
}

LogicalResult checkWindowPadding(Operation *op, Value v) {
  ElementsAttr padding;
  if (!matchPattern(v, m_Constant(&padding)))
    return success();
  ShapedType type = padding.getShapedType();
  if (type.getRank() != 2 || type.getDimSize(1) != 2)
    return op->emitOpError() << "expects padding to be a matrix with minor dimension 2, got "
                             << type.getShape();
  return success();
}

LogicalResult verifyXlaReduceWindow(Operation *op) {
  // Operands: input, init_value, window_dimensions, window_strides,
  // base_dilations, window_dilations, padding.
  auto input = llvm::cast<ShapedType>(op->getOperand(0).getType());
  static const char *const names[] = {"window_dimensions", "window_strides", "base_dilations",
                                      "window_dilations"};
  for (unsigned i = 0; i < 4; ++i)
    if (failed(checkWindowOperand(op, input, op->getOperand(2 + i), names[i],
                                  /*checkRank=*/true)))
      return failure();
  if (failed(checkWindowPadding(op, op->getOperand(6))))
    return failure();
  FunctionOpInterface func = lookupFunc(op, "computation");
  if (!func)
    return op->emitOpError() << "has no reduction function specified";
  if (func.getNumArguments() != 2)
    return op->emitOpError() << "expects reduction function to take 2 parameters, but has "
                             << func.getNumArguments() << " parameter(s)";
  return success();
}

LogicalResult verifyXlaSelectAndScatter(Operation *op) {
  // Operands: operand, window_dimensions, window_strides, padding, source,
  // init_value. TF's message lacks the space before "to" here.
  auto input = llvm::cast<ShapedType>(op->getOperand(0).getType());
  auto checkSize = [&](Value v, StringRef name) -> LogicalResult {
    ElementsAttr attr;
    if (input.hasRank() && matchPattern(v, m_Constant(&attr)) &&
        input.getRank() != attr.getNumElements())
      return op->emitOpError() << "expects the size of " << name
                               << "to be equal to the input rank (" << attr.getNumElements()
                               << " vs. " << input.getRank() << ")";
    return success();
  };
  if (failed(checkSize(op->getOperand(1), "window_dimensions")) ||
      failed(checkSize(op->getOperand(2), "window_strides")) ||
      failed(checkWindowPadding(op, op->getOperand(3))))
    return failure();
  FunctionOpInterface select = lookupFunc(op, "select");
  if (!select)
    return op->emitOpError() << "has no select function specified";
  if (select.getNumArguments() != 2)
    return op->emitOpError() << "expects select function to take 2 parameters, but has "
                             << select.getNumArguments() << " parameter(s)";
  ArrayRef<Type> results = select.getResultTypes();
  // TF reads the first result even when there is none (it crashes then).
  if (results.empty())
    return op->emitOpError() << "expects select function to return a single boolean result "
                                "but got none";
  if (results.size() != 1 || !getElementTypeOrSelf(results[0]).isInteger(1))
    return op->emitOpError() << "expects select function to return a single boolean result "
                                "but got "
                             << results[0];
  FunctionOpInterface scatter = lookupFunc(op, "scatter");
  if (!scatter)
    return op->emitOpError() << "has no scatter function specified";
  if (scatter.getNumArguments() != 2)
    return op->emitOpError() << "expects scatter function to take 2 parameters, but has "
                             << scatter.getNumArguments() << " parameter(s)";
  return success();
}

LogicalResult verifySetStaticDimensionBounds(Operation *op) {
  auto input = llvm::cast<ShapedType>(op->getOperand(0).getType());
  auto staticShape = llvm::cast<ShapedType>(op->getOperand(1).getType());
  int64_t rank = input.hasRank() ? input.getRank() : -1;
  if (rank > 2)
    return op->emitOpError() << "was used with an input tensor with rank > 2, only tensors of "
                                "rank 1,2 are supported";
  if (staticShape.hasRank() && staticShape.getRank() != 1)
    return op->emitOpError() << "static shape must be of rank 1 (vector)";
  if (rank != -1 && staticShape.hasStaticShape() && staticShape.getDimSize(0) != rank)
    return op->emitOpError() << "static shape must have num_elements == rank of input tensor";
  return success();
}

//===----------------------------------------------------------------------===//
// Uniform quantization
//===----------------------------------------------------------------------===//

/// TF's check of a (scales, zero_points) pair against its quantization axis
/// attribute (read into an int32, as TF does).
LogicalResult checkScalesAndZeroPoints(Operation *op, unsigned scalesIndex, StringRef axisAttr) {
  auto scales = llvm::cast<ShapedType>(op->getOperand(scalesIndex).getType());
  auto zeroPoints = llvm::cast<ShapedType>(op->getOperand(scalesIndex + 1).getType());
  int32_t axis = static_cast<int32_t>(intAttr(op, axisAttr, -1));
  if (axis == -1) {
    if (scales.hasRank() && scales.getRank() != 0)
      return op->emitOpError() << "quantization_axis is -1, scales must have 0 rank.";
    if (zeroPoints.hasRank() && zeroPoints.getRank() != 0)
      return op->emitOpError() << "quantization_axis is -1, zero_points must have 0 rank.";
    return success();
  }
  if (scales.hasRank() && scales.getRank() != 1)
    return op->emitOpError() << "quantization_axis is not -1, scales must have 1 rank.";
  if (zeroPoints.hasRank() && zeroPoints.getRank() != 1)
    return op->emitOpError() << "quantization_axis is not -1, zero_points must have 1 rank.";
  if (scales.hasStaticShape() && zeroPoints.hasStaticShape() &&
      scales.getNumElements() != zeroPoints.getNumElements())
    return op->emitOpError() << "scales and zero points must have same number of elements.";
  return success();
}

// Ops with one (scales, zero_points) pair: its operand index and axis.
template <unsigned ScalesIndex>
LogicalResult verifyRhsQuantized(Operation *op) {
  return checkScalesAndZeroPoints(op, ScalesIndex, "rhs_quantization_axis");
}
template <unsigned ScalesIndex>
LogicalResult verifyQuantized(Operation *op) {
  return checkScalesAndZeroPoints(op, ScalesIndex, "quantization_axis");
}

LogicalResult verifyUniformRequantize(Operation *op) {
  if (failed(checkScalesAndZeroPoints(op, 1, "input_quantization_axis")))
    return failure();
  return checkScalesAndZeroPoints(op, 3, "output_quantization_axis");
}

/// Dot, Convolution, Add: lhs, rhs, then the (scales, zero_points) of lhs,
/// rhs and output.
LogicalResult verifyLhsRhsQuantized(Operation *op) {
  if (failed(checkScalesAndZeroPoints(op, 2, "lhs_quantization_axis")) ||
      failed(checkScalesAndZeroPoints(op, 4, "rhs_quantization_axis")))
    return failure();
  return checkScalesAndZeroPoints(op, 6, "output_quantization_axis");
}

} // namespace

void tfmlir::TF::registerNnVerifiers(llvm::StringMap<OpVerifier> &table) {
  for (auto [name, fn] : std::initializer_list<std::pair<const char *, OpVerifier>>{
           {"AvgPool", verifyAvgPool},
           {"BiasAdd", verifyBiasAdd},
           {"BiasAddGrad", verifyBiasAddGrad},
           {"Conv3D", verifyConv3D},
           {"FakeQuantWithMinMaxArgs", verifyFakeQuantWithMinMaxArgs},
           {"FakeQuantWithMinMaxVars", verifyFakeQuantWithMinMaxVars},
           {"FakeQuantWithMinMaxVarsPerChannel", verifyFakeQuantWithMinMaxVarsPerChannel},
           {"FusedBatchNorm", verifyFusedBatchNorm},
           {"MaxPoolGrad", verifyMaxPoolGrad},
           {"SetStaticDimensionBounds", verifySetStaticDimensionBounds},
           {"Softmax", verifySoftmax},
           {"SoftmaxCrossEntropyWithLogits", verifySoftmaxCrossEntropyWithLogits},
           {"SparseSoftmaxCrossEntropyWithLogits", verifySparseSoftmaxCrossEntropyWithLogits},
           {"UniformDequantize", verifyQuantized<1>},
           {"UniformQuantize", verifyQuantized<1>},
           {"UniformQuantizedAdd", verifyLhsRhsQuantized},
           {"UniformQuantizedClipByValue", verifyQuantized<3>},
           {"UniformQuantizedConvolution", verifyLhsRhsQuantized},
           {"UniformQuantizedConvolutionHybrid", verifyRhsQuantized<2>},
           {"UniformQuantizedDot", verifyLhsRhsQuantized},
           {"UniformQuantizedDotHybrid", verifyRhsQuantized<2>},
           {"UniformRequantize", verifyUniformRequantize},
           {"XlaBroadcastHelper", verifyXlaBroadcastHelper},
           {"XlaConvV2", verifyXlaConvV2},
           {"XlaReduceWindow", verifyXlaReduceWindow},
           {"XlaSelectAndScatter", verifyXlaSelectAndScatter}})
    table[std::string("tf.") + name] = fn;
}
