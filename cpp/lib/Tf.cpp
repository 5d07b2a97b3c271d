//===- Tf.cpp - the tf dialect (open) and its hand-written ops ------------===//
#include "tfmlir/Tf.h"
#include "tfmlir/TfInterfaces.h"
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <iterator>

using namespace mlir;
using namespace tfmlir;
using namespace tfmlir::TF;

#include "tfmlir/TfDialect.cpp.inc"

void TFDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfmlir/TfOps.cpp.inc"
      >();
  registerGeneratedOps();
  addTFDialectInterfaces(*this);
  // TF's dialect is open: ops of newer TF versions or custom ops may appear.
  allowUnknownOperations();
}

//===----------------------------------------------------------------------===//
// Unknown ops: TF's registry fallback for memory effects
//===----------------------------------------------------------------------===//

namespace {
/// An empty MemoryEffectOpInterface: the op has no memory effects. Returned
/// only for unknown ops of TF's registry that are not stateful, as TF's
/// TensorFlowRegistryEffectInterfaceFallback; other unknown ops get no
/// interface (unknown effects).
struct RegistryStatelessEffects
    : public MemoryEffectOpInterface::FallbackModel<RegistryStatelessEffects> {
  static bool classof(Operation *) { return true; }
  void getEffects(Operation *,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &) const {}
};

const char *const kRegistryStateless[] = {
#include "tfmlir/TfRegistryStateless.h.inc"
};

bool isRegistryStateless(StringRef name) {
  auto *begin = std::begin(kRegistryStateless), *end = std::end(kRegistryStateless);
  auto it = std::lower_bound(begin, end, name,
                             [](const char *entry, StringRef key) { return StringRef(entry) < key; });
  return it != end && StringRef(*it) == name;
}
} // namespace

void *TFDialect::getRegisteredInterfaceForOp(TypeID interface, OperationName opName) {
  if (interface != TypeID::get<MemoryEffectOpInterface>() || opName.isRegistered())
    return nullptr;
  static RegistryStatelessEffects model;
  StringRef name = opName.getStringRef();
  if (!name.consume_front("tf."))
    return nullptr;
  return isRegistryStateless(name) ? &model : nullptr;
}

/// Folded values become tf.Const ops; only values of exactly the folded op's
/// result type are materialized (tf.Const's value and result types match).
Operation *TFDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                          Location loc) {
  auto elements = llvm::dyn_cast<ElementsAttr>(value);
  if (!elements)
    return nullptr;
  if (elements.getType() == type)
    return ConstOp::create(builder, loc, elements);
  // As TF: a constant of the folded op's result type (e.g. unranked) holding
  // a value of a compatible static type.
  auto tensor = llvm::dyn_cast<TensorType>(type);
  ShapedType valueType = elements.getShapedType();
  if (!tensor || tensor.getElementType() != valueType.getElementType() ||
      failed(verifyCompatibleShape(tensor, valueType)))
    return nullptr;
  return ConstOp::create(builder, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// Helpers for derived attributes and verifiers
//===----------------------------------------------------------------------===//

ArrayAttr tfmlir::TF::getElementTypeArray(MLIRContext *ctx, ArrayRef<Type> types) {
  SmallVector<Attribute> attrs;
  for (Type t : types)
    attrs.push_back(TypeAttr::get(tf_type::getElementTypeOrSelf(t)));
  return ArrayAttr::get(ctx, attrs);
}

ArrayAttr tfmlir::TF::getShapeArray(MLIRContext *ctx, ArrayRef<Type> types) {
  SmallVector<Attribute> attrs;
  for (Type t : types)
    attrs.push_back(tf_type::ShapeAttr::get(ctx, t));
  return ArrayAttr::get(ctx, attrs);
}

static TensorType getResourceSubtype(Type type) {
  auto resource = llvm::dyn_cast<tf_type::ResourceType>(tf_type::getElementTypeOrSelf(type));
  if (!resource || resource.getSubtypes().size() != 1)
    return {};
  return resource.getSubtypes().front();
}

Type tfmlir::TF::getResourceSubtypeElementType(Type type) {
  TensorType subtype = getResourceSubtype(type);
  return subtype ? subtype.getElementType() : Type();
}

Attribute tfmlir::TF::getResourceSubtypeShape(Type type) {
  TensorType subtype = getResourceSubtype(type);
  return subtype ? tf_type::ShapeAttr::get(type.getContext(), subtype) : Attribute();
}

/// The element type TF would see: ref types dropped, subtypes erased.
static Type canonicalElementType(Type elt) {
  elt = tf_type::dropRefType(elt);
  if (llvm::isa<tf_type::ResourceType>(elt))
    return tf_type::ResourceType::get(elt.getContext());
  if (llvm::isa<tf_type::VariantType>(elt))
    return tf_type::VariantType::get(elt.getContext());
  return elt;
}

bool tfmlir::TF::areCastCompatible(Type a, Type b) {
  auto ta = llvm::dyn_cast<TensorType>(a);
  auto tb = llvm::dyn_cast<TensorType>(b);
  if (!ta || !tb)
    return a == b;
  if (canonicalElementType(ta.getElementType()) != canonicalElementType(tb.getElementType()))
    return false;
  return succeeded(verifyCompatibleShape(ta, tb));
}

bool tfmlir::TF::areCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [a, b] : llvm::zip_equal(inferred, actual))
    if (!areCastCompatible(a, b))
      return false;
  return true;
}

