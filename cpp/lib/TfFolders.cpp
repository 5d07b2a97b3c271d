//===- TfFolders.cpp - folders of generated tf ops -------------------------===//
//
// Called from the `fold` methods of generated ops through foldTfOp (the
// table at the end of this file) and the generic Operation API. Two kinds of folds:
//  - identities returning an operand (x + 0, x * 1, Cast to the same type,
//    Reshape to the same static type, ...), only when that operand has exactly
//    the op's result type;
//  - constant folding of integer/floating-point/bool constants into a value of
//    the op's result type, which must be static. Elementwise results are
//    computed in the element type (TF's kernels do the same) and limited to
//    kMaxFoldedElements unless they are splats.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Traits.h"

#include <cmath>
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using llvm::APFloat;
using llvm::APInt;

namespace {
/// Larger non-splat results are not folded (the constant would grow the IR).
constexpr int64_t kMaxFoldedElements = 1 << 16;

/// The result type of `op` if it is a static ranked tensor, else null.
RankedTensorType staticResultType(Operation *op) {
  auto type = llvm::dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.hasStaticShape() ? type : RankedTensorType();
}

DenseElementsAttr dense(Attribute attr) {
  return llvm::dyn_cast_or_null<DenseElementsAttr>(attr);
}

bool isIntOrFloat(Type t) { return llvm::isa<IntegerType, FloatType>(t); }

/// True if `attr` is a splat integer/float constant equal to `value`.
bool isSplatOf(Attribute attr, int64_t value) {
  DenseElementsAttr d = dense(attr);
  if (!d || !d.isSplat())
    return false;
  Type elt = d.getElementType();
  if (llvm::isa<IntegerType>(elt))
    return d.getSplatValue<APInt>() == APInt(elt.getIntOrFloatBitWidth(), value);
  if (llvm::isa<FloatType>(elt)) {
    APFloat f = d.getSplatValue<APFloat>();
    // TF's identity folds compare with the exact element value (+0.0 for add).
    return f.isFinite() && !(value == 0 && f.isNegative()) &&
           f.compare(APFloat(f.getSemantics(), value)) == APFloat::cmpEqual;
  }
  return false;
}

/// Operand `i` of `op` if it has exactly the result type (identity folds).
OpFoldResult operandIfSameType(Operation *op, unsigned i) {
  Value v = op->getOperand(i);
  return v.getType() == op->getResult(0).getType() ? OpFoldResult(v) : OpFoldResult();
}

/// For each element of a tensor of shape `out`, the flat index of the element
/// of a tensor of shape `in` broadcast to it (numpy rules).
SmallVector<int64_t> broadcastIndices(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  int64_t total = 1;
  for (int64_t d : out)
    total *= d;
  SmallVector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (int64_t i = in.size() - 1, o = out.size() - 1; i >= 0; --i, --o) {
    strides[o] = in[i] == 1 ? 0 : stride;
    stride *= in[i];
  }
  SmallVector<int64_t> result(total), index(out.size(), 0);
  int64_t flat = 0;
  for (int64_t k = 0; k < total; ++k) {
    result[k] = flat;
    for (int64_t d = out.size() - 1; d >= 0; --d) {
      flat += strides[d];
      if (++index[d] < out[d])
        break;
      flat -= strides[d] * out[d];
      index[d] = 0;
    }
  }
  return result;
}

/// Folds a broadcasting elementwise binary op on two integer or float
/// constants. `intFn(a, b, isUnsigned)` and `floatFn(a, b)` return the result
/// element (APInt or APFloat, per the result element type), or nullopt to give
/// up (division by zero, ...).
template <typename IntFn, typename FloatFn>
Attribute foldBinary(Operation *op, ArrayRef<Attribute> operands, IntFn intFn, FloatFn floatFn) {
  RankedTensorType type = staticResultType(op);
  DenseElementsAttr lhs = dense(operands[0]), rhs = dense(operands[1]);
  if (!type || !lhs || !rhs || lhs.getElementType() != rhs.getElementType() ||
      !isIntOrFloat(lhs.getElementType()))
    return {};
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(lhs.getType().getShape(), rhs.getType().getShape(),
                                          shape) ||
      ArrayRef<int64_t>(shape) != type.getShape())
    return {};
  bool splat = lhs.isSplat() && rhs.isSplat();
  if (!splat && type.getNumElements() > kMaxFoldedElements)
    return {};
  // The verifier lets some ops declare another result element type (TF's
  // does); computed elements must fit the declared one.
  auto fits = [&](const auto &value) {
    Type elt = type.getElementType();
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, APInt>)
      return llvm::isa<IntegerType>(elt) &&
             llvm::cast<IntegerType>(elt).getWidth() == value.getBitWidth();
    else
      return llvm::isa<FloatType>(elt) &&
             &llvm::cast<FloatType>(elt).getFloatSemantics() == &value.getSemantics();
  };
  auto compute = [&](auto lhsValues, auto rhsValues, auto fn) -> Attribute {
    using Result = std::decay_t<decltype(*fn(lhsValues[0], rhsValues[0]))>;
    if (splat) {
      auto r = fn(lhsValues[0], rhsValues[0]);
      if (!r || !fits(*r))
        return {};
      return DenseElementsAttr::get(type, ArrayRef<Result>(*r));
    }
    SmallVector<int64_t> li = broadcastIndices(lhs.getType().getShape(), shape);
    SmallVector<int64_t> ri = broadcastIndices(rhs.getType().getShape(), shape);
    SmallVector<Result> results;
    results.reserve(li.size());
    for (auto [l, r] : llvm::zip_equal(li, ri)) {
      auto value = fn(lhsValues[l], rhsValues[r]);
      if (!value || !fits(*value))
        return {};
      results.push_back(*value);
    }
    return DenseElementsAttr::get(type, results);
  };
  if (auto intType = llvm::dyn_cast<IntegerType>(lhs.getElementType())) {
    bool isUnsigned = intType.isUnsigned();
    auto values = [](DenseElementsAttr d) { return llvm::to_vector(d.getValues<APInt>()); };
    return compute(values(lhs), values(rhs),
                   [&](const APInt &a, const APInt &b) { return intFn(a, b, isUnsigned); });
  }
  auto values = [](DenseElementsAttr d) { return llvm::to_vector(d.getValues<APFloat>()); };
  return compute(values(lhs), values(rhs),
                 [&](const APFloat &a, const APFloat &b) { return floatFn(a, b); });
}

