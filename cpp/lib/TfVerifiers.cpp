//===- TfVerifiers.cpp - shape/type rules of generated tf ops -------------===//
//
// Called from the generated verifiers through verifyTfOp (the table at the
// end of this file) and the generic Operation API, so this file
// needs none of the generated op classes. Each function checks exactly what
// TensorFlow 2.21's verifier of the op (and its ODS traits) checks, no more:
// tfmlir must accept every module TF accepts (issue 9). Messages follow TF's
// wording. Where TF itself would crash on malformed IR (a division by zero, an
// out-of-range index), these report an error instead.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {
RankedTensorType ranked(Value v) { return llvm::dyn_cast<RankedTensorType>(v.getType()); }

} // namespace

std::optional<SmallVector<int64_t>> tfmlir::TF::getConstantInts(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !def->hasTrait<OpTrait::ConstantLike>())
    return std::nullopt;
  auto attr = def->getAttrOfType<DenseIntElementsAttr>("value");
  if (!attr)
    return std::nullopt;
  SmallVector<int64_t> out;
  for (const APInt &i : attr.getValues<APInt>())
    out.push_back(i.getSExtValue());
  return out;
}


namespace {
/// The integer elements attribute of a constant `v` (tf.Const, arith.constant).
DenseIntElementsAttr constantInts(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !def->hasTrait<OpTrait::ConstantLike>())
    return {};
  return def->getAttrOfType<DenseIntElementsAttr>("value");
}

bool boolAttr(Operation *op, StringRef name, bool otherwise = false) {
  auto attr = op->getAttrOfType<BoolAttr>(name);
  return attr ? attr.getValue() : otherwise;
}

int64_t intAttr(Operation *op, StringRef name, int64_t otherwise = 0) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : otherwise;
}

std::optional<SmallVector<int64_t>> intList(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<ArrayAttr>(name);
  if (!attr)
    return std::nullopt;
  SmallVector<int64_t> out;
  for (Attribute a : attr)
    if (auto i = llvm::dyn_cast<IntegerAttr>(a))
      out.push_back(i.getInt());
  return out;
}

bool rankAtLeast(Value v, int64_t rank) {
  auto t = ranked(v);
  return !t || t.getRank() >= rank;
}

bool rankAtMost(Value v, int64_t rank) {
  auto t = ranked(v);
  return !t || t.getRank() <= rank;
}

bool rankIs(Value v, int64_t rank) {
  auto t = ranked(v);
  return !t || t.getRank() == rank;
}

} // namespace

LogicalResult tfmlir::TF::verifyTypesCompatibility(Operation *op, ValueRange values,
                                                   bool maskOneDim) {
  std::optional<SmallVector<int64_t>> common;
  std::optional<int64_t> masked;
  for (Value v : values) {
    auto t = ranked(v);
    if (!t)
      continue;
    if (!common) {
      common = SmallVector<int64_t>(t.getRank(), ShapedType::kDynamic);
    } else if (static_cast<int64_t>(common->size()) != t.getRank()) {
      return op->emitError() << "operand type " << t
                             << " is not compatible with preceding operands; expected rank: "
                             << common->size();
    }
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (masked && *masked == d)
        continue;
      int64_t dim = t.getDimSize(d);
      if (ShapedType::isDynamic(dim))
        continue;
      int64_t &c = (*common)[d];
      if (ShapedType::isDynamic(c)) {
        c = dim;
      } else if (c != dim) {
        if (maskOneDim && !masked) {
          masked = d;
          continue;
        }
        return op->emitError() << "operand type " << t
                               << " is not compatible with preceding operands; expected "
                                  "dimension at index "
                               << d << ": " << c;
      }
    }
  }
  return success();
}

