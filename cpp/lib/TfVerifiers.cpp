//===- TfVerifiers.cpp - shape/type rules of generated tf ops -------------===//
//
// Called from the generated verifiers (scripts/gen_tf_ops.py,
// VERIFIERS) through the generic Operation API, so this file
// needs none of the generated op classes. Messages follow TF's wording where
// TF has one. Unranked or dynamic shapes are accepted wherever the rule
// cannot be decided.
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

LogicalResult tfmlir::TF::verifyReshapeOp(Operation *op) {
  Value tensor = op->getOperand(0), shape = op->getOperand(1);
  if (auto shapeType = ranked(shape); shapeType && shapeType.getRank() != 1)
    return op->emitOpError() << "requires 'shape' to be rank 1, but got " << shapeType.getRank();
  auto in = ranked(tensor);
  auto out = ranked(op->getResult(0));
  if (in && out && in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return op->emitOpError() << "number of output elements (" << out.getNumElements()
                             << ") does not match expected number of elements ("
                             << in.getNumElements() << ")";
  if (auto dims = getConstantInts(shape); dims && out) {
    if (static_cast<int64_t>(dims->size()) != out.getRank())
      return op->emitOpError() << "requires the result rank (" << out.getRank()
                               << ") to equal the number of elements of 'shape' ("
                               << dims->size() << ")";
    if (llvm::count(*dims, -1) > 1)
      return op->emitOpError() << "requires 'shape' to have at most one dynamic dimension, but got multiple dynamic dimensions";
  }
  return success();
}

LogicalResult tfmlir::TF::verifyTransposeOp(Operation *op) {
  auto x = ranked(op->getOperand(0));
  auto perm = ranked(op->getOperand(1));
  auto y = ranked(op->getResult(0));
  if (perm && perm.getRank() != 1)
    return op->emitOpError() << "expected perm to be a 1-D Tensor, got perm of rank "
                             << perm.getRank();
  if (x && perm && perm.hasStaticShape() && perm.getDimSize(0) != x.getRank())
    return op->emitOpError() << "expected perm to be a 1-D Tensor of size equal to the rank of x, got perm of size "
                             << perm.getDimSize(0) << ", and x of rank " << x.getRank();
  if (x && y && x.getRank() != y.getRank())
    return op->emitOpError() << "x should be of the same rank with y, got x of rank "
                             << x.getRank() << ", and y of rank " << y.getRank();
  if (auto values = getConstantInts(op->getOperand(1)); values && x) {
    SmallVector<bool> seen(x.getRank(), false);
    for (int64_t p : *values) {
      if (p < 0 || p >= x.getRank() || seen[p])
        return op->emitOpError() << "perm is not a permutation of [0, " << x.getRank() << ")";
      seen[p] = true;
    }
    if (y)
      for (auto [i, p] : llvm::enumerate(*values))
        if (!x.isDynamicDim(p) && !y.isDynamicDim(i) && x.getDimSize(p) != y.getDimSize(i))
          return op->emitOpError() << "requires y.shape[" << i << "] (" << y.getDimSize(i)
                                   << ") to be equal to x.shape[perm[" << i << "]] ("
                                   << x.getDimSize(p) << ")";
  }
  return success();
}

LogicalResult tfmlir::TF::verifyBiasAddOp(Operation *op) {
  auto value = ranked(op->getOperand(0));
  auto bias = ranked(op->getOperand(1));
  auto format = op->getAttrOfType<StringAttr>("data_format");
  bool nchw = format && format.getValue() == "NCHW";
  if (value && value.getRank() < 2)
    return op->emitOpError() << "requires value operand to have rank at least two with "
                             << (nchw ? "`NCHW`" : "`NHWC`") << " data format";
  if (bias && bias.getRank() != 1)
    return op->emitOpError() << "requires bias operand to have rank exactly one";
  if (value && bias) {
    int64_t featureDim = nchw ? 1 : value.getRank() - 1;
    if (!value.isDynamicDim(featureDim) && !bias.isDynamicDim(0) &&
        value.getDimSize(featureDim) != bias.getDimSize(0))
      return op->emitOpError() << "requires channel dimension and feature dimension to match; found "
                               << value.getDimSize(featureDim) << " and " << bias.getDimSize(0)
                               << ", respectively";
  }
  return success();
}

LogicalResult tfmlir::TF::verifyMatMulOp(Operation *op) {
  auto a = ranked(op->getOperand(0));
  auto b = ranked(op->getOperand(1));
  if (a && a.getRank() != 2)
    return op->emitOpError() << "requires a to be a 2D tensor, got rank " << a.getRank();
  if (b && b.getRank() != 2)
    return op->emitOpError() << "requires b to be a 2D tensor, got rank " << b.getRank();
  if (a && b) {
    auto flag = [&](StringRef n) {
      auto attr = op->getAttrOfType<BoolAttr>(n);
      return attr && attr.getValue();
    };
    int64_t k1 = a.getDimSize(flag("transpose_a") ? 0 : 1);
    int64_t k2 = b.getDimSize(flag("transpose_b") ? 1 : 0);
    if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2)
      return op->emitOpError() << "requires the contracting dimensions to match, got " << k1
                               << " and " << k2;
  }
  return success();
}

