//===- TfPatternsSimplify.cpp - canonicalization patterns of tf ops -------===//
//
// TensorFlow 2.21's canonicalization patterns of generated tf ops: algebraic
// and shape simplifications (LogicalNot of comparisons, Log of Softmax, Log of
// x + 1, Square of Sub, divisions by square roots, Maximum with zero and Relu
// of Minimum with six, Reshape to its own shape, Pack of one value,
// DivNoNan/MulNoNan by a constant). Each pattern does what TF's does, on the
// same conditions (TF's canonicalize.td and op classes), written with the
// generic Operation API (patterns match root ops by name; new ops are built
// from an OperationState), so this file needs none of the generated op
// classes. Registered by root op name in the table of TfCanonicalize.cpp.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <complex>
#include <functional>

using namespace mlir;
using tfmlir::TF::FnPattern;

namespace {

/// A new op `name` with `operands`, `types` and inherent `attrs`.
Operation *build(PatternRewriter &rw, Location loc, StringRef name, ValueRange operands,
                 TypeRange types, ArrayRef<NamedAttribute> attrs = {}) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttributes(attrs);
  return rw.create(state);
}

Operation *definingOp(Value v, StringRef name) {
  Operation *def = v.getDefiningOp();
  return def && def->getName().getStringRef() == name ? def : nullptr;
}

/// The elements of a constant operand (tf.Const, arith.constant), or null.
ElementsAttr constantElements(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return {};
  return llvm::dyn_cast<ElementsAttr>(attr);
}

/// TF's IsConstantValueOf: a constant whose elements all equal `value`
/// (integer or floating point).
bool isConstantValueOf(Value v, int64_t value) {
  ElementsAttr elements = constantElements(v);
  if (!elements)
    return false;
  auto dense = llvm::dyn_cast<DenseElementsAttr>(elements);
  if (!dense)
    return false;
  Type element = dense.getElementType();
  if (llvm::isa<IntegerType>(element))
    return llvm::all_of(dense.getValues<APInt>(),
                        [&](const APInt &i) { return i.getSExtValue() == value; });
  if (llvm::isa<FloatType>(element))
    return llvm::all_of(dense.getValues<APFloat>(), [&](const APFloat &f) {
      return f.compare(APFloat(f.getSemantics(), value)) == APFloat::cmpEqual;
    });
  return false;
}

/// Replaces `op` (one result) by a new op `name` on `operands` with `op`'s
/// result type, TF's copied attributes and the inherent `attrs`.
LogicalResult replaceWith(Operation *op, PatternRewriter &rw, StringRef name, ValueRange operands,
                          ArrayRef<NamedAttribute> attrs = {}) {
  Operation *replacement = build(rw, op->getLoc(), name, operands, op->getResultTypes(), attrs);
  tfmlir::TF::copyDeviceAndUnderscoredAttributes(op, replacement);
  rw.replaceOp(op, replacement->getResults());
  return success();
}

//===----------------------------------------------------------------------===//
// LogicalNot of a comparison -> the inverse comparison
//===----------------------------------------------------------------------===//

void populateLogicalNot(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.LogicalNot", context, [](Operation *op, PatternRewriter &rw) {
    static const std::pair<StringRef, StringRef> inverse[] = {
        {"tf.Equal", "tf.NotEqual"},   {"tf.NotEqual", "tf.Equal"},
        {"tf.Greater", "tf.LessEqual"}, {"tf.GreaterEqual", "tf.Less"},
        {"tf.Less", "tf.GreaterEqual"}, {"tf.LessEqual", "tf.Greater"}};
    Operation *cmp = op->getOperand(0).getDefiningOp();
    if (!cmp)
      return failure();
    for (auto [from, to] : inverse) {
      if (cmp->getName().getStringRef() != from)
        continue;
      // Equal/NotEqual carry incompatible_shape_error over, its default
      // (true) made explicit as TF's pattern does.
      SmallVector<NamedAttribute> attrs;
      if (from == "tf.Equal" || from == "tf.NotEqual") {
        Attribute shapeError = cmp->getAttr("incompatible_shape_error");
        attrs.emplace_back(rw.getStringAttr("incompatible_shape_error"),
                           shapeError ? shapeError : rw.getBoolAttr(true));
      }
      return replaceWith(op, rw, to, cmp->getOperands(), attrs);
    }
    return failure();
  });
}

//===----------------------------------------------------------------------===//
// Log(Softmax(x)) -> LogSoftmax(x); Log(x + 1.0) -> Log1p(x)
//===----------------------------------------------------------------------===//