bool tfmlir::TF::areAnyReturnTypes(TypeRange inferred, TypeRange actual) {
  return inferred.size() == actual.size();
}

bool tfmlir::TF::areElementCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [a, b] : llvm::zip_equal(inferred, actual))
    if (canonicalElementType(tf_type::getElementTypeOrSelf(a)) !=
        canonicalElementType(tf_type::getElementTypeOrSelf(b)))
      return false;
  return true;
}

bool tfmlir::TF::areBroadcastCompatible(Type a, Type b) {
  auto ta = llvm::dyn_cast<TensorType>(a);
  auto tb = llvm::dyn_cast<TensorType>(b);
  if (!ta || !tb)
    return a == b;
  Type ea = tf_type::dropRefType(ta.getElementType());
  Type eb = tf_type::dropRefType(tb.getElementType());
  if (ea != eb) {
    // Resource/variant types: unknown subtypes match any; known ones pairwise.
    auto subtypesOf = [](Type t) -> std::optional<ArrayRef<TensorType>> {
      if (auto r = llvm::dyn_cast<tf_type::ResourceType>(t))
        return r.getSubtypes();
      if (auto v = llvm::dyn_cast<tf_type::VariantType>(t))
        return v.getSubtypes();
      return std::nullopt;
    };
    auto sa = subtypesOf(ea), sb = subtypesOf(eb);
    if (!sa || !sb || ea.getTypeID() != eb.getTypeID())
      return false;
    if (!sa->empty() && !sb->empty())
      for (auto [x, y] : llvm::zip(*sa, *sb))
        if (!areBroadcastCompatible(x, y))
          return false;
  }
  auto ra = llvm::dyn_cast<RankedTensorType>(ta);
  auto rb = llvm::dyn_cast<RankedTensorType>(tb);
  if (!ra || !rb)
    return true;
  SmallVector<int64_t> shape;
  return OpTrait::util::getBroadcastedShape(ra.getShape(), rb.getShape(), shape);
}

//===----------------------------------------------------------------------===//
// Support for the generated ops
//===----------------------------------------------------------------------===//

/// The TF DataType enum value of an element type (0 if none).
static int dataTypeOf(Type elt) {
  elt = tf_type::dropRefType(elt);
  if (auto i = llvm::dyn_cast<IntegerType>(elt)) {
    bool isUnsigned = i.isUnsigned();
    switch (i.getWidth()) {
    case 1: return 10;
    case 2: return isUnsigned ? 32 : 31;
    case 4: return isUnsigned ? 30 : 29;
    case 8: return isUnsigned ? 4 : 6;
    case 16: return isUnsigned ? 17 : 5;
    case 32: return isUnsigned ? 22 : 3;
    case 64: return isUnsigned ? 23 : 9;
    default: return 0;
    }
  }
  if (elt.isF32()) return 1;
  if (elt.isF64()) return 2;
  if (elt.isF16()) return 19;
  if (elt.isBF16()) return 14;
  if (llvm::isa<Float8E5M2Type>(elt)) return 24;
  if (llvm::isa<Float8E4M3FNType>(elt)) return 25;
  if (llvm::isa<Float8E4M3FNUZType>(elt)) return 26;
  if (llvm::isa<Float8E4M3B11FNUZType>(elt)) return 27;
  if (llvm::isa<Float8E5M2FNUZType>(elt)) return 28;
  if (auto c = llvm::dyn_cast<ComplexType>(elt)) {
    if (c.getElementType().isF32()) return 8;
    if (c.getElementType().isF64()) return 18;
    return 0;
  }
  if (llvm::isa<tf_type::StringType>(elt)) return 7;
  if (llvm::isa<tf_type::Qint8Type>(elt)) return 11;
  if (llvm::isa<tf_type::Quint8Type>(elt)) return 12;
  if (llvm::isa<tf_type::Qint32Type>(elt)) return 13;
  if (llvm::isa<tf_type::Qint16Type>(elt)) return 15;
  if (llvm::isa<tf_type::Quint16Type>(elt)) return 16;
  if (llvm::isa<tf_type::ResourceType>(elt)) return 20;
  if (llvm::isa<tf_type::VariantType>(elt)) return 21;
  return 0;
}

