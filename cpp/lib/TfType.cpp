//===- TfType.cpp - the tf_type dialect -----------------------------------===//
#include "tfmlir/TfType.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tfmlir::tf_type;

#include "tfmlir/TfTypeDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfmlir/TfTypeTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tfmlir/TfTypeAttrs.cpp.inc"

void TFTypeDialect::initialize() {
  registerTypes();
  registerAttributes();
}

void TFTypeDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfmlir/TfTypeTypes.cpp.inc"
      >();
}

void TFTypeDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tfmlir/TfTypeAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Resource / Variant: `resource` or `resource<tensor<..>, tensor<..>>`.
//===----------------------------------------------------------------------===//

static void printSubtypes(AsmPrinter &printer, ArrayRef<TensorType> subtypes) {
  if (subtypes.empty())
    return;
  printer << '<';
  llvm::interleaveComma(subtypes, printer);
  printer << '>';
}

/// Parses the optional `<tensor<..>, ...>` suffix of resource/variant types.
static LogicalResult parseSubtypes(AsmParser &parser, StringRef kind,
                                   SmallVectorImpl<TensorType> &subtypes) {
  if (failed(parser.parseOptionalLess()))
    return success();
  do {
    Type t;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseType(t))
      return failure();
    auto tensor = llvm::dyn_cast<TensorType>(t);
    if (!tensor)
      return parser.emitError(loc)
             << kind << " subtype must be a tensor type, got " << t;
    subtypes.push_back(tensor);
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseGreater();
}

Type ResourceType::parse(AsmParser &parser) {
  SmallVector<TensorType> subtypes;
  if (failed(parseSubtypes(parser, "resource", subtypes)))
    return Type();
  return ResourceType::get(parser.getContext(), subtypes);
}

void ResourceType::print(AsmPrinter &printer) const {
  printSubtypes(printer, getSubtypes());
}

Type VariantType::parse(AsmParser &parser) {
  SmallVector<TensorType> subtypes;
  if (failed(parseSubtypes(parser, "variant", subtypes)))
    return Type();
  return VariantType::get(parser.getContext(), subtypes);
}

void VariantType::print(AsmPrinter &printer) const {
  printSubtypes(printer, getSubtypes());
}

//===----------------------------------------------------------------------===//
// ShapeAttr: `<>`, `<*>`, `<2x?x3>`.
//===----------------------------------------------------------------------===//

std::optional<ArrayRef<int64_t>> ShapeAttr::getValue() const {
  if (getUnranked())
    return std::nullopt;
  return getShape();
}

int64_t ShapeAttr::getRank() const {
  assert(hasRank() && "rank of an unranked shape");
  return getShape().size();
}

bool ShapeAttr::hasStaticShape() const {
  return hasRank() && llvm::none_of(getShape(), ShapedType::isDynamic);
}

ShapeAttr ShapeAttr::get(MLIRContext *context,
                         std::optional<ArrayRef<int64_t>> shape) {
  if (shape)
    return Base::get(context, *shape, /*unranked=*/false);
  return Base::get(context, ArrayRef<int64_t>(), /*unranked=*/true);
}

ShapeAttr ShapeAttr::get(MLIRContext *context, Type type) {
  if (auto shaped = llvm::dyn_cast<ShapedType>(type); shaped && shaped.hasRank())
    return get(context, std::optional<ArrayRef<int64_t>>(shaped.getShape()));
  return get(context, std::nullopt);
}

Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalStar())) {
    if (parser.parseGreater())
      return {};
    return ShapeAttr::get(parser.getContext(), std::nullopt);
  }
  SmallVector<int64_t> dims;
  if (succeeded(parser.parseOptionalGreater()))
    return ShapeAttr::get(parser.getContext(), ArrayRef<int64_t>(dims));
  // `2x?x3`: the builtin dimension-list grammar (also handles `0x5`, which a
  // plain integer parse would read as hexadecimal).
  SMLoc loc = parser.getCurrentLocation();
  // Check the raw text first for clearer messages than the generic grammar's.
  if (const char *p = loc.getPointer()) {
    for (; *p && *p != '>' && *p != '\n'; ++p) {
      if (*p == '-') {
        parser.emitError(loc, "negative dimension in #tf_type.shape");
        return {};
      }
      if (!llvm::isDigit(*p) && *p != 'x' && *p != '?' && *p != ' ') {
        parser.emitError(loc, "expected a dimension (integer or '?') in #tf_type.shape");
        return {};
      }
    }
    if (p != loc.getPointer() && p[-1] == 'x') {
      parser.emitError(loc, "expected a dimension (integer or '?') in #tf_type.shape");
      return {};
    }
  }
  if (parser.parseDimensionList(dims, /*allowDynamic=*/true, /*withTrailingX=*/false) ||
      parser.parseGreater())
    return {};
  return ShapeAttr::get(parser.getContext(), ArrayRef<int64_t>(dims));
}

void ShapeAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (getUnranked()) {
    printer << '*';
  } else {
    llvm::interleave(
        getShape(), printer,
        [&](int64_t dim) {
          if (ShapedType::isDynamic(dim))
            printer << '?';
          else
            printer << dim;
        },
        "x");
  }
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TensorProtoAttr: `tensor_proto : "0x<hex>"`, its shaped type after the `>`.
//===----------------------------------------------------------------------===//