void populateLog(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.Log", context, [](Operation *op, PatternRewriter &rw) {
    if (Operation *softmax = definingOp(op->getOperand(0), "tf.Softmax"))
      return replaceWith(op, rw, "tf.LogSoftmax", softmax->getOperand(0));
    Operation *add = definingOp(op->getOperand(0), "tf.AddV2");
    if (!add)
      return failure();
    // TF's RankedF32ElementsAttr<[]> constant of value 1.0: a tf.Const of
    // type tensor<f32>.
    Operation *one = definingOp(add->getOperand(1), "tf.Const");
    auto value = one ? one->getAttrOfType<DenseFPElementsAttr>("value") : DenseFPElementsAttr();
    if (!value || value.getType().getRank() != 0 || !value.getElementType().isF32() ||
        value.getSplatValue<APFloat>().convertToFloat() != 1.0f)
      return failure();
    return replaceWith(op, rw, "tf.Log1p", add->getOperand(0));
  });
}

//===----------------------------------------------------------------------===//
// Square(Sub(x, y)) -> SquaredDifference(x, y)
//===----------------------------------------------------------------------===//

/// TF's TF_NumberTensorNoSmallInt: bf16, complex128, complex64, f16, f32,
/// i32, i64 (refs resolved).
bool isNumberNoSmallInt(Type type) {
  auto tensor = llvm::dyn_cast<TensorType>(type);
  if (!tensor)
    return false;
  Type e = tfmlir::tf_type::dropRefType(tensor.getElementType());
  if (e.isBF16() || e.isF16() || e.isF32() || e.isSignlessInteger(32) || e.isSignlessInteger(64))
    return true;
  auto complex = llvm::dyn_cast<ComplexType>(e);
  return complex && (complex.getElementType().isF32() || complex.getElementType().isF64());
}

void populateSquare(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.Square", context, [](Operation *op, PatternRewriter &rw) {
    Operation *sub = definingOp(op->getOperand(0), "tf.Sub");
    if (!sub || !isNumberNoSmallInt(sub->getOperand(0).getType()) ||
        !isNumberNoSmallInt(sub->getOperand(1).getType()))
      return failure();
    return replaceWith(op, rw, "tf.SquaredDifference", sub->getOperands());
  });
}

//===----------------------------------------------------------------------===//
// x / sqrt(y) -> x * rsqrt(y) (TruncateDiv; Xdivy: MulNoNan(rsqrt(y), x))
//===----------------------------------------------------------------------===//

void populateDivisionBySqrt(RewritePatternSet &results, MLIRContext *context, StringRef root,
                            StringRef product, bool rsqrtFirst) {
  results.add<FnPattern>(root, context, [product = product.str(), rsqrtFirst](
                                            Operation *op, PatternRewriter &rw) {
    Operation *sqrt = definingOp(op->getOperand(1), "tf.Sqrt");
    if (!sqrt)
      return failure();
    Operation *rsqrt = build(rw, op->getLoc(), "tf.Rsqrt", sqrt->getOperand(0),
                             sqrt->getOperand(0).getType());
    tfmlir::TF::copyDeviceAndUnderscoredAttributes(op, rsqrt);
    Value x = op->getOperand(0), r = rsqrt->getResult(0);
    return replaceWith(op, rw, product, rsqrtFirst ? ValueRange{r, x} : ValueRange{x, r});
  });
}

//===----------------------------------------------------------------------===//
// Maximum(x, 0) -> Relu(x); Relu(Minimum(x, 6)) -> Relu6(x)
//===----------------------------------------------------------------------===//

/// TF's IsOnGpuDevice: the op's device parses with device type GPU.
bool isOnGpuDevice(Operation *op) {
  auto device = op->getAttrOfType<StringAttr>("device");
  if (!device)
    return false;
  // The device type of a full or partial TF device name
  // (/job:x/replica:0/task:0/device:GPU:0, /device:GPU:0, /gpu:0).
  SmallVector<StringRef> parts;
  device.getValue().split(parts, '/');
  for (StringRef part : parts) {
    part.consume_front("device:");
    StringRef type = part.split(':').first;
    if (type == "GPU" || type == "gpu")
      return true;
  }
  return false;
}