bool tfmlir::TF::isTensorOfDTypes(Type type, uint64_t mask) {
  auto tensor = llvm::dyn_cast<TensorType>(type);
  if (!tensor)
    return false;
  int dt = dataTypeOf(tensor.getElementType());
  return dt != 0 && (mask >> dt) & 1;
}

Type tfmlir::TF::firstElementType(TypeRange types, MLIRContext *ctx) {
  if (types.empty())
    return NoneType::get(ctx);
  return tf_type::getElementTypeOrSelf(types.front());
}

Type tfmlir::TF::subtypeElementType(Operation *op) {
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    Type elt = tf_type::getElementTypeOrSelf(t);
    ArrayRef<TensorType> subtypes;
    if (auto r = llvm::dyn_cast<tf_type::ResourceType>(elt))
      subtypes = r.getSubtypes();
    else if (auto v = llvm::dyn_cast<tf_type::VariantType>(elt))
      subtypes = v.getSubtypes();
    else
      continue;
    if (!subtypes.empty())
      return subtypes.front().getElementType();
  }
  if (op->getNumResults())
    return tf_type::getElementTypeOrSelf(op->getResult(0).getType());
  return NoneType::get(op->getContext());
}

/// True if `attr` fits the scalar OpDef attribute kind `kind`.
static bool matchesScalarKind(Attribute attr, StringRef kind) {
  if (llvm::isa<tf_type::PlaceholderAttr>(attr))
    return true;  // bound by the enclosing function's call
  if (kind == "int") return llvm::isa<IntegerAttr>(attr);
  if (kind == "float") return llvm::isa<FloatAttr>(attr);
  if (kind == "bool") return llvm::isa<BoolAttr>(attr);
  if (kind == "string") return llvm::isa<StringAttr>(attr);
  if (kind == "type") return llvm::isa<TypeAttr>(attr);
  if (kind == "shape") return llvm::isa<tf_type::ShapeAttr>(attr);
  if (kind == "func") return llvm::isa<SymbolRefAttr, tf_type::FuncAttr>(attr);
  if (kind == "tensor") return llvm::isa<ElementsAttr>(attr);
  return true;  // kinds TF adds later: accept
}

LogicalResult tfmlir::TF::verifyOpDefAttr(Operation *op, StringRef name, StringRef kind,
                                          bool required, std::optional<int64_t> minimum,
                                          ArrayRef<StringRef> allowed) {
  Attribute attr = op->getAttr(name);
  if (!attr) {
    if (required)
      return op->emitOpError() << "requires attribute '" << name << "'";
    return success();
  }
  if (llvm::isa<tf_type::PlaceholderAttr>(attr))
    return success();
  if (kind.consume_front("list(") && kind.consume_back(")")) {
    auto list = llvm::dyn_cast<ArrayAttr>(attr);
    if (!list)
      return op->emitOpError() << "attribute '" << name << "' must be a list(" << kind
                               << "), got " << attr;
    for (Attribute element : list)
      if (!matchesScalarKind(element, kind))
        return op->emitOpError() << "attribute '" << name << "' must be a list(" << kind
                                 << "), got element " << element;
    if (minimum && static_cast<int64_t>(list.size()) < *minimum)
      return op->emitOpError() << "attribute '" << name << "' must have at least " << *minimum
                               << " elements, got " << list.size();
    return success();
  }
  if (!matchesScalarKind(attr, kind))
    return op->emitOpError() << "attribute '" << name << "' must be a TF '" << kind
                             << "' attribute, got " << attr;
  if (minimum)
    if (auto i = llvm::dyn_cast<IntegerAttr>(attr); i && i.getInt() < *minimum)
      return op->emitOpError() << "attribute '" << name << "' must be at least " << *minimum
                               << ", got " << i.getInt();
  if (!allowed.empty())
    if (auto s = llvm::dyn_cast<StringAttr>(attr); s && !llvm::is_contained(allowed, s.getValue()))
      return op->emitOpError() << "attribute '" << name << "' must be one of "
                               << llvm::join(allowed, ", ") << "; got \"" << s.getValue() << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// Const / Identity / IdentityN
//===----------------------------------------------------------------------===//

LogicalResult ConstOp::inferReturnTypes(MLIRContext *, std::optional<Location> location,
                                        ValueRange, DictionaryAttr attributes,
                                        OpaqueProperties properties, RegionRange,
                                        SmallVectorImpl<Type> &inferred) {
  Attribute value = properties ? properties.as<Properties *>()->value : Attribute();
  if (!value && attributes)
    value = attributes.get("value");
  auto elements = llvm::dyn_cast_or_null<ElementsAttr>(value);
  if (!elements)
    return emitOptionalError(location, "requires an elements attribute 'value'");
  inferred.push_back(elements.getType());
  return success();
}

/// TF's rule: the result type need only be broadcast-compatible with the value's.
bool ConstOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [a, b] : llvm::zip_equal(inferred, actual))
    if (!areBroadcastCompatible(a, b))
      return false;
  return true;
}