LogicalResult tfmlir::TF::verifyReshapeOp(Operation *op) {
  Value tensor = op->getOperand(0), shape = op->getOperand(1);
  auto tensorType = llvm::cast<ShapedType>(tensor.getType());
  Type elt = tensorType.getElementType();
  // The expected result type from the operands, as TF computes it.
  Type expected = UnrankedTensorType::get(elt);
  if (auto shapeType = ranked(shape)) {
    if (shapeType.getRank() != 1)
      return op->emitOpError() << "requires 'shape' to be rank 1, but got "
                               << shapeType.getRank();
    if (DenseIntElementsAttr dims = constantInts(shape)) {
      SmallVector<int64_t> out;
      std::optional<int64_t> unknownAt;
      bool zeroDim = false;
      int64_t known = 1;
      for (auto [i, value] : llvm::enumerate(dims.getValues<APInt>())) {
        int64_t d = value.getSExtValue();
        if (d == -1 || ShapedType::isDynamic(d)) {
          if (unknownAt)
            return op->emitOpError()
                   << "requires 'shape' to have at most one dynamic dimension, but got "
                      "multiple dynamic dimensions at indices "
                   << *unknownAt << " and " << i;
          unknownAt = i;
          out.push_back(ShapedType::kDynamic);
          continue;
        }
        if (d < 0)
          return op->emitOpError() << "requires 'shape' to have dimensions greater than -1, "
                                      "but got "
                                   << d << " at index " << i;
        if (d == 0)
          zeroDim = true;
        else
          known *= d;
        out.push_back(d);
      }
      if (unknownAt && tensorType.hasStaticShape()) {
        int64_t total = 1;
        bool tensorZeroDim = false;
        for (int64_t d : tensorType.getShape()) {
          if (d > 0 || !zeroDim)
            total *= d;
          else
            tensorZeroDim = true;
        }
        int64_t missing = total / known;
        if (!tensorZeroDim && known * missing != total)
          return op->emitOpError() << "requires 'tensor' number of elements be a multiple of "
                                   << known << ", but got " << total;
        out[*unknownAt] = missing;
      }
      expected = RankedTensorType::get(out, elt);
    } else if (shapeType.hasStaticShape()) {
      expected = RankedTensorType::get(
          SmallVector<int64_t>(shapeType.getDimSize(0), ShapedType::kDynamic), elt);
    }
  }
  auto out = ranked(op->getResult(0));
  if (!out)
    return success();
  if (out.hasStaticShape() && tensorType.hasStaticShape() &&
      out.getNumElements() != tensorType.getNumElements())
    return op->emitOpError() << "requires 'output' number of elements to match 'tensor' number "
                                "of elements, but got "
                             << out.getNumElements() << " and " << tensorType.getNumElements();
  if (!areCastCompatible(out, expected))
    return op->emitOpError() << "requires 'output' type " << out
                             << " to be cast compatible with expected type " << expected;
  return success();
}

LogicalResult tfmlir::TF::verifyTransposeOp(Operation *op) {
  auto x = ranked(op->getOperand(0));
  auto perm = ranked(op->getOperand(1));
  auto y = ranked(op->getResult(0));
  if (perm && perm.getRank() != 1)
    return op->emitOpError() << "expected perm to be a 1-D Tensor, got perm of rank "
                             << perm.getRank();
  if (x && y && x.getRank() != y.getRank())
    return op->emitOpError() << "x should be of the same rank with y, got x of rank "
                             << x.getRank() << ", and y of rank " << y.getRank();
  if (!x || !y || !perm || !perm.hasStaticShape())
    return success();
  if (perm.getNumElements() != x.getRank())
    return op->emitOpError() << "expected perm to be a 1-D Tensor of size equal to the rank of "
                                "x, got perm of size "
                             << perm.getNumElements() << ", and x of rank " << x.getRank();
  auto values = getConstantInts(op->getOperand(1));
  // A constant whose value has another length than its declared type (TF
  // would read past the value) is left alone.
  if (!values || static_cast<int64_t>(values->size()) != x.getRank())
    return success();
  int64_t rank = x.getRank();
  for (auto [i, p] : llvm::enumerate(*values)) {
    if (p < -rank || p >= rank)
      return op->emitOpError() << "perm[" << i << "]=" << p << " must be in range [-" << rank
                               << ", " << rank << ")";
    int64_t xi = p < 0 ? p + rank : p;
    int64_t yd = y.getDimSize(i), xd = x.getDimSize(xi);
    if (!ShapedType::isDynamic(yd) && !ShapedType::isDynamic(xd) && yd != xd)
      return op->emitOpError() << "requires y.shape[" << i << "] (" << yd
                               << ") to be equal to x.shape[perm[" << xi << "]] (" << xd << ")";
  }
  return success();
}

