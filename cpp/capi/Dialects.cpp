//===- Dialects.cpp - C API of the tfmlir dialects ------------------------===//
#include "tfmlir-c/Dialects.h"

#include "tfmlir/TfExecutor.h"
#include "tfmlir/TfType.h"
#include "tfmlir/Tf.h"
#include "tfmlir/TfDevice.h"
#include "tfmlir/TfInterfaces.h"
#include "tfmlir/TfSavedModel.h"
#include "tfmlir/TfOpSemantics.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/DerivedAttributeOpInterface.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tfmlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TFType, tf_type, tf_type::TFTypeDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TfExecutor, tf_executor,
                                      tf_executor::TfExecutorDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TfDevice, tf_device, tf_device::TfDeviceDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TF, tf, TF::TFDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TfSavedModel, tf_saved_model,
                                      tf_saved_model::TfSavedModelDialect)

void tfmlirRegisterAllDialects(MlirDialectRegistry registry) {
  DialectRegistry *r = unwrap(registry);
  r->insert<tf_type::TFTypeDialect, tf_executor::TfExecutorDialect,
            tf_device::TfDeviceDialect, TF::TFDialect,
            tf_saved_model::TfSavedModelDialect>();
}

#define TFMLIR_DEFINE_SIMPLE_TYPE(Name)                                        \
  bool tfmlirTypeIsA##Name##Type(MlirType type) {                              \
    return llvm::isa<tf_type::Name##Type>(unwrap(type));                       \
  }                                                                            \
  MlirType tfmlir##Name##TypeGet(MlirContext ctx) {                            \
    return wrap(tf_type::Name##Type::get(unwrap(ctx)));                        \
  }
TFMLIR_FOR_EACH_SIMPLE_TYPE(TFMLIR_DEFINE_SIMPLE_TYPE)
#undef TFMLIR_DEFINE_SIMPLE_TYPE

static SmallVector<TensorType> unwrapTensorTypes(intptr_t n, MlirType const *types) {
  SmallVector<TensorType> result;
  for (intptr_t i = 0; i < n; ++i)
    result.push_back(llvm::cast<TensorType>(unwrap(types[i])));
  return result;
}

bool tfmlirTypeIsAResourceType(MlirType type) {
  return llvm::isa<tf_type::ResourceType>(unwrap(type));
}
MlirType tfmlirResourceTypeGet(MlirContext ctx, intptr_t n, MlirType const *subtypes) {
  return wrap(tf_type::ResourceType::get(unwrap(ctx), unwrapTensorTypes(n, subtypes)));
}
bool tfmlirTypeIsAVariantType(MlirType type) {
  return llvm::isa<tf_type::VariantType>(unwrap(type));
}
MlirType tfmlirVariantTypeGet(MlirContext ctx, intptr_t n, MlirType const *subtypes) {
  return wrap(tf_type::VariantType::get(unwrap(ctx), unwrapTensorTypes(n, subtypes)));
}

static ArrayRef<TensorType> subtypesOf(MlirType type) {
  Type t = unwrap(type);
  if (auto r = llvm::dyn_cast<tf_type::ResourceType>(t))
    return r.getSubtypes();
  if (auto v = llvm::dyn_cast<tf_type::VariantType>(t))
    return v.getSubtypes();
  return {};
}
intptr_t tfmlirTypeWithSubtypesGetNumSubtypes(MlirType type) {
  return subtypesOf(type).size();
}
MlirType tfmlirTypeWithSubtypesGetSubtype(MlirType type, intptr_t pos) {
  return wrap(subtypesOf(type)[pos]);
}

bool tfmlirTypeIsAControlType(MlirType type) {
  return llvm::isa<tf_executor::ControlType>(unwrap(type));
}
MlirType tfmlirControlTypeGet(MlirContext ctx) {
  return wrap(tf_executor::ControlType::get(unwrap(ctx)));
}
bool tfmlirTypeIsATokenType(MlirType type) {
  return llvm::isa<tf_executor::TokenType>(unwrap(type));
}
MlirType tfmlirTokenTypeGet(MlirContext ctx) {
  return wrap(tf_executor::TokenType::get(unwrap(ctx)));
}