APInt boolean(bool b) { return APInt(1, b ? 1 : 0); }

/// Float results of the same semantics as the operands (rounded to nearest).
template <typename Fn> auto floatArith(Fn fn) {
  return [fn](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
    APFloat r = a;
    fn(r, b);
    return r;
  };
}
} // namespace

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

OpFoldResult tfmlir::TF::foldAddOp(Operation *op, ArrayRef<Attribute> operands) {
  if (isSplatOf(operands[1], 0))
    if (OpFoldResult r = operandIfSameType(op, 0))
      return r;
  if (isSplatOf(operands[0], 0))
    if (OpFoldResult r = operandIfSameType(op, 1))
      return r;
  return foldBinary(
      op, operands,
      [](const APInt &a, const APInt &b, bool) -> std::optional<APInt> { return a + b; },
      floatArith([](APFloat &r, const APFloat &b) { r.add(b, APFloat::rmNearestTiesToEven); }));
}

OpFoldResult tfmlir::TF::foldSubOp(Operation *op, ArrayRef<Attribute> operands) {
  // x - x -> 0 for integers (not for floats: inf - inf and NaN - NaN are NaN).
  if (op->getOperand(0) == op->getOperand(1))
    if (RankedTensorType type = staticResultType(op))
      if (auto intType = llvm::dyn_cast<IntegerType>(type.getElementType()))
        return DenseElementsAttr::get(type, APInt::getZero(intType.getWidth()));
  if (isSplatOf(operands[1], 0))
    if (OpFoldResult r = operandIfSameType(op, 0))
      return r;
  return foldBinary(
      op, operands,
      [](const APInt &a, const APInt &b, bool) -> std::optional<APInt> { return a - b; },
      floatArith([](APFloat &r, const APFloat &b) { r.subtract(b, APFloat::rmNearestTiesToEven); }));
}

OpFoldResult tfmlir::TF::foldMulOp(Operation *op, ArrayRef<Attribute> operands) {
  if (isSplatOf(operands[1], 1))
    if (OpFoldResult r = operandIfSameType(op, 0))
      return r;
  if (isSplatOf(operands[0], 1))
    if (OpFoldResult r = operandIfSameType(op, 1))
      return r;
  return foldBinary(
      op, operands,
      [](const APInt &a, const APInt &b, bool) -> std::optional<APInt> { return a * b; },
      floatArith([](APFloat &r, const APFloat &b) { r.multiply(b, APFloat::rmNearestTiesToEven); }));
}

OpFoldResult tfmlir::TF::foldDivOp(Operation *op, ArrayRef<Attribute> operands) {
  if (isSplatOf(operands[1], 1))
    if (OpFoldResult r = operandIfSameType(op, 0))
      return r;
  // Integer division truncates (TF's Div/RealDiv kernels on integers); division
  // by zero and signed overflow are left to the runtime.
  return foldBinary(
      op, operands,
      [](const APInt &a, const APInt &b, bool isUnsigned) -> std::optional<APInt> {
        if (b.isZero() || (!isUnsigned && a.isMinSignedValue() && b.isAllOnes()))
          return std::nullopt;
        return isUnsigned ? a.udiv(b) : a.sdiv(b);
      },
      floatArith([](APFloat &r, const APFloat &b) { r.divide(b, APFloat::rmNearestTiesToEven); }));
}

namespace {
/// Maximum/Minimum: NaNs and zeros of different signs are left to the runtime
/// (the result depends on the kernel's operand order).
std::optional<APFloat> pickFloat(const APFloat &a, const APFloat &b, bool max) {
  if (a.isNaN() || b.isNaN() || (a.isZero() && b.isZero() && a.isNegative() != b.isNegative()))
    return std::nullopt;
  bool aLess = a.compare(b) == APFloat::cmpLessThan;
  return (aLess == max) ? b : a;
}
} // namespace

OpFoldResult tfmlir::TF::foldMaximumOp(Operation *op, ArrayRef<Attribute> operands) {
  return foldBinary(
      op, operands,
      [](const APInt &a, const APInt &b, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
      },
      [](const APFloat &a, const APFloat &b) { return pickFloat(a, b, /*max=*/true); });
}

OpFoldResult tfmlir::TF::foldMinimumOp(Operation *op, ArrayRef<Attribute> operands) {
  return foldBinary(
      op, operands,
      [](const APInt &a, const APInt &b, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
      },
      [](const APFloat &a, const APFloat &b) { return pickFloat(a, b, /*max=*/false); });
}