Attribute TensorProtoAttr::parse(AsmParser &parser, Type type) {
  if (parser.parseColon())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  std::string data;
  if (parser.parseString(&data))
    return {};
  StringRef hex(data);
  if (!hex.consume_front("0x")) {
    parser.emitError(loc, "tensor_proto value must be a hex string starting with `0x`");
    return {};
  }
  // TensorFlow prints two upper-case digits per byte; both cases are read.
  std::string bytes;
  if (hex.size() % 2 != 0 || !llvm::all_of(hex, llvm::isHexDigit) ||
      !llvm::tryGetFromHex(hex, bytes)) {
    parser.emitError(loc, "tensor_proto value is not an even number of hex digits after `0x`");
    return {};
  }
  auto shaped = llvm::dyn_cast_or_null<ShapedType>(type);
  if (!shaped) {
    InFlightDiagnostic diag = parser.emitError(
        parser.getNameLoc(), "#tf_type tensor_proto needs a shaped type (`: tensor<...>`)");
    if (type)
      diag << ", got " << type;
    return {};
  }
  // A TensorProto always has a fully defined shape; a dynamic one would make
  // ElementsAttr::getNumElements() assert.
  if (!shaped.hasStaticShape()) {
    parser.emitError(parser.getNameLoc(),
                     "#tf_type tensor_proto needs a statically shaped type, got ")
        << shaped;
    return {};
  }
  return TensorProtoAttr::get(shaped, bytes);
}

void TensorProtoAttr::print(AsmPrinter &printer) const {
  printer << " : \"0x" << llvm::toHex(getValue(), /*LowerCase=*/false) << "\"";
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace tfmlir {
namespace tf_type {

bool isTFType(Type type) {
  return llvm::isa<TFTypeDialect>(type.getDialect());
}

bool isRefType(Type type) {
  return llvm::isa<
      FloatRefType, DoubleRefType, Uint4RefType, Int4RefType, Uint8RefType,
      Int8RefType, Uint16RefType, Int16RefType, Uint32RefType, Int32RefType,
      Uint64RefType, Int64RefType, StringRefType, BoolRefType, Quint8RefType,
      Qint8RefType, Quint16RefType, Qint16RefType, Qint32RefType,
      Bfloat16RefType, Complex64RefType, Complex128RefType, HalfRefType,
      ResourceRefType, Float8E4M3FNRefType, Float8E5M2RefType,
      Float8E4M3FNUZRefType, Float8E4M3B11FNUZRefType, Float8E5M2FNUZRefType,
      VariantRefType>(type);
}

Type dropRefType(Type type) {
  MLIRContext *ctx = type.getContext();
  Builder b(ctx);
  return llvm::TypeSwitch<Type, Type>(type)
      .Case<FloatRefType>([&](auto) { return b.getF32Type(); })
      .Case<DoubleRefType>([&](auto) { return b.getF64Type(); })
      .Case<Uint4RefType>([&](auto) { return b.getIntegerType(4, false); })
      .Case<Int4RefType>([&](auto) { return b.getIntegerType(4); })
      .Case<Uint8RefType>([&](auto) { return b.getIntegerType(8, false); })
      .Case<Int8RefType>([&](auto) { return b.getIntegerType(8); })
      .Case<Uint16RefType>([&](auto) { return b.getIntegerType(16, false); })
      .Case<Int16RefType>([&](auto) { return b.getIntegerType(16); })
      .Case<Uint32RefType>([&](auto) { return b.getIntegerType(32, false); })
      .Case<Int32RefType>([&](auto) { return b.getIntegerType(32); })
      .Case<Uint64RefType>([&](auto) { return b.getIntegerType(64, false); })
      .Case<Int64RefType>([&](auto) { return b.getIntegerType(64); })
      .Case<StringRefType>([&](auto) { return StringType::get(ctx); })
      .Case<BoolRefType>([&](auto) { return b.getI1Type(); })
      .Case<Quint8RefType>([&](auto) { return Quint8Type::get(ctx); })
      .Case<Qint8RefType>([&](auto) { return Qint8Type::get(ctx); })
      .Case<Quint16RefType>([&](auto) { return Quint16Type::get(ctx); })
      .Case<Qint16RefType>([&](auto) { return Qint16Type::get(ctx); })
      .Case<Qint32RefType>([&](auto) { return Qint32Type::get(ctx); })
      .Case<Bfloat16RefType>([&](auto) { return b.getBF16Type(); })
      .Case<Complex64RefType>([&](auto) { return ComplexType::get(b.getF32Type()); })
      .Case<Complex128RefType>([&](auto) { return ComplexType::get(b.getF64Type()); })
      .Case<HalfRefType>([&](auto) { return b.getF16Type(); })
      .Case<ResourceRefType>([&](auto) { return ResourceType::get(ctx); })
      .Case<Float8E4M3FNRefType>([&](auto) { return b.getType<Float8E4M3FNType>(); })
      .Case<Float8E5M2RefType>([&](auto) { return b.getType<Float8E5M2Type>(); })
      .Case<Float8E4M3FNUZRefType>([&](auto) { return b.getType<Float8E4M3FNUZType>(); })
      .Case<Float8E4M3B11FNUZRefType>([&](auto) { return b.getType<Float8E4M3B11FNUZType>(); })
      .Case<Float8E5M2FNUZRefType>([&](auto) { return b.getType<Float8E5M2FNUZType>(); })
      .Case<VariantRefType>([&](auto) { return VariantType::get(ctx); })
      .Default([&](Type t) { return t; });
}

Type getElementTypeOrSelf(Type type) {
  if (auto shaped = llvm::dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

} // namespace tf_type
} // namespace tfmlir