bool tfmlirAttributeIsAShapeAttr(MlirAttribute attr) {
  return llvm::isa<tf_type::ShapeAttr>(unwrap(attr));
}
MlirAttribute tfmlirShapeAttrGet(MlirContext ctx, intptr_t rank, int64_t const *dims) {
  if (rank < 0)
    return wrap(tf_type::ShapeAttr::get(unwrap(ctx), std::nullopt));
  return wrap(tf_type::ShapeAttr::get(
      unwrap(ctx), std::optional<ArrayRef<int64_t>>(ArrayRef<int64_t>(dims, rank))));
}
intptr_t tfmlirShapeAttrGetRank(MlirAttribute attr) {
  auto shape = llvm::cast<tf_type::ShapeAttr>(unwrap(attr));
  return shape.hasRank() ? shape.getRank() : -1;
}
int64_t tfmlirShapeAttrGetDim(MlirAttribute attr, intptr_t pos) {
  return llvm::cast<tf_type::ShapeAttr>(unwrap(attr)).getShape()[pos];
}
int64_t tfmlirShapeDynamicDim(void) { return ShapedType::kDynamic; }

bool tfmlirAttributeIsAFuncAttr(MlirAttribute attr) {
  return llvm::isa<tf_type::FuncAttr>(unwrap(attr));
}
MlirAttribute tfmlirFuncAttrGet(MlirContext ctx, MlirStringRef name, MlirAttribute attrs) {
  MLIRContext *c = unwrap(ctx);
  auto dict = mlirAttributeIsNull(attrs) ? DictionaryAttr::get(c)
                                         : llvm::cast<DictionaryAttr>(unwrap(attrs));
  return wrap(tf_type::FuncAttr::get(c, SymbolRefAttr::get(c, unwrap(name)), dict));
}
MlirAttribute tfmlirFuncAttrGetName(MlirAttribute attr) {
  return wrap(llvm::cast<tf_type::FuncAttr>(unwrap(attr)).getName());
}
MlirAttribute tfmlirFuncAttrGetAttrs(MlirAttribute attr) {
  return wrap(llvm::cast<tf_type::FuncAttr>(unwrap(attr)).getAttrs());
}

bool tfmlirAttributeIsAPlaceholderAttr(MlirAttribute attr) {
  return llvm::isa<tf_type::PlaceholderAttr>(unwrap(attr));
}
MlirAttribute tfmlirPlaceholderAttrGet(MlirContext ctx, MlirStringRef value) {
  return wrap(tf_type::PlaceholderAttr::get(unwrap(ctx), unwrap(value)));
}
MlirStringRef tfmlirPlaceholderAttrGetValue(MlirAttribute attr) {
  return wrap(llvm::cast<tf_type::PlaceholderAttr>(unwrap(attr)).getValue());
}

bool tfmlirAttributeIsATensorProtoAttr(MlirAttribute attr) {
  return llvm::isa<tf_type::TensorProtoAttr>(unwrap(attr));
}
MlirAttribute tfmlirTensorProtoAttrGet(MlirType type, MlirStringRef value) {
  return wrap(tf_type::TensorProtoAttr::get(llvm::cast<ShapedType>(unwrap(type)), unwrap(value)));
}
MlirStringRef tfmlirTensorProtoAttrGetValue(MlirAttribute attr) {
  return wrap(llvm::cast<tf_type::TensorProtoAttr>(unwrap(attr)).getValue());
}

void tfmlirForEachTfOpWithSemantics(int kind, TfmlirNameCallback callback, void *userData) {
  auto each = [&](StringRef name) { callback(wrap(name), userData); };
  if (kind == 0)
    tfmlir::TF::forEachVerifiedOp(each);
  else if (kind == 1)
    tfmlir::TF::forEachFoldedOp(each);
  else if (kind == 2)
    tfmlir::TF::forEachCanonicalizedOp(each);
}

