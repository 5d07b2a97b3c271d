//===- TfVerifiersArray.cpp - verifiers of generated tf ops (shapes, ...) ===//
//
// Hand-written verifiers of generated tf ops: shapes, indices, slicing, segments, parsing.
// Each checks exactly what TensorFlow 2.21's verifier of the op (and its ODS
// traits) checks, no more, with TF's wording: tfmlir accepts every module TF
// accepts. Registered by name in the table of TfVerifiers.cpp (verifyTfOp);
// a registration here replaces an earlier one for the same op.
//
// The generated ops carry TF's operand/result type constraints but not TF's
// PredOpTraits ("failed to verify that ...") or native traits
// (SameOperandsAndResultElementType); the verifiers below check those first,
// in TF's order (ODS predicates, then native traits, then the op's verify()).
// Where TF itself would crash on malformed IR (an out-of-range read of a
// constant, a division by zero), these report an error instead.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Dialect/Traits.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace {

RankedTensorType rankedType(Value v) { return llvm::dyn_cast<RankedTensorType>(v.getType()); }

/// TF's IsOfRankOrUnranked / HasRankAtLeast / HasRankAtMost.
bool rankOrUnranked(Value v, int64_t rank) {
  auto t = rankedType(v);
  return !t || t.getRank() == rank;
}
bool rankAtLeastOrUnranked(Value v, int64_t rank) {
  auto t = rankedType(v);
  return !t || t.getRank() >= rank;
}
bool rankAtMostOrUnranked(Value v, int64_t rank) {
  auto t = rankedType(v);
  return !t || t.getRank() <= rank;
}

/// The integer elements of `v` when it is a constant (TF's m_Constant).
DenseIntElementsAttr intConstant(Value v) {
  DenseIntElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr;
  return {};
}

SmallVector<int64_t> intValues(DenseIntElementsAttr attr) {
  SmallVector<int64_t> out;
  for (const APInt &i : attr.getValues<APInt>())
    out.push_back(i.getSExtValue());
  return out;
}

int64_t intAttrOr(Operation *op, StringRef name, int64_t otherwise) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : otherwise;
}

/// TF_OperandHasRank<n, m> / TF_ResultHasRank<n, m> (PredOpTraits).
LogicalResult operandHasRank(Operation *op, unsigned n, int64_t m) {
  if (!rankOrUnranked(op->getOperand(n), m))
    return op->emitOpError() << "failed to verify that operand " << n << " is " << m << "-D";
  return success();
}
LogicalResult resultHasRank(Operation *op, unsigned n, int64_t m) {
  if (!rankOrUnranked(op->getResult(n), m))
    return op->emitOpError() << "failed to verify that result " << n << " is " << m << "-D";
  return success();
}

/// TF_AllTypesMatch<[a, b]> (a PredOpTrait): the two types are cast compatible.
LogicalResult allTypesMatch(Operation *op, Value a, Value b, StringRef aName, StringRef bName) {
  if (!tfmlir::TF::areCastCompatible(a.getType(), b.getType()))
    return op->emitOpError() << "failed to verify that all of {" << aName << ", " << bName
                             << "} have dynamically equal types ";
  return success();
}

//===----------------------------------------------------------------------===//
// Bitcast
//===----------------------------------------------------------------------===//

LogicalResult verifyBitcast(Operation *op) {
  auto in = llvm::cast<ShapedType>(op->getOperand(0).getType());
  auto out = llvm::cast<ShapedType>(op->getResult(0).getType());
  Type inElt = in.getElementType(), outElt = out.getElementType();
  // TF checks only static shapes of int and float element types.
  if (!in.hasStaticShape() || !out.hasStaticShape() || !inElt.isIntOrFloat() ||
      !outElt.isIntOrFloat())
    return success();
  int64_t inBits = inElt.getIntOrFloatBitWidth(), outBits = outElt.getIntOrFloatBitWidth();
  ArrayRef<int64_t> inShape = in.getShape(), outShape = out.getShape();
  auto sameLeadingDims = [&](size_t count) -> LogicalResult {
    for (size_t i = 0; i < count; ++i)
      if (inShape[i] != outShape[i])
        return op->emitOpError() << "the " << i << "th dim of output tensor is " << outShape[i]
                                 << ". It is not equal to the one in input tensor, which is "
                                 << inShape[i];
    return success();
  };
  if (inBits == outBits) {
    if (inShape != outShape)
      return op->emitOpError() << "output tensor shape shall be equal to input tensor shape";
    return success();
  }
  // Zero-width element types: TF divides by zero here.
  if (inBits == 0 || outBits == 0)
    return op->emitOpError() << "requires element types of non-zero bitwidth";
  if (inBits < outBits) {
    if (outBits % inBits != 0)
      return op->emitOpError() << "output element bitwidth is not multiple of input element "
                                  "bitwidth";
    if (inShape.size() != outShape.size() + 1)
      return op->emitOpError() << "rank of input tensor is " << inShape.size()
                               << ". rank of output tensor is expected to be "
                               << inShape.size() - 1 << ", instead of " << outShape.size()
                               << ".";
    int64_t divisor = outBits / inBits;
    if (inShape.back() != divisor)
      return op->emitOpError() << "input rightmost dimension size is not equal to the divisor. "
                                  "the last dimension of input is expected to be "
                               << divisor;
    return sameLeadingDims(outShape.size());
  }
  if (inBits % outBits != 0)
    return op->emitOpError() << "input element bitwidth is not multiple of output element "
                                "bitwidth";
  if (inShape.size() + 1 != outShape.size())
    return op->emitOpError() << "rank of input tensor is " << inShape.size()
                             << ". rank of output tensor is expected to be "
                             << inShape.size() + 1 << ", instead of " << outShape.size() << ".";
  int64_t divisor = inBits / outBits;
  if (outShape.back() != divisor)
    return op->emitOpError() << "output rightmost dimension size is not equal to the divisor. "
                                "the last dimension of output is expected to be "
                             << divisor;
  return sameLeadingDims(inShape.size());
}