/// Always the value, even when its type is not the result's (m_Constant
/// asserts that a ConstantLike op folds): folders read shapes from the
/// attribute, and the materializer builds only constants of exact types.
OpFoldResult ConstOp::fold(FoldAdaptor) { return getValue(); }

void ConstOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "cst");
}

LogicalResult IdentityOp::verify() {
  if (!areCastCompatible(getInput().getType(), getOutput().getType()))
    return emitOpError() << "requires the result type " << getOutput().getType()
                         << " to be compatible with the operand type "
                         << getInput().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Type lists of control flow ops: TF's cast compatibility
//===----------------------------------------------------------------------===//

/// The most refined type both `a` and `b` may be cast to, or null if there is
/// none (TF's rule, stricter than areCastCompatible: ref types are kept and
/// resource subtypes are compared). Non-tensor types must be equal, or both
/// resources (whose subtypes refine pairwise; no subtypes match any) or both
/// variants (always compatible). Tensors refine element types and shapes
/// (equal ranks; a dynamic dimension takes the other's size).
static Type getCastCompatibleType(Type a, Type b) {
  if (a == b)
    return b;
  auto ta = llvm::dyn_cast<TensorType>(a);
  auto tb = llvm::dyn_cast<TensorType>(b);
  if (static_cast<bool>(ta) != static_cast<bool>(tb))
    return {};
  if (!ta) {
    if (a.getTypeID() != b.getTypeID())
      return {};
    if (llvm::isa<tf_type::VariantType>(a))
      return a;
    auto ra = llvm::dyn_cast<tf_type::ResourceType>(a);
    auto rb = llvm::dyn_cast<tf_type::ResourceType>(b);
    if (!ra || !rb)
      return {};
    ArrayRef<TensorType> sa = ra.getSubtypes(), sb = rb.getSubtypes();
    if (sa.empty())
      return b;
    if (sb.empty())
      return a;
    if (sa.size() != sb.size())
      return {};
    SmallVector<TensorType> refined;
    for (auto [x, y] : llvm::zip_equal(sa, sb)) {
      Type r = getCastCompatibleType(x, y);
      if (!r)
        return {};
      refined.push_back(llvm::cast<TensorType>(r));
    }
    return tf_type::ResourceType::get(a.getContext(), refined);
  }
  Type element = getCastCompatibleType(ta.getElementType(), tb.getElementType());
  if (!element)
    return {};
  if (!ta.hasRank() && !tb.hasRank())
    return UnrankedTensorType::get(element);
  if (!ta.hasRank() || !tb.hasRank())
    return RankedTensorType::get((ta.hasRank() ? ta : tb).getShape(), element);
  if (ta.getRank() != tb.getRank())
    return {};
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip_equal(ta.getShape(), tb.getShape())) {
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return {};
    shape.push_back(ShapedType::isDynamic(x) ? y : x);
  }
  return RankedTensorType::get(shape, element);
}

