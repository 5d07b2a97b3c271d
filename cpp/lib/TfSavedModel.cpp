//===- TfSavedModel.cpp - the tf_saved_model dialect ----------------------===//
//
// The ops and the dialect's attribute verifiers. A module carrying
// `tf_saved_model.semantics` is checked as TF 2.21 checks it (rules, order
// and wording): exported names, exported/private functions, the argument and
// result attributes of exported functions, bound inputs, the session
// initializer and internal references to exported functions.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfSavedModel.h"
#include "tfmlir/TfType.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tfmlir::tf_saved_model;

#include "tfmlir/TfSavedModelDialect.cpp.inc"

namespace {
constexpr llvm::StringLiteral kSemantics = "tf_saved_model.semantics";
constexpr llvm::StringLiteral kUnderConstruction = "tf_saved_model.under_construction";
constexpr llvm::StringLiteral kExportedNames = "tf_saved_model.exported_names";
constexpr llvm::StringLiteral kIndexPath = "tf_saved_model.index_path";
constexpr llvm::StringLiteral kBoundInput = "tf_saved_model.bound_input";
constexpr llvm::StringLiteral kInitializerType = "tf_saved_model.initializer_type";
constexpr llvm::StringLiteral kResourceName = "tf.resource_name";
} // namespace

void TfSavedModelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfmlir/TfSavedModelOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The exported names of `op` (none when the attribute is absent or not an
/// array of strings).
static SmallVector<StringRef, 2> exportedNames(Operation *op) {
  SmallVector<StringRef, 2> names;
  if (auto array = op->getAttrOfType<ArrayAttr>(kExportedNames))
    for (Attribute name : array)
      if (auto str = llvm::dyn_cast<StringAttr>(name))
        names.push_back(str.getValue());
  return names;
}

static bool isExported(Operation *op) {
  auto array = op->getAttrOfType<ArrayAttr>(kExportedNames);
  return array && !array.empty();
}

/// The name of a session initializer entry; empty for a nested reference
/// (which names no function of the module).
static StringRef initializerName(Attribute ref) {
  if (auto flat = llvm::dyn_cast<FlatSymbolRefAttr>(ref))
    return flat.getValue();
  return {};
}

/// The function `name` of `module` (a linear lookup: the module's symbol
/// table is verified, for unique names, only after its attributes are).
static func::FuncOp lookupFunc(ModuleOp module, StringRef name) {
  if (name.empty())
    return {};
  return llvm::dyn_cast_or_null<func::FuncOp>(SymbolTable::lookupSymbolIn(module, name));
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult GlobalTensorOp::verify() {
  auto type = llvm::dyn_cast<TensorType>(getType());
  if (std::optional<ElementsAttr> value = getValue()) {
    auto valueType = llvm::dyn_cast<TensorType>(value->getType());
    // Compatible shapes; TF does not compare the element types.
    if (!type || !valueType || failed(verifyCompatibleShape(type, valueType)))
      return emitError() << "'type' and 'value' attributes should have compatible tensor types";
  }
  if (!getIsMutable() && !(type && type.hasStaticShape()))
    return emitError() << "'type' attribute for immutable 'tf_saved_model.global_tensor' "
                          "should have a static shape";
  return success();
}

LogicalResult SessionInitializerOp::verify() {
  auto module = (*this)->getParentOfType<ModuleOp>();
  if (!module)
    return success();
  for (Attribute ref : getInitializers()) {
    func::FuncOp init = lookupFunc(module, initializerName(ref));
    if (!init)
      return emitOpError() << "the initializer function does not exist";
    if (init.getFunctionType().getNumResults() != 0)
      return emitOpError() << "the initializer function should have no output";
    SmallVector<StringRef, 2> names = exportedNames(init);
    if (names.empty())
      return emitOpError() << "the initializer function should be exported";
    if (names.size() != 1)
      return emitOpError() << "the initializer function should have only one exported names";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Argument and result attributes
//===----------------------------------------------------------------------===//

static LogicalResult verifyIndexPath(Operation *op, NamedAttribute attr) {
  auto path = llvm::dyn_cast<ArrayAttr>(attr.getValue());
  if (!path)
    return op->emitError() << "'" << kIndexPath << "' attribute should be an ArrayAttr";
  for (Attribute element : path) {
    if (llvm::isa<StringAttr>(element))
      continue;
    if (auto integer = llvm::dyn_cast<IntegerAttr>(element);
        integer && integer.getValue().getBitWidth() == 64)
      continue;
    return op->emitError() << "'" << kIndexPath
                           << "' elements should be strings or 64-bit integers";
  }
  return success();
}

/// The type an argument bound to `symbol` must have: a scalar resource of the
/// global tensor's type, or a scalar string for an asset; null (with an
/// error) for any other symbol.
static Type boundInputType(Operation *symbol) {
  MLIRContext *ctx = symbol->getContext();
  if (auto global = llvm::dyn_cast<GlobalTensorOp>(symbol)) {
    auto type = llvm::dyn_cast<TensorType>(global.getType());
    if (!type) {
      symbol->emitError() << "'type' of a bound 'tf_saved_model.global_tensor' "
                             "should be a tensor type";
      return {};
    }
    return RankedTensorType::get({}, tfmlir::tf_type::ResourceType::get(ctx, {type}));
  }
  if (llvm::isa<AssetOp>(symbol))
    return RankedTensorType::get({}, tfmlir::tf_type::StringType::get(ctx));
  symbol->emitError() << "unknown symbol operation";
  return {};
}

LogicalResult TfSavedModelDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                            unsigned argIndex,
                                                            NamedAttribute attr) {
  if (attr.getName() == kBoundInput) {
    auto ref = llvm::dyn_cast<FlatSymbolRefAttr>(attr.getValue());
    if (!ref)
      return op->emitError() << "'" << kBoundInput << "' attribute should be a FlatSymbolRefAttr";
    auto module = op->getParentOfType<ModuleOp>();
    Operation *symbol = module ? module.lookupSymbol(ref.getValue()) : nullptr;
    if (!symbol)
      return op->emitError() << "'" << kBoundInput
                             << "' attribute must reference a valid symbol, got invalid symbol '"
                             << ref.getValue() << "'";
    Type expected = boundInputType(symbol);
    if (!expected)
      return failure();
    auto fn = llvm::dyn_cast<FunctionOpInterface>(op);
    if (!fn || argIndex >= fn.getNumArguments())
      return op->emitError() << "'" << kBoundInput << "' must be on a function argument";
    Type argType = fn.getArgumentTypes()[argIndex];
    if (argType != expected)
      return op->emitError() << "bound input with type " << argType
                             << " expected to have type " << expected;
    return success();
  }
  if (attr.getName() == kIndexPath)
    return verifyIndexPath(op, attr);
  return op->emitError() << "unknown tf_saved_model dialect arg attribute '"
                         << attr.getName().getValue() << "'";
}

LogicalResult TfSavedModelDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                               unsigned,
                                                               NamedAttribute attr) {
  if (attr.getName() == kIndexPath)
    return verifyIndexPath(op, attr);
  return op->emitError() << "unknown tf_saved_model dialect result attribute '"
                         << attr.getName().getValue() << "'";
}

//===----------------------------------------------------------------------===//
// Operation attributes
//===----------------------------------------------------------------------===//

/// The arguments and results of an exported function: index paths first,
/// then bound inputs (or `tf.resource_name` while under construction); every
/// result has an index path; no global bound twice.
static LogicalResult verifyExportedFunc(func::FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  bool underConstruction = module && module->hasAttr(kUnderConstruction);
  bool reachedBoundInputs = false;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    if (func.getArgAttr(i, kBoundInput)) {
      reachedBoundInputs = true;
      continue;
    }
    if (func.getArgAttr(i, kIndexPath)) {
      if (reachedBoundInputs)
        return func.emitError() << "all '" << kIndexPath
                                << "' arg attributes should precede all '" << kBoundInput
                                << "' arg attributes";
      continue;
    }
    if (func.getArgAttr(i, kResourceName)) {
      if (underConstruction)
        continue;
      return func.emitError() << "'" << kResourceName
                              << "' attribute is not allowed unless it is being under construction";
    }
    return func.emitError() << "all arguments should have '" << kIndexPath << "', '"
                            << kBoundInput << "' or '" << kResourceName << "' attributes";
  }
  llvm::SmallDenseSet<StringRef, 8> bound;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto ref = func.getArgAttrOfType<FlatSymbolRefAttr>(i, kBoundInput);
    if (ref && !bound.insert(ref.getValue()).second && !underConstruction)
      return func.emitError() << "duplicate '" << kBoundInput << "' binding";
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (!func.getResultAttr(i, kIndexPath))
      return func.emitError() << "all results should have '" << kIndexPath << "' attributes";
  return success();
}

static LogicalResult verifyExportedNamesAttr(Operation *op, Attribute value) {
  if (!llvm::isa<func::FuncOp, GlobalTensorOp>(op))
    return op->emitError() << "'" << kExportedNames
                           << "' must be on a 'func' or 'tf_saved_model.global_tensor' op";
  auto array = llvm::dyn_cast<ArrayAttr>(value);
  if (!array || !llvm::all_of(array, [](Attribute a) { return llvm::isa<StringAttr>(a); }))
    return op->emitError() << "'" << kExportedNames << "' must be an array of strings";
  Operation *parent = op->getParentOp();
  if (!parent || !parent->hasAttr(kSemantics))
    return op->emitError() << "'" << kExportedNames
                           << "' must be on an op whose immediate parent has attribute '"
                           << kSemantics << "'";
  if (auto func = llvm::dyn_cast<func::FuncOp>(op))
    return verifyExportedFunc(func);
  return success();
}

static LogicalResult verifyInitializerTypeAttr(Operation *op, Attribute value) {
  if (!llvm::isa<func::FuncOp>(op))
    return op->emitError() << "Attribute " << kInitializerType
                           << " should be on a func::FuncOp.";
  auto type = llvm::dyn_cast_or_null<StringAttr>(value);
  if (!type)
    return op->emitError() << "Attribute " << kInitializerType << " should be a StringAttr.";
  if (type.getValue() != "restore_op" && type.getValue() != "init_op")
    return op->emitError() << kInitializerType
                           << " should be one of 'restore_op' or 'init_op'. Got: "
                           << type.getValue();
  return success();
}

static bool hasSavedModelArgOrResultAttr(func::FuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, kIndexPath) || func.getArgAttr(i, kBoundInput))
      return true;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (func.getResultAttr(i, kIndexPath) || func.getResultAttr(i, kBoundInput))
      return true;
  return false;
}

