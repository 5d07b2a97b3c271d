//===- Tf.cpp - the tf dialect (open) and its hand-written ops ------------===//
#include "tfmlir/Tf.h"
#include "tfmlir/TfInterfaces.h"
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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

/// Checks the callee `sym` of `op` against the given argument and result
/// types: it must be a function with matching arity and cast-compatible types.
static LogicalResult verifyCalleeSignature(Operation *op, SymbolTableCollection &symbols,
                                           SymbolRefAttr sym, StringRef what,
                                           TypeRange argTypes,
                                           std::optional<TypeRange> resultTypes) {
  Operation *callee = symbols.lookupNearestSymbolFrom(op, sym);
  if (!callee)
    return op->emitOpError() << "'" << what << "' references an undefined function: " << sym;
  auto fn = llvm::dyn_cast<FunctionOpInterface>(callee);
  if (!fn)
    return op->emitOpError() << "'" << what << "' does not reference a function: " << sym;
  ArrayRef<Type> fnInputs = fn.getArgumentTypes();
  if (fnInputs.size() != argTypes.size())
    return op->emitOpError() << "'" << what << "' " << sym << " takes " << fnInputs.size()
                             << " arguments but " << argTypes.size() << " are passed";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(argTypes, fnInputs))) {
    auto [given, expected] = pair;
    if (!areCastCompatible(given, expected))
      return op->emitOpError() << "'" << what << "' " << sym << " input #" << i << " type "
                               << expected << " is incompatible with operand type " << given;
  }
  if (resultTypes) {
    ArrayRef<Type> fnResults = fn.getResultTypes();
    if (fnResults.size() != resultTypes->size())
      return op->emitOpError() << "'" << what << "' " << sym << " returns " << fnResults.size()
                               << " values but the op has " << resultTypes->size() << " results";
    for (auto [i, pair] : llvm::enumerate(llvm::zip(*resultTypes, fnResults))) {
      auto [given, expected] = pair;
      if (!areCastCompatible(given, expected))
        return op->emitOpError() << "'" << what << "' " << sym << " result #" << i << " type "
                                 << expected << " is incompatible with op result type " << given;
    }
  }
  return success();
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
// If / While / Case
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TypeRange args = getInput().getTypes();
  TypeRange results = getResultTypes();
  if (failed(verifyCalleeSignature(*this, symbols, getThenBranchAttr(), "then_branch",
                                   args, results)) ||
      failed(verifyCalleeSignature(*this, symbols, getElseBranchAttr(), "else_branch",
                                   args, results)))
    return failure();
  return success();
}

LogicalResult WhileOp::verify() {
  if (getNumOperands() != getNumResults())
    return emitOpError() << "requires as many results (" << getNumResults()
                         << ") as operands (" << getNumOperands() << ")";
  return success();
}

LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TypeRange args = getInput().getTypes();
  if (failed(verifyCalleeSignature(*this, symbols, getCondAttr(), "cond", args, std::nullopt)) ||
      failed(verifyCalleeSignature(*this, symbols, getBodyAttr(), "body", args,
                                   TypeRange(getResultTypes()))))
    return failure();
  auto cond = symbols.lookupNearestSymbolFrom<FunctionOpInterface>(*this, getCondAttr());
  if (cond.getResultTypes().size() != 1)
    return emitOpError() << "'cond' " << getCondAttr() << " must return a single value, got "
                         << cond.getResultTypes().size();
  return success();
}

LogicalResult CaseOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TypeRange args = getInput().getTypes();
  TypeRange results = getResultTypes();
  for (auto [i, branch] : llvm::enumerate(getBranches())) {
    auto sym = llvm::dyn_cast<SymbolRefAttr>(branch);
    if (!sym)
      return emitOpError() << "branch #" << i << " is not a symbol reference";
    std::string what = "branches[" + std::to_string(i) + "]";
    if (failed(verifyCalleeSignature(*this, symbols, sym, what, args, results)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// IfRegion / WhileRegion / CaseRegion
//===----------------------------------------------------------------------===//

/// The region must end in tf.Yield whose operand types are compatible with `types`.
static LogicalResult verifyYield(Operation *op, Region &region, StringRef name,
                                 TypeRange types) {
  auto yield = llvm::dyn_cast<YieldOp>(region.front().back());
  if (!yield)
    return op->emitOpError() << name << " must end with tf.Yield";
  if (yield.getNumOperands() != types.size())
    return op->emitOpError() << name << " yields " << yield.getNumOperands()
                             << " values but " << types.size() << " are expected";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(yield.getOperandTypes(), types))) {
    auto [given, expected] = pair;
    if (!areCastCompatible(given, expected))
      return op->emitOpError() << name << " result #" << i << " type " << given
                               << " is incompatible with " << expected;
  }
  return success();
}

LogicalResult IfRegionOp::verify() {
  if (failed(verifyYield(*this, getThenBranch(), "then_branch", getResultTypes())) ||
      failed(verifyYield(*this, getElseBranch(), "else_branch", getResultTypes())))
    return failure();
  return success();
}

LogicalResult CaseRegionOp::verify() {
  if (getBranches().empty())
    return emitOpError() << "expects at least one branch region";
  for (auto [i, region] : llvm::enumerate(getBranches()))
    if (failed(verifyYield(*this, region, "branch #" + std::to_string(i), getResultTypes())))
      return failure();
  return success();
}

LogicalResult WhileRegionOp::verify() {
  TypeRange inputs = getInput().getTypes();
  if (getNumResults() != inputs.size())
    return emitOpError() << "requires as many results (" << getNumResults()
                         << ") as operands (" << inputs.size() << ")";
  for (auto [name, region] : {std::pair<StringRef, Region *>{"cond", &getCond()},
                              std::pair<StringRef, Region *>{"body", &getBody()}}) {
    Block &block = region->front();
    if (block.getNumArguments() != inputs.size())
      return emitOpError() << name << " region has " << block.getNumArguments()
                           << " arguments but " << inputs.size() << " are expected";
    for (auto [i, pair] : llvm::enumerate(llvm::zip(block.getArgumentTypes(), inputs))) {
      auto [arg, in] = pair;
      if (!areCastCompatible(arg, in))
        return emitOpError() << name << " region argument #" << i << " type " << arg
                             << " is incompatible with operand type " << in;
    }
  }
  auto condYield = llvm::dyn_cast<YieldOp>(getCond().front().back());
  if (!condYield || condYield.getNumOperands() < 1)
    return emitOpError() << "cond region must yield a boolean tensor";
  auto pred = llvm::dyn_cast<TensorType>(condYield.getOperand(0).getType());
  if (!pred || !pred.getElementType().isInteger(1))
    return emitOpError() << "cond region must yield a tensor of i1, got "
                         << condYield.getOperand(0).getType();
  return verifyYield(*this, getBody(), "body", getResultTypes());
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
  MutableOperandRange OpT::getArgOperandsMutable() { return getArgsMutable(); } \
  LogicalResult OpT::verifySymbolUses(SymbolTableCollection &symbols) {        \
    return verifyCallee(*this, symbols, getFAttr(), getArgs().size());         \
  }
TFMLIR_DEFINE_CALL_INTERFACE(PartitionedCallOp, SymbolRefAttr)
TFMLIR_DEFINE_CALL_INTERFACE(StatefulPartitionedCallOp, FlatSymbolRefAttr)
TFMLIR_DEFINE_CALL_INTERFACE(LegacyCallOp, FlatSymbolRefAttr)
#undef TFMLIR_DEFINE_CALL_INTERFACE

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