namespace {
/// TF's check that `values` have compatible shapes: equal ranks and equal
/// static dimensions, except dimension `skip` (the concatenation axis) if set.
LogicalResult verifyCompatibleValues(Operation *op, ValueRange values,
                                     std::optional<int64_t> skip) {
  std::optional<SmallVector<int64_t>> merged;
  for (Value v : values) {
    auto t = ranked(v);
    if (!t)
      continue;
    if (!merged) {
      merged = llvm::to_vector(t.getShape());
      continue;
    }
    if (static_cast<int64_t>(merged->size()) != t.getRank())
      return op->emitOpError() << "operand type " << t
                               << " is not compatible with preceding operands; expected rank: "
                               << merged->size();
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (skip && d == *skip)
        continue;
      int64_t &m = (*merged)[d];
      if (ShapedType::isDynamic(m)) {
        m = t.getDimSize(d);
      } else if (!t.isDynamicDim(d) && t.getDimSize(d) != m) {
        return op->emitOpError() << "operand type " << t
                                 << " is not compatible with preceding operands; expected "
                                    "dimension at index "
                                 << d << ": " << m;
      }
    }
  }
  return success();
}
} // namespace

LogicalResult tfmlir::TF::verifyConcatV2Op(Operation *op) {
  unsigned numValues = op->getNumOperands() - 1;
  Value axis = op->getOperand(numValues);
  if (auto axisType = ranked(axis); axisType && axisType.getRank() != 0)
    return op->emitOpError() << "requires axis to be of scalar type (or vector type for older versions)";
  ValueRange values = op->getOperands().drop_back();
  std::optional<int64_t> rank;
  for (Value v : values)
    if (auto t = ranked(v)) {
      rank = t.getRank();
      break;
    }
  std::optional<int64_t> axisIndex;
  if (auto axisValues = getConstantInts(axis); axisValues && rank && axisValues->size() == 1) {
    int64_t a = axisValues->front();
    if (a < -*rank || a >= *rank)
      return op->emitOpError() << "axis attribute is out of bounds, got " << a
                               << " for rank " << *rank;
    axisIndex = a < 0 ? a + *rank : a;
  }
  // Without a known axis only the ranks can be compared.
  if (!axisIndex) {
    for (Value v : values)
      if (auto t = ranked(v); t && rank && t.getRank() != *rank)
        return op->emitOpError() << "operand type " << t
                                 << " is not compatible with preceding operands; expected rank: "
                                 << *rank;
    return success();
  }
  return verifyCompatibleValues(op, values, axisIndex);
}