//===----------------------------------------------------------------------===//
// Comparisons and logical ops
//===----------------------------------------------------------------------===//

OpFoldResult tfmlir::TF::foldComparisonOp(Operation *op, ArrayRef<Attribute> operands) {
  StringRef name = op->getName().stripDialect();
  enum { EQ, NE, LT, LE, GT, GE } kind;
  if (name == "Equal") kind = EQ;
  else if (name == "NotEqual") kind = NE;
  else if (name == "Less") kind = LT;
  else if (name == "LessEqual") kind = LE;
  else if (name == "Greater") kind = GT;
  else if (name == "GreaterEqual") kind = GE;
  else return {};
  return foldBinary(
      op, operands,
      [kind](const APInt &a, const APInt &b, bool isUnsigned) -> std::optional<APInt> {
        switch (kind) {
        case EQ: return boolean(a == b);
        case NE: return boolean(a != b);
        case LT: return boolean(isUnsigned ? a.ult(b) : a.slt(b));
        case LE: return boolean(isUnsigned ? a.ule(b) : a.sle(b));
        case GT: return boolean(isUnsigned ? a.ugt(b) : a.sgt(b));
        case GE: return boolean(isUnsigned ? a.uge(b) : a.sge(b));
        }
        return std::nullopt;
      },
      [kind](const APFloat &a, const APFloat &b) -> std::optional<APInt> {
        APFloat::cmpResult c = a.compare(b);  // cmpUnordered if either is NaN
        switch (kind) {
        case EQ: return boolean(c == APFloat::cmpEqual);
        case NE: return boolean(c != APFloat::cmpEqual);
        case LT: return boolean(c == APFloat::cmpLessThan);
        case LE: return boolean(c == APFloat::cmpLessThan || c == APFloat::cmpEqual);
        case GT: return boolean(c == APFloat::cmpGreaterThan);
        case GE: return boolean(c == APFloat::cmpGreaterThan || c == APFloat::cmpEqual);
        }
        return std::nullopt;
      });
}

OpFoldResult tfmlir::TF::foldLogicalOp(Operation *op, ArrayRef<Attribute> operands) {
  bool isAnd = op->getName().stripDialect() == "LogicalAnd";
  return foldBinary(
      op, operands,
      [isAnd](const APInt &a, const APInt &b, bool) -> std::optional<APInt> {
        return isAnd ? (a & b) : (a | b);
      },
      [](const APFloat &, const APFloat &) -> std::optional<APInt> { return std::nullopt; });
}