LogicalResult tfmlir::TF::verifyBiasAddOp(Operation *op) {
  auto format = op->getAttrOfType<StringAttr>("data_format");
  bool nchw = format && format.getValue() == "NCHW";
  if (!nchw && !rankAtLeast(op->getOperand(0), 2))
    return op->emitOpError() << "requires value operand to have rank at least two with `NHWC` "
                                "data format";
  if (nchw && !rankAtLeast(op->getOperand(0), 3))
    return op->emitOpError() << "requires value operand to have rank at least three with "
                                "`NCHW` data format";
  if (!rankIs(op->getOperand(1), 1))
    return op->emitOpError() << "requires bias operand to have rank exactly one";
  auto value = ranked(op->getOperand(0)), bias = ranked(op->getOperand(1));
  if (!value || !bias)
    return success();
  int64_t feature = value.getDimSize(nchw ? 1 : value.getRank() - 1);
  int64_t length = bias.getDimSize(0);
  if (!ShapedType::isDynamic(feature) && !ShapedType::isDynamic(length) && feature != length)
    return op->emitOpError() << "requires channel dimension and feature dimension to match; "
                                "found "
                             << feature << " and " << length << ", respectively";
  return success();
}

LogicalResult tfmlir::TF::verifyConcatV2Op(Operation *op) {
  if (!rankAtMost(op->getOperand(op->getNumOperands() - 1), 1))
    return op->emitOpError() << "requires axis to be of scalar type (or vector type for older "
                                "versions)";
  return verifyTypesCompatibility(op, op->getOperands().drop_back(), /*maskOneDim=*/true);
}

LogicalResult tfmlir::TF::verifyPackOp(Operation *op) {
  if (failed(verifyTypesCompatibility(op, op->getOperands(), /*maskOneDim=*/false)))
    return failure();
  std::optional<int64_t> rank;
  for (Value v : op->getOperands())
    if (auto t = ranked(v)) {
      rank = t.getRank();
      break;
    }
  if (!rank)
    return success();
  int64_t axis = intAttr(op, "axis");
  if (axis < -*rank - 1 || axis >= *rank + 1)
    return op->emitError() << "attribute 'axis' should be within range [" << -*rank - 1 << ", "
                           << *rank + 1 << "); actual value: " << axis;
  return success();
}

LogicalResult tfmlir::TF::verifyFillOp(Operation *op) {
  if (!rankIs(op->getOperand(0), 1))
    return op->emitOpError() << "requires dims to be a 1D tensor";
  if (!rankIs(op->getOperand(1), 0))
    return op->emitOpError() << "requires value to be a scalar";
  return success();
}

namespace {
/// Split/SplitV: the split dimension operand against the input; `dim` gets
/// the (non-negative) split dimension when it is a constant.
LogicalResult verifySplitDim(Operation *op, Value input, Value splitDim,
                             std::optional<int64_t> &dim) {
  dim = std::nullopt;
  if (!rankIs(splitDim, 0))
    return op->emitOpError() << "split dimension should be an integer scalar tensor";
  auto in = ranked(input);
  if (!in)
    return success();
  int64_t rank = in.getRank();
  if (rank == 0)
    return op->emitOpError() << "cannot split scalar input tensor";
  DenseIntElementsAttr values = constantInts(splitDim);
  if (!values || values.empty())
    return success();
  int64_t index = (*values.getValues<APInt>().begin()).getSExtValue();
  if (index + rank < 0 || index >= rank)
    return op->emitOpError() << "split dimension must be in range [-" << rank << ", " << rank
                             << ")";
  dim = index < 0 ? index + rank : index;
  return success();
}
} // namespace