LogicalResult tfmlir::TF::verifyPackOp(Operation *op) {
  if (op->getNumOperands() == 0)
    return op->emitOpError() << "requires at least one value";
  Type first = op->getOperand(0).getType();
  for (Value v : op->getOperands().drop_front())
    if (tfmlir::tf_type::dropRefType(tfmlir::tf_type::getElementTypeOrSelf(first)) !=
        tfmlir::tf_type::dropRefType(tfmlir::tf_type::getElementTypeOrSelf(v.getType())))
      return op->emitOpError() << "requires all values to have the same element type, got "
                               << first << " and " << v.getType();
  if (failed(verifyCompatibleValues(op, op->getOperands(), std::nullopt)))
    return failure();
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  auto in = ranked(op->getOperand(0));
  if (axisAttr && in) {
    int64_t axis = axisAttr.getInt(), rank = in.getRank() + 1;
    if (axis < -rank || axis >= rank)
      return op->emitOpError() << "attribute 'axis' should be within range [" << -rank << ", "
                               << rank << "); actual value: " << axis;
  }
  if (auto out = ranked(op->getResult(0)); out && in && out.getRank() != in.getRank() + 1)
    return op->emitOpError() << "requires the result rank (" << out.getRank()
                             << ") to be one more than the values' rank (" << in.getRank() << ")";
  return success();
}

LogicalResult tfmlir::TF::verifyFillOp(Operation *op) {
  auto dims = ranked(op->getOperand(0));
  auto value = ranked(op->getOperand(1));
  if (dims && dims.getRank() != 1)
    return op->emitOpError() << "requires dims to be a 1D tensor, got rank " << dims.getRank();
  if (value && value.getRank() != 0)
    return op->emitOpError() << "requires value to be a scalar, got rank " << value.getRank();
  auto out = ranked(op->getResult(0));
  if (dims && out && dims.hasStaticShape() && dims.getDimSize(0) != out.getRank())
    return op->emitOpError() << "requires the result rank (" << out.getRank()
                             << ") to equal the number of elements of dims ("
                             << dims.getDimSize(0) << ")";
  return success();
}

namespace {
/// `value` as an index into a dimension list of size `rank` ([-rank, rank)).
std::optional<int64_t> normalizeAxis(int64_t value, int64_t rank) {
  if (value < -rank || value >= rank)
    return std::nullopt;
  return value < 0 ? value + rank : value;
}

bool boolAttr(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<BoolAttr>(name);
  return attr && attr.getValue();
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

/// Split/SplitV: the split dimension operand and the input.
LogicalResult verifySplitDim(Operation *op, Value input, Value splitDim,
                             std::optional<int64_t> &dim) {
  if (auto t = ranked(splitDim); t && t.getRank() != 0)
    return op->emitOpError() << "split dimension should be an integer scalar tensor";
  auto in = ranked(input);
  if (!in)
    return success();
  if (in.getRank() == 0)
    return op->emitOpError() << "cannot split scalar input tensor";
  if (auto values = tfmlir::TF::getConstantInts(splitDim); values && values->size() == 1) {
    dim = normalizeAxis(values->front(), in.getRank());
    if (!dim)
      return op->emitOpError() << "split dimension must be in range [-" << in.getRank() << ", "
                               << in.getRank() << ")";
  }
  return success();
}
} // namespace

LogicalResult tfmlir::TF::verifyBroadcastBinaryOp(Operation *op) {
  auto x = ranked(op->getOperand(0)), y = ranked(op->getOperand(1));
  auto z = ranked(op->getResult(0));
  if (!x || !y)
    return success();
  auto strict = op->getAttrOfType<BoolAttr>("incompatible_shape_error");
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(x.getShape(), y.getShape(), shape)) {
    if (strict && !strict.getValue())
      return success();  // Equal/NotEqual then yield a scalar
    return op->emitOpError() << "operands don't have broadcast-compatible shapes";
  }
  if (z && failed(verifyCompatibleShape(shape, z.getShape())))
    return op->emitOpError() << "result type " << z
                             << " is not compatible with the broadcast shape of the operands";
  return success();
}

LogicalResult tfmlir::TF::verifyUnpackOp(Operation *op) {
  auto value = ranked(op->getOperand(0));
  if (!value)
    return success();
  int64_t rank = value.getRank();
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr ? axisAttr.getInt() : 0, rank);
  if (!axis)
    return op->emitOpError() << "axis attribute must be in the range of [-" << rank << ", " << rank
                             << ")";
  int64_t dimSize = value.getDimSize(*axis);
  if (!ShapedType::isDynamic(dimSize) && dimSize != static_cast<int64_t>(op->getNumResults()))
    return op->emitOpError() << "result count must be equal to " << dimSize;
  return success();
}