OpFoldResult tfmlir::TF::foldUnaryOp(Operation *op, ArrayRef<Attribute> operands) {
  RankedTensorType type = staticResultType(op);
  DenseElementsAttr in = dense(operands[0]);
  if (!type || !in || in.getType() != type || !isIntOrFloat(type.getElementType()))
    return {};
  if (!in.isSplat() && type.getNumElements() > kMaxFoldedElements)
    return {};
  StringRef name = op->getName().stripDialect();
  if (llvm::isa<IntegerType>(type.getElementType())) {
    bool isUnsigned = type.getElementType().isUnsignedInteger();
    return in.mapValues(type.getElementType(), [&](const APInt &a) -> APInt {
      if (name == "Neg") return -a;
      if (name == "Abs") return isUnsigned ? a : a.abs();
      if (name == "Square") return a * a;
      return ~a;  // LogicalNot on i1
    });
  }
  if (name == "LogicalNot")
    return {};
  return in.mapValues(type.getElementType(), [&](const APFloat &a) -> APInt {
    APFloat r = a;
    if (name == "Neg")
      r.changeSign();
    else if (name == "Abs")
      r.clearSign();
    else
      r.multiply(a, APFloat::rmNearestTiesToEven);
    return r.bitcastToAPInt();
  });
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

namespace {
/// Converts one element as TF's Cast kernel does (static_cast), or nullopt
/// where that conversion is undefined (float to int out of range / NaN).
std::optional<Attribute> castElement(Attribute in, Type to) {
  if (auto i = llvm::dyn_cast<IntegerAttr>(in)) {
    APInt v = i.getValue();
    bool isUnsigned = i.getType().isUnsignedInteger() || i.getType().isInteger(1);
    if (auto intType = llvm::dyn_cast<IntegerType>(to)) {
      if (intType.getWidth() == 1)
        return IntegerAttr::get(to, APInt(1, !v.isZero()));
      return IntegerAttr::get(to, isUnsigned ? v.zextOrTrunc(intType.getWidth())
                                             : v.sextOrTrunc(intType.getWidth()));
    }
    if (auto floatType = llvm::dyn_cast<FloatType>(to)) {
      APFloat f(floatType.getFloatSemantics());
      f.convertFromAPInt(v, !isUnsigned, APFloat::rmNearestTiesToEven);
      return FloatAttr::get(to, f);
    }
    return std::nullopt;
  }
  auto fa = llvm::dyn_cast<FloatAttr>(in);
  if (!fa)
    return std::nullopt;
  APFloat f = fa.getValue();
  if (auto intType = llvm::dyn_cast<IntegerType>(to)) {
    if (intType.getWidth() == 1)
      return IntegerAttr::get(to, APInt(1, !f.isZero()));
    llvm::APSInt result(intType.getWidth(), intType.isUnsigned());
    bool exact = false;
    if (f.convertToInteger(result, APFloat::rmTowardZero, &exact) & APFloat::opInvalidOp)
      return std::nullopt;
    return IntegerAttr::get(to, static_cast<const APInt &>(result));
  }
  if (auto floatType = llvm::dyn_cast<FloatType>(to)) {
    bool losesInfo = false;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
    return FloatAttr::get(to, f);
  }
  return std::nullopt;
}
} // namespace

OpFoldResult tfmlir::TF::foldCastOp(Operation *op, ArrayRef<Attribute> operands) {
  if (OpFoldResult r = operandIfSameType(op, 0))
    return r;
  RankedTensorType type = staticResultType(op);
  DenseElementsAttr in = dense(operands[0]);
  if (!type || !in || in.getType().getShape() != type.getShape() ||
      !isIntOrFloat(in.getElementType()) || !isIntOrFloat(type.getElementType()))
    return {};
  if (in.isSplat()) {
    std::optional<Attribute> v = castElement(in.getSplatValue<Attribute>(), type.getElementType());
    return v ? DenseElementsAttr::get(type, *v) : Attribute();
  }
  if (type.getNumElements() > kMaxFoldedElements)
    return {};
  SmallVector<Attribute> values;
  for (Attribute a : in.getValues<Attribute>()) {
    std::optional<Attribute> v = castElement(a, type.getElementType());
    if (!v)
      return {};
    values.push_back(*v);
  }
  return DenseElementsAttr::get(type, values);
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

OpFoldResult tfmlir::TF::foldReshapeOp(Operation *op, ArrayRef<Attribute> operands) {
  // Reshape / ExpandDims / Squeeze: the data stays, only the shape changes.
  RankedTensorType type = staticResultType(op);
  if (!type)
    return {};
  if (OpFoldResult r = operandIfSameType(op, 0))
    return r;
  DenseElementsAttr in = dense(operands[0]);
  if (in && in.getElementType() == type.getElementType() &&
      in.getNumElements() == type.getNumElements())
    return in.reshape(type);
  return {};
}

OpFoldResult tfmlir::TF::foldTransposeOp(Operation *op, ArrayRef<Attribute> operands) {
  DenseElementsAttr perm = dense(operands[1]);
  if (!perm || !llvm::isa<IntegerType>(perm.getElementType()))
    return {};
  SmallVector<int64_t> p;
  for (const APInt &v : perm.getValues<APInt>())
    p.push_back(v.getSExtValue());
  bool identity = llvm::all_of(llvm::enumerate(p), [](auto e) {
    return static_cast<int64_t>(e.index()) == e.value();
  });
  if (identity)
    if (OpFoldResult r = operandIfSameType(op, 0))
      return r;
  RankedTensorType type = staticResultType(op);
  DenseElementsAttr in = dense(operands[0]);
  if (!type || !in || in.getElementType() != type.getElementType() ||
      in.getType().getRank() != static_cast<int64_t>(p.size()) ||
      type.getRank() != static_cast<int64_t>(p.size()))
    return {};
  // Only a true permutation whose shape is the result's (the verifier, like
  // TF's, lets negative or repeated entries through).
  SmallVector<bool> seen(p.size(), false);
  for (auto [d, v] : llvm::enumerate(p)) {
    if (v < 0 || v >= static_cast<int64_t>(p.size()) || seen[v] ||
        type.getDimSize(d) != in.getType().getDimSize(v))
      return {};
    seen[v] = true;
  }
  if (in.isSplat())
    return in.reshape(type);
  if (type.getNumElements() > kMaxFoldedElements)
    return {};
  ArrayRef<int64_t> inShape = in.getType().getShape();
  int64_t rank = p.size();
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inShape[d + 1];
  for (int64_t d = 0; d < rank; ++d)
    if (p[d] < 0 || p[d] >= rank || type.getDimSize(d) != inShape[p[d]])
      return {};
  SmallVector<Attribute> values = llvm::to_vector(in.getValues<Attribute>());
  SmallVector<Attribute> out;
  out.reserve(values.size());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t k = 0, e = type.getNumElements(); k < e; ++k) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += index[d] * inStrides[p[d]];
    out.push_back(values[flat]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < type.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(type, out);
}

namespace {
/// A constant of the (static, integer) `type` holding `values`.
Attribute intConstant(Type type, ArrayRef<int64_t> values) {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() != (int64_t)values.size())
    return {};
  auto intType = llvm::dyn_cast<IntegerType>(tensor.getElementType());
  if (!intType || intType.getWidth() < 32)
    return {};
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(intType.getWidth(), v, /*isSigned=*/true));
  return DenseElementsAttr::get(tensor, ints);
}
} // namespace

Attribute tfmlir::TF::foldShapeOf(Type type, Type resultType) {
  // As TF's ConvertShapeToAttr: a 1-D constant of the dimensions, whatever
  // static shape the (possibly dynamic) result type has.
  auto ranked = llvm::dyn_cast<RankedTensorType>(type);
  auto result = llvm::dyn_cast<ShapedType>(resultType);
  if (!ranked || !ranked.hasStaticShape() || !result)
    return {};
  return intConstant(RankedTensorType::get({ranked.getRank()}, result.getElementType()),
                     ranked.getShape());
}