LogicalResult tfmlir::TF::verifyUnpackOp(Operation *op) {
  auto value = ranked(op->getOperand(0));
  if (!value)
    return success();
  int64_t rank = value.getRank();
  int64_t axis = intAttr(op, "axis");
  if (axis < -rank || axis >= rank)
    return op->emitOpError() << "axis attribute must be in the range of [-" << rank << ", "
                             << rank << ")";
  int64_t dimSize = value.getDimSize(axis < 0 ? axis + rank : axis);
  if (!ShapedType::isDynamic(dimSize) && dimSize != static_cast<int64_t>(op->getNumResults()))
    return op->emitOpError() << "result count must be equal to " << dimSize;
  return success();
}

LogicalResult tfmlir::TF::verifySplitOp(Operation *op) {
  std::optional<int64_t> dim;
  if (failed(verifySplitDim(op, op->getOperand(1), op->getOperand(0), dim)))
    return failure();
  if (!dim)
    return success();
  int64_t size = ranked(op->getOperand(1)).getDimSize(*dim);
  if (ShapedType::isDynamic(size))
    return success();
  // TF fails here without a message.
  if (op->getNumResults() == 0)
    return op->emitOpError() << "requires at least one result";
  if (size % static_cast<int64_t>(op->getNumResults()) != 0)
    return op->emitOpError() << "dimension #" << *dim
                             << " not divisible by the number of result tensors";
  return success();
}

LogicalResult tfmlir::TF::verifySplitVOp(Operation *op) {
  Value input = op->getOperand(0), sizes = op->getOperand(1);
  auto sizesType = ranked(sizes);
  if (!sizesType)
    return success();
  int64_t numResults = op->getNumResults();
  if (sizesType.getRank() != 1 ||
      (!sizesType.isDynamicDim(0) && sizesType.getDimSize(0) != numResults))
    return op->emitOpError() << "split sizes should be a 1D tensor of " << numResults
                             << " elements";
  std::optional<int64_t> dim;
  if (failed(verifySplitDim(op, input, op->getOperand(2), dim)))
    return failure();
  if (!dim)
    return success();
  int64_t dimSize = ranked(input).getDimSize(*dim);
  if (ShapedType::isDynamic(dimSize))
    return success();
  auto values = getConstantInts(sizes);
  if (!values)
    return success();
  int64_t total = 0;
  bool dynamic = false;
  for (int64_t v : *values) {
    if (v == -1) {
      if (dynamic)
        return op->emitOpError() << "cannot have more than one dynamic dimension in split sizes";
      dynamic = true;
    } else {
      total += v;
    }
  }
  if (!dynamic && total != dimSize)
    return op->emitOpError() << "split sizes must sum up to the dimension size along split "
                                "dimension, found "
                             << total << " vs " << dimSize;
  if (dynamic && total > dimSize)
    return op->emitOpError() << "split sizes must sum up to be less than or equal to the "
                                "dimension size along split dimension, found "
                             << total << " vs " << dimSize;
  return success();
}

LogicalResult tfmlir::TF::verifySliceOp(Operation *op) {
  auto begin = ranked(op->getOperand(1)), size = ranked(op->getOperand(2));
  if (begin && begin.getRank() != 1)
    return op->emitOpError() << "requires begin operand to be 1D tensor";
  if (size && size.getRank() != 1)
    return op->emitOpError() << "requires size operand to be 1D tensor";
  if (!begin || !size || !begin.hasStaticShape() || !size.hasStaticShape())
    return success();
  if (begin.getNumElements() != size.getNumElements())
    return op->emitOpError() << "requires begin and size operands to have the same number of "
                                "elements";
  auto in = ranked(op->getOperand(0));
  if (in && begin.getNumElements() != in.getRank())
    return op->emitOpError() << "requires number of elements in begin and size are equal to "
                                "input rank";
  auto out = ranked(op->getResult(0));
  if (in && out && out.getRank() != in.getRank())
    return op->emitOpError() << "requires output to have the same rank as input, but got input "
                                "rank "
                             << in.getRank() << " and output rank " << out.getRank();
  int64_t n = begin.getNumElements();
  auto dimOf = [](RankedTensorType t, int64_t i) {
    return t && i < t.getRank() ? t.getDimSize(i) : ShapedType::kDynamic;
  };
  auto sizes = getConstantInts(op->getOperand(2));
  // Constants whose values disagree in length with their types are left alone.
  if (sizes && static_cast<int64_t>(sizes->size()) != n)
    sizes = std::nullopt;
  if (auto begins = getConstantInts(op->getOperand(1))) {
    for (int64_t i = 0; i < static_cast<int64_t>(begins->size()) && i < n; ++i) {
      int64_t lo = (*begins)[i];
      int64_t inDim = dimOf(in, i), outDim = dimOf(out, i);
      int64_t length = sizes ? (*sizes)[i] : 0;
      if (length == -1 && !ShapedType::isDynamic(inDim))
        length = inDim - lo;
      if (!ShapedType::isDynamic(outDim) && sizes && outDim != length)
        return op->emitOpError() << "requires output size to have the same size of slice, got "
                                    "slice size "
                                 << length << " and output size " << outDim;
      if (lo < 0 || (!ShapedType::isDynamic(inDim) && lo + length > inDim))
        return op->emitOpError() << "requires 0 <= begin[i] <= begin[i] + size[i] <= Di";
    }
  } else if (in && sizes) {
    for (int64_t i = 0; i < in.getRank(); ++i) {
      int64_t length = (*sizes)[i], inDim = in.getDimSize(i);
      if (length != -1 && !ShapedType::isDynamic(inDim) && length > inDim)
        return op->emitOpError() << "requires size[i] <= Di, even if begin[i] is unknown at "
                                    "compile time";
    }
  }
  return success();
}

