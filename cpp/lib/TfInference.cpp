//===- TfInference.cpp - result types of generated tf ops ------------------===//
//
// The InferTypeOpInterface of generated ops (scripts/gen_tf_ops.py,
// INFERENCE) calls these. They follow TF's shape functions where the operands
// tell enough, and leave the rest dynamic (unranked, or `?` dimensions), so
// inference never rejects IR that TF accepts: the declared result types only
// have to be cast-compatible with the inferred ones (areCompatibleReturnTypes).
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

/// The broadcast of two shapes (numpy rules), unknown if either is unknown or
/// they are incompatible (the verifier reports that).
Shape broadcast(const Shape &a, const Shape &b) {
  if (!a || !b)
    return std::nullopt;
  SmallVector<int64_t> out;
  if (!OpTrait::util::getBroadcastedShape(*a, *b, out))
    return std::nullopt;
  return out;
}

/// Merges two descriptions of the same dimension (static wins).
int64_t mergeDim(int64_t a, int64_t b) { return ShapedType::isDynamic(a) ? b : a; }

int64_t intAttr(tfmlir::TF::AttrGetter getAttr, StringRef name, int64_t otherwise) {
  auto attr = llvm::dyn_cast_or_null<IntegerAttr>(getAttr(name));
  return attr ? attr.getInt() : otherwise;
}