/// True if one type refines all of `types` (folded left to right, as TF).
static bool allCastCompatible(ArrayRef<Type> types) {
  Type common = types.front();
  for (Type t : types.drop_front())
    if (!(common = getCastCompatibleType(common, t)))
      return false;
  return true;
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// TF's VerifyTypeRangesAreCompatible: as many values, pairwise cast
/// compatible; `what0`/`what1` describe the lists in the singular.
static LogicalResult verifyTypeLists(Operation *op, TypeRange types0, StringRef what0,
                                     TypeRange types1, StringRef what1) {
  if (types0.size() != types1.size())
    return op->emitOpError() << what0 << "s (size = " << types0.size()
                             << ") should have the same number of values as " << what1
                             << "s (size = " << types1.size() << ")";
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(types0, types1))) {
    auto [t0, t1] = pair;
    if (!getCastCompatibleType(t0, t1))
      return op->emitOpError() << what0 << " type " << typeString(t0) << " is incompatible with "
                               << what1 << " type " << typeString(t1) << " at index " << i;
  }
  return success();
}

/// The func.func `sym` refers to, as TF looks branches and callees up.
static func::FuncOp lookupFunc(SymbolTableCollection &symbols, Operation *op, Attribute sym) {
  auto ref = llvm::dyn_cast<SymbolRefAttr>(sym);
  if (!ref)
    return {};
  return llvm::dyn_cast_or_null<func::FuncOp>(symbols.lookupNearestSymbolFrom(op, ref));
}

//===----------------------------------------------------------------------===//
// If / While / Case
//===----------------------------------------------------------------------===//

/// The branch functions of If/Case: each takes the op's operands but the
/// first and returns its results (cast compatible), and the branches agree
/// on the type of every argument.
static LogicalResult verifyBranchFunctions(SymbolTableCollection &symbols, Operation *op,
                                           ArrayRef<Attribute> branches,
                                           llvm::function_ref<std::string(size_t)> name) {
  TypeRange inputs = op->getOperands().drop_front().getTypes();
  TypeRange results = op->getResultTypes();
  SmallVector<FunctionType> types;
  for (auto [i, branch] : llvm::enumerate(branches)) {
    func::FuncOp fn = lookupFunc(symbols, op, branch);
    if (!fn)
      return op->emitOpError() << "expects " << name(i) << " (" << branch
                               << ") to point to a defined function";
    FunctionType type = fn.getFunctionType();
    if (failed(verifyTypeLists(op, type.getInputs(), name(i) + " input", inputs, "input")) ||
        failed(verifyTypeLists(op, type.getResults(), name(i) + " result", results, "result")))
      return failure();
    types.push_back(type);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    SmallVector<Type> argTypes;
    for (FunctionType type : types)
      argTypes.push_back(type.getInput(i));
    if (!allCastCompatible(argTypes)) {
      std::string list;
      llvm::raw_string_ostream os(list);
      llvm::interleaveComma(argTypes, os);
      return op->emitOpError() << "expects all branch input type(s) (" << list << ") at index "
                               << i << " to be cast compatible";
    }
  }
  return success();
}

LogicalResult IfOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyBranchFunctions(symbols, *this, {getThenBranchAttr(), getElseBranchAttr()},
                               [](size_t i) -> std::string {
                                 return i == 0 ? "'then_branch'" : "'else_branch'";
                               });
}

/// TF's VerifyWhileTypes: the lists of types a While's values flow between
/// (operands, results, cond arguments, body arguments, body results) are
/// pairwise cast compatible, except operands and body results (never
/// converted into each other), and operands and results when the op is
/// shape invariant.
static LogicalResult verifyWhileTypes(Operation *op, TypeRange condInputs, TypeRange bodyInputs,
                                      TypeRange bodyResults, bool shapeInvariant) {
  TypeRange inputs = op->getOperandTypes(), results = op->getResultTypes();
  std::pair<TypeRange, StringRef> lists[] = {{bodyResults, "body result"},
                                             {condInputs, "condition input"},
                                             {bodyInputs, "body input"}};
  if (!shapeInvariant && failed(verifyTypeLists(op, inputs, "input", results, "result")))
    return failure();
  for (int i = 1; i < 3; ++i)
    if (failed(verifyTypeLists(op, inputs, "input", lists[i].first, lists[i].second)))
      return failure();
  for (int i = 0; i < 3; ++i)
    if (failed(verifyTypeLists(op, results, "result", lists[i].first, lists[i].second)))
      return failure();
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (failed(verifyTypeLists(op, lists[i].first, lists[i].second, lists[j].first,
                                 lists[j].second)))
        return failure();
  return success();
}

LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  func::FuncOp cond = lookupFunc(symbols, *this, getCondAttr());
  func::FuncOp body = lookupFunc(symbols, *this, getBodyAttr());
  if (!cond)
    return emitOpError() << "cond refers to an undefined function : " << getCond();
  if (!body)
    return emitOpError() << "body refers to an undefined function : " << getBody();
  FunctionType condType = cond.getFunctionType(), bodyType = body.getFunctionType();
  if (condType.getNumResults() != 1)
    return emitOpError() << "requires cond function to have exactly one result";
  return verifyWhileTypes(*this, condType.getInputs(), bodyType.getInputs(),
                          bodyType.getResults(), getShapeInvariant());
}

/// A Case's branch index is a scalar (or unranked).
static LogicalResult verifyBranchIndex(Operation *op, Value index) {
  auto ranked = llvm::dyn_cast<RankedTensorType>(index.getType());
  if (ranked && ranked.getRank() != 0)
    return op->emitOpError() << "expects 'branch_index' to be a scalar, but got "
                             << index.getType();
  return success();
}

LogicalResult CaseOp::verify() { return verifyBranchIndex(*this, getBranchIndex()); }

LogicalResult CaseOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyBranchFunctions(symbols, *this, getBranches().getValue(),
                               [](size_t i) { return "branch #" + std::to_string(i); });
}

//===----------------------------------------------------------------------===//
// IfRegion / WhileRegion / CaseRegion / Yield
//===----------------------------------------------------------------------===//

/// The terminator of a region's block, or null if it has none yet (the
/// block's own verification reports that).
static Operation *terminatorOf(Region &region) {
  if (region.empty() || region.front().empty())
    return nullptr;
  Operation &last = region.front().back();
  return last.mightHaveTrait<OpTrait::IsTerminator>() ? &last : nullptr;
}

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (!parent || !llvm::is_contained({StringRef("tf.CaseRegion"), StringRef("tf.IfRegion"),
                                      StringRef("tf.WhileRegion"),
                                      StringRef("tf.GeneratorDatasetRegion")},
                                     parent->getName().getStringRef()))
    return emitOpError() << "expects parent op to be one of 'tf.CaseRegion, tf.IfRegion, "
                            "tf.WhileRegion, tf.GeneratorDatasetRegion'";
  return success();
}

LogicalResult IfRegionOp::verifyRegions() {
  TypeRange results = getResultTypes();
  // The count along each edge back to the op, as the region control flow
  // interface of TF's IfRegion checks it (first, in the wording of the MLIR
  // TF 2.21 is built with).
  Region *regions[] = {&getThenBranch(), &getElseBranch()};
  for (Region *region : regions) {
    Operation *yield = terminatorOf(*region);
    if (yield && yield->getNumOperands() != results.size())
      return emitOpError() << "along control flow edge from Operation " << yield->getName()
                           << " to parent: region branch point has " << yield->getNumOperands()
                           << " operands, but region successor needs " << results.size()
                           << " inputs";
  }
  StringRef whats[] = {"then result", "else result"};
  for (auto [region, what] : llvm::zip_equal(regions, whats))
    if (Operation *yield = terminatorOf(*region))
      if (failed(verifyTypeLists(*this, yield->getOperandTypes(), what, results, "result")))
        return failure();
  return success();
}

LogicalResult CaseRegionOp::verify() {
  if (getBranches().empty())
    return emitOpError() << "expects to have at least 1 region";
  if (failed(verifyBranchIndex(*this, getBranchIndex())))
    return failure();
  for (auto [i, region] : llvm::enumerate(getBranches()))
    if (Operation *yield = terminatorOf(region))
      if (failed(verifyTypeLists(*this, yield->getOperandTypes(),
                                 "branch #" + std::to_string(i) + " result", getResultTypes(),
                                 "result")))
        return failure();
  return success();
}