/// The module-wide rules of a module with `tf_saved_model.semantics`.
static LogicalResult verifySavedModelModule(ModuleOp module) {
  // Exported names are unique across the module.
  llvm::DenseMap<StringRef, Operation *> exportedBy;
  for (Operation &op : *module.getBody()) {
    Attribute names = op.getAttr(kExportedNames);
    if (!names)
      continue;
    // The attribute itself may not have been verified yet.
    if (failed(verifyExportedNamesAttr(&op, names)))
      return failure();
    for (Attribute name : llvm::cast<ArrayAttr>(names)) {
      StringRef str = llvm::cast<StringAttr>(name).getValue();
      auto [it, inserted] = exportedBy.try_emplace(str, &op);
      if (!inserted) {
        InFlightDiagnostic diag = op.emitError() << "duplicate exported name '" << str << "'";
        diag.attachNote(it->second->getLoc()) << "previously seen here";
        return diag;
      }
    }
  }
  // Exported functions are public, the others private; only exported ones
  // carry tf_saved_model argument/result attributes.
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    bool exported = isExported(func);
    if (exported && !func.isPublic())
      return func.emitError() << "exported function @" << func.getName() << " should be public";
    if (!exported && func.isPublic())
      return func.emitError() << "non-exported function @" << func.getName()
                              << " should be private";
    if (!exported && hasSavedModelArgOrResultAttr(func))
      return func.emitError()
             << "can only apply 'tf_saved_model' argument attributes to exported functions";
  }

  auto initializers = module.getOps<SessionInitializerOp>();
  SessionInitializerOp sessionInit;
  if (!initializers.empty()) {
    if (!llvm::hasSingleElement(initializers))
      return (*std::next(initializers.begin())).emitError()
             << "there must be no more than one session_initializer op";
    sessionInit = *initializers.begin();
    // No two initializers of the same type.
    llvm::SmallDenseSet<StringAttr> seenTypes;
    if (ArrayAttr refs = sessionInit.getInitializersAttr()) {
      for (Attribute ref : refs) {
        func::FuncOp init = lookupFunc(module, initializerName(ref));
        if (!init)
          continue;
        auto type = init->getAttrOfType<StringAttr>(kInitializerType);
        if (type && !seenTypes.insert(type).second)
          return init.emitError() << "Attribute " << kInitializerType
                                  << " should not have duplicate values. Found duplicate: "
                                  << type;
      }
    }
  }
  auto isInitializer = [&](func::FuncOp func) {
    ArrayAttr refs = sessionInit ? sessionInit.getInitializersAttr() : ArrayAttr();
    return refs && llvm::any_of(refs, [&](Attribute ref) {
             return initializerName(ref) == func.getName();
           });
  };

  // Exported functions are entry points: nothing in the module references
  // them but the session initializer (for its initializer functions).
  std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!uses)
    return module.emitError() << "modules with '" << kSemantics
                              << "' must have analyzable symbol uses";
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto func = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(use.getUser(),
                                                                   use.getSymbolRef());
    if (!func || !isExported(func))
      continue;
    if (isInitializer(func) && llvm::isa<SessionInitializerOp>(use.getUser()))
      continue;
    InFlightDiagnostic diag =
        use.getUser()->emitError("exported function cannot be internally referenced");
    diag.attachNote(func.getLoc()) << "references this exported function";
    return diag;
  }
  return success();
}

LogicalResult TfSavedModelDialect::verifyOperationAttribute(Operation *op,
                                                            NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kExportedNames)
    return verifyExportedNamesAttr(op, attr.getValue());
  if (name == kSemantics) {
    auto module = llvm::dyn_cast<ModuleOp>(op);
    if (!module)
      return op->emitError() << "'" << kSemantics << "' must be on a module op";
    return verifySavedModelModule(module);
  }
  if (name == kUnderConstruction)
    return success();
  if (name == kInitializerType)
    return verifyInitializerTypeAttr(op, attr.getValue());
  return op->emitError() << "unknown tf_saved_model dialect attribute '" << name << "'";
}

#define GET_OP_CLASSES
#include "tfmlir/TfSavedModelOps.cpp.inc"