bool tfmlirRegisteredOpAttributes(MlirContext ctx, MlirStringRef opName,
                                  TfmlirAttributeNameCallback callback, void *userData) {
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(unwrap(opName), unwrap(ctx));
  if (!name)
    return false;
  auto *derived = name->getInterface<DerivedAttributeOpInterface>();
  for (StringAttr attr : name->getAttributeNames()) {
    bool isDerived = derived && derived->isDerivedAttribute(attr.getValue());
    callback(wrap(attr.getValue()), isDerived, userData);
  }
  return true;
}

MlirOperation tfmlirFindPotentiallyUnknownSymbolTable(MlirOperation root) {
  Operation *found = nullptr;
  unwrap(root)->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // The condition under which SymbolTable::getSymbolUses gives up.
    if (op->getNumRegions() == 1 && !op->getDialect()) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return wrap(found);
}

void tfmlirEmitDiagnostic(MlirLocation loc, MlirDiagnosticSeverity severity,
                          MlirStringRef message) {
  tfmlirEmitDiagnosticWithNotes(loc, severity, message, 0, nullptr, nullptr);
}

void tfmlirEmitDiagnosticWithNotes(MlirLocation loc, MlirDiagnosticSeverity severity,
                                   MlirStringRef message, intptr_t numNotes,
                                   MlirLocation const *noteLocations,
                                   MlirStringRef const *noteMessages) {
  Location l = unwrap(loc);
  DiagnosticSeverity kind = severity == MlirDiagnosticError     ? DiagnosticSeverity::Error
                            : severity == MlirDiagnosticWarning ? DiagnosticSeverity::Warning
                                                                : DiagnosticSeverity::Remark;
  InFlightDiagnostic diag = l->getContext()->getDiagEngine().emit(l, kind);
  diag << unwrap(message);
  for (intptr_t i = 0; i < numNotes; ++i)
    diag.attachNote(unwrap(noteLocations[i])) << unwrap(noteMessages[i]);
}

bool tfmlirContextIsMultithreadingEnabled(MlirContext ctx) {
  return unwrap(ctx)->isMultithreadingEnabled();
}

namespace {
struct CHooks {
  TfmlirConstantEvaluator evaluator = nullptr;
  void *evaluatorData = nullptr;
  TfmlirDeviceNameMerger merger = nullptr;
  void *mergerData = nullptr;
};
CHooks &cHooks() {
  static CHooks instance;
  return instance;
}
} // namespace

static bool evaluateThroughCApi(StringRef name, DictionaryAttr attributes,
                                ArrayRef<Attribute> operands, TypeRange resultTypes,
                                SmallVectorImpl<Attribute> &results, void *) {
  const CHooks &h = cHooks();
  if (!h.evaluator)
    return false;
  SmallVector<MlirAttribute> cOperands;
  for (Attribute a : operands)
    cOperands.push_back(wrap(a));
  SmallVector<MlirType> cTypes;
  for (Type t : resultTypes)
    cTypes.push_back(wrap(t));
  SmallVector<MlirAttribute> cResults(resultTypes.size(), MlirAttribute{nullptr});
  if (!h.evaluator(wrap(name), wrap(attributes), cOperands.size(), cOperands.data(),
                   cTypes.size(), cTypes.data(), cResults.data(), h.evaluatorData))
    return false;
  for (MlirAttribute a : cResults)
    results.push_back(unwrap(a));
  return true;
}

void tfmlirSetConstantEvaluator(TfmlirConstantEvaluator fn, void *userData) {
  cHooks().evaluator = fn;
  cHooks().evaluatorData = userData;
  TF::setConstantEvaluator(fn ? evaluateThroughCApi : nullptr, nullptr);
}

static bool mergeThroughCApi(StringRef caller, StringRef node, std::string &merged, void *) {
  const CHooks &h = cHooks();
  if (!h.merger)
    return false;
  return h.merger(
      wrap(caller), wrap(node),
      [](MlirStringRef chunk, void *out) {
        static_cast<std::string *>(out)->append(chunk.data, chunk.length);
      },
      &merged, h.mergerData);
}