LogicalResult WhileRegionOp::verify() {
  Operation *condYield = terminatorOf(getCond());
  Operation *bodyYield = terminatorOf(getBody());
  if (!condYield || !bodyYield)
    return success();  // the block verifier reports the missing terminator
  // The cond region yields its predicate, optionally followed by its
  // arguments, unchanged.
  unsigned numCondArgs = getCond().getNumArguments();
  if (condYield->getNumOperands() != 1 && condYield->getNumOperands() != numCondArgs + 1)
    return emitOpError() << "condition should yield a tensor<i1> and forward the arguments";
  auto pred = llvm::dyn_cast<RankedTensorType>(condYield->getOperand(0).getType());
  if (!pred || pred.getRank() != 0 || !pred.getElementType().isInteger(1))
    return emitOpError() << "condition should have a single tensor<i1> result";
  if (failed(verifyWhileTypes(*this, getCond().getArgumentTypes(), getBody().getArgumentTypes(),
                              bodyYield->getOperandTypes(), getShapeInvariant())))
    return failure();
  if (condYield->getNumOperands() > 1)
    for (auto [arg, forwarded] :
         llvm::zip(getCond().getArguments(), condYield->getOperands().drop_front()))
      if (arg != forwarded)
        return emitOpError() << "arguments on condition block aren't forwarded to yield";
  return success();
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// TF checks a call's callee only for existence and the argument count
/// (neither the argument types nor the results).
static LogicalResult verifyCallee(Operation *op, SymbolTableCollection &symbols,
                                  SymbolRefAttr sym, size_t numArgs) {
  auto fn = llvm::dyn_cast_or_null<FunctionOpInterface>(
      symbols.lookupNearestSymbolFrom(op, sym));
  if (!fn)
    return op->emitError() << "'f' attribute refers to an undefined function: " << sym;
  if (fn.getNumArguments() != numArgs)
    return op->emitError() << "argument count mismatch: 'args' has " << numArgs
                           << " arguments, but '" << sym << "' expects " << fn.getNumArguments();
  return success();
}

#define TFMLIR_DEFINE_CALL_INTERFACE(OpT, SymAttrT)                            \
  CallInterfaceCallable OpT::getCallableForCallee() { return getFAttr(); }    \
  void OpT::setCalleeFromCallable(CallInterfaceCallable callee) {             \
    setFAttr(llvm::cast<SymAttrT>(llvm::cast<SymbolRefAttr>(callee)));         \
  }                                                                            \
  Operation::operand_range OpT::getArgOperands() { return getArgs(); }        \
  MutableOperandRange OpT::getArgOperandsMutable() { return getArgsMutable(); }
TFMLIR_DEFINE_CALL_INTERFACE(PartitionedCallOp, SymbolRefAttr)
TFMLIR_DEFINE_CALL_INTERFACE(StatefulPartitionedCallOp, FlatSymbolRefAttr)
TFMLIR_DEFINE_CALL_INTERFACE(LegacyCallOp, FlatSymbolRefAttr)
#undef TFMLIR_DEFINE_CALL_INTERFACE

LogicalResult PartitionedCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyCallee(*this, symbols, getFAttr(), getArgs().size());
}

LogicalResult StatefulPartitionedCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyCallee(*this, symbols, getFAttr(), getArgs().size());
}

/// TF's LegacyCall names its callee without the '@' and counts "argument(s)".
LogicalResult LegacyCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  StringRef name = getF();
  func::FuncOp fn = lookupFunc(symbols, *this, getFAttr());
  if (!fn)
    return emitError() << "'f' attribute refers to an undefined function: " << name;
  unsigned expected = fn.getFunctionType().getNumInputs();
  if (getArgs().size() != expected)
    return emitError() << "argument count mismatch: 'args' has " << getArgs().size()
                       << " argument(s), but '" << name << "' expects " << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// VarHandleOp / _XlaHostComputeMlir
//===----------------------------------------------------------------------===//

/// The dtype and shape attributes come from the handle's one subtype.
LogicalResult VarHandleOp::verify() {
  auto resource =
      llvm::dyn_cast<tf_type::ResourceType>(tf_type::getElementTypeOrSelf(getResource().getType()));
  if (!resource || resource.getSubtypes().size() != 1)
    return emitOpError() << "must have exactly one subtype in the result resource type";
  return success();
}