LogicalResult tfmlir::TF::verifySplitOp(Operation *op) {
  std::optional<int64_t> dim;
  if (failed(verifySplitDim(op, op->getOperand(1), op->getOperand(0), dim)))
    return failure();
  auto in = ranked(op->getOperand(1));
  if (!dim || !in || in.isDynamicDim(*dim))
    return success();
  if (in.getDimSize(*dim) % op->getNumResults() != 0)
    return op->emitOpError() << "dimension #" << *dim
                             << " not divisible by the number of result tensors";
  return success();
}

LogicalResult tfmlir::TF::verifySplitVOp(Operation *op) {
  Value input = op->getOperand(0), sizes = op->getOperand(1);
  std::optional<int64_t> dim;
  if (failed(verifySplitDim(op, input, op->getOperand(2), dim)))
    return failure();
  int64_t numResults = op->getNumResults();
  if (auto t = ranked(sizes);
      t && (t.getRank() != 1 || (!t.isDynamicDim(0) && t.getDimSize(0) != numResults)))
    return op->emitOpError() << "split sizes should be a 1D tensor of " << numResults
                             << " elements";
  auto values = getConstantInts(sizes);
  if (!values)
    return success();
  int64_t total = 0, dynamic = 0;
  for (int64_t v : *values) {
    if (v == -1)
      ++dynamic;
    else
      total += v;
  }
  if (dynamic > 1)
    return op->emitOpError() << "cannot have more than one dynamic dimension in split sizes";
  auto in = ranked(input);
  if (!dim || !in || in.isDynamicDim(*dim))
    return success();
  int64_t dimSize = in.getDimSize(*dim);
  if (dynamic && total > dimSize)
    return op->emitOpError() << "split sizes must sum up to be less than or equal to the "
                                "dimension size along split dimension, found "
                             << total << " vs " << dimSize;
  if (!dynamic && total != dimSize)
    return op->emitOpError() << "split sizes must sum up to the dimension size along split "
                                "dimension, found "
                             << total << " vs " << dimSize;
  return success();
}

LogicalResult tfmlir::TF::verifySliceOp(Operation *op) {
  auto in = ranked(op->getOperand(0));
  auto begin = ranked(op->getOperand(1)), size = ranked(op->getOperand(2));
  if (begin && begin.getRank() != 1)
    return op->emitOpError() << "requires begin operand to be 1D tensor";
  if (size && size.getRank() != 1)
    return op->emitOpError() << "requires size operand to be 1D tensor";
  if (begin && size && begin.hasStaticShape() && size.hasStaticShape() &&
      begin.getDimSize(0) != size.getDimSize(0))
    return op->emitOpError() << "requires begin and size operands to have the same number of "
                                "elements";
  if (in && begin && begin.hasStaticShape() && begin.getDimSize(0) != in.getRank())
    return op->emitOpError() << "requires number of elements in begin and size to equal the "
                                "input rank "
                             << in.getRank() << ", got " << begin.getDimSize(0);
  auto b = getConstantInts(op->getOperand(1));
  auto s = getConstantInts(op->getOperand(2));
  if (!in || !b || static_cast<int64_t>(b->size()) != in.getRank())
    return success();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t dim = in.getDimSize(i);
    int64_t lo = (*b)[i];
    int64_t hi = s && static_cast<int64_t>(s->size()) == in.getRank() && (*s)[i] != -1
                     ? lo + (*s)[i] : lo;
    if (lo < 0 || hi < lo || (!ShapedType::isDynamic(dim) && hi > dim))
      return op->emitOpError() << "requires 0 <= begin[i] <= begin[i] + size[i] <= Di";
  }
  return success();
}