LogicalResult tfmlir::TF::verifyStridedSliceOp(Operation *op) {
  std::optional<int64_t> expected;
  for (unsigned i = 1; i <= 3; ++i) {
    Value v = op->getOperand(i);
    auto type = llvm::dyn_cast<ShapedType>(v.getType());
    if (!type || !type.hasStaticShape()) {
      // A constant's value tells its shape when its type does not.
      DenseIntElementsAttr attr = constantInts(v);
      if (!attr)
        continue;
      type = attr.getType();
    }
    if (type.getRank() != 1)
      return op->emitOpError() << "requires begin, end and strides to be 1D tensors";
    int64_t length = type.getDimSize(0);
    if (ShapedType::isDynamic(length))
      continue;
    if (!expected) {
      if (length >= 32)
        return op->emitOpError() << "requires begin, end and strides operands with less than 32 "
                                    "elements";
      expected = length;
    } else if (length != *expected) {
      return op->emitOpError() << "requires begin, end and strides to have the same number of "
                                  "elements";
    }
  }
  if (auto strides = getConstantInts(op->getOperand(3)))
    if (llvm::is_contained(*strides, 0))
      return op->emitOpError() << "requires non-zero strides";
  uint32_t ellipsis = static_cast<uint32_t>(intAttr(op, "ellipsis_mask"));
  if (ellipsis != 0 && !llvm::isPowerOf2_32(ellipsis))
    return op->emitOpError() << "cannot have multiple ellipses";
  return success();
}