void tfmlirSetDeviceNameMerger(TfmlirDeviceNameMerger fn, void *userData) {
  cHooks().merger = fn;
  cHooks().mergerData = userData;
  TF::setDeviceNameMerger(fn ? mergeThroughCApi : nullptr, nullptr);
}

MlirAttribute tfmlirOperationGetAttributeDictionary(MlirOperation op) {
  return wrap(static_cast<Attribute>(unwrap(op)->getAttrDictionary()));
}

size_t tfmlirUtf8SequenceLength(const char *text, const char *textEnd) {
  auto *p = reinterpret_cast<const unsigned char *>(text);
  auto *end = reinterpret_cast<const unsigned char *>(textEnd);
  unsigned c = *p;
  if (c < 0x80)
    return 1;
  size_t extra;
  unsigned min;
  if ((c & 0xE0) == 0xC0) {
    extra = 1, min = 0x80, c &= 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    extra = 2, min = 0x800, c &= 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    extra = 3, min = 0x10000, c &= 0x07;
  } else {
    return 0;
  }
  if (static_cast<size_t>(end - p) <= extra)
    return 0;
  for (size_t k = 1; k <= extra; ++k) {
    if ((p[k] & 0xC0) != 0x80)
      return 0;
    c = (c << 6) | (p[k] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  return extra + 1;
}

static bool validUtf8(StringRef s) {
  const char *p = s.data(), *end = s.data() + s.size();
  while (p < end) {
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    size_t n = tfmlirUtf8SequenceLength(p, end);
    if (!n)
      return false;
    p += n;
  }
  return true;
}

bool tfmlirIsValidUtf8(MlirStringRef s) { return validUtf8(unwrap(s)); }

namespace {
/// The UTF-8 check of a walk: uniqued names, attributes and locations already
/// found valid are checked once (ops share most of them).
struct Utf8Checker {
  llvm::DenseSet<const void *> valid;

  bool seen(const void *ptr) { return !valid.insert(ptr).second; }

  /// What is wrong in location `loc` ("" if nothing).
  std::string inLocation(Location loc, int depth = 0) {
    if (depth > 256 || seen(loc.getAsOpaquePointer()))
      return "";
    if (auto file = llvm::dyn_cast<FileLineColRange>(loc)) {
      if (!validUtf8(file.getFilename().getValue()))
        return "a location's file name";
    } else if (auto name = llvm::dyn_cast<NameLoc>(loc)) {
      if (!validUtf8(name.getName().getValue()))
        return "a location's name";
      return inLocation(name.getChildLoc(), depth + 1);
    } else if (auto call = llvm::dyn_cast<CallSiteLoc>(loc)) {
      std::string found = inLocation(call.getCallee(), depth + 1);
      return found.empty() ? inLocation(call.getCaller(), depth + 1) : found;
    } else if (auto fused = llvm::dyn_cast<FusedLoc>(loc)) {
      for (Location sub : fused.getLocations())
        if (std::string found = inLocation(sub, depth + 1); !found.empty())
          return found;
    }
    return "";
  }

  /// What is wrong in the symbol references under `attr` ("" if nothing).
  std::string inSymbols(Attribute attr, int depth = 0) {
    if (depth > 64)
      return "";
    if (auto ref = llvm::dyn_cast<SymbolRefAttr>(attr)) {
      if (!validUtf8(ref.getRootReference().getValue()))
        return "a symbol reference";
      for (FlatSymbolRefAttr nested : ref.getNestedReferences())
        if (!validUtf8(nested.getValue()))
          return "a symbol reference";
    } else if (auto array = llvm::dyn_cast<ArrayAttr>(attr)) {
      for (Attribute element : array)
        if (std::string found = inSymbols(element, depth + 1); !found.empty())
          return found;
    } else if (auto dict = llvm::dyn_cast<DictionaryAttr>(attr)) {
      for (NamedAttribute named : dict) {
        if (!validUtf8(named.getName().getValue()))
          return "a dictionary key";
        if (std::string found = inSymbols(named.getValue(), depth + 1); !found.empty())
          return found;
      }
    }
    return "";
  }

  /// What is wrong in attribute `name` = `value` of an op ("" if nothing).
  std::string inAttribute(StringAttr name, Attribute value) {
    if (!seen(name.getAsOpaquePointer()) && !validUtf8(name.getValue()))
      return "an attribute name";
    if (!value)
      return "";
    if (name.getValue() == "sym_name") {
      if (auto text = llvm::dyn_cast<StringAttr>(value))
        return validUtf8(text.getValue()) ? "" : "the symbol name";
    }
    if (seen(value.getAsOpaquePointer()))
      return "";
    std::string found = inSymbols(value);
    return found.empty() ? "" : found + " in attribute '" + name.getValue().str() + "'";
  }

  std::string inOperation(Operation *op) {
    OperationName opName = op->getName();
    StringAttr nameAttr = opName.getIdentifier();
    if (!seen(nameAttr.getAsOpaquePointer()) && !validUtf8(nameAttr.getValue()))
      return "the operation name";
    if (std::optional<RegisteredOperationName> info = op->getRegisteredInfo()) {
      for (StringAttr name : info->getAttributeNames())
        if (std::optional<Attribute> value = op->getInherentAttr(name.getValue()); value && *value)
          if (std::string found = inAttribute(name, *value); !found.empty())
            return found;
    }
    for (NamedAttribute named : op->getDiscardableAttrs())
      if (std::string found = inAttribute(named.getName(), named.getValue()); !found.empty())
        return found;
    return inLocation(op->getLoc());
  }
};
} // namespace

MlirOperation tfmlirFindNonUtf8(MlirOperation root, MlirStringCallback callback, void *userData) {
  Utf8Checker checker;
  Operation *found = nullptr;
  std::string what;
  unwrap(root)->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    what = checker.inOperation(op);
    if (what.empty())
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  if (found && callback)
    callback(mlirStringRefCreate(what.data(), what.size()), userData);
  return wrap(found);
}

MlirOperation tfmlirFindElementCountOverflow(MlirOperation root, MlirType *culprit) {
  Type bad;
  AttrTypeWalker walker;  // caches what it visited: each uniqued type/attribute once
  walker.addWalk([&](Type type) -> WalkResult {
    auto shaped = llvm::dyn_cast<ShapedType>(type);
    if (!shaped || !shaped.hasRank())
      return WalkResult::advance();
    // As ShapedType::getNumElements multiplies, left to right; dynamic sizes do not count.
    int64_t count = 1;
    for (int64_t size : shaped.getShape()) {
      if (ShapedType::isDynamic(size))
        continue;
      if (size == 0)
        return WalkResult::advance();
      if (size < 0 || __builtin_mul_overflow(count, size, &count)) {
        bad = type;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  Operation *found = nullptr;
  unwrap(root)->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    bool hit = false;
    for (Type type : op->getResultTypes())
      hit = hit || walker.walk(type).wasInterrupted();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          hit = hit || walker.walk(argument.getType()).wasInterrupted();
    hit = hit || walker.walk(op->getRawDictionaryAttrs()).wasInterrupted();
    if (!hit && op->getPropertiesStorageSize()) {
      // The inherent attributes one by one: no properties dictionary built per op.
      if (std::optional<RegisteredOperationName> info = op->getRegisteredInfo()) {
        for (StringAttr name : info->getAttributeNames()) {
          if (hit)
            break;
          if (std::optional<Attribute> value = op->getInherentAttr(name.getValue()))
            if (*value)
              hit = walker.walk(*value).wasInterrupted();
        }
      } else if (Attribute properties = op->getPropertiesAsAttribute()) {
        hit = walker.walk(properties).wasInterrupted();
      }
    }
    if (!hit)
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  if (culprit)
    *culprit = wrap(bad);
  return wrap(found);
}