namespace {
/// VariableShape: the shape of the resource's subtype (TF's folder).
OpFoldResult foldVariableShapeOp(Operation *op, ArrayRef<Attribute>) {
  auto resource = llvm::dyn_cast<tfmlir::tf_type::ResourceType>(
      getElementTypeOrSelf(op->getOperand(0).getType()));
  if (!resource || resource.getSubtypes().empty())
    return {};
  return tfmlir::TF::foldShapeOf(resource.getSubtypes().front(), op->getResult(0).getType());
}

/// Empty of a static result type: zeros (TF's folder: an uninitialized
/// tensor may hold anything; TF picks zeros).
OpFoldResult foldEmptyOp(Operation *op, ArrayRef<Attribute> operands) {
  auto type = llvm::dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!operands[0] || !type || !type.hasStaticShape())
    return {};
  Type element = type.getElementType();
  if (auto f = llvm::dyn_cast<FloatType>(element))
    return DenseElementsAttr::get(type, FloatAttr::get(f, 0.0));
  if (auto i = llvm::dyn_cast<IntegerType>(element))
    return DenseElementsAttr::get(type, IntegerAttr::get(i, 0));
  return {};
}

/// LogicalAnd: the generic constant folding, else a splat `false` operand of
/// the result type is the result (TF's folder).
OpFoldResult foldLogicalAndOp(Operation *op, ArrayRef<Attribute> operands) {
  if (OpFoldResult folded = tfmlir::TF::foldLogicalOp(op, operands))
    return folded;
  for (Attribute operand : operands) {
    auto splat = llvm::dyn_cast_or_null<SplatElementsAttr>(operand);
    if (!splat || splat.getType() != op->getResult(0).getType() ||
        !splat.getElementType().isInteger(1) || splat.getSplatValue<bool>())
      continue;
    return operand;
  }
  return {};
}

/// LeakyRelu: alpha 1 is the identity; a splat float constant folds.
OpFoldResult foldLeakyReluOp(Operation *op, ArrayRef<Attribute> operands) {
  auto alphaAttr = op->getAttrOfType<FloatAttr>("alpha");
  float alpha = alphaAttr ? alphaAttr.getValue().convertToFloat() : 0.2f;
  if (alpha == 1.0f && op->getOperand(0).getType() == op->getResult(0).getType())
    return op->getOperand(0);
  auto splat = llvm::dyn_cast_or_null<SplatElementsAttr>(operands[0]);
  if (!splat || !llvm::isa<FloatType>(splat.getElementType()))
    return {};
  APFloat value = splat.getSplatValue<APFloat>();
  if (value.isNegative()) {
    APFloat scale(alpha);
    bool lost;
    scale.convert(value.getSemantics(), APFloat::rmNearestTiesToEven, &lost);
    value = value * scale;
  }
  return DenseElementsAttr::get(splat.getType(), value);
}
} // namespace

OpFoldResult tfmlir::TF::foldRankOp(Operation *op, ArrayRef<Attribute>) {
  auto ranked = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!ranked)
    return {};
  return intConstant(op->getResult(0).getType(), {ranked.getRank()});
}

OpFoldResult tfmlir::TF::foldSizeOp(Operation *op, ArrayRef<Attribute>) {
  auto ranked = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!ranked || !ranked.hasStaticShape())
    return {};
  return intConstant(op->getResult(0).getType(), {ranked.getNumElements()});
}

OpFoldResult tfmlir::TF::foldSelectOp(Operation *op, ArrayRef<Attribute> operands) {
  // Select(c, x, x) -> x; a splat condition picks one side.
  if (op->getOperand(1) == op->getOperand(2))
    if (OpFoldResult r = operandIfSameType(op, 1))
      return r;
  DenseElementsAttr cond = dense(operands[0]);
  if (!cond || !cond.isSplat() || !cond.getElementType().isInteger(1))
    return {};
  // A condition that broadcasts (SelectV2) must not change the result shape.
  auto condType = llvm::cast<RankedTensorType>(cond.getType());
  auto resultType = llvm::dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (op->getName().stripDialect() == "SelectV2" && condType.getRank() > 0 &&
      (!resultType || resultType.getRank() < condType.getRank()))
    return {};
  return operandIfSameType(op, cond.getSplatValue<bool>() ? 1 : 2);
}

OpFoldResult tfmlir::TF::foldFillOp(Operation *op, ArrayRef<Attribute> operands) {
  RankedTensorType type = staticResultType(op);
  DenseElementsAttr value = dense(operands[1]);
  DenseElementsAttr dims = dense(operands[0]);
  if (!type || !dims || !value || value.getType().getRank() != 0 ||
      value.getElementType() != type.getElementType() || !llvm::isa<IntegerType>(dims.getElementType()) ||
      dims.getNumElements() != type.getRank())
    return {};
  // The dims must describe the result (TF's verifier does not tie them).
  for (auto [d, v] : llvm::enumerate(dims.getValues<APInt>()))
    if (v.getSExtValue() != type.getDimSize(d))
      return {};
  return DenseElementsAttr::get(type, value.getSplatValue<Attribute>());
}

OpFoldResult tfmlir::TF::foldZerosOnesLikeOp(Operation *op, ArrayRef<Attribute>) {
  RankedTensorType type = staticResultType(op);
  if (!type)
    return {};
  int64_t value = op->getName().stripDialect() == "OnesLike" ? 1 : 0;
  Type elt = type.getElementType();
  if (auto intType = llvm::dyn_cast<IntegerType>(elt))
    return DenseElementsAttr::get(type, APInt(intType.getWidth(), value));
  if (auto floatType = llvm::dyn_cast<FloatType>(elt))
    return DenseElementsAttr::get(type, APFloat(floatType.getFloatSemantics(), value));
  return {};
}