static LogicalResult verifyBatchMatMul(Operation *op, bool v2) {
  if (!rankAtLeast(op->getOperand(0), 2))
    return op->emitOpError() << "requires lhs operand to have rank at least two";
  if (!rankAtLeast(op->getOperand(1), 2))
    return op->emitOpError() << "requires rhs operand to have rank at least two";
  auto x = ranked(op->getOperand(0)), y = ranked(op->getOperand(1));
  if (!x || !y)
    return success();
  ArrayRef<int64_t> xb = x.getShape().drop_back(2), yb = y.getShape().drop_back(2);
  SmallVector<int64_t> batch;
  if (!v2) {
    // Pairwise from the front, as TF compares them (no broadcasting).
    for (auto [a, b] : llvm::zip(xb, yb))
      if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
        return op->emitOpError() << "found mismatching batch dimensions for lhs shape " << x
                                 << " and rhs shape " << y;
  } else if (!OpTrait::util::getBroadcastedShape(xb, yb, batch)) {
    return op->emitOpError() << "found incompatible broadcast batch dimensions for lhs shape "
                             << x << " and rhs shape " << y;
  }
  auto out = ranked(op->getResult(0));
  if (!out)
    return success();
  int64_t rank = std::max(x.getRank(), y.getRank());
  if (out.getRank() != rank)
    return op->emitOpError() << "found invalid output rank, expected " << rank << " but got "
                             << out.getRank();
  for (auto [i, d] : llvm::enumerate(batch)) {
    int64_t o = out.getDimSize(i);
    if (!ShapedType::isDynamic(o) && !ShapedType::isDynamic(d) && o != d)
      return op->emitOpError() << "has mismatching input batch dimension " << d
                               << " and output batch dimension " << o;
  }
  int64_t rx = x.getRank(), ry = y.getRank(), ro = out.getRank();
  int64_t row = boolAttr(op, "adj_x") ? x.getDimSize(rx - 1) : x.getDimSize(rx - 2);
  int64_t col = boolAttr(op, "adj_y") ? y.getDimSize(ry - 2) : y.getDimSize(ry - 1);
  int64_t outRow = out.getDimSize(ro - 2), outCol = out.getDimSize(ro - 1);
  if (!ShapedType::isDynamic(row) && !ShapedType::isDynamic(outRow) && row != outRow)
    return op->emitOpError() << "found invalid output dimension on row, expected " << row
                             << " but got " << outRow;
  if (!ShapedType::isDynamic(col) && !ShapedType::isDynamic(outCol) && col != outCol)
    return op->emitOpError() << "found invalid output dimension on col, expected " << col
                             << " but got " << outCol;
  return success();
}

LogicalResult tfmlir::TF::verifyBatchMatMulOp(Operation *op) {
  return verifyBatchMatMul(op, /*v2=*/false);
}
LogicalResult tfmlir::TF::verifyBatchMatMulV2Op(Operation *op) {
  return verifyBatchMatMul(op, /*v2=*/true);
}