void populateReluForms(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.Maximum", context, [](Operation *op, PatternRewriter &rw) {
    if (!isConstantValueOf(op->getOperand(1), 0))
      return failure();
    // TF's IsDeviceCompatible: not an i32 Maximum on a GPU device.
    if (isOnGpuDevice(op) && getElementTypeOrSelf(op->getResult(0).getType()).isInteger(32))
      return failure();
    return replaceWith(op, rw, "tf.Relu", op->getOperand(0));
  });
  results.add<FnPattern>("tf.Relu", context, [](Operation *op, PatternRewriter &rw) {
    Operation *minimum = definingOp(op->getOperand(0), "tf.Minimum");
    if (!minimum || !isConstantValueOf(minimum->getOperand(1), 6))
      return failure();
    return replaceWith(op, rw, "tf.Relu6", minimum->getOperand(0));
  });
}

//===----------------------------------------------------------------------===//
// Reshape(x, Shape(x)) -> x; Pack of one static value -> Reshape
//===----------------------------------------------------------------------===//

void populateShapes(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.Reshape", context, [](Operation *op, PatternRewriter &rw) {
    Operation *shape = definingOp(op->getOperand(1), "tf.Shape");
    Value x = op->getOperand(0);
    if (!shape || shape->getOperand(0) != x || x.getType() != op->getResult(0).getType())
      return failure();
    rw.replaceOp(op, x);
    return success();
  });
  results.add<FnPattern>("tf.Pack", context, [](Operation *op, PatternRewriter &rw) {
    if (op->getNumOperands() != 1)
      return failure();
    auto input = llvm::dyn_cast<ShapedType>(op->getOperand(0).getType());
    auto output = llvm::dyn_cast<ShapedType>(op->getResult(0).getType());
    if (!input || !output || !input.hasStaticShape() || !output.hasStaticShape())
      return failure();
    // i32 dimensions when they all fit (XLA's dynamic reshape wants them).
    ArrayRef<int64_t> dims = output.getShape();
    bool fits = llvm::all_of(dims, [](int64_t d) {
      return d >= std::numeric_limits<int32_t>::min() && d <= std::numeric_limits<int32_t>::max();
    });
    auto shapeType =
        RankedTensorType::get({output.getRank()}, rw.getIntegerType(fits ? 32 : 64));
    DenseElementsAttr shapeValue;
    if (fits) {
      SmallVector<int32_t> dims32(dims.begin(), dims.end());
      shapeValue = DenseElementsAttr::get(shapeType, llvm::ArrayRef(dims32));
    } else {
      shapeValue = DenseElementsAttr::get(shapeType, dims);
    }
    Operation *shape = build(rw, op->getLoc(), "tf.Const", {}, shapeType,
                             {rw.getNamedAttr("value", shapeValue)});
    // TF replaces through ReplaceTfOpWithNewOp: the new op takes the Pack's
    // device and underscored attributes.
    return replaceWith(op, rw, "tf.Reshape", {op->getOperand(0), shape->getResult(0)});
  });
}

//===----------------------------------------------------------------------===//
// DivNoNan(x, c) / MulNoNan(x, c) with a constant c
//===----------------------------------------------------------------------===//

/// Whether element `i` of a float or complex constant is zero.
bool allZeroOrNone(ElementsAttr attr, bool &anyZero, bool &anyNonzero) {
  Type element = attr.getElementType();
  anyZero = anyNonzero = false;
  if (llvm::isa<FloatType>(element)) {
    for (const APFloat &v : attr.getValues<APFloat>())
      (v.isZero() ? anyZero : anyNonzero) = true;
    return true;
  }
  if (llvm::isa<ComplexType>(element)) {
    for (const std::complex<APFloat> &v : attr.getValues<std::complex<APFloat>>())
      (v.real().isZero() && v.imag().isZero() ? anyZero : anyNonzero) = true;
    return true;
  }
  return false;
}

void populateNoNan(RewritePatternSet &results, MLIRContext *context, StringRef root,
                   StringRef plain) {
  results.add<FnPattern>(root, context, [plain = plain.str()](Operation *op, PatternRewriter &rw) {
    Value y = op->getOperand(1);
    Operation *def = definingOp(y, "tf.Const");
    auto value = def ? def->getAttrOfType<ElementsAttr>("value") : ElementsAttr();
    if (!value)
      return failure();
    bool anyZero, anyNonzero;
    if (!allZeroOrNone(value, anyZero, anyNonzero))
      return failure();
    if (anyZero && anyNonzero)
      return failure();
    auto dense = llvm::dyn_cast<DenseElementsAttr>(value);
    if (anyZero && dense && dense.isSplat()) {
      // A zero divisor (factor): the result is that zero constant.
      if (y.getType() != op->getResult(0).getType())
        return failure();
      rw.replaceOp(op, y);
      return success();
    }
    if (anyZero)
      return failure();
    return replaceWith(op, rw, plain, op->getOperands());
  });
}