namespace {
/// Stacks or concatenates constant `parts` along `axis` (all of rank `rank`
/// once the stacking axis is counted) into `type`.
Attribute joinConstants(RankedTensorType type, ArrayRef<Attribute> parts, int64_t axis) {
  if (!type || type.getNumElements() > kMaxFoldedElements || axis < 0 || axis >= type.getRank())
    return {};
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  SmallVector<SmallVector<Attribute>> values;
  SmallVector<int64_t> chunk;  // elements per outer index, per part
  for (Attribute part : parts) {
    DenseElementsAttr d = dense(part);
    if (!d || d.getElementType() != type.getElementType() || d.getNumElements() % outer)
      return {};
    values.push_back(llvm::to_vector(d.getValues<Attribute>()));
    chunk.push_back(d.getNumElements() / outer);
  }
  SmallVector<Attribute> out;
  for (int64_t o = 0; o < outer; ++o)
    for (auto [v, c] : llvm::zip_equal(values, chunk))
      out.append(v.begin() + o * c, v.begin() + (o + 1) * c);
  if (static_cast<int64_t>(out.size()) != type.getNumElements())
    return {};
  return DenseElementsAttr::get(type, out);
}
} // namespace

OpFoldResult tfmlir::TF::foldPackOp(Operation *op, ArrayRef<Attribute> operands) {
  RankedTensorType type = staticResultType(op);
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  if (!type)
    return {};
  int64_t axis = axisAttr ? axisAttr.getInt() : 0;
  if (axis < 0)
    axis += type.getRank();
  // Each value must have one dimension less than the result (TF's verifier
  // does not tie them).
  for (Value v : op->getOperands()) {
    auto t = llvm::dyn_cast<RankedTensorType>(v.getType());
    if (!t || t.getRank() + 1 != type.getRank())
      return {};
  }
  return joinConstants(type, operands, axis);
}

OpFoldResult tfmlir::TF::foldConcatV2Op(Operation *op, ArrayRef<Attribute> operands) {
  RankedTensorType type = staticResultType(op);
  DenseElementsAttr axisAttr = dense(operands.back());
  if (!type || !axisAttr || axisAttr.getNumElements() != 1 ||
      !llvm::isa<IntegerType>(axisAttr.getElementType()))
    return {};
  int64_t axis = (*axisAttr.getValues<APInt>().begin()).getSExtValue();
  if (axis < 0)
    axis += type.getRank();
  // The values must have the result's rank (TF's verifier does not check the
  // axis or the result).
  for (Value v : op->getOperands().drop_back()) {
    auto t = llvm::dyn_cast<RankedTensorType>(v.getType());
    if (!t || t.getRank() != type.getRank())
      return {};
  }
  return joinConstants(type, operands.drop_back(), axis);
}

//===----------------------------------------------------------------------===//
// StridedSlice of Shape; EnsureShape (TF's folders)
//===----------------------------------------------------------------------===//

namespace {
std::optional<int64_t> singleConstantInt(Value v) {
  DenseIntElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || attr.getNumElements() != 1)
    return std::nullopt;
  return (*attr.getValues<APInt>().begin()).getSExtValue();
}

int64_t intAttrOr(Operation *op, StringRef name, int64_t otherwise) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : otherwise;
}

/// StridedSlice(Shape(x), b, e, s) of one-element b/e/s selecting static
/// dimensions of x: those dimensions (TF's StridedSliceOp::fold, with its
/// handling of negative indices, masks and out-of-bound ends).
OpFoldResult foldStridedSliceOp(Operation *op, ArrayRef<Attribute>) {
  Operation *shape = op->getOperand(0).getDefiningOp();
  if (!shape || shape->getName().getStringRef() != "tf.Shape")
    return {};
  std::optional<int64_t> b = singleConstantInt(op->getOperand(1));
  std::optional<int64_t> e = singleConstantInt(op->getOperand(2));
  std::optional<int64_t> s = singleConstantInt(op->getOperand(3));
  if (!b || !e || !s || *s == 0 || intAttrOr(op, "new_axis_mask", 0) != 0)
    return {};
  auto input = llvm::dyn_cast<RankedTensorType>(shape->getOperand(0).getType());
  if (!input)
    return {};
  int64_t rank = input.getRank(), begin = *b, end = *e, stride = *s;
  if (begin < 0)
    begin += rank;
  if (end < 0)
    end += rank;
  int64_t shrink = intAttrOr(op, "shrink_axis_mask", 0);
  if (shrink == 1)
    end = begin + 1;
  if (intAttrOr(op, "begin_mask", 0) == 1)
    begin = stride > 0 ? 0 : rank - 1;
  if (intAttrOr(op, "end_mask", 0) == 1)
    end = stride > 0 ? rank : -1;
  if (intAttrOr(op, "ellipsis_mask", 0) == 1) {
    begin = 0;
    end = rank;
  }
  if (stride > 0) {
    begin = std::min(begin, rank);
    end = std::min(end, rank);
  } else {
    begin = std::min(begin, rank - 1);
    end = std::min(end, rank - 1);
  }
  SmallVector<int64_t> dims;
  if ((end > begin && stride > 0) || (end < begin && stride < 0)) {
    for (int64_t i = begin; stride > 0 ? i < end : i > end; i += stride) {
      if (i < 0 || i >= rank || input.isDynamicDim(i))
        return {};
      dims.push_back(input.getDimSize(i));
    }
  }
  auto resultType = llvm::cast<ShapedType>(op->getResult(0).getType());
  Type element = resultType.getElementType();
  if (!element.isInteger(32) && !element.isInteger(64))
    return {};
  auto outType = llvm::dyn_cast<RankedTensorType>(resultType);
  if (!outType || !outType.hasStaticShape())
    outType = shrink == 1 ? RankedTensorType::get({}, element)
                          : RankedTensorType::get({static_cast<int64_t>(dims.size())}, element);
  if (outType.getNumElements() != static_cast<int64_t>(dims.size()))
    return {};
  SmallVector<APInt> values;
  for (int64_t d : dims)
    values.push_back(APInt(element.getIntOrFloatBitWidth(), d, /*isSigned=*/true));
  return DenseElementsAttr::get(outType, values);
}

