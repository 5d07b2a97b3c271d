//===- TfInference.cpp - result types of generated tf ops ------------------===//
//
// The InferTypeOpInterface of the generated ops that TensorFlow's own dialect
// infers (scripts/gen_tf_ops.py, INFERENCE: the same-type-as-operand ops,
// Conv2D, ToBool) calls these; it is the verifier's contract (declared result
// types must be cast-compatible with the inferred ones), not the shape
// library: TensorFlow's shape functions live once, in Python (tfmlir.shapes),
// and tests check this interface against them. Unknowns stay dynamic.
// Element types drop ref types, as TF's ops do.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace {
using Shape = std::optional<SmallVector<int64_t>>;

Type elementOf(Value v) {
  return tfmlir::tf_type::dropRefType(tfmlir::tf_type::getElementTypeOrSelf(v.getType()));
}

Shape shapeOf(Value v) {
  if (auto ranked = llvm::dyn_cast<RankedTensorType>(v.getType()))
    return llvm::to_vector(ranked.getShape());
  return std::nullopt;
}

Type tensorOf(const Shape &shape, Type elt) {
  if (shape)
    return RankedTensorType::get(*shape, elt);
  return UnrankedTensorType::get(elt);
}

SmallVector<int64_t> dynamicDims(int64_t rank) {
  return SmallVector<int64_t>(rank, ShapedType::kDynamic);
}

StringRef stringAttr(tfmlir::TF::AttrGetter getAttr, StringRef name, StringRef otherwise) {
  auto attr = llvm::dyn_cast_or_null<StringAttr>(getAttr(name));
  return attr ? attr.getValue() : otherwise;
}

std::optional<SmallVector<int64_t>> intListAttr(tfmlir::TF::AttrGetter getAttr, StringRef name) {
  auto attr = llvm::dyn_cast_or_null<ArrayAttr>(getAttr(name));
  if (!attr)
    return std::nullopt;
  SmallVector<int64_t> out;
  for (Attribute a : attr) {
    auto i = llvm::dyn_cast<IntegerAttr>(a);
    if (!i)
      return std::nullopt;
    out.push_back(i.getInt());
  }
  return out;
}

LogicalResult result(SmallVectorImpl<Type> &inferred, Type type) {
  inferred.push_back(type);
  return success();
}

LogicalResult needOperands(std::optional<Location> loc, ValueRange operands, size_t n) {
  if (operands.size() >= n)
    return success();
  if (loc)
    emitError(*loc) << "expected at least " << n << " operands to infer the result type, got "
                    << operands.size();
  return failure();
}

/// Output size of windowed (convolution/pooling) dimension `dim`, TF's rules;
/// `explicitPads` holds (before, after) per dimension for padding "EXPLICIT".
int64_t windowOutput(int64_t in, int64_t window, int64_t stride, int64_t dilation,
                     StringRef padding, ArrayRef<int64_t> explicitPads, int64_t dim) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(window) || stride <= 0)
    return ShapedType::kDynamic;
  bool padded = static_cast<int64_t>(explicitPads.size()) > 2 * dim + 1;
  int64_t padBefore = padded ? explicitPads[2 * dim] : 0;
  int64_t padAfter = padded ? explicitPads[2 * dim + 1] : 0;
  // Sizes near int64's bounds (strides, dilations, paddings of hostile input) must not
  // overflow into a negative dimension (RankedTensorType asserts on it): unknown instead.
  if (in < 0)
    return ShapedType::kDynamic;
  if (padding == "SAME")
    return in / stride + (in % stride != 0);
  int64_t effective;
  if (__builtin_mul_overflow(window - 1, dilation, &effective) ||
      __builtin_add_overflow(effective, 1, &effective))
    return ShapedType::kDynamic;
  int64_t span = in;
  if (padding == "EXPLICIT" && (__builtin_add_overflow(span, padBefore, &span) ||
                                __builtin_add_overflow(span, padAfter, &span)))
    return ShapedType::kDynamic;
  if (padding != "VALID" && padding != "EXPLICIT")
    return ShapedType::kDynamic;
  int64_t room;
  if (__builtin_sub_overflow(span, effective, &room) || room < 0)
    return ShapedType::kDynamic;
  return room / stride + 1;
}

/// The spatial dimensions of a 4-D NHWC/NCHW layout; false for other formats.
bool spatialDims(StringRef format, int64_t &h, int64_t &w, int64_t &c) {
  if (format == "NHWC") {
    h = 1, w = 2, c = 3;
    return true;
  }
  if (format == "NCHW") {
    c = 1, h = 2, w = 3;
    return true;
  }
  return false;
}
} // namespace

LogicalResult tfmlir::TF::inferSameTypeAsFirstOperand(MLIRContext *, std::optional<Location> loc,
                                                      ValueRange operands, AttrGetter,
                                                      SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 1)))
    return failure();
  Type type = operands[0].getType();
  if (auto tensor = llvm::dyn_cast<TensorType>(type))
    type = tensor.clone(tf_type::dropRefType(tensor.getElementType()));
  return result(inferred, type);
}

LogicalResult tfmlir::TF::inferToBoolOp(MLIRContext *context, std::optional<Location>, ValueRange,
                                        AttrGetter, SmallVectorImpl<Type> &inferred) {
  return result(inferred, RankedTensorType::get({}, IntegerType::get(context, 1)));
}

LogicalResult tfmlir::TF::inferConv2DOp(MLIRContext *, std::optional<Location> loc,
                                        ValueRange operands, AttrGetter getAttr,
                                        SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Type elt = elementOf(operands[0]);
  Shape input = shapeOf(operands[0]), filter = shapeOf(operands[1]);
  int64_t h, w, c;
  if (!spatialDims(stringAttr(getAttr, "data_format", "NHWC"), h, w, c))
    return result(inferred, tensorOf(std::nullopt, elt));
  SmallVector<int64_t> out = dynamicDims(4);
  if (filter && filter->size() == 4)
    out[c] = (*filter)[3];
  if (!input || input->size() != 4)
    return result(inferred, tensorOf(out, elt));
  out[0] = (*input)[0];
  auto strides = intListAttr(getAttr, "strides");
  auto dilations = intListAttr(getAttr, "dilations").value_or(SmallVector<int64_t>(4, 1));
  auto explicitPads = intListAttr(getAttr, "explicit_paddings").value_or(SmallVector<int64_t>());
  StringRef padding = stringAttr(getAttr, "padding", "");
  if (!strides || strides->size() != 4 || dilations.size() != 4 || !filter || filter->size() != 4)
    return result(inferred, tensorOf(out, elt));
  for (auto [dim, k] : {std::pair<int64_t, int64_t>{h, 0}, {w, 1}})
    out[dim] = windowOutput((*input)[dim], (*filter)[k], (*strides)[dim], dilations[dim], padding,
                            explicitPads, dim);
  return result(inferred, tensorOf(out, elt));
}