//===----------------------------------------------------------------------===//
// BroadcastGradientArgs of constant shapes -> two constants (TF's folder)
//===----------------------------------------------------------------------===//

SmallVector<int64_t> constantInts(Value v, bool &ok) {
  SmallVector<int64_t> out;
  DenseIntElementsAttr attr;
  ok = matchPattern(v, m_Constant(&attr));
  if (ok)
    for (const APInt &i : attr.getValues<APInt>())
      out.push_back(i.getSExtValue());
  return out;
}

void populateBroadcastGradientArgs(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.BroadcastGradientArgs", context,
                         [](Operation *op, PatternRewriter &rw) {
    bool ok0, ok1;
    SmallVector<int64_t> s0 = constantInts(op->getOperand(0), ok0);
    SmallVector<int64_t> s1 = constantInts(op->getOperand(1), ok1);
    SmallVector<int64_t> shape, r0, r1;
    if (!ok0 || !ok1 || !OpTrait::util::getBroadcastedShape(s0, s1, shape))
      return failure();
    tfmlir::TF::broadcastGradientIndices(shape, s0, s1, r0, r1);
    // Both values first (nothing is built unless both fold).
    SmallVector<DenseElementsAttr> folded;
    for (auto [i, indices] : llvm::enumerate(ArrayRef<SmallVector<int64_t>>{r0, r1})) {
      Type element = getElementTypeOrSelf(op->getOperand(i).getType());
      if (!element.isInteger(32) && !element.isInteger(64))
        return failure();
      auto type = RankedTensorType::get({static_cast<int64_t>(indices.size())}, element);
      if (failed(verifyCompatibleShape(op->getResult(i).getType(), type)))
        return failure();
      SmallVector<APInt> ints;
      for (int64_t v : indices)
        ints.push_back(APInt(element.getIntOrFloatBitWidth(), v, /*isSigned=*/true));
      folded.push_back(DenseElementsAttr::get(type, ints));
    }
    // Constants of the results' types holding the values, as TF's
    // materializer builds for its folder.
    SmallVector<Value> values;
    for (auto [value, result] : llvm::zip(folded, op->getResults()))
      values.push_back(build(rw, op->getLoc(), "tf.Const", {}, result.getType(),
                             {rw.getNamedAttr("value", value)})
                           ->getResult(0));
    rw.replaceOp(op, values);
    return success();
  });
}

//===----------------------------------------------------------------------===//
// ShapeN: static inputs -> constants, one input -> Shape; ConcatOffset of
// constant shapes -> constants (TF's ShapeN patterns and ConcatOffset folder)
//===----------------------------------------------------------------------===//

/// A tf.Const of `resultType` holding `value`.
Value constant(PatternRewriter &rw, Location loc, Type resultType, DenseElementsAttr value) {
  return build(rw, loc, "tf.Const", {}, resultType, {rw.getNamedAttr("value", value)})->getResult(0);
}

/// The 1-D constant of a static type's dimensions, of element width `width`.
DenseElementsAttr shapeConstant(Type type, unsigned width) {
  auto ranked = llvm::dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape())
    return {};
  SmallVector<APInt> dims;
  for (int64_t d : ranked.getShape())
    dims.push_back(APInt(width, d, /*isSigned=*/true));
  auto shapeType = RankedTensorType::get({ranked.getRank()},
                                         IntegerType::get(type.getContext(), width));
  return DenseElementsAttr::get(shapeType, dims);
}

void populateShapeN(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.ShapeN", context, [](Operation *op, PatternRewriter &rw) {
    if (op->getNumOperands() == 0) {
      rw.eraseOp(op);
      return success();
    }
    if (op->getNumOperands() == 1) {
      Operation *shape = build(rw, op->getLoc(), "tf.Shape", op->getOperand(0),
                               op->getResult(0).getType());
      rw.replaceOp(op, shape->getResults());
      return success();
    }
    unsigned width = getElementTypeOrSelf(op->getResult(0).getType()).getIntOrFloatBitWidth();
    SmallVector<Value> values(op->getNumOperands());
    SmallVector<Value> dynamicInputs;
    SmallVector<Type> dynamicTypes;
    SmallVector<unsigned> dynamicIndices;
    SmallVector<DenseElementsAttr> statics(op->getNumOperands());
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      DenseElementsAttr value = shapeConstant(operand.getType(), width);
      // (a result type incompatible with the shape is left to the op)
      if (value && succeeded(verifyCompatibleShape(value.getType(), op->getResult(i).getType()))) {
        statics[i] = value;
      } else {
        dynamicIndices.push_back(i);
        dynamicInputs.push_back(operand);
        dynamicTypes.push_back(op->getResult(i).getType());
      }
    }
    if (dynamicInputs.size() == op->getNumOperands())
      return failure();
    for (auto [i, value] : llvm::enumerate(statics))
      if (value)
        values[i] = constant(rw, op->getLoc(), value.getType(), value);
    if (!dynamicInputs.empty()) {
      Operation *rest = build(rw, op->getLoc(), "tf.ShapeN", dynamicInputs, dynamicTypes);
      for (auto [index, value] : llvm::zip(dynamicIndices, rest->getResults()))
        values[index] = value;
    }
    rw.replaceOp(op, values);
    return success();
  });
}