/// EnsureShape whose input type always satisfies the `shape` attribute.
OpFoldResult foldEnsureShapeOp(Operation *op, ArrayRef<Attribute>) {
  Value input = op->getOperand(0);
  auto type = llvm::dyn_cast<ShapedType>(input.getType());
  if (!type || !type.hasRank() || input.getType() != op->getResult(0).getType())
    return {};
  auto shapeAttr = llvm::dyn_cast_or_null<tfmlir::tf_type::ShapeAttr>(op->getAttr("shape"));
  if (!shapeAttr || !shapeAttr.hasRank())
    return {};
  ArrayRef<int64_t> constraint = shapeAttr.getShape();
  if (constraint.size() != static_cast<size_t>(type.getRank()))
    return {};
  for (auto [want, have] : llvm::zip(constraint, type.getShape()))
    if (!ShapedType::isDynamic(want) && want != have)
      return {};
  return input;
}
/// Tile with all multiples one -> its input (TF's folder).
OpFoldResult foldTileOp(Operation *op, ArrayRef<Attribute> operands) {
  auto multiples = llvm::dyn_cast_or_null<DenseIntElementsAttr>(operands[1]);
  if (!multiples || !multiples.isSplat() || multiples.getSplatValue<APInt>().getSExtValue() != 1 ||
      op->getOperand(0).getType() != op->getResult(0).getType())
    return {};
  return op->getOperand(0);
}

/// Pow(x, 0) -> ones of a static result type; Pow(x, 1) -> x (TF's folder,
/// splat float exponents).
OpFoldResult foldPowOp(Operation *op, ArrayRef<Attribute> operands) {
  auto y = llvm::dyn_cast_or_null<DenseFPElementsAttr>(operands[1]);
  if (!y || !y.isSplat())
    return {};
  APFloat exponent = y.getSplatValue<APFloat>();
  auto type = llvm::cast<ShapedType>(op->getResult(0).getType());
  if (exponent.isZero() && type.hasStaticShape() && llvm::isa<FloatType>(type.getElementType()))
    return DenseElementsAttr::get(type, FloatAttr::get(type.getElementType(), 1.0));
  if (exponent.isExactlyValue(1.0) && op->getOperand(0).getType() == type)
    return op->getOperand(0);
  return {};
}

/// Range of scalar constants: start, start + delta, ... accumulated in the
/// element type as TF's folder does (at most 2^24 elements are built).
OpFoldResult foldRangeOp(Operation *op, ArrayRef<Attribute> operands) {
  auto start = llvm::dyn_cast_or_null<DenseElementsAttr>(operands[0]);
  auto limit = llvm::dyn_cast_or_null<DenseElementsAttr>(operands[1]);
  auto delta = llvm::dyn_cast_or_null<DenseElementsAttr>(operands[2]);
  if (!start || !limit || !delta || start.getNumElements() != 1 ||
      limit.getNumElements() != 1 || delta.getNumElements() != 1)
    return {};
  Type element = llvm::cast<ShapedType>(op->getResult(0).getType()).getElementType();
  constexpr int64_t kMaxElements = int64_t(1) << 24;
  if (auto intType = llvm::dyn_cast<IntegerType>(element)) {
    if (start.getElementType() != element || limit.getElementType() != element ||
        delta.getElementType() != element)
      return {};
    bool isUnsigned = intType.isUnsigned();
    auto get = [&](DenseElementsAttr a) {
      APInt v = *a.getValues<APInt>().begin();
      return isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue();
    };
    int64_t s = get(start), l = get(limit), d = get(delta);
    if (d == 0 || (d > 0 && s > l) || (d < 0 && s < l))
      return {};
    int64_t n = (std::abs(l - s) + std::abs(d) - 1) / std::abs(d);
    if (n > kMaxElements)
      return {};
    SmallVector<APInt> values;
    APInt v = *start.getValues<APInt>().begin(), step = *delta.getValues<APInt>().begin();
    for (int64_t i = 0; i < n; ++i, v += step)
      values.push_back(v);
    return DenseElementsAttr::get(RankedTensorType::get({n}, element), values);
  }
  if (auto floatType = llvm::dyn_cast<FloatType>(element)) {
    if (start.getElementType() != element || limit.getElementType() != element ||
        delta.getElementType() != element)
      return {};
    APFloat v = *start.getValues<APFloat>().begin(), step = *delta.getValues<APFloat>().begin();
    double s = v.convertToDouble(), l = (*limit.getValues<APFloat>().begin()).convertToDouble(),
           d = step.convertToDouble();
    if (d == 0 || std::isnan(s) || std::isnan(l) || std::isnan(d) || (d > 0 && s > l) ||
        (d < 0 && s < l))
      return {};
    double count = std::ceil(std::abs((l - s) / d));
    if (!(count <= static_cast<double>(kMaxElements)))
      return {};
    int64_t n = static_cast<int64_t>(count);
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < n; ++i, v = v + step)
      values.push_back(v);
    return DenseElementsAttr::get(RankedTensorType::get({n}, element), values);
  }
  return {};
}
} // namespace