bool boolAttr(tfmlir::TF::AttrGetter getAttr, StringRef name) {
  auto attr = llvm::dyn_cast_or_null<BoolAttr>(getAttr(name));
  return attr && attr.getValue();
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
  int64_t effective = (window - 1) * dilation + 1;
  if (padding == "SAME")
    return (in + stride - 1) / stride;
  if (padding == "VALID")
    return in >= effective ? (in - effective + stride) / stride : ShapedType::kDynamic;
  if (padding == "EXPLICIT") {
    int64_t padded = in + padBefore + padAfter;
    return padded >= effective ? (padded - effective) / stride + 1 : ShapedType::kDynamic;
  }
  return ShapedType::kDynamic;
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

LogicalResult tfmlir::TF::inferBroadcastBinaryOp(MLIRContext *, std::optional<Location> loc,
                                                 ValueRange operands, AttrGetter,
                                                 SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  return result(inferred, tensorOf(broadcast(shapeOf(operands[0]), shapeOf(operands[1])),
                                   elementOf(operands[0])));
}

LogicalResult tfmlir::TF::inferBroadcastPredicateOp(MLIRContext *context,
                                                    std::optional<Location> loc,
                                                    ValueRange operands, AttrGetter getAttr,
                                                    SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Shape shape = broadcast(shapeOf(operands[0]), shapeOf(operands[1]));
  // Equal/NotEqual with incompatible_shape_error=false yield a scalar for
  // shapes that do not broadcast.
  auto strict = llvm::dyn_cast_or_null<BoolAttr>(getAttr("incompatible_shape_error"));
  if (strict && !strict.getValue() && shapeOf(operands[0]) && shapeOf(operands[1]) && !shape)
    shape = SmallVector<int64_t>();
  return result(inferred, tensorOf(shape, IntegerType::get(context, 1)));
}

LogicalResult tfmlir::TF::inferMatMulOp(MLIRContext *, std::optional<Location> loc,
                                        ValueRange operands, AttrGetter getAttr,
                                        SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Shape a = shapeOf(operands[0]), b = shapeOf(operands[1]);
  SmallVector<int64_t> out = dynamicDims(2);
  if (a && a->size() == 2)
    out[0] = (*a)[boolAttr(getAttr, "transpose_a") ? 1 : 0];
  if (b && b->size() == 2)
    out[1] = (*b)[boolAttr(getAttr, "transpose_b") ? 0 : 1];
  return result(inferred, tensorOf(out, elementOf(operands[0])));
}

static LogicalResult inferBatchMatMul(std::optional<Location> loc, ValueRange operands,
                                      tfmlir::TF::AttrGetter getAttr,
                                      SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Shape a = shapeOf(operands[0]), b = shapeOf(operands[1]);
  Type elt = elementOf(operands[0]);
  if (!a || !b || a->size() < 2 || b->size() < 2)
    return result(inferred, tensorOf(std::nullopt, elt));
  Shape batch = broadcast(SmallVector<int64_t>(a->begin(), a->end() - 2),
                          SmallVector<int64_t>(b->begin(), b->end() - 2));
  if (!batch)
    return result(inferred, tensorOf(std::nullopt, elt));
  size_t ra = a->size(), rb = b->size();
  batch->push_back(boolAttr(getAttr, "adj_x") ? (*a)[ra - 1] : (*a)[ra - 2]);
  batch->push_back(boolAttr(getAttr, "adj_y") ? (*b)[rb - 2] : (*b)[rb - 1]);
  return result(inferred, tensorOf(batch, elt));
}

LogicalResult tfmlir::TF::inferBatchMatMulOp(MLIRContext *, std::optional<Location> loc,
                                             ValueRange operands, AttrGetter getAttr,
                                             SmallVectorImpl<Type> &inferred) {
  return inferBatchMatMul(loc, operands, getAttr, inferred);
}

LogicalResult tfmlir::TF::inferBatchMatMulV2Op(MLIRContext *, std::optional<Location> loc,
                                               ValueRange operands, AttrGetter getAttr,
                                               SmallVectorImpl<Type> &inferred) {
  return inferBatchMatMul(loc, operands, getAttr, inferred);
}

LogicalResult tfmlir::TF::inferReshapeOp(MLIRContext *, std::optional<Location> loc,
                                         ValueRange operands, AttrGetter,
                                         SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Type elt = elementOf(operands[0]);
  if (auto dims = getConstantInts(operands[1])) {
    SmallVector<int64_t> out;
    int64_t known = 1, unknownAt = -1;
    for (int64_t d : *dims) {
      if (d == -1 && unknownAt < 0) {
        unknownAt = out.size();
        out.push_back(ShapedType::kDynamic);
        continue;
      }
      if (d < 0)
        return result(inferred, tensorOf(std::nullopt, elt));  // the verifier reports it
      known *= d;
      out.push_back(d);
    }
    auto in = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (unknownAt >= 0 && in && in.hasStaticShape() && known > 0 &&
        in.getNumElements() % known == 0)
      out[unknownAt] = in.getNumElements() / known;
    return result(inferred, tensorOf(out, elt));
  }
  auto shapeType = llvm::dyn_cast<RankedTensorType>(operands[1].getType());
  if (shapeType && shapeType.getRank() == 1 && !shapeType.isDynamicDim(0))
    return result(inferred, tensorOf(dynamicDims(shapeType.getDimSize(0)), elt));
  return result(inferred, tensorOf(std::nullopt, elt));
}

LogicalResult tfmlir::TF::inferTransposeOp(MLIRContext *, std::optional<Location> loc,
                                           ValueRange operands, AttrGetter,
                                           SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Type elt = elementOf(operands[0]);
  Shape x = shapeOf(operands[0]);
  if (!x)
    return result(inferred, tensorOf(std::nullopt, elt));
  SmallVector<int64_t> out = dynamicDims(x->size());
  if (auto perm = getConstantInts(operands[1]); perm && perm->size() == x->size())
    for (auto [i, p] : llvm::enumerate(*perm))
      if (p >= 0 && p < static_cast<int64_t>(x->size()))
        out[i] = (*x)[p];
  return result(inferred, tensorOf(out, elt));
}

LogicalResult tfmlir::TF::inferConcatV2Op(MLIRContext *, std::optional<Location> loc,
                                          ValueRange operands, AttrGetter,
                                          SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  ValueRange values = operands.drop_back();
  Type elt = elementOf(values[0]);
  Shape out;
  for (Value v : values)
    if (Shape s = shapeOf(v)) {
      out = dynamicDims(s->size());
      break;
    }
  if (!out)
    return result(inferred, tensorOf(std::nullopt, elt));
  int64_t rank = out->size();
  auto axisValues = getConstantInts(operands.back());
  if (!axisValues || axisValues->size() != 1)
    return result(inferred, tensorOf(out, elt));
  int64_t axis = axisValues->front() < 0 ? axisValues->front() + rank : axisValues->front();
  if (axis < 0 || axis >= rank)
    return result(inferred, tensorOf(out, elt));
  int64_t sum = 0;
  for (Value v : values) {
    Shape s = shapeOf(v);
    if (!s || static_cast<int64_t>(s->size()) != rank) {
      sum = ShapedType::kDynamic;
      continue;
    }
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        (*out)[d] = mergeDim((*out)[d], (*s)[d]);
    if (!ShapedType::isDynamic(sum))
      sum = ShapedType::isDynamic((*s)[axis]) ? ShapedType::kDynamic : sum + (*s)[axis];
  }
  (*out)[axis] = sum;
  return result(inferred, tensorOf(out, elt));
}

LogicalResult tfmlir::TF::inferPackOp(MLIRContext *, std::optional<Location> loc,
                                      ValueRange operands, AttrGetter getAttr,
                                      SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 1)))
    return failure();
  Type elt = elementOf(operands[0]);
  Shape in;
  for (Value v : operands)
    if (Shape s = shapeOf(v)) {
      if (!in)
        in = s;
      else if (in->size() == s->size())
        for (auto [d, o] : llvm::zip_equal(*in, *s))
          d = mergeDim(d, o);
    }
  if (!in)
    return result(inferred, tensorOf(std::nullopt, elt));
  int64_t rank = in->size() + 1;
  int64_t axis = intAttr(getAttr, "axis", 0);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return result(inferred, tensorOf(std::nullopt, elt));
  in->insert(in->begin() + axis, operands.size());
  return result(inferred, tensorOf(in, elt));
}