LogicalResult tfmlir::TF::verifyConv2DOp(Operation *op) {
  auto format = op->getAttrOfType<StringAttr>("data_format");
  StringRef dataFormat = format ? format.getValue() : "NHWC";
  if (dataFormat != "NHWC" && dataFormat != "NCHW")
    return op->emitError() << "Invalid data format provided";
  auto padding = op->getAttrOfType<StringAttr>("padding");
  StringRef pad = padding ? padding.getValue() : "";
  if (pad != "SAME" && pad != "VALID" && pad != "EXPLICIT")
    return op->emitError() << "Invalid padding format provided";
  if (!rankIs(op->getOperand(0), 4) || !rankIs(op->getOperand(1), 4))
    return op->emitError() << "requires operands to be 4D tensor";
  if (pad == "EXPLICIT") {
    auto pads = intList(op, "explicit_paddings").value_or(SmallVector<int64_t>());
    if (pads.empty())
      return op->emitError() << "requires attribute 'explicit_paddings' with 'EXPLICIT' padding "
                                "mode";
    if (pads.size() != 8)
      return op->emitError() << "requires explicit_paddings attribute length to be 8";
    if (llvm::any_of(pads, [](int64_t p) { return p < 0; }))
      return op->emitError() << "requires non negative explicit paddings";
  }
  auto strides = intList(op, "strides").value_or(SmallVector<int64_t>());
  auto dilations = intList(op, "dilations").value_or(SmallVector<int64_t>(4, 1));
  auto notPositive = [](int64_t v) { return v <= 0; };
  if (strides.size() != 4)
    return op->emitError() << "requires strides attribute length to be 4";
  if (llvm::any_of(strides, notPositive))
    return op->emitError() << "requires positive strides";
  if (dilations.size() != 4)
    return op->emitError() << "requires dilations attribute length to be 4";
  if (llvm::any_of(dilations, notPositive))
    return op->emitError() << "requires positive dilations";
  auto input = ranked(op->getOperand(0)), filter = ranked(op->getOperand(1));
  if (!input || !filter)
    return success();
  int64_t channels = input.getDimSize(dataFormat == "NCHW" ? 1 : 3);
  int64_t filterChannels = filter.getDimSize(2);
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

LogicalResult tfmlir::TF::verifyCastOp(Operation *op) {
  // TF's SameOperandsAndResultShape trait.
  auto x = llvm::dyn_cast<ShapedType>(op->getOperand(0).getType());
  auto y = llvm::dyn_cast<ShapedType>(op->getResult(0).getType());
  if (x && y && failed(verifyCompatibleShape(x, y)))
    return op->emitOpError() << "requires the same shape for all operands and results";
  return success();
}

LogicalResult tfmlir::TF::verifySelectOp(Operation *op) {
  auto t = llvm::cast<TensorType>(op->getOperand(1).getType());
  auto e = llvm::cast<TensorType>(op->getOperand(2).getType());
  if (!areCastCompatible(t, e))
    return op->emitOpError() << "requires t and e have compatible shapes";
  int64_t dataRank;
  int64_t firstDim = -2;  // -2: no first dimension (unranked or scalar data)
  if (t.hasRank() && e.hasRank()) {
    dataRank = t.getRank();
    if (t.getRank() > 0)
      firstDim = t.getDimSize(0);
    if (e.getRank() > 0)
      firstDim = std::max(e.getDimSize(0), firstDim);
  } else if (t.hasRank() || e.hasRank()) {
    TensorType data = t.hasRank() ? t : e;
    dataRank = data.getRank();
    if (dataRank > 0)
      firstDim = data.getDimSize(0);
  } else {
    return success();
  }
  auto cond = ranked(op->getOperand(0));
  if (!cond || cond.getRank() == 0 || cond.getRank() == dataRank)
    return success();
  if (cond.getRank() == 1) {
    if (dataRank == 0)
      return op->emitOpError() << "requires that t and e are nonscalar when pred is a vector";
    int64_t condDim = cond.getDimSize(0);
    if (firstDim != ShapedType::kDynamic && !ShapedType::isDynamic(condDim) &&
        firstDim != condDim)
      return op->emitOpError() << "requires that, when pred is a vector, the shape matches the "
                                  "first dimension of t and e";
    return success();
  }
  return op->emitOpError() << "requires that pred is a scalar OR has the same rank as t and e OR "
                              "is a vector";
}

LogicalResult tfmlir::TF::verifyBroadcastBinaryOp(Operation *op) {
  // Equal/NotEqual check broadcasting only with incompatible_shape_error
  // (true by default); the others carry TF's ResultsBroadcastableShape.
  StringRef name = op->getName().stripDialect();
  if ((name == "Equal" || name == "NotEqual") && !boolAttr(op, "incompatible_shape_error", true))
    return success();
  return OpTrait::impl::verifyCompatibleOperandBroadcast(op);
}

LogicalResult tfmlir::TF::verifySelectV2Op(Operation *op) {
  // TF's ResultsBroadcastableShape trait.
  return OpTrait::impl::verifyCompatibleOperandBroadcast(op);
}

LogicalResult tfmlir::TF::verifyGatherV2Op(Operation *op) {
  int64_t batchDims = intAttr(op, "batch_dims");
  if (auto indices = ranked(op->getOperand(1))) {
    int64_t r = indices.getRank();
    if (batchDims > r || batchDims < -r)
      return op->emitOpError() << "batch_dims (" << batchDims << ") must be in range [" << -r
                               << ", " << r + 1 << ")";
    if (batchDims < 0)
      batchDims += r;
  }
  if (!rankAtMost(op->getOperand(2), 1))
    return op->emitOpError() << "requires axis to have rank at most 1";
  DenseIntElementsAttr axisAttr = constantInts(op->getOperand(2));
  if (!axisAttr || axisAttr.empty())
    return success();
  int64_t axis = (*axisAttr.getValues<APInt>().begin()).getSExtValue();
  if (auto params = ranked(op->getOperand(0))) {
    int64_t rank = params.getRank();
    if (axis >= rank || axis < -rank)
      return op->emitOpError() << "axis (" << axis << ") must be in range [" << -rank << ", "
                               << rank << ")";
    if (axis < 0)
      axis += rank;
  }
  if (batchDims >= 0 && axis >= 0 && axis < batchDims)
    return op->emitOpError() << "requires axis (" << axis
                             << ") to be greater than or equal to batch_dims (" << batchDims
                             << ")";
  return success();
}

LogicalResult tfmlir::TF::verifySqueezeOp(Operation *op) {
  auto in = ranked(op->getOperand(0));
  auto dims = intList(op, "squeeze_dims");
  if (!in || !dims)
    return success();
  int64_t rank = in.getRank();
  for (int64_t d : *dims)
    if (d < -rank || d >= rank)
      return op->emitOpError() << "squeeze dimension " << d << " not in [" << -rank << ", "
                               << rank << ")";
  return success();
}

LogicalResult tfmlir::TF::verifySameOperandsAndResultElementTypeResolveRef(Operation *op) {
  // TF's SameOperandsAndResultElementTypeResolveRef: every operand and result
  // has the first result's (else the first operand's) element type, refs
  // resolved.
  auto elementOf = [](Type t) {
    return tfmlir::tf_type::dropRefType(tfmlir::tf_type::getElementTypeOrSelf(t));
  };
  Type element;
  if (op->getNumResults() > 0)
    element = elementOf(op->getResult(0).getType());
  else if (op->getNumOperands() > 0)
    element = elementOf(op->getOperand(0).getType());
  else
    return success();
  for (Type t : op->getResultTypes())
    if (elementOf(t) != element)
      return op->emitOpError("requires compatible element types for all operands and results");
  for (Type t : op->getOperandTypes())
    if (elementOf(t) != element)
      return op->emitOpError("requires compatible element types for all operands and results");
  return success();
}

//===----------------------------------------------------------------------===//
// Dispatch: the hand-written verifier of each generated op, by name.
//===----------------------------------------------------------------------===//

namespace {
using Verifier = tfmlir::TF::OpVerifier;

const llvm::StringMap<Verifier> &verifierTable() {
  static const llvm::StringMap<Verifier> table = [] {
    llvm::StringMap<Verifier> t;
    using namespace tfmlir::TF;
    for (auto [name, fn] : std::initializer_list<std::pair<const char *, Verifier>>{
             {"BatchMatMul", verifyBatchMatMulOp}, {"BatchMatMulV2", verifyBatchMatMulV2Op},
             {"BiasAdd", verifyBiasAddOp}, {"Cast", verifyCastOp}, {"ConcatV2", verifyConcatV2Op},
             {"Conv2D", verifyConv2DOp}, {"Fill", verifyFillOp}, {"GatherV2", verifyGatherV2Op},
             {"Pack", verifyPackOp}, {"Reshape", verifyReshapeOp}, {"Select", verifySelectOp},
             {"SelectV2", verifySelectV2Op}, {"Slice", verifySliceOp}, {"Split", verifySplitOp},
             {"SplitV", verifySplitVOp}, {"Squeeze", verifySqueezeOp},
             {"StridedSlice", verifyStridedSliceOp}, {"Transpose", verifyTransposeOp},
             {"Unpack", verifyUnpackOp}})
      t[std::string("tf.") + name] = fn;
    // TF's ResultsBroadcastableShape (Equal/NotEqual: with incompatible_shape_error).
    for (const char *name :
         {"Add", "AddV2", "Atan2", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Div", "DivNoNan",
          "FloorDiv", "FloorMod", "LeftShift", "Maximum", "Minimum", "Mod", "Mul", "MulNoNan",
          "Pow", "RealDiv", "RightShift", "SquaredDifference", "Sub", "TruncateDiv",
          "TruncateMod", "Xdivy", "Xlogy", "Equal", "Greater", "GreaterEqual", "Less",
          "LessEqual", "LogicalAnd", "LogicalOr", "NotEqual"})
      t[std::string("tf.") + name] = verifyBroadcastBinaryOp;
    registerArrayVerifiers(t);
    registerNnVerifiers(t);
    registerCallVerifiers(t);
    return t;
  }();
  return table;
}
} // namespace

LogicalResult tfmlir::TF::verifyTfOp(Operation *op) {
  const auto &table = verifierTable();
  auto it = table.find(op->getName().getStringRef());
  return it == table.end() ? success() : it->second(op);
}

void tfmlir::TF::forEachVerifiedOp(llvm::function_ref<void(llvm::StringRef)> fn) {
  for (const auto &entry : verifierTable())
    fn(entry.getKey());
}