LogicalResult tfmlir::TF::verifyStridedSliceOp(Operation *op) {
  SmallVector<RankedTensorType> types;
  for (unsigned i = 1; i <= 3; ++i)
    if (auto t = ranked(op->getOperand(i))) {
      if (t.getRank() != 1)
        return op->emitOpError() << "requires begin, end and strides to be 1D tensors";
      types.push_back(t);
    }
  std::optional<int64_t> length;
  for (unsigned i = 1; i <= 3; ++i) {
    int64_t n = ShapedType::kDynamic;
    if (auto t = ranked(op->getOperand(i)); t && !t.isDynamicDim(0))
      n = t.getDimSize(0);
    else if (auto values = getConstantInts(op->getOperand(i)))
      n = values->size();
    if (ShapedType::isDynamic(n))
      continue;
    if (n >= 32)
      return op->emitOpError() << "requires begin, end and strides operands with less than 32 "
                                  "elements";
    if (length && *length != n)
      return op->emitOpError() << "requires begin, end and strides to have the same number of "
                                  "elements";
    length = n;
  }
  if (auto strides = getConstantInts(op->getOperand(3)))
    if (llvm::is_contained(*strides, 0))
      return op->emitOpError() << "requires non-zero strides";
  auto ellipsis = op->getAttrOfType<IntegerAttr>("ellipsis_mask");
  if (ellipsis && llvm::popcount(static_cast<uint64_t>(ellipsis.getInt())) > 1)
    return op->emitOpError() << "cannot have multiple ellipses";
  return success();
}

static LogicalResult verifyBatchMatMul(Operation *op) {
  auto x = ranked(op->getOperand(0)), y = ranked(op->getOperand(1));
  if (x && x.getRank() < 2)
    return op->emitOpError() << "requires lhs operand to have rank at least two";
  if (y && y.getRank() < 2)
    return op->emitOpError() << "requires rhs operand to have rank at least two";
  if (!x || !y)
    return success();
  int64_t k1 = x.getDimSize(x.getRank() - (boolAttr(op, "adj_x") ? 2 : 1));
  int64_t k2 = y.getDimSize(y.getRank() - (boolAttr(op, "adj_y") ? 1 : 2));
  if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2)
    return op->emitOpError() << "requires the contracting dimensions to match, got " << k1
                             << " and " << k2;
  SmallVector<int64_t> batch;
  ArrayRef<int64_t> xb = x.getShape().drop_back(2), yb = y.getShape().drop_back(2);
  bool v1 = op->getName().stripDialect() == "BatchMatMul";
  if ((v1 && (xb.size() != yb.size() || failed(verifyCompatibleShape(xb, yb)))) ||
      (!v1 && !OpTrait::util::getBroadcastedShape(xb, yb, batch)))
    return op->emitOpError() << "found mismatching batch dimensions for lhs shape " << x
                             << " and rhs shape " << y;
  return success();
}

LogicalResult tfmlir::TF::verifyBatchMatMulOp(Operation *op) { return verifyBatchMatMul(op); }
LogicalResult tfmlir::TF::verifyBatchMatMulV2Op(Operation *op) { return verifyBatchMatMul(op); }