LogicalResult tfmlir::TF::inferExpandDimsOp(MLIRContext *, std::optional<Location> loc,
                                            ValueRange operands, AttrGetter,
                                            SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Type elt = elementOf(operands[0]);
  Shape in = shapeOf(operands[0]);
  if (!in)
    return result(inferred, tensorOf(std::nullopt, elt));
  int64_t rank = in->size() + 1;
  auto dim = getConstantInts(operands[1]);
  if (!dim || dim->size() != 1)
    return result(inferred, tensorOf(dynamicDims(rank), elt));
  int64_t axis = dim->front() < 0 ? dim->front() + rank : dim->front();
  if (axis < 0 || axis >= rank)
    return result(inferred, tensorOf(dynamicDims(rank), elt));
  in->insert(in->begin() + axis, 1);
  return result(inferred, tensorOf(in, elt));
}

LogicalResult tfmlir::TF::inferSqueezeOp(MLIRContext *, std::optional<Location> loc,
                                         ValueRange operands, AttrGetter getAttr,
                                         SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 1)))
    return failure();
  Type elt = elementOf(operands[0]);
  Shape in = shapeOf(operands[0]);
  if (!in)
    return result(inferred, tensorOf(std::nullopt, elt));
  int64_t rank = in->size();
  auto dims = intListAttr(getAttr, "squeeze_dims").value_or(SmallVector<int64_t>());
  SmallVector<bool> drop(rank, false);
  if (dims.empty()) {
    // Every dimension of size 1; a dynamic one might be 1 too.
    if (llvm::any_of(*in, ShapedType::isDynamic))
      return result(inferred, tensorOf(std::nullopt, elt));
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = (*in)[d] == 1;
  } else {
    for (int64_t d : dims) {
      int64_t a = d < 0 ? d + rank : d;
      if (a < 0 || a >= rank)
        return result(inferred, tensorOf(std::nullopt, elt));
      drop[a] = true;
    }
  }
  SmallVector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d])
      out.push_back((*in)[d]);
  return result(inferred, tensorOf(out, elt));
}

LogicalResult tfmlir::TF::inferSelectOp(MLIRContext *, std::optional<Location> loc,
                                        ValueRange operands, AttrGetter,
                                        SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 3)))
    return failure();
  Shape t = shapeOf(operands[1]), e = shapeOf(operands[2]);
  if (t && e && t->size() == e->size())
    for (auto [a, b] : llvm::zip_equal(*t, *e))
      a = mergeDim(a, b);
  return result(inferred, tensorOf(t ? t : e, elementOf(operands[1])));
}