void populateConcatOffset(RewritePatternSet &results, MLIRContext *context) {
  results.add<FnPattern>("tf.ConcatOffset", context, [](Operation *op, PatternRewriter &rw) {
    if (op->getNumOperands() < 3)
      return failure();
    DenseIntElementsAttr dimAttr;
    if (!matchPattern(op->getOperand(0), m_Constant(&dimAttr)) || dimAttr.getType().getRank() != 0)
      return failure();
    SmallVector<SmallVector<int64_t>> shapes;
    for (Value shape : op->getOperands().drop_front()) {
      DenseIntElementsAttr attr;
      if (!matchPattern(shape, m_Constant(&attr)) || attr.getType().getRank() != 1)
        return failure();
      SmallVector<int64_t> dims;
      for (const APInt &d : attr.getValues<APInt>())
        dims.push_back(d.getSExtValue());
      shapes.push_back(std::move(dims));
    }
    int64_t rank = shapes.front().size();
    int64_t dim = (*dimAttr.getValues<APInt>().begin()).getSExtValue();
    if (dim < 0)
      dim += rank;
    if (dim < 0 || dim >= rank)
      return failure();
    for (const auto &shape : shapes) {
      if (static_cast<int64_t>(shape.size()) != rank)
        return failure();
      for (int64_t i = 0; i < rank; ++i)
        if (i != dim && shape[i] != shapes.front()[i])
          return failure();
    }
    Type element = getElementTypeOrSelf(op->getOperand(1).getType());
    if (!element.isInteger(32) && !element.isInteger(64))
      return failure();
    auto type = RankedTensorType::get({rank}, element);
    if (op->getNumResults() != shapes.size() ||
        llvm::any_of(op->getResultTypes(),
                     [&](Type t) { return failed(verifyCompatibleShape(t, type)); }))
      return failure();
    SmallVector<int64_t> offset(rank, 0);
    SmallVector<Value> values;
    for (auto [shape, result] : llvm::zip(shapes, op->getResults())) {
      SmallVector<APInt> ints;
      for (int64_t v : offset)
        ints.push_back(APInt(element.getIntOrFloatBitWidth(), v, /*isSigned=*/true));
      values.push_back(constant(rw, op->getLoc(), result.getType(), DenseElementsAttr::get(type, ints)));
      offset[dim] += shape[dim];
    }
    rw.replaceOp(op, values);
    return success();
  });
}

} // namespace

void tfmlir::TF::registerSimplificationPatterns(
    llvm::StringMap<llvm::SmallVector<PatternPopulator, 1>> &table) {
  table["tf.LogicalNot"].push_back(populateLogicalNot);
  table["tf.Log"].push_back(populateLog);
  table["tf.Square"].push_back(populateSquare);
  table["tf.TruncateDiv"].push_back([](RewritePatternSet &r, MLIRContext *c) {
    populateDivisionBySqrt(r, c, "tf.TruncateDiv", "tf.Mul", /*rsqrtFirst=*/false);
  });
  table["tf.Xdivy"].push_back([](RewritePatternSet &r, MLIRContext *c) {
    populateDivisionBySqrt(r, c, "tf.Xdivy", "tf.MulNoNan", /*rsqrtFirst=*/true);
  });
  table["tf.Maximum"].push_back(populateReluForms);
  table["tf.Reshape"].push_back(populateShapes);
  table["tf.DivNoNan"].push_back([](RewritePatternSet &r, MLIRContext *c) {
    populateNoNan(r, c, "tf.DivNoNan", "tf.Div");
  });
  table["tf.MulNoNan"].push_back([](RewritePatternSet &r, MLIRContext *c) {
    populateNoNan(r, c, "tf.MulNoNan", "tf.Mul");
  });
  table["tf.BroadcastGradientArgs"].push_back(populateBroadcastGradientArgs);
  table["tf.ShapeN"].push_back(populateShapeN);
  table["tf.ConcatOffset"].push_back(populateConcatOffset);
}