LogicalResult tfmlir::TF::verifyConv2DOp(Operation *op) {
  auto input = ranked(op->getOperand(0)), filter = ranked(op->getOperand(1));
  if (input && input.getRank() != 4)
    return op->emitOpError() << "requires input to be a 4D tensor, got rank " << input.getRank();
  if (filter && filter.getRank() != 4)
    return op->emitOpError() << "requires filter to be a 4D tensor, got rank "
                             << filter.getRank();
  auto strides = intList(op, "strides");
  if (strides && strides->size() != 4)
    return op->emitOpError() << "requires strides attribute length to be 4; actual length "
                             << strides->size();
  if (strides && llvm::any_of(*strides, [](int64_t s) { return s <= 0; }))
    return op->emitOpError() << "requires positive strides";
  auto dilations = intList(op, "dilations");
  if (dilations && dilations->size() != 4)
    return op->emitOpError() << "requires dilations attribute length to be 4; actual length "
                             << dilations->size();
  if (dilations && llvm::any_of(*dilations, [](int64_t s) { return s <= 0; }))
    return op->emitOpError() << "requires positive dilations";
  auto padding = op->getAttrOfType<StringAttr>("padding");
  auto pads = intList(op, "explicit_paddings").value_or(SmallVector<int64_t>());
  if (padding && padding.getValue() == "EXPLICIT") {
    if (pads.size() != 8)
      return op->emitOpError() << "requires explicit_paddings attribute length to be 8; actual "
                                  "length "
                               << pads.size();
    if (llvm::any_of(pads, [](int64_t p) { return p < 0; }))
      return op->emitOpError() << "requires non-negative explicit paddings";
  } else if (!pads.empty()) {
    return op->emitOpError() << "requires explicit_paddings to be empty unless padding is "
                                "EXPLICIT";
  }
  auto format = op->getAttrOfType<StringAttr>("data_format");
  if (input && filter) {
    int64_t channels = input.getDimSize(format && format.getValue() == "NCHW" ? 1 : 3);
    int64_t filterChannels = filter.getDimSize(2);
    if (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(filterChannels) &&
        (filterChannels == 0 || channels % filterChannels != 0))
      return op->emitOpError() << "requires the number of input channels (" << channels
                               << ") to be divisible by the filter's input channels ("
                               << filterChannels << ")";
  }
  return success();
}

LogicalResult tfmlir::TF::verifyCastOp(Operation *op) {
  auto x = llvm::dyn_cast<ShapedType>(op->getOperand(0).getType());
  auto y = llvm::dyn_cast<ShapedType>(op->getResult(0).getType());
  if (x && y && failed(verifyCompatibleShape(x, y)))
    return op->emitOpError() << "requires the result shape to be compatible with the operand "
                                "shape, got "
                             << x << " and " << y;
  return success();
}

LogicalResult tfmlir::TF::verifySelectOp(Operation *op) {
  auto cond = ranked(op->getOperand(0));
  auto t = ranked(op->getOperand(1)), e = ranked(op->getOperand(2));
  if (t && e && failed(verifyCompatibleShape(t, e)))
    return op->emitOpError() << "requires t and e to have compatible shapes, got " << t
                             << " and " << e;
  auto data = t ? t : e;
  if (!cond || !data || cond.getRank() == 0)
    return success();
  if (cond.getRank() == 1 && data.getRank() >= 1) {
    if (!cond.isDynamicDim(0) && !data.isDynamicDim(0) &&
        cond.getDimSize(0) != data.getDimSize(0))
      return op->emitOpError() << "requires that, when the condition is a vector, its size ("
                               << cond.getDimSize(0) << ") matches the first dimension of t and e ("
                               << data.getDimSize(0) << ")";
    return success();
  }
  if (failed(verifyCompatibleShape(cond, data)))
    return op->emitOpError() << "requires the condition to be a scalar, a vector or of the "
                                "shape of t and e, got "
                             << cond << " and " << data;
  return success();
}

LogicalResult tfmlir::TF::verifySelectV2Op(Operation *op) {
  auto cond = ranked(op->getOperand(0));
  auto t = ranked(op->getOperand(1)), e = ranked(op->getOperand(2));
  if (!cond || !t || !e)
    return success();
  SmallVector<int64_t> te, all;
  if (!OpTrait::util::getBroadcastedShape(t.getShape(), e.getShape(), te) ||
      !OpTrait::util::getBroadcastedShape(cond.getShape(), te, all))
    return op->emitOpError() << "operands don't have broadcast-compatible shapes";
  return success();
}

static LogicalResult verifyGatherIndices(Operation *op, RankedTensorType params) {
  if (params && params.getRank() < 1)
    return op->emitOpError() << "requires params to have rank at least 1";
  return success();
}

LogicalResult tfmlir::TF::verifyGatherOp(Operation *op) {
  return verifyGatherIndices(op, ranked(op->getOperand(0)));
}