LogicalResult tfmlir::TF::inferSelectV2Op(MLIRContext *, std::optional<Location> loc,
                                          ValueRange operands, AttrGetter,
                                          SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 3)))
    return failure();
  Shape shape = broadcast(shapeOf(operands[0]),
                          broadcast(shapeOf(operands[1]), shapeOf(operands[2])));
  return result(inferred, tensorOf(shape, elementOf(operands[1])));
}

LogicalResult tfmlir::TF::inferFillOp(MLIRContext *, std::optional<Location> loc,
                                      ValueRange operands, AttrGetter,
                                      SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Type elt = elementOf(operands[1]);
  if (auto dims = getConstantInts(operands[0])) {
    if (llvm::any_of(*dims, [](int64_t d) { return d < 0; }))
      return result(inferred, tensorOf(std::nullopt, elt));
    return result(inferred, tensorOf(*dims, elt));
  }
  auto dimsType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
  if (dimsType && dimsType.getRank() == 1 && !dimsType.isDynamicDim(0))
    return result(inferred, tensorOf(dynamicDims(dimsType.getDimSize(0)), elt));
  return result(inferred, tensorOf(std::nullopt, elt));
}

LogicalResult tfmlir::TF::inferRankOp(MLIRContext *context, std::optional<Location>, ValueRange,
                                      AttrGetter, SmallVectorImpl<Type> &inferred) {
  return result(inferred, RankedTensorType::get({}, IntegerType::get(context, 32)));
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

LogicalResult tfmlir::TF::inferPoolOp(MLIRContext *, std::optional<Location> loc,
                                      ValueRange operands, AttrGetter getAttr,
                                      SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 1)))
    return failure();
  Type elt = elementOf(operands[0]);
  Shape input = shapeOf(operands[0]);
  int64_t h, w, c;
  if (!spatialDims(stringAttr(getAttr, "data_format", "NHWC"), h, w, c) || !input ||
      input->size() != 4)
    return result(inferred, tensorOf(std::nullopt, elt));
  SmallVector<int64_t> out = dynamicDims(4);
  out[0] = (*input)[0];
  out[c] = (*input)[c];
  auto ksize = intListAttr(getAttr, "ksize"), strides = intListAttr(getAttr, "strides");
  auto explicitPads = intListAttr(getAttr, "explicit_paddings").value_or(SmallVector<int64_t>());
  StringRef padding = stringAttr(getAttr, "padding", "");
  if (ksize && strides && ksize->size() == 4 && strides->size() == 4)
    for (int64_t dim : {h, w})
      out[dim] = windowOutput((*input)[dim], (*ksize)[dim], (*strides)[dim], 1, padding,
                              explicitPads, dim);
  return result(inferred, tensorOf(out, elt));
}

LogicalResult tfmlir::TF::inferReductionOp(MLIRContext *, std::optional<Location> loc,
                                           ValueRange operands, AttrGetter getAttr,
                                           SmallVectorImpl<Type> &inferred) {
  if (failed(needOperands(loc, operands, 2)))
    return failure();
  Type elt = elementOf(operands[0]);
  Shape in = shapeOf(operands[0]);
  bool keepDims = boolAttr(getAttr, "keep_dims");
  if (!in)
    return result(inferred, tensorOf(std::nullopt, elt));
  int64_t rank = in->size();
  auto axes = getConstantInts(operands[1]);
  if (!axes)
    return result(inferred, tensorOf(keepDims ? Shape(dynamicDims(rank)) : std::nullopt, elt));
  SmallVector<bool> reduced(rank, false);
  for (int64_t a : *axes) {
    int64_t axis = a < 0 ? a + rank : a;
    if (axis < 0 || axis >= rank)
      return result(inferred, tensorOf(std::nullopt, elt));
    reduced[axis] = true;
  }
  SmallVector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      out.push_back((*in)[d]);
    else if (keepDims)
      out.push_back(1);
  }
  return result(inferred, tensorOf(out, elt));
}