LogicalResult _XlaHostComputeMlirOp::verify() {
  StringRef text = getHostMlirModule();
  if (text.empty())
    return success();
  // Parsed (and verified) as TF deserializes it, its errors appended to the
  // message ("<file>:<line>:<col>: error: <message>") instead of reported.
  // Only this thread's diagnostics: other functions may be verified
  // concurrently in the same context.
  std::string messages;
  OwningOpRef<ModuleOp> module;
  {
    uint64_t thread = llvm::get_threadid();
    ScopedDiagnosticHandler collect(getContext(), [&](Diagnostic &diag) {
      if (llvm::get_threadid() != thread)
        return failure();
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return success();
      llvm::raw_string_ostream os(messages);
      if (auto file = llvm::dyn_cast<FileLineColLoc>(diag.getLocation()))
        os << file.getFilename().getValue() << ":" << file.getLine() << ":" << file.getColumn();
      else
        os << diag.getLocation();
      os << ": error: " << diag.str();
      return success();
    });
    module = parseSourceString<ModuleOp>(text, ParserConfig(getContext()), "-");
  }
  if (!module)
    return emitError() << "attribute 'host_mlir_module' can not be deserialized. "
                       << "could not parse MLIR module" << messages;
  auto fn = module->lookupSymbol<func::FuncOp>("host_func");
  if (!fn)
    return emitError() << "serialized module in attribute 'host_mlir_module' does not contain "
                          "'host_func' function.";
  FunctionType type = fn.getFunctionType();
  if (getNumOperands() != type.getNumInputs())
    return emitError() << "'host_func' has " << type.getNumInputs()
                       << " inputs and '_XlaHostComputeMlir' has " << getNumOperands()
                       << " operands.  Number of operands/inputs should be the same.";
  if (getNumResults() != type.getNumResults())
    return emitError() << "'host_func' has " << type.getNumResults()
                       << " results and '_XlaHostComputeMlir' has " << getNumResults()
                       << " results.  Number of results should be the same.";
  return success();
}

//===----------------------------------------------------------------------===//
// Shape / VariableShape
//===----------------------------------------------------------------------===//

/// TF's rule for Shape/VariableShape: a ranked result is 1-D and, when
/// static, as long as the operand's rank (unless the operand is a scalar,
/// which TF does not check).
static LogicalResult verifyShapeResult(Operation *op, Type shapedType, Value result) {
  auto resultType = llvm::dyn_cast<RankedTensorType>(result.getType());
  if (!resultType)
    return success();
  if (resultType.getRank() != 1)
    return op->emitOpError() << "requires 1D type for result";
  auto shaped = llvm::dyn_cast_or_null<RankedTensorType>(shapedType);
  if (shaped && resultType.hasStaticShape() && shaped.getRank() != 0 &&
      resultType.getDimSize(0) != shaped.getRank())
    return op->emitOpError() << "requires dimension size of result to match rank of operand";
  return success();
}

LogicalResult ShapeOp::verify() {
  return verifyShapeResult(*this, getInput().getType(), getOutput());
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  return foldShapeOf(getInput().getType(), getOutput().getType());
}

LogicalResult VariableShapeOp::verify() {
  auto input = llvm::cast<TensorType>(getInput().getType());
  if (input.hasStaticShape() && input.getNumElements() != 1)
    return emitOpError() << "requires input to have one resource";
  auto resource = llvm::dyn_cast<tf_type::ResourceType>(input.getElementType());
  if (resource && resource.getSubtypes().size() > 1)
    return emitOpError() << "requires resource input type to have at most 1 subtype";
  TensorType subtype = getResourceSubtype(getInput().getType());
  return verifyShapeResult(*this, subtype ? Type(subtype) : Type(), getOutput());
}

//===----------------------------------------------------------------------===//
// TPU ops
//===----------------------------------------------------------------------===//

void _TPUCompileMlirOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getCompilationStatus(), "compilation_status");
  if (!getProgram().empty())
    setNameFn(getProgram().front(), "program");
}

void _TPUCompileMlirPlaceholderProgramKeyOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getProgram(), "program");
}

/// TF's rule: one index per resource argument, reads >= 0, updates >= -1.
LogicalResult TPUExecuteAndUpdateVariablesOp::verify() {
  int64_t numResources = llvm::count_if(getArgs().getTypes(), [](Type t) {
    return llvm::isa<tf_type::ResourceType>(tf_type::getElementTypeOrSelf(t));
  });
  for (auto [name, min] : {std::pair<StringRef, int64_t>{"device_var_reads_indices", 0},
                           std::pair<StringRef, int64_t>{"device_var_updates_indices", -1}}) {
    auto indices = (*this)->getAttrOfType<ArrayAttr>(name);
    if (!indices)
      continue;
    if (static_cast<int64_t>(indices.size()) != numResources)
      return emitOpError() << "requires '" << name
                           << "' to be the same size as number of resource handles in 'args' ("
                           << numResources << "), but got " << indices.size();
    for (auto [i, a] : llvm::enumerate(indices)) {
      auto value = llvm::dyn_cast<IntegerAttr>(a);
      if (value && value.getInt() < min)
        return emitOpError() << "requires '" << name << "' to contain values of at least " << min
                             << ", but got " << value.getInt() << " at index " << i;
    }
  }
  return success();
}

#define GET_OP_CLASSES
#include "tfmlir/TfOps.cpp.inc"