LogicalResult tfmlir::TF::verifyGatherV2Op(Operation *op) {
  auto params = ranked(op->getOperand(0)), indices = ranked(op->getOperand(1));
  auto axisType = ranked(op->getOperand(2));
  auto batchAttr = op->getAttrOfType<IntegerAttr>("batch_dims");
  int64_t batchDims = batchAttr ? batchAttr.getInt() : 0;
  if (indices) {
    int64_t r = indices.getRank();
    if (batchDims < -r || batchDims > r)
      return op->emitOpError() << "batch_dims (" << batchDims << ") must be in range [" << -r
                               << ", " << r + 1 << ")";
    if (batchDims < 0)
      batchDims += r;
  }
  if (axisType && axisType.getRank() > 1)
    return op->emitOpError() << "requires axis to have rank at most 1";
  if (failed(verifyGatherIndices(op, params)))
    return failure();
  auto axisValues = getConstantInts(op->getOperand(2));
  if (!params || !axisValues || axisValues->size() != 1)
    return success();
  int64_t axis = axisValues->front(), rank = params.getRank();
  if (axis < -rank || axis >= rank)
    return op->emitOpError() << "axis (" << axis << ") must be in range [" << -rank << ", " << rank
                             << ")";
  if (axis < 0)
    axis += rank;
  if (indices && batchDims > axis)
    return op->emitOpError() << "requires axis (" << axis
                             << ") to be greater than or equal to batch_dims (" << batchDims
                             << ")";
  return success();
}

LogicalResult tfmlir::TF::verifyRangeOp(Operation *op) {
  static const char *names[] = {"start", "limit", "delta"};
  for (unsigned i = 0; i < 3; ++i)
    if (auto t = ranked(op->getOperand(i)); t && t.getRank() != 0)
      return op->emitOpError() << "requires " << names[i] << " to be a scalar, got rank "
                               << t.getRank();
  if (auto out = ranked(op->getResult(0)); out && out.getRank() != 1)
    return op->emitOpError() << "requires a 1D result, got rank " << out.getRank();
  Operation *def = op->getOperand(2).getDefiningOp();
  if (def && def->hasTrait<OpTrait::ConstantLike>())
    if (auto delta = def->getAttrOfType<DenseElementsAttr>("value");
        delta && delta.getNumElements() == 1) {
      bool zero = llvm::isa<FloatType>(delta.getElementType())
                      ? (*delta.getValues<APFloat>().begin()).isZero()
                      : llvm::isa<IntegerType>(delta.getElementType()) &&
                            (*delta.getValues<APInt>().begin()).isZero();
      if (zero)
        return op->emitOpError() << "requires delta != 0";
    }
  return success();
}

LogicalResult tfmlir::TF::verifySqueezeOp(Operation *op) {
  auto in = ranked(op->getOperand(0));
  auto dims = intList(op, "squeeze_dims");
  if (!in || !dims)
    return success();
  int64_t rank = in.getRank();
  for (int64_t d : *dims) {
    std::optional<int64_t> axis = normalizeAxis(d, rank);
    if (!axis)
      return op->emitOpError() << "squeeze dimension " << d << " not in [" << -rank << ", "
                               << rank << ")";
    if (!in.isDynamicDim(*axis) && in.getDimSize(*axis) != 1)
      return op->emitOpError() << "can not squeeze dim[" << *axis
                               << "], expected a dimension of 1, got " << in.getDimSize(*axis);
  }
  return success();
}

LogicalResult tfmlir::TF::verifyExpandDimsOp(Operation *op) {
  auto dim = ranked(op->getOperand(1));
  if (dim && dim.hasStaticShape() && dim.getNumElements() != 1)
    return op->emitOpError() << "requires dim to hold exactly one element, got "
                             << dim.getNumElements();
  auto in = ranked(op->getOperand(0));
  auto values = getConstantInts(op->getOperand(1));
  if (!in || !values || values->size() != 1)
    return success();
  int64_t rank = in.getRank() + 1;
  if (!normalizeAxis(values->front(), rank))
    return op->emitOpError() << "dim " << values->front() << " not in the interval ["
                             << -rank << ", " << rank - 1 << "]";
  if (auto out = ranked(op->getResult(0)); out && out.getRank() != rank)
    return op->emitOpError() << "requires the result rank (" << out.getRank()
                             << ") to be one more than the input rank (" << in.getRank() << ")";
  return success();
}