//===----------------------------------------------------------------------===//
// Dispatch: the hand-written folder of each generated op, by name.
//===----------------------------------------------------------------------===//

namespace {
using Folder = OpFoldResult (*)(Operation *, ArrayRef<Attribute>);

const llvm::StringMap<Folder> &folderTable() {
  static const llvm::StringMap<Folder> table = [] {
    llvm::StringMap<Folder> t;
    using namespace tfmlir::TF;
    for (auto [name, fn] : std::initializer_list<std::pair<const char *, Folder>>{
             {"Add", foldAddOp}, {"AddV2", foldAddOp}, {"Sub", foldSubOp}, {"Mul", foldMulOp},
             {"Div", foldDivOp}, {"RealDiv", foldDivOp}, {"Maximum", foldMaximumOp},
             {"Minimum", foldMinimumOp}, {"Equal", foldComparisonOp},
             {"NotEqual", foldComparisonOp}, {"Less", foldComparisonOp},
             {"LessEqual", foldComparisonOp}, {"Greater", foldComparisonOp},
             {"GreaterEqual", foldComparisonOp}, {"LogicalAnd", foldLogicalAndOp},
             {"LogicalOr", foldLogicalOp}, {"LogicalNot", foldUnaryOp}, {"Neg", foldUnaryOp},
             {"Abs", foldUnaryOp}, {"Square", foldUnaryOp}, {"Cast", foldCastOp},
             {"Reshape", foldReshapeOp}, {"ExpandDims", foldReshapeOp},
             {"Squeeze", foldReshapeOp}, {"Transpose", foldTransposeOp}, {"Rank", foldRankOp},
             {"Size", foldSizeOp}, {"Select", foldSelectOp}, {"SelectV2", foldSelectOp},
             {"Fill", foldFillOp}, {"ZerosLike", foldZerosOnesLikeOp},
             {"OnesLike", foldZerosOnesLikeOp}, {"Pack", foldPackOp},
             {"ConcatV2", foldConcatV2Op}, {"StridedSlice", foldStridedSliceOp},
             {"VariableShape", foldVariableShapeOp}, {"Empty", foldEmptyOp},
             {"LeakyRelu", foldLeakyReluOp}, {"Pow", foldPowOp}, {"Range", foldRangeOp},
             {"Tile", foldTileOp},
             {"EnsureShape", foldEnsureShapeOp}})
      t[std::string("tf.") + name] = fn;
    return t;
  }();
  return table;
}
} // namespace

namespace {
enum class FoldTrait { Idempotent, Involution };

const llvm::StringMap<FoldTrait> &foldTraitTable() {
  static const llvm::StringMap<FoldTrait> table = [] {
    llvm::StringMap<FoldTrait> t;
#define TFMLIR_IDEMPOTENT_OP(name) t[name] = FoldTrait::Idempotent;
#define TFMLIR_INVOLUTION_OP(name) t[name] = FoldTrait::Involution;
#include "tfmlir/TfFoldTraits.h.inc"
#undef TFMLIR_IDEMPOTENT_OP
#undef TFMLIR_INVOLUTION_OP
    return t;
  }();
  return table;
}

/// TF's IsIdempotent / IsInvolution folds (f(f(x)) -> f(x) / x; binary
/// idempotent ops: f(x, x) -> x), where the value has the op's result type.
OpFoldResult foldByTrait(Operation *op, FoldTrait trait) {
  if (op->getNumOperands() == 0 || op->getNumResults() != 1)
    return {};
  Type resultType = op->getResult(0).getType();
  Value candidate;
  Operation *inner = op->getOperand(0).getDefiningOp();
  if (op->getNumOperands() == 1) {
    if (!inner || inner->getName() != op->getName() || inner->getNumOperands() != 1)
      return {};
    candidate = trait == FoldTrait::Idempotent ? op->getOperand(0) : inner->getOperand(0);
  } else if (trait == FoldTrait::Idempotent && op->getNumOperands() == 2 &&
             op->getOperand(0) == op->getOperand(1)) {
    candidate = op->getOperand(0);
  }
  if (!candidate || candidate.getType() != resultType)
    return {};
  return candidate;
}
} // namespace

OpFoldResult tfmlir::TF::foldTfOp(Operation *op, ArrayRef<Attribute> operands) {
  StringRef name = op->getName().getStringRef();
  const auto &table = folderTable();
  auto it = table.find(name);
  if (it != table.end())
    if (OpFoldResult folded = it->second(op, operands))
      return folded;
  const auto &traits = foldTraitTable();
  auto trait = traits.find(name);
  return trait == traits.end() ? OpFoldResult() : foldByTrait(op, trait->second);
}

void tfmlir::TF::forEachFoldedOp(llvm::function_ref<void(llvm::StringRef)> fn) {
  for (const auto &entry : folderTable())
    fn(entry.getKey());
}