//===----------------------------------------------------------------------===//
// BatchToSpace, SpaceToBatchND
//===----------------------------------------------------------------------===//

LogicalResult verifyBatchToSpace(Operation *op) {
  // ODS already requires block_size >= 2.
  int64_t blockSize = intAttrOr(op, "block_size", 2);
  int64_t blockArea = 0;
  bool areaOverflows = llvm::MulOverflow(blockSize, blockSize, blockArea);

  SmallVector<int64_t, 4> inShape(4, ShapedType::kDynamic);
  if (auto in = rankedType(op->getOperand(0))) {
    if (in.getRank() != 4)
      return op->emitOpError() << "requires input to be a 4D tensor, but got " << in;
    int64_t batch = in.getDimSize(0);
    if (!ShapedType::isDynamic(batch) && !areaOverflows && batch % blockArea != 0)
      return op->emitOpError() << "requires input batch (dimension 0) to be evenly divisible "
                                  "by (block_size * block_size), but got input batch "
                               << batch << " and block_size " << blockSize;
    inShape.assign(in.getShape().begin(), in.getShape().end());
  }

  Value crops = op->getOperand(1);
  if (auto cropsType = rankedType(crops)) {
    if (cropsType.getRank() != 2)
      return op->emitOpError() << "requires crops to be a 2D tensor, but got " << cropsType;
    auto dimIs = [&](int64_t d, int64_t size) {
      return cropsType.isDynamicDim(d) || cropsType.getDimSize(d) == size;
    };
    if (!dimIs(0, 2) || !dimIs(1, 2))
      return op->emitOpError() << "requires crops to be a tensor<2x2>, but got " << cropsType;
  }

  // [[crop_top, crop_bottom], [crop_left, crop_right]], flattened.
  SmallVector<int64_t, 4> cropValues;
  if (DenseIntElementsAttr attr = intConstant(crops)) {
    cropValues = intValues(attr);
    for (int64_t c : cropValues)
      if (c < 0)
        return op->emitOpError() << "requires all crop values to be nonnegative, but got "
                                 << attr;
    // TF reads four values (it asserts there are).
    if (cropValues.size() < 4)
      return op->emitOpError() << "requires crops to have 4 elements, but got " << attr;
  }

  auto out = rankedType(op->getResult(0));
  if (!out)
    return success();
  if (out.getRank() != 4)
    return op->emitOpError() << "requires output to be a 4D tensor, but got " << out;
  auto bothStatic = [](int64_t a, int64_t b) {
    return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b);
  };
  ArrayRef<int64_t> outShape = out.getShape();
  int64_t inBatch = inShape[0], outBatch = outShape[0];
  int64_t product = 0;
  if (bothStatic(inBatch, outBatch) &&
      (areaOverflows || llvm::MulOverflow(outBatch, blockArea, product) || product != inBatch))
    return op->emitOpError() << "requires output batch (dimension 0) to be equal to input "
                                "batch (dimension 0) / (block_size * block_size), but got "
                                "output batch "
                             << outBatch << ", input batch " << inBatch << ", and block_size "
                             << blockSize;

  auto checkSpatial = [&](int64_t d, StringRef name, StringRef cropA,
                          StringRef cropB) -> LogicalResult {
    int64_t inDim = inShape[d], outDim = outShape[d];
    if (!bothStatic(inDim, outDim))
      return success();
    int64_t padded = inDim * blockSize;
    if (cropValues.empty()) {
      if (outDim > padded)
        return op->emitOpError() << "requires output " << name << " (dimension " << d
                                 << ") to be less than or equal to input " << name
                                 << " (dimension " << d << ") * block_size, but got output "
                                 << name << " " << outDim << ", input " << name << " " << inDim
                                 << ", and block_size " << blockSize;
      return success();
    }
    int64_t a = cropValues[2 * (d - 1)], b = cropValues[2 * (d - 1) + 1];
    if (outDim != padded - a - b)
      return op->emitOpError() << "requires output " << name << " (dimension " << d
                               << ") to be equal to input " << name << " (dimension " << d
                               << ") * block_size - " << cropA << " - " << cropB
                               << ", but got output " << name << " " << outDim << ", input "
                               << name << " " << inDim << ", " << cropA << " " << a << ", "
                               << cropB << " " << b << ", and block_size " << blockSize;
    return success();
  };
  if (failed(checkSpatial(1, "height", "crop_top", "crop_bottom")) ||
      failed(checkSpatial(2, "width", "crop_left", "crop_right")))
    return failure();

  int64_t inDepth = inShape[3], outDepth = outShape[3];
  if (bothStatic(inDepth, outDepth) && inDepth != outDepth)
    return op->emitOpError() << "requires output depth (dimension 3) to be equal to input "
                                "depth (dimension 3), but got output depth "
                             << outDepth << " and input depth " << inDepth;
  return success();
}

LogicalResult verifySpaceToBatchND(Operation *op) {
  Value input = op->getOperand(0), blockShape = op->getOperand(1), paddings = op->getOperand(2);
  auto inType = llvm::cast<TensorType>(input.getType());
  auto blockType = llvm::cast<TensorType>(blockShape.getType());
  auto padType = llvm::cast<TensorType>(paddings.getType());
  if (!rankOrUnranked(blockShape, 1))
    return op->emitOpError() << "requires rank of block_shape = 1; got " << blockType.getRank();
  if (!rankOrUnranked(paddings, 2))
    return op->emitOpError() << "requires rank of paddings = 2; got " << padType.getRank();
  if (padType.hasStaticShape() && padType.getDimSize(1) != 2)
    return op->emitOpError() << "requires paddings.shape[1] to be 2; got "
                             << padType.getDimSize(1);
  if (blockType.hasStaticShape() && padType.hasStaticShape() &&
      blockType.getDimSize(0) != padType.getDimSize(0))
    return op->emitOpError() << "requires block_shape.shape[0] must equal paddings.shape[0]";

  int64_t blockRank = -1;
  if (blockType.hasStaticShape())
    blockRank = blockType.getDimSize(0);
  else if (padType.hasStaticShape())
    blockRank = padType.getDimSize(0);
  if (blockRank == -1)
    return success();
  if (inType.hasRank() && inType.getRank() < 1 + blockRank)
    return op->emitOpError() << "requires rank of input >= 1 + rank of block";

  DenseIntElementsAttr blockAttr = intConstant(blockShape);
  SmallVector<int64_t> blocks;
  if (blockAttr) {
    blocks = intValues(blockAttr);
    for (auto [i, b] : llvm::enumerate(blocks))
      if (b < 1)
        return op->emitOpError() << "requires all values of block_shape to be >= 1; failed for "
                                    "dimension "
                                 << i;
  }

  // TF indexes the constant paddings [i, 0] and [i, 1] in its own shape.
  DenseIntElementsAttr padAttr = intConstant(paddings);
  SmallVector<std::pair<int64_t, int64_t>> pads;
  if (padAttr) {
    auto attrType = padAttr.getType();
    SmallVector<int64_t> values = intValues(padAttr);
    if (attrType.getRank() != 2 || attrType.getDimSize(0) < blockRank ||
        attrType.getDimSize(1) < 2)
      return op->emitOpError() << "requires paddings to have shape [" << blockRank
                               << ", 2], but got " << padAttr;
    int64_t stride = attrType.getDimSize(1);
    for (int64_t i = 0; i < blockRank; ++i) {
      int64_t lo = values[i * stride], hi = values[i * stride + 1];
      if (lo < 0 || hi < 0)
        return op->emitOpError() << "requires all values of paddings to be >= 0; failed for "
                                    "dimension "
                                 << i;
      pads.emplace_back(lo, hi);
    }
  }

  if (inType.hasStaticShape() && blockAttr && padAttr) {
    if (static_cast<int64_t>(blocks.size()) < blockRank)
      return op->emitOpError() << "requires block_shape to have " << blockRank
                               << " elements, but got " << blockAttr;
    for (int64_t i = 0; i < blockRank; ++i) {
      int64_t len = inType.getDimSize(1 + i) + pads[i].first + pads[i].second;
      if (len % blocks[i] != 0)
        return op->emitOpError() << "requires block_shape[i] divides input_shape[i + 1] + "
                                    "paddings[i, 0] + paddings[i, 1]; failed for i="
                                 << i;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastGradientArgs
//===----------------------------------------------------------------------===//

} // namespace

void tfmlir::TF::broadcastGradientIndices(ArrayRef<int64_t> shape, ArrayRef<int64_t> s0,
                                          ArrayRef<int64_t> s1, SmallVectorImpl<int64_t> &r0,
                                          SmallVectorImpl<int64_t> &r1) {
  if (s0 == s1)
    return;
  int64_t n = shape.size(), n0 = s0.size(), n1 = s1.size();
  for (int64_t i = n; i > 0; --i) {
    int64_t idx = n - i;
    int64_t i0 = i > n0 ? -1 : n0 - i;
    int64_t i1 = i > n1 ? -1 : n1 - i;
    if (i0 == -1) {
      r0.push_back(idx);
      if (s1[i1] == 1)
        r1.push_back(idx);
    } else if (i1 == -1) {
      r1.push_back(idx);
      if (s0[i0] == 1)
        r0.push_back(idx);
    } else if (s0[i0] != s1[i1]) {
      if (s0[i0] != shape[idx])
        r0.push_back(idx);
      else
        r1.push_back(idx);
    } else if (s0[i0] == 1) {
      r0.push_back(idx);
      r1.push_back(idx);
    }
  }
}

namespace {
LogicalResult verifyBroadcastGradientArgs(Operation *op) {
  if (failed(operandHasRank(op, 0, 1)) || failed(operandHasRank(op, 1, 1)) ||
      failed(resultHasRank(op, 0, 1)) || failed(resultHasRank(op, 1, 1)) ||
      failed(OpTrait::impl::verifySameOperandsAndResultElementType(op)))
    return failure();
  DenseIntElementsAttr s0 = intConstant(op->getOperand(0));
  DenseIntElementsAttr s1 = intConstant(op->getOperand(1));
  if (!s0 || !s1)
    return success();
  SmallVector<int64_t> shape0 = intValues(s0), shape1 = intValues(s1), shape;
  if (!OpTrait::util::getBroadcastedShape(shape0, shape1, shape))
    return op->emitOpError() << "requires broadcast compatible shape tensors for 's0' and "
                                "'s1', but got "
                             << s0 << " and " << s1;
  SmallVector<int64_t> r0, r1;
  tfmlir::TF::broadcastGradientIndices(shape, shape0, shape1, r0, r1);
  auto t0 = rankedType(op->getResult(0)), t1 = rankedType(op->getResult(1));
  if (t0 && t0.hasStaticShape() && t0.getDimSize(0) != static_cast<int64_t>(r0.size()))
    return op->emitOpError() << "requires dimension 0 size of 'r0' to be " << r0.size()
                             << " but got " << t0.getDimSize(0);
  if (t1 && t1.hasStaticShape() && t1.getDimSize(0) != static_cast<int64_t>(r1.size()))
    return op->emitOpError() << "requires dimension 0 size of 'r1' to be " << r1.size()
                             << " but got " << t1.getDimSize(0);
  return success();
}

//===----------------------------------------------------------------------===//
// Concat, ConcatOffset, DynamicStitch
//===----------------------------------------------------------------------===//

LogicalResult verifyConcat(Operation *op) {
  if (!rankAtMostOrUnranked(op->getOperand(0), 1))
    return op->emitOpError() << "requires axis to be of scalar type (or vector type for older "
                                "versions)";
  return tfmlir::TF::verifyTypesCompatibility(op, op->getOperands().drop_front(),
                                              /*maskOneDim=*/true);
}

LogicalResult verifyConcatOffset(Operation *op) {
  // N: the number of shape operands (derived from them).
  int64_t n = op->getNumOperands() - 1;
  if (n < 2)
    return op->emitOpError() << "requires N to be at least 2, got " << n;
  if (n != static_cast<int64_t>(op->getNumResults()))
    return op->emitOpError() << "requires sizes of shapes and offsets to be the same, got sizes "
                             << n << " and " << op->getNumResults();
  if (auto dim = rankedType(op->getOperand(0)); dim && dim.getRank() != 0)
    return op->emitOpError() << "requires concat_dim to be a scalar, got tensor of rank "
                             << dim.getRank();
  int64_t length = -1;
  for (int64_t i = 0; i < n; ++i) {
    Value shape = op->getOperand(i + 1), offset = op->getResult(i);
    if (failed(verifyCompatibleShape(shape.getType(), offset.getType())))
      return op->emitOpError() << "requires operand and result " << i
                               << " to have compatible shapes";
    auto shapeType = rankedType(shape);
    if (!shapeType)
      continue;
    if (shapeType.getRank() != 1)
      return op->emitOpError() << "requires shape tensor operand " << i
                               << " to be of rank 1, got tensor of rank " << shapeType.getRank();
    if (!shapeType.hasStaticShape())
      continue;
    if (length == -1)
      length = shapeType.getDimSize(0);
    else if (shapeType.getDimSize(0) != length)
      return op->emitOpError() << "requires shape tensor (rank 1) operand " << i
                               << " to be of length " << length
                               << ", got tensor (rank 1) of length " << shapeType.getDimSize(0);
  }
  return success();
}

LogicalResult verifyDynamicStitch(Operation *op) {
  // N: the number of index operands (as many as data operands).
  int64_t n = op->getNumOperands() / 2;
  if (n < 1)
    return op->emitOpError() << "requires attribute N with value >= 1";
  if (auto out = rankedType(op->getResult(0)); out && out.getRank() == 0)
    return op->emitOpError() << "requires non scalar output";

  llvm::SmallDenseSet<int64_t, 8> seen;
  bool allConstant = true;
  int64_t maxIndex = -1;
  std::optional<SmallVector<int64_t>> itemShape;
  for (int64_t k = 0; k < n; ++k) {
    Value index = op->getOperand(k), data = op->getOperand(n + k);
    if (DenseIntElementsAttr attr = intConstant(index)) {
      // TF reads the indices as int32.
      for (const APInt &v : attr.getValues<APInt>()) {
        int64_t i = static_cast<int32_t>(v.getSExtValue());
        if (i < 0)
          return op->emitOpError() << "requires non-negative index values; found " << i;
        maxIndex = std::max(maxIndex, i);
        seen.insert(i);
      }
    } else {
      allConstant = false;
    }
    auto indexType = rankedType(index), dataType = rankedType(data);
    if (!indexType || !dataType)
      continue;
    int64_t indexRank = indexType.getRank();
    ArrayRef<int64_t> dataShape = dataType.getShape();
    if (failed(verifyCompatibleShape(indexType.getShape(), dataShape.take_front(indexRank))))
      return op->emitOpError() << "requires shape of data with type " << dataType
                               << " to have prefix matching with shape of the corresponding "
                                  "index type "
                               << indexType;
    ArrayRef<int64_t> item = dataShape.drop_front(indexRank);
    if (!itemShape) {
      itemShape = llvm::to_vector(item);
      continue;
    }
    if (failed(verifyCompatibleShape(item, *itemShape)))
      return op->emitOpError() << "has inconsistent shaped data and index pairs; inferred item "
                                  "shapes ["
                               << ArrayRef<int64_t>(*itemShape) << "] and [" << item
                               << "] don't match";
    for (auto [known, dim] : llvm::zip(*itemShape, item))
      if (ShapedType::isDynamic(known))
        known = dim;
  }
  if (!allConstant)
    return success();
  for (int64_t i = 0; i <= maxIndex; ++i)
    if (!seen.count(i))
      return op->emitOpError() << "missing index " << i;
  if (!itemShape)
    return success();
  SmallVector<int64_t> expectedShape{maxIndex + 1};
  expectedShape.append(itemShape->begin(), itemShape->end());
  auto outType = llvm::cast<TensorType>(op->getResult(0).getType());
  auto expected = RankedTensorType::get(expectedShape, outType.getElementType());
  if (!tfmlir::TF::areCastCompatible(outType, expected))
    return op->emitOpError() << "has invalid output type; should be compatible with inferred "
                                "type "
                             << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// Shapes, permutations, padding
//===----------------------------------------------------------------------===//

/// Shape/ShapeN/VariableShape: a ranked result is 1-D, of the operand's rank
/// (unless the operand is a scalar); a static result for an unranked operand
/// is only warned about. `index` names the operand/result of ShapeN.
LogicalResult verifyShapeResult(Operation *op, Type operandType, Type resultType,
                                std::optional<int64_t> index) {
  std::string suffix = index ? " #" + std::to_string(*index) : "";
  auto result = llvm::dyn_cast<RankedTensorType>(resultType);
  if (!result)
    return success();
  if (result.getRank() != 1)
    return op->emitOpError() << "requires 1D type for result" << suffix;
  if (auto operand = llvm::dyn_cast_or_null<RankedTensorType>(operandType)) {
    if (result.hasStaticShape() && operand.getRank() != 0 &&
        result.getDimSize(0) != operand.getRank())
      return op->emitOpError() << "requires dimension size of result" << suffix
                               << " to match rank of operand" << suffix;
  } else if (result.hasStaticShape()) {
    InFlightDiagnostic diag = mlir::emitWarning(op->getLoc(), "has static shape result");
    if (op->getContext()->shouldPrintOpOnDiagnostic())
      diag.attachNote(op->getLoc())
          .append("see current operation: ")
          .appendOp(*op, OpPrintingFlags().printGenericOpForm());
    diag << suffix << " for unranked operand" << suffix;
  }
  Type elt = result.getElementType();
  if (!elt.isSignlessInteger(32) && !elt.isSignlessInteger(64))
    return op->emitOpError() << "requires int32 or int64 return type for result" << suffix;
  return success();
}

LogicalResult verifyShapeN(Operation *op) {
  int64_t n = op->getNumOperands();
  if (static_cast<int64_t>(op->getNumResults()) != n)
    return op->emitOpError() << "requires " << n << " result(s), got " << op->getNumResults()
                             << " result(s)";
  for (int64_t i = 0; i < n; ++i)
    if (failed(verifyShapeResult(op, op->getOperand(i).getType(), op->getResult(i).getType(), i)))
      return failure();
  return success();
}

LogicalResult verifyDataFormatVecPermute(Operation *op) {
  auto x = rankedType(op->getOperand(0));
  if (!x)
    return success();
  int64_t rank = x.getRank();
  if (rank != 1 && rank != 2)
    return op->emitOpError() << "requires input of rank 1 or 2";
  int64_t d0 = x.getDimSize(0);
  if (rank == 1) {
    if (!ShapedType::isDynamic(d0) && d0 != 4 && d0 != 2)
      return op->emitOpError() << "requires 1D input of size 4 or size 2";
    return success();
  }
  if (!ShapedType::isDynamic(d0) && d0 != 4)
    return op->emitOpError() << "requires first dimensions of 2D input to be of size 4";
  int64_t d1 = x.getDimSize(1);
  if (!ShapedType::isDynamic(d1) && d1 != 2)
    return op->emitOpError() << "requires second dimensions of 2D input to be of size 2";
  return success();
}

LogicalResult verifyInvertPermutation(Operation *op) {
  if (!rankOrUnranked(op->getOperand(0), 1))
    return op->emitOpError() << "requires input x to be 1-dimensional";
  return success();
}

/// Pad, PadV2, MirrorPad, MirrorPadGrad: TF_OperandHasRank<1, 2>.
LogicalResult verifyPadding(Operation *op) { return operandHasRank(op, 1, 2); }

LogicalResult verifyTile(Operation *op) {
  auto in = rankedType(op->getOperand(0));
  auto multiples = rankedType(op->getOperand(1));
  auto out = rankedType(op->getResult(0));
  if (multiples && multiples.getRank() != 1)
    return op->emitOpError() << "expected multiples to be rank 1, got rank = "
                             << multiples.getRank();
  if (in && multiples && multiples.hasStaticShape() &&
      (in.getRank() != multiples.getNumElements() ||
       (in.getRank() == 0 && multiples.getNumElements() == 1)))
    return op->emitOpError() << "expected size of multiples equal to rank of input, got "
                                "multiples of size "
                             << multiples.getNumElements() << ", and input of rank "
                             << in.getRank();
  if (!in || !out)
    return success();
  if (in.getRank() != out.getRank())
    return op->emitOpError() << "expected rank of input to equal to rank of output, got input "
                                "of rank "
                             << in.getRank() << ", and output of rank " << out.getRank();
  DenseIntElementsAttr attr = intConstant(op->getOperand(1));
  if (!attr)
    return success();
  SmallVector<int64_t> values = intValues(attr);
  for (int64_t i = 0; i < in.getRank(); ++i) {
    // TF reads past a constant shorter than the input's rank.
    if (i >= static_cast<int64_t>(values.size()))
      return op->emitOpError() << "expected size of multiples equal to rank of input, got "
                                  "multiples of size "
                               << values.size() << ", and input of rank " << in.getRank();
    int64_t m = values[i];
    if (m < 0)
      return op->emitOpError() << "expected multiples to be non-negative, got multiples[" << i
                               << "] = " << m;
    int64_t inDim = in.getDimSize(i), outDim = out.getDimSize(i);
    if (!ShapedType::isDynamic(inDim) && !ShapedType::isDynamic(outDim) && outDim != inDim * m)
      return op->emitOpError() << "requires input.shape[" << i << "] (" << inDim << ") * " << m
                               << " to be equal to output.shape[" << i << "] (" << outDim
                               << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Slicing, scatter, segments, reductions
//===----------------------------------------------------------------------===//

LogicalResult verifySlice(Operation *op) {
  // PredOpTrait: input and output must have same element type.
  if (getElementTypeOrSelf(op->getResult(0).getType()) !=
      getElementTypeOrSelf(op->getOperand(0).getType()))
    return op->emitOpError() << "failed to verify that input and output must have same element "
                                "type";
  return tfmlir::TF::verifySliceOp(op);
}

LogicalResult verifyStridedSliceGrad(Operation *op) {
  if (auto shape = rankedType(op->getOperand(0)); shape && shape.getRank() != 1)
    return op->emitOpError() << "'shape' operand must be 1D tensor, but got " << shape.getRank()
                             << "D tensor";
  // begin, end and strides are operands 1-3, as in StridedSlice.
  return tfmlir::TF::verifyStridedSliceOp(op);
}

LogicalResult verifyTensorScatterUpdate(Operation *op) {
  if (!rankAtLeastOrUnranked(op->getOperand(0), 1))
    return op->emitOpError() << "requires tensor operand to have at least 1 dimension";
  if (!rankAtLeastOrUnranked(op->getOperand(1), 1))
    return op->emitOpError() << "requires indices operand to have at least 1 dimension";
  auto tensor = rankedType(op->getOperand(0)), indices = rankedType(op->getOperand(1));
  if (!tensor || !indices)
    return success();
  int64_t indexDims = indices.getShape().back();
  if (!ShapedType::isDynamic(indexDims) && indexDims > tensor.getRank())
    return op->emitOpError() << "requires tensor operand with rank greater than or equal to the "
                                "indices operand's last dimensions";
  return success();
}

LogicalResult verifyUnsortedSegmentReduction(Operation *op) {
  Value data = op->getOperand(0), ids = op->getOperand(1), count = op->getOperand(2);
  if (!rankAtMostOrUnranked(count, 0))
    return op->emitOpError() << "number of segments should be a 0-D tensor";
  auto dataType = rankedType(data), idsType = rankedType(ids);
  if (dataType && idsType) {
    if (dataType.getRank() < idsType.getRank())
      return op->emitOpError() << "requires segment ids rank to be less than or equal to data's "
                                  "rank";
    for (auto [i, dims] : llvm::enumerate(llvm::zip(idsType.getShape(), dataType.getShape()))) {
      auto [idDim, dataDim] = dims;
      if (!ShapedType::isDynamic(idDim) && !ShapedType::isDynamic(dataDim) && idDim != dataDim)
        return op->emitOpError() << "requires segment ids shape to be a prefix of data shape, "
                                    "but dimension #"
                                 << i << " differs: " << idDim << " vs. " << dataDim;
    }
  }
  if (DenseIntElementsAttr attr = intConstant(count); attr && !attr.empty())
    if ((*attr.getValues<APInt>().begin()).getSExtValue() < 0)
      return op->emitOpError() << "num of segments cannot be negative";
  return success();
}

/// All, Any: the reduction dimensions against the input's rank.
LogicalResult verifyReductionDims(Operation *op) {
  auto dims = rankedType(op->getOperand(1));
  if (!dims)
    return success();
  if (dims.getRank() > 1)
    return emitError(op->getLoc(), "dimensions can only be 0D or 1D tensor");
  auto in = rankedType(op->getOperand(0));
  if (!in)
    return success();
  DenseIntElementsAttr attr = intConstant(op->getOperand(1));
  if (!attr)
    return success();
  int64_t rank = in.getRank();
  for (auto [i, d] : llvm::enumerate(intValues(attr)))
    if (d < -rank || d >= rank)
      return emitError(op->getLoc()) << i << "-th dimension should be in the range of [-" << rank
                                     << ", " << rank << ")";
  return success();
}

/// Cumsum, Cumprod, CumulativeLogsumexp.
LogicalResult verifyCumulative(Operation *op) {
  if (failed(allTypesMatch(op, op->getOperand(0), op->getResult(0), "x", "out")))
    return failure();
  if (!rankOrUnranked(op->getOperand(1), 0))
    return op->emitOpError() << "requires scalar axis operand";
  DenseIntElementsAttr attr = intConstant(op->getOperand(1));
  auto in = rankedType(op->getOperand(0));
  if (!attr || !in || attr.empty())
    return success();
  int64_t rank = in.getRank();
  int64_t axis = (*attr.getValues<APInt>().begin()).getSExtValue();
  if (axis < -rank || axis >= rank)
    return op->emitError() << "axis operand should be within range [" << -rank << ", " << rank
                           << "); actual value: " << axis;
  return success();
}

LogicalResult verifyMatrixBandPart(Operation *op) {
  if (failed(allTypesMatch(op, op->getOperand(0), op->getResult(0), "input", "band")))
    return failure();
  if (!rankAtLeastOrUnranked(op->getOperand(0), 2))
    return op->emitOpError() << "requires `input` to have rank of at least 2, but found "
                             << op->getOperand(0).getType();
  if (!rankOrUnranked(op->getOperand(1), 0))
    return op->emitOpError() << "requires `num_lower` to have 0 dimensions, but found "
                             << op->getOperand(1).getType();
  if (!rankOrUnranked(op->getOperand(2), 0))
    return op->emitOpError() << "requires `num_upper` to have 0 dimensions, but found "
                             << op->getOperand(2).getType();
  return success();
}

LogicalResult verifyTopKV2(Operation *op) {
  if (!rankAtLeastOrUnranked(op->getOperand(0), 1))
    return op->emitOpError() << "requires input operand to have at least 1 dimension";
  if (!rankOrUnranked(op->getOperand(1), 0))
    return op->emitOpError() << "requires k operand to be 0D tensor";
  return success();
}

//===----------------------------------------------------------------------===//
// OneHot, Einsum, ParseExampleV2
//===----------------------------------------------------------------------===//

LogicalResult verifyOneHot(Operation *op) {
  int64_t axis = intAttrOr(op, "axis", -1);
  if (auto indices = rankedType(op->getOperand(0));
      indices && !(axis == -1 || (axis >= 0 && axis <= indices.getRank())))
    return op->emitOpError() << "expected axis (" << axis << ") to be -1 or between [0, "
                             << indices.getRank() << "]";
  if (axis < -1)
    return op->emitOpError() << "expected axis (" << axis
                             << ") to be -1 or between [0, rank(indices()))";
  if (!rankOrUnranked(op->getOperand(1), 0))
    return op->emitOpError() << "requires depth to be a scalar";
  if (!rankOrUnranked(op->getOperand(2), 0))
    return op->emitOpError() << "requires on_value to be a scalar";
  if (!rankOrUnranked(op->getOperand(3), 0))
    return op->emitOpError() << "requires off_value to be a scalar";
  if (DenseIntElementsAttr depth = intConstant(op->getOperand(1))) {
    if (depth.getType().getRank() != 0)
      return op->emitOpError() << "requires depth to be a scalar";
    int64_t value = (*depth.getValues<APInt>().begin()).getSExtValue();
    if (value < 0)
      return op->emitOpError() << "depth must be non-negative, got: " << value;
  }
  return success();
}

LogicalResult verifyEinsum(Operation *op) {
  int64_t n = op->getNumOperands();
  if (n != 1 && n != 2)
    return op->emitOpError() << "must have 1 or 2 operands";
  return success();
}

LogicalResult verifyParseExampleV2(Operation *op) {
  // Results: sparse_indices, sparse_values, sparse_shapes, dense_values,
  // ragged_values, ragged_row_splits. Tdense is derived from dense_defaults
  // (operands 5...), sparse_types from sparse_values, ragged_value_types from
  // ragged_values and ragged_split_types from ragged_row_splits.
  auto sizes = llvm::dyn_cast_or_null<DenseI32ArrayAttr>(op->getAttr("resultSegmentSizes"));
  if (!sizes || sizes.size() != 6)
    return success();
  ArrayRef<int32_t> s = sizes.asArrayRef();
  int64_t denseTypes = static_cast<int64_t>(op->getNumOperands()) - 5;
  if (s[3] != denseTypes)
    return op->emitError() << "output 'dense_values' should have same length as attribute "
                              "'Tdense'";
  int64_t sparseTypes = s[1];
  if (intAttrOr(op, "num_sparse", 0) != sparseTypes)
    return op->emitError() << "attribute 'num_sparse' should be the same as the length of "
                              "attribute 'sparse_types'";
  if (s[0] != sparseTypes)
    return op->emitError() << "output 'sparse_indices' should have same length as attribute "
                              "'sparse_types'";
  if (s[2] != sparseTypes)
    return op->emitError() << "output 'sparse_shapes' should have same length as attribute "
                              "'sparse_types'";
  if (s[4] != s[5])
    return op->emitError() << "attribute 'ragged_value_types' should have same length as "
                              "attribute 'ragged_split_types'";
  return success();
}

} // namespace

void tfmlir::TF::registerArrayVerifiers(llvm::StringMap<OpVerifier> &table) {
  for (auto [name, fn] : std::initializer_list<std::pair<const char *, OpVerifier>>{
           {"All", verifyReductionDims},
           {"Any", verifyReductionDims},
           {"BatchToSpace", verifyBatchToSpace},
           {"Bitcast", verifyBitcast},
           {"BroadcastGradientArgs", verifyBroadcastGradientArgs},
           {"Concat", verifyConcat},
           {"ConcatOffset", verifyConcatOffset},
           {"Cumprod", verifyCumulative},
           {"Cumsum", verifyCumulative},
           {"CumulativeLogsumexp", verifyCumulative},
           {"DataFormatVecPermute", verifyDataFormatVecPermute},
           {"DynamicStitch", verifyDynamicStitch},
           {"Einsum", verifyEinsum},
           {"InvertPermutation", verifyInvertPermutation},
           {"MatrixBandPart", verifyMatrixBandPart},
           {"MirrorPad", verifyPadding},
           {"MirrorPadGrad", verifyPadding},
           {"OneHot", verifyOneHot},
           {"Pad", verifyPadding},
           {"PadV2", verifyPadding},
           {"ParseExampleV2", verifyParseExampleV2},
           {"ShapeN", verifyShapeN},
           {"Slice", verifySlice},
           {"SpaceToBatchND", verifySpaceToBatchND},
           {"StridedSliceGrad", verifyStridedSliceGrad},
           {"TensorScatterUpdate", verifyTensorScatterUpdate},
           {"Tile", verifyTile},
           {"TopKV2", verifyTopKV2},
           {"UnsortedSegmentMax", verifyUnsortedSegmentReduction},
           {"UnsortedSegmentMin", verifyUnsortedSegmentReduction},
           {"UnsortedSegmentProd", verifyUnsortedSegmentReduction},
           {"UnsortedSegmentSum", verifyUnsortedSegmentReduction}})
    table[std::string("tf.") + name] = fn;
}
