//===- TfmlirModule.cpp - Python glue for the tfmlir dialects -------------===//
//
// Registers the dialects into upstream `mlir.ir` contexts and exposes the
// tf_type / tf_executor types and attributes as mlir.ir.Type / Attribute
// subclasses. Talks to the upstream bindings only through capsules
// (NanobindAdaptors.h), so there is no ABI coupling beyond the MLIR C API.
//
//===----------------------------------------------------------------------===//
#include "tfmlir-c/Dialects.h"
#include "PyValues.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <mutex>
#include <unordered_set>
#include <cctype>
#include <string_view>

using tfmlir_python::attributeToPython;
using tfmlir_python::safeStr;
using tfmlir_python::typeToPython;

namespace nb = nanobind;
using namespace mlir::python::nanobind_adaptors;

static std::vector<MlirType> subtypeList(MlirType type) {
  std::vector<MlirType> result;
  for (intptr_t i = 0, e = tfmlirTypeWithSubtypesGetNumSubtypes(type); i < e; ++i)
    result.push_back(tfmlirTypeWithSubtypesGetSubtype(type, i));
  return result;
}


//===----------------------------------------------------------------------===//
// Strings from the IR that may not be UTF-8.
//
// MLIR identifiers, locations and diagnostics are byte strings; the upstream
// bindings convert them to Python str and, for a few getters (Operation.name,
// Location.filename), a non-UTF-8 name aborts the process. These helpers never
// throw: invalid bytes are shown the way MLIR's printer escapes them (\FF).
//===----------------------------------------------------------------------===//

static bool isValidUtf8(MlirStringRef s) { return tfmlirIsValidUtf8(s); }

/// `s` as a Python str; bytes outside well-formed UTF-8 become `\XX`.
nb::str tfmlir_python::safeStr(MlirStringRef s) {
  if (isValidUtf8(s))
    return nb::str(s.data, s.length);
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  auto *p = reinterpret_cast<const unsigned char *>(s.data), *end = p + s.length;
  while (p < end) {
    size_t n = tfmlirUtf8SequenceLength(reinterpret_cast<const char *>(p),
                                        reinterpret_cast<const char *>(end));
    if (n) {
      out.append(reinterpret_cast<const char *>(p), n);
      p += n;
    } else {
      out += '\\';
      out += digits[*p >> 4];
      out += digits[*p & 15];
      ++p;
    }
  }
  return nb::str(out.data(), out.size());
}

static void appendChunk(MlirStringRef chunk, void *userData) {
  static_cast<std::string *>(userData)->append(chunk.data, chunk.length);
}

//===----------------------------------------------------------------------===//
// C++ values handed to Python callbacks.
//
// NanobindAdaptors' casters (`nb::cast(MlirAttribute)`, ...) are `noexcept`
// and call Python (the capsule factory, then `maybe_downcast`): an exception
// there -- e.g. upstream's DenseElementsAttr downcast of complex or quantized
// elements -- ends in std::terminate. These conversions throw a catchable
// nb::python_error instead, and fall back to the plain (not downcast) object
// when only the downcast fails.
//===----------------------------------------------------------------------===//

nb::object tfmlir_python::attributeToPython(MlirAttribute attr) {
  nb::object capsule = nb::steal<nb::object>(mlirPythonAttributeToCapsule(attr));
  nb::object plain =
      mlir::python::irModule().attr("Attribute").attr(MLIR_PYTHON_CAPI_FACTORY_ATTR)(capsule);
  try {
    return plain.attr(MLIR_PYTHON_MAYBE_DOWNCAST_ATTR)();
  } catch (nb::python_error &) {
    return plain;
  }
}

nb::object tfmlir_python::typeToPython(MlirType type) {
  nb::object capsule = nb::steal<nb::object>(mlirPythonTypeToCapsule(type));
  nb::object plain =
      mlir::python::irModule().attr("Type").attr(MLIR_PYTHON_CAPI_FACTORY_ATTR)(capsule);
  try {
    return plain.attr(MLIR_PYTHON_MAYBE_DOWNCAST_ATTR)();
  } catch (nb::python_error &) {
    return plain;
  }
}

static nb::object locationToPython(MlirLocation loc) {
  nb::object capsule = nb::steal<nb::object>(mlirPythonLocationToCapsule(loc));
  return mlir::python::irModule().attr("Location").attr(MLIR_PYTHON_CAPI_FACTORY_ATTR)(capsule);
}

/// The MlirAttribute held by a Python object, or a thrown nb::python_error /
/// nb::cast_error (never the caster's silent failure).
static MlirAttribute attributeFromPython(nb::handle obj) {
  std::optional<nb::object> capsule = mlirApiObjectToCapsule(obj);
  MlirAttribute attr = capsule ? mlirPythonCapsuleToAttribute(capsule->ptr()) : MlirAttribute{nullptr};
  PyErr_Clear();
  if (mlirAttributeIsNull(attr))
    throw nb::type_error("the constant evaluator must return mlir.ir.Attribute objects");
  return attr;
}

/// Bytes per element of a dense attribute's raw data: integers and floats
/// of a whole number of bytes, complex of those; 0 otherwise.
static int64_t tfmlirElementByteWidth(MlirType element) {
  if (mlirTypeIsAComplex(element))
    return 2 * tfmlirElementByteWidth(mlirComplexTypeGetElementType(element));
  unsigned bits = 0;
  if (mlirTypeIsAInteger(element))
    bits = mlirIntegerTypeGetWidth(element);
  else if (mlirTypeIsAFloat(element))
    bits = mlirFloatTypeGetWidth(element);
  return bits && bits % 8 == 0 ? bits / 8 : 0;
}

/// Calls a Python diagnostic handler with plain values (no upstream getter
/// that can abort on non-UTF-8 text); exceptions from the handler stay in
/// Python (reported as unraisable) and never unwind through MLIR's frames.
static nb::tuple diagnosticTuple(MlirDiagnostic diag) {
  std::string message;
  mlirDiagnosticPrint(diag, appendChunk, &message);
  nb::list notes;
  for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diag); i < e; ++i)
    notes.append(diagnosticTuple(mlirDiagnosticGetNote(diag, i)));
  return nb::make_tuple(static_cast<int>(mlirDiagnosticGetSeverity(diag)),
                        locationToPython(mlirDiagnosticGetLocation(diag)),
                        safeStr(mlirStringRefCreate(message.data(), message.size())), notes);
}

/// Diagnostics collected in C++ on whichever thread emits them (MLIR's
/// verifier runs on worker threads, and upstream's ParallelDiagnosticHandler
/// lets some through on nested parallel verification), turned into Python
/// values only afterwards, on the calling thread. Attached as the newest
/// handler around one parse or verify, it keeps every Python handler (which
/// would need the GIL the waiting caller holds) out of the call.
struct CollectedDiagnostic {
  int severity;
  MlirLocation location;
  std::string message;
  std::vector<CollectedDiagnostic> notes;
};

static CollectedDiagnostic collectDiagnostic(MlirDiagnostic diag) {
  CollectedDiagnostic out{static_cast<int>(mlirDiagnosticGetSeverity(diag)),
                          mlirDiagnosticGetLocation(diag), {}, {}};
  mlirDiagnosticPrint(diag, appendChunk, &out.message);
  for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diag); i < e; ++i)
    out.notes.push_back(collectDiagnostic(mlirDiagnosticGetNote(diag, i)));
  return out;
}

static nb::tuple collectedToPython(const CollectedDiagnostic &diag) {
  nb::list notes;
  for (const CollectedDiagnostic &note : diag.notes)
    notes.append(collectedToPython(note));
  return nb::make_tuple(diag.severity, locationToPython(diag.location),
                        safeStr(mlirStringRefCreate(diag.message.data(), diag.message.size())),
                        notes);
}

class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MlirContext ctx) : ctx(ctx) {
    id = mlirContextAttachDiagnosticHandler(ctx, &DiagnosticCollector::handle, this, nullptr);
  }
  ~DiagnosticCollector() { mlirContextDetachDiagnosticHandler(ctx, id); }

  nb::list take() {
    nb::list out;
    std::lock_guard<std::mutex> lock(mutex);
    for (const CollectedDiagnostic &diag : collected)
      out.append(collectedToPython(diag));
    collected.clear();
    return out;
  }

private:
  static MlirLogicalResult handle(MlirDiagnostic diag, void *userData) {
    auto *self = static_cast<DiagnosticCollector *>(userData);
    CollectedDiagnostic copy = collectDiagnostic(diag);
    std::lock_guard<std::mutex> lock(self->mutex);
    self->collected.push_back(std::move(copy));
    return mlirLogicalResultSuccess();
  }

  MlirContext ctx;
  MlirDiagnosticHandlerID id;
  std::mutex mutex;
  std::vector<CollectedDiagnostic> collected;
};

/// (module or None, diagnostics) of `parse()`, its diagnostics collected.
template <typename Parse>
static std::pair<std::optional<MlirModule>, nb::list> parseCollecting(MlirContext ctx,
                                                                      Parse parse) {
  DiagnosticCollector collector(ctx);
  MlirModule module = parse();
  nb::list diagnostics = collector.take();
  std::optional<MlirModule> result;
  if (!mlirModuleIsNull(module))
    result = module;
  return {result, diagnostics};
}

static MlirLogicalResult callPythonDiagnosticHandler(MlirDiagnostic diag, void *userData) {
  nb::gil_scoped_acquire gil;
  try {
    nb::object handled = (*static_cast<nb::object *>(userData))(diagnosticTuple(diag));
    return nb::cast<bool>(handled) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
  } catch (nb::python_error &err) {
    err.discard_as_unraisable("tfmlir diagnostic handler");
  } catch (const std::exception &err) {
    PyErr_WarnEx(PyExc_RuntimeWarning, err.what(), 1);
    PyErr_Clear();
  }
  return mlirLogicalResultFailure();
}

static std::vector<MlirType> checkedSubtypes(const std::vector<MlirType> &subtypes,
                                             MlirContext ctx, const char *what) {
  for (size_t i = 0; i < subtypes.size(); ++i) {
    MlirType t = subtypes[i];
    if (!mlirTypeIsATensor(t))
      throw nb::value_error((std::string(what) + " subtypes must be tensor types; subtype #" +
                             std::to_string(i) + " is not")
                                .c_str());
    if (!mlirContextEqual(mlirTypeGetContext(t), ctx))
      throw nb::value_error((std::string(what) + " subtype #" + std::to_string(i) +
                             " belongs to another Context")
                                .c_str());
  }
  return subtypes;
}

//===----------------------------------------------------------------------===//
// Python implementations of the tf dialect's hooks (tfmlir-c/Dialects.h).
//
// A hook calls Python only on a thread that holds the GIL: the thread that
// called into MLIR from Python. An MLIR worker thread must not wait for the
// GIL while the thread holding it waits for the workers (the upstream
// bindings keep the GIL while a PassManager runs), so there the hooks
// decline; tfmlir's pass framework runs pipelines single-threaded for that.
// Errors in the callbacks are swallowed: the hook declines.
//===----------------------------------------------------------------------===//

static nb::object *constantEvaluator = nullptr;
static nb::object *deviceNameMerger = nullptr;

static bool mayCallPython() { return Py_IsInitialized() && PyGILState_Check(); }

/// Runs `body` with the caller's pending Python error (if any) set aside;
/// exceptions from `body` become `false`.
template <typename F>
static bool callPythonHook(F body) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  bool ok = false;
  try {
    ok = body();
  } catch (nb::python_error &) {
  } catch (const std::exception &) {
  }
  PyErr_Clear();
  PyErr_Restore(type, value, traceback);
  return ok;
}

static bool evaluateInPython(MlirStringRef opName, MlirAttribute attributes,
                             intptr_t numOperands, MlirAttribute const *operands,
                             intptr_t numResults, MlirType const *resultTypes,
                             MlirAttribute *results, void *) {
  if (!constantEvaluator || !mayCallPython())
    return false;
  return callPythonHook([&] {
    nb::list values, types;
    for (intptr_t i = 0; i < numOperands; ++i)
      values.append(attributeToPython(operands[i]));
    for (intptr_t i = 0; i < numResults; ++i)
      types.append(typeToPython(resultTypes[i]));
    nb::object out =
        (*constantEvaluator)(safeStr(opName), attributeToPython(attributes), values, types);
    if (out.is_none())
      return false;
    std::vector<MlirAttribute> folded;
    for (nb::handle item : out)
      folded.push_back(attributeFromPython(item));
    if (static_cast<intptr_t>(folded.size()) != numResults)
      return false;
    for (intptr_t i = 0; i < numResults; ++i)
      results[i] = folded[i];
    return true;
  });
}

static bool mergeInPython(MlirStringRef caller, MlirStringRef node, MlirStringCallback merged,
                          void *mergedUserData, void *) {
  if (!deviceNameMerger || !mayCallPython())
    return false;
  return callPythonHook([&] {
    nb::object out = (*deviceNameMerger)(safeStr(caller), safeStr(node));
    if (out.is_none())
      return false;
    std::string text = nb::cast<std::string>(out);
    merged(mlirStringRefCreate(text.data(), text.size()), mergedUserData);
    return true;
  });
}

/// Replaces the Python object held for a hook (None clears it).
static void setHookObject(nb::object *&slot, nb::object callback) {
  delete slot;
  slot = callback.is_none() ? nullptr : new nb::object(std::move(callback));
}

static MlirDiagnosticSeverity severityOf(nb::handle severity) {
  if (nb::isinstance<nb::str>(severity)) {
    std::string name = nb::cast<std::string>(severity);
    for (char &c : name)
      c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
    if (name == "error")
      return MlirDiagnosticError;
    if (name == "warning")
      return MlirDiagnosticWarning;
    if (name == "remark")
      return MlirDiagnosticRemark;
    throw nb::value_error("severity must be 'error', 'warning' or 'remark'");
  }
  nb::object value = nb::hasattr(severity, "value") ? nb::object(severity.attr("value"))
                                                     : nb::borrow<nb::object>(severity);
  int code = nb::cast<int>(value);
  if (code == MlirDiagnosticError || code == MlirDiagnosticWarning ||
      code == MlirDiagnosticRemark)
    return static_cast<MlirDiagnosticSeverity>(code);
  throw nb::value_error("severity must be ERROR, WARNING or REMARK (a note needs a "
                        "diagnostic to attach to)");
}

//===----------------------------------------------------------------------===//
// TensorFlow's Fingerprint64: FarmHash's 64-bit fingerprint (farmhashna's
// Hash64, seedless). tf-tpu-rewrite stores it of the device module.
//===----------------------------------------------------------------------===//

namespace fingerprint {
constexpr uint64_t k0 = 0xC3A5C85C97CB3127ULL;
constexpr uint64_t k1 = 0xB492B66FBE98F273ULL;
constexpr uint64_t k2 = 0x9AE16A3B2F90404FULL;

static uint64_t fetch64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}
static uint32_t fetch32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}
static uint64_t rotate(uint64_t v, int shift) { return (v >> shift) | (v << (64 - shift)); }
static uint64_t shiftMix(uint64_t v) { return v ^ (v >> 47); }
static uint64_t hashLen16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}
static uint64_t hashLen0to16(const unsigned char *s, size_t n) {
  if (n >= 8) {
    uint64_t mul = k2 + n * 2;
    uint64_t a = fetch64(s) + k2;
    uint64_t b = fetch64(s + n - 8);
    uint64_t c = rotate(b, 37) * mul + a;
    uint64_t d = (rotate(a, 25) + b) * mul;
    return hashLen16(c, d, mul);
  }
  if (n >= 4) {
    uint64_t mul = k2 + n * 2;
    return hashLen16(n + (static_cast<uint64_t>(fetch32(s)) << 3), fetch32(s + n - 4), mul);
  }
  if (n > 0) {
    uint64_t y = s[0] + (static_cast<uint64_t>(s[n >> 1]) << 8);
    uint64_t z = n + (static_cast<uint64_t>(s[n - 1]) << 2);
    return shiftMix(y * k2 ^ z * k0) * k2;
  }
  return k2;
}
static uint64_t hashLen17to32(const unsigned char *s, size_t n) {
  uint64_t mul = k2 + n * 2;
  uint64_t a = fetch64(s) * k1;
  uint64_t b = fetch64(s + 8);
  uint64_t c = fetch64(s + n - 8) * mul;
  uint64_t d = fetch64(s + n - 16) * k2;
  return hashLen16(rotate(a + b, 43) + rotate(c, 30) + d, a + rotate(b + k2, 18) + c, mul);
}
static uint64_t hashLen33to64(const unsigned char *s, size_t n) {
  uint64_t mul = k2 + n * 2;
  uint64_t a = fetch64(s) * k2;
  uint64_t b = fetch64(s + 8);
  uint64_t c = fetch64(s + n - 8) * mul;
  uint64_t d = fetch64(s + n - 16) * k2;
  uint64_t y = rotate(a + b, 43) + rotate(c, 30) + d;
  uint64_t z = hashLen16(y, a + rotate(b + k2, 18) + c, mul);
  uint64_t e = fetch64(s + 16) * mul;
  uint64_t f = fetch64(s + 24);
  uint64_t g = (y + fetch64(s + n - 32)) * mul;
  uint64_t h = (z + fetch64(s + n - 24)) * mul;
  return hashLen16(rotate(e + f, 43) + rotate(g, 30) + h, e + rotate(f + a, 18) + g, mul);
}
static std::pair<uint64_t, uint64_t> weakHashLen32WithSeeds(const unsigned char *s, uint64_t a,
                                                            uint64_t b) {
  uint64_t w = fetch64(s), x = fetch64(s + 8), y = fetch64(s + 16), z = fetch64(s + 24);
  a += w;
  b = rotate(b + a + z, 21);
  uint64_t c = a;
  a += x + y;
  b += rotate(a, 44);
  return {a + z, b + c};
}
static uint64_t fingerprint64(const unsigned char *s, size_t n) {
  if (n <= 16)
    return hashLen0to16(s, n);
  if (n <= 32)
    return hashLen17to32(s, n);
  if (n <= 64)
    return hashLen33to64(s, n);
  const uint64_t seed = 81;
  uint64_t x = seed;
  uint64_t y = seed * k1 + 113;
  uint64_t z = shiftMix(y * k2 + 113) * k2;
  std::pair<uint64_t, uint64_t> v = {0, 0}, w = {0, 0};
  x = x * k2 + fetch64(s);
  const unsigned char *end = s + ((n - 1) / 64) * 64;
  const unsigned char *last64 = end + ((n - 1) & 63) - 63;
  do {
    x = rotate(x + y + v.first + fetch64(s + 8), 37) * k1;
    y = rotate(y + v.second + fetch64(s + 48), 42) * k1;
    x ^= w.second;
    y += v.first + fetch64(s + 40);
    z = rotate(z + w.first, 33) * k1;
    v = weakHashLen32WithSeeds(s, v.second * k1, x + w.first);
    w = weakHashLen32WithSeeds(s + 32, z + w.second, y + fetch64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  uint64_t mul = k1 + ((z & 0xff) << 1);
  s = last64;
  w.first += ((n - 1) & 63);
  v.first += w.first;
  w.first += v.first;
  x = rotate(x + y + v.first + fetch64(s + 8), 37) * mul;
  y = rotate(y + v.second + fetch64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + fetch64(s + 40);
  z = rotate(z + w.first, 33) * mul;
  v = weakHashLen32WithSeeds(s, v.second * mul, x + w.first);
  w = weakHashLen32WithSeeds(s + 32, z + w.second, y + fetch64(s + 16));
  std::swap(z, x);
  return hashLen16(hashLen16(v.first, w.first, mul) + shiftMix(y) * k0 + z,
                   hashLen16(v.second, w.second, mul) + x, mul);
}
} // namespace fingerprint

NB_MODULE(_tfmlir, m) {
  m.doc() = "tfmlir native glue: dialect registration, tf_type/tf_executor types";
  tfmlir_python::registerOpTable(m);
  m.def(
      "fingerprint64",
      [](nb::bytes data) {
        return fingerprint::fingerprint64(static_cast<const unsigned char *>(data.data()),
                                          data.size());
      },
      nb::arg("data"),
      "TensorFlow's Fingerprint64 (FarmHash Fingerprint64) of `data` as an unsigned 64-bit int.");

  m.def(
      "register_dialects",
      [](MlirDialectRegistry registry) { tfmlirRegisterAllDialects(registry); },
      nb::arg("registry"),
      "Inserts tf_type, tf, tf_executor and tf_device into a DialectRegistry.");

  m.def(
      "load_dialects",
      [](MlirContext context) {
        MlirDialectRegistry registry = mlirDialectRegistryCreate();
        tfmlirRegisterAllDialects(registry);
        mlirContextAppendDialectRegistry(context, registry);
        mlirDialectRegistryDestroy(registry);
        mlirContextLoadAllAvailableDialects(context);
      },
      nb::arg("context"),
      "Registers and loads the four TF dialects into `context`.");

  m.def(
      "print_operation",
      [](MlirOperation op, bool generic, bool debugInfo, bool prettyDebugInfo,
         bool localScope, bool assumeVerified, std::optional<int64_t> largeElementsLimit) {
        // One C++ string for the whole text: no Python call per printed token.
        std::string out;
        MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
        if (generic)
          mlirOpPrintingFlagsPrintGenericOpForm(flags);
        if (debugInfo)
          mlirOpPrintingFlagsEnableDebugInfo(flags, /*enable=*/true, prettyDebugInfo);
        if (localScope)
          mlirOpPrintingFlagsUseLocalScope(flags);
        if (assumeVerified)
          mlirOpPrintingFlagsAssumeVerified(flags);
        if (largeElementsLimit)
          mlirOpPrintingFlagsElideLargeElementsAttrs(flags, *largeElementsLimit);
        {
          nb::gil_scoped_release release;
          mlirOperationPrintWithFlags(
              op, flags,
              [](MlirStringRef chunk, void *userData) {
                static_cast<std::string *>(userData)->append(chunk.data, chunk.length);
              },
              &out);
        }
        mlirOpPrintingFlagsDestroy(flags);
        return safeStr(mlirStringRefCreate(out.data(), out.size()));
      },
      nb::arg("operation"), nb::arg("generic") = false, nb::arg("debug_info") = false,
      nb::arg("pretty_debug_info") = false, nb::arg("local_scope") = false,
      nb::arg("assume_verified") = false, nb::arg("large_elements_limit") = nb::none(),
      "The textual form of an operation (like str()/get_asm), printed into one buffer.");


  m.def(
      "operation_name",
      [](MlirOperation op) { return safeStr(mlirIdentifierStr(mlirOperationGetName(op))); },
      nb::arg("operation"),
      "The operation's name (like Operation.name, which aborts on non-UTF-8 "
      "names); bytes that are not UTF-8 appear as \\XX.");
  m.def(
      "location_filename",
      [](MlirLocation loc) -> std::optional<nb::str> {
        if (!mlirLocationIsAFileLineColRange(loc))
          return std::nullopt;
        return safeStr(mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc)));
      },
      nb::arg("location"),
      "The file name of a file:line:col location (None for other kinds), "
      "non-UTF-8 bytes as \\XX.");
  m.def(
      "location_name",
      [](MlirLocation loc) -> std::optional<nb::str> {
        if (!mlirLocationIsAName(loc))
          return std::nullopt;
        return safeStr(mlirIdentifierStr(mlirLocationNameGetName(loc)));
      },
      nb::arg("location"),
      "The name of a name location (None for other kinds), non-UTF-8 bytes as \\XX.");
  m.def(
      "find_non_utf8",
      [](MlirOperation root) -> std::optional<std::pair<MlirOperation, std::string>> {
        std::string what;
        MlirOperation found = tfmlirFindNonUtf8(root, appendChunk, &what);
        if (mlirOperationIsNull(found))
          return std::nullopt;
        return std::make_pair(found, what);
      },
      nb::arg("operation"),
      "The first operation under (and including) `operation` whose name, "
      "attribute names, symbol names/references or location names are not "
      "UTF-8, with what is wrong; None if all are.");
  m.def(
      "find_element_count_overflow",
      [](MlirOperation root) -> std::optional<std::pair<MlirOperation, std::string>> {
        MlirType culprit{nullptr};
        MlirOperation found = tfmlirFindElementCountOverflow(root, &culprit);
        if (mlirOperationIsNull(found))
          return std::nullopt;
        std::string text;
        mlirTypePrint(culprit, appendChunk, &text);
        return std::make_pair(found, text);
      },
      nb::arg("operation"),
      "(op, type text) of the first op under `operation` holding a shaped type "
      "whose static element count overflows int64 (results, block arguments, "
      "attributes, nested types included); None if there is none.");
  m.def(
      "find_potentially_unknown_symbol_table",
      [](MlirOperation root) -> std::optional<MlirOperation> {
        MlirOperation found = tfmlirFindPotentiallyUnknownSymbolTable(root);
        if (mlirOperationIsNull(found))
          return std::nullopt;
        return found;
      },
      nb::arg("operation"),
      "The first op under `operation` with one region from an unloaded "
      "(unregistered) dialect, which MLIR's symbol-use walk cannot see into; "
      "None if there is none.");
  m.def(
      "attach_diagnostic_handler",
      [](MlirContext ctx, nb::callable callback) {
        auto *data = new nb::object(callback);
        return mlirContextAttachDiagnosticHandler(
            ctx, callPythonDiagnosticHandler, data, [](void *userData) {
              nb::gil_scoped_acquire gil;
              delete static_cast<nb::object *>(userData);
            });
      },
      nb::arg("context"), nb::arg("callback"),
      "Attaches `callback((severity: int, location, message: str, notes: list))` "
      "-- each note the same 4-tuple -- as a diagnostic handler; returns its id. "
      "Unlike Context.attach_diagnostic_handler, text is never read through "
      "getters that abort on non-UTF-8 bytes.");
  m.def(
      "emit_diagnostic",
      [](MlirLocation loc, nb::handle severity, const std::string &message,
         const std::vector<std::pair<MlirLocation, std::string>> &notes) {
        std::vector<MlirLocation> noteLocations;
        std::vector<MlirStringRef> noteMessages;
        for (const auto &note : notes) {
          noteLocations.push_back(note.first);
          noteMessages.push_back(mlirStringRefCreate(note.second.data(), note.second.size()));
        }
        tfmlirEmitDiagnosticWithNotes(loc, severityOf(severity),
                                      mlirStringRefCreate(message.data(), message.size()),
                                      static_cast<intptr_t>(notes.size()), noteLocations.data(),
                                      noteMessages.data());
      },
      nb::arg("location"), nb::arg("severity"), nb::arg("message"),
      nb::arg("notes") = std::vector<std::pair<MlirLocation, std::string>>(),
      "Emits a diagnostic at `location`, as MLIR's emitError / emitWarning / "
      "emitRemark: `severity` is an ir.DiagnosticSeverity (ERROR, WARNING, "
      "REMARK), its int value, or 'error' / 'warning' / 'remark'; `notes` a list "
      "of (location, message) attached to it. It reaches the context's diagnostic "
      "handlers like any diagnostic MLIR emits.");
  m.def(
      "hand_written_semantics",
      []() {
        nb::dict out;
        const char *kinds[] = {"verifiers", "folders", "patterns"};
        for (int kind = 0; kind < 3; ++kind) {
          std::vector<std::string> names;
          tfmlirForEachTfOpWithSemantics(
              kind,
              [](MlirStringRef name, void *userData) {
                static_cast<std::vector<std::string> *>(userData)->emplace_back(name.data,
                                                                                name.length);
              },
              &names);
          std::sort(names.begin(), names.end());
          out[kinds[kind]] = names;
        }
        return out;
      },
      "{'verifiers' | 'folders' | 'patterns': sorted tf op names} of the generated "
      "ops with hand-written C++ semantics of each kind.");
  m.def(
      "attribute_items",
      [](nb::handle owner) {
        // (name, attribute) of an op's attributes or a DictionaryAttr's
        // entries; each attribute downcast where the bindings can, else the
        // plain mlir.ir.Attribute (the bindings' NamedAttribute.attr aborts
        // the process on, e.g., complex dense constants).
        nb::list out;
        std::optional<nb::object> capsule = mlirApiObjectToCapsule(owner);
        if (!capsule)
          throw nb::type_error("attribute_items takes an mlir.ir.Operation, OpView or DictAttr");
        MlirOperation op = mlirPythonCapsuleToOperation(capsule->ptr());
        PyErr_Clear();
        MlirAttribute dict;
        if (!mlirOperationIsNull(op)) {
          // The op's dictionary built once (not once per index, as the C API would).
          dict = tfmlirOperationGetAttributeDictionary(op);
        } else {
          dict = mlirPythonCapsuleToAttribute(capsule->ptr());
          PyErr_Clear();
          if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict))
            throw nb::type_error("attribute_items takes an mlir.ir.Operation, OpView or DictAttr");
        }
        for (intptr_t i = 0, e = mlirDictionaryAttrGetNumElements(dict); i < e; ++i) {
          MlirNamedAttribute named = mlirDictionaryAttrGetElement(dict, i);
          out.append(nb::make_tuple(safeStr(mlirIdentifierStr(named.name)),
                                    attributeToPython(named.attribute)));
        }
        return out;
      },
      nb::arg("owner"),
      "[(name, attribute)] of an op's attributes (inherent and discardable) or "
      "of a DictAttr, never aborting on attributes the bindings cannot downcast "
      "(those come back as plain mlir.ir.Attribute objects).");
  m.def(
      "is_dense_elements", [](MlirAttribute attr) { return mlirAttributeIsADenseElements(attr); },
      nb::arg("attribute"), "Whether `attribute` is a DenseElementsAttr (of any element type).");
  m.def(
      "dense_elements_raw_data",
      [](MlirAttribute attr) -> std::optional<std::pair<nb::bytes, bool>> {
        if (!mlirAttributeIsADenseElements(attr))
          return std::nullopt;
        MlirType element = mlirShapedTypeGetElementType(mlirAttributeGetType(attr));
        if (mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 1)
          return std::nullopt;  // i1 is bit-packed in the raw data
        const void *data = mlirDenseElementsAttrGetRawData(attr);
        bool splat = mlirDenseElementsAttrIsSplat(attr);
        int64_t count = splat ? 1 : mlirElementsAttrGetNumElements(attr);
        int64_t width = tfmlirElementByteWidth(element);
        if (width <= 0 || !data)
          return std::nullopt;
        return std::make_pair(nb::bytes(static_cast<const char *>(data), count * width), splat);
      },
      nb::arg("attribute"),
      "(raw bytes, is_splat) of a DenseElementsAttr of a non-i1 element type "
      "with a whole number of bytes per element (one element when splat), or None. "
      "Reads element types the upstream bindings cannot (complex, f8, ...).");
  m.def(
      "dense_elements_from_raw_data",
      [](MlirType shapedType, nb::bytes data) -> std::optional<nb::object> {
        if (!mlirTypeIsARankedTensor(shapedType) || !mlirShapedTypeHasStaticShape(shapedType))
          return std::nullopt;
        MlirType element = mlirShapedTypeGetElementType(shapedType);
        int64_t width = tfmlirElementByteWidth(element);
        if (width <= 0 || (mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 1))
          return std::nullopt;
        int64_t count = 1;
        for (intptr_t i = 0, e = mlirShapedTypeGetRank(shapedType); i < e; ++i)
          count *= mlirShapedTypeGetDimSize(shapedType, i);
        if (static_cast<int64_t>(data.size()) != count * width)
          return std::nullopt;
        MlirAttribute attr = mlirDenseElementsAttrRawBufferGet(shapedType, data.size(), data.c_str());
        if (mlirAttributeIsNull(attr))
          return std::nullopt;
        nb::object capsule = nb::steal<nb::object>(mlirPythonAttributeToCapsule(attr));
        return mlir::python::irModule().attr("Attribute").attr(MLIR_PYTHON_CAPI_FACTORY_ATTR)(capsule);
      },
      nb::arg("type"), nb::arg("data"),
      "A DenseElementsAttr of the static ranked tensor `type` from raw bytes "
      "(row-major, the element type's byte width each; not i1), as a plain "
      "mlir.ir.Attribute (no downcast), or None when the sizes disagree.");
  m.def(
      "is_multithreading_enabled",
      [](MlirContext ctx) { return tfmlirContextIsMultithreadingEnabled(ctx); },
      nb::arg("context"), "Whether the context runs passes on several threads.");
  m.def(
      "set_constant_evaluator",
      [](nb::object callback) {
        setHookObject(constantEvaluator, std::move(callback));
        tfmlirSetConstantEvaluator(constantEvaluator ? evaluateInPython : nullptr, nullptr);
      },
      nb::arg("callback").none(),
      "Installs `callback(op_name: str, attributes: DictionaryAttr, operands: "
      "list[Attribute], result_types: list[Type]) -> list[Attribute] | None` as "
      "the tf dialect's constant evaluator (TF's kernel-based constant "
      "folding); None removes it. Called only on the thread holding the GIL; "
      "exceptions mean 'not folded'.");
  m.def(
      "set_device_name_merger",
      [](nb::object callback) {
        setHookObject(deviceNameMerger, std::move(callback));
        tfmlirSetDeviceNameMerger(deviceNameMerger ? mergeInPython : nullptr, nullptr);
      },
      nb::arg("callback").none(),
      "Installs `callback(caller: str, node: str) -> str | None` (TF's "
      "MergeUnsetDevNames of node with caller, printed; None if either does "
      "not parse) for the tf inliner's multi-device placement; None removes it.");
  m.def(
      "clear_hooks",
      []() {
        tfmlirSetConstantEvaluator(nullptr, nullptr);
        tfmlirSetDeviceNameMerger(nullptr, nullptr);
        setHookObject(constantEvaluator, nb::none());
        setHookObject(deviceNameMerger, nb::none());
      },
      "Removes the Python hooks (registered with atexit by the package).");
  m.def(
      "parse_collecting",
      [](MlirContext ctx, nb::bytes data) {
        return parseCollecting(ctx, [&] {
          return mlirModuleCreateParse(
              ctx, mlirStringRefCreate(static_cast<const char *>(data.c_str()), data.size()));
        });
      },
      nb::arg("context"), nb::arg("data"),
      "Parses text or bytecode into a module: (module or None, diagnostics), each "
      "diagnostic the 4-tuple of attach_diagnostic_handler. Every diagnostic of the "
      "parse and its verification, on any thread, is collected in C++ and handed over "
      "afterwards: no diagnostic handler runs meanwhile (thread-safe for nested "
      "modules verified in parallel).");
  m.def(
      "parse_file_collecting",
      [](MlirContext ctx, const std::string &path) {
        return parseCollecting(ctx, [&] {
          return mlirModuleCreateParseFromFile(ctx, mlirStringRefCreate(path.data(), path.size()));
        });
      },
      nb::arg("context"), nb::arg("path"),
      "parse_collecting for the file at `path` (locations name the path, as "
      "Module.parseFile's do).");
  m.def(
      "verify_collecting",
      [](MlirOperation op) {
        DiagnosticCollector collector(mlirOperationGetContext(op));
        bool ok = mlirOperationVerify(op);
        return std::make_pair(ok, collector.take());
      },
      nb::arg("operation"),
      "Verifies `operation`: (ok, diagnostics), collected as parse_collecting does.");
  m.def(
      "detach_diagnostic_handler",
      [](MlirContext ctx, uint64_t id) { mlirContextDetachDiagnosticHandler(ctx, id); },
      nb::arg("context"), nb::arg("handler_id"));
  m.def(
      "registered_op_attributes",
      [](MlirContext context, const std::string &name)
          -> std::optional<std::pair<std::vector<std::string>, std::vector<std::string>>> {
        std::pair<std::vector<std::string>, std::vector<std::string>> result;
        bool found = tfmlirRegisteredOpAttributes(
            context, mlirStringRefCreate(name.data(), name.size()),
            [](MlirStringRef attr, bool isDerived, void *userData) {
              auto *out = static_cast<std::pair<std::vector<std::string>,
                                                std::vector<std::string>> *>(userData);
              (isDerived ? out->second : out->first).emplace_back(attr.data, attr.length);
            },
            &result);
        if (!found)
          return std::nullopt;
        return result;
      },
      nb::arg("context"), nb::arg("name"),
      "(stored, derived) attribute names of a registered op's ODS definition, "
      "or None if the op is not registered.");

#define TFMLIR_BIND_SIMPLE_TYPE(Name)                                          \
  mlir_type_subclass(m, #Name "Type", tfmlirTypeIsA##Name##Type)               \
      .def_classmethod(                                                        \
          "get",                                                               \
          [](nb::object cls, MlirContext ctx) {                                \
            return cls(tfmlir##Name##TypeGet(ctx));                            \
          },                                                                   \
          nb::arg("cls"), nb::arg("context") = nb::none());
  TFMLIR_FOR_EACH_SIMPLE_TYPE(TFMLIR_BIND_SIMPLE_TYPE)
#undef TFMLIR_BIND_SIMPLE_TYPE

  mlir_type_subclass(m, "ResourceType", tfmlirTypeIsAResourceType)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<MlirType> subtypes, MlirContext ctx) {
            std::vector<MlirType> checked = checkedSubtypes(subtypes, ctx, "ResourceType");
            return cls(tfmlirResourceTypeGet(ctx, checked.size(), checked.data()));
          },
          nb::arg("cls"), nb::arg("subtypes") = std::vector<MlirType>(),
          nb::arg("context") = nb::none(),
          "!tf_type.resource, optionally with tensor subtypes")
      .def_property_readonly("subtypes", subtypeList);

  mlir_type_subclass(m, "VariantType", tfmlirTypeIsAVariantType)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<MlirType> subtypes, MlirContext ctx) {
            std::vector<MlirType> checked = checkedSubtypes(subtypes, ctx, "VariantType");
            return cls(tfmlirVariantTypeGet(ctx, checked.size(), checked.data()));
          },
          nb::arg("cls"), nb::arg("subtypes") = std::vector<MlirType>(),
          nb::arg("context") = nb::none(),
          "!tf_type.variant, optionally with tensor subtypes")
      .def_property_readonly("subtypes", subtypeList);

  mlir_type_subclass(m, "ControlType", tfmlirTypeIsAControlType)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirContext ctx) { return cls(tfmlirControlTypeGet(ctx)); },
          nb::arg("cls"), nb::arg("context") = nb::none(), "!tf_executor.control");
  mlir_type_subclass(m, "TokenType", tfmlirTypeIsATokenType)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirContext ctx) { return cls(tfmlirTokenTypeGet(ctx)); },
          nb::arg("cls"), nb::arg("context") = nb::none(), "!tf_executor.token");

  mlir_attribute_subclass(m, "ShapeAttr", tfmlirAttributeIsAShapeAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, std::optional<std::vector<int64_t>> dims, MlirContext ctx) {
            if (!dims)
              return cls(tfmlirShapeAttrGet(ctx, -1, nullptr));
            for (int64_t &d : *dims)
              if (d < 0)
                d = tfmlirShapeDynamicDim();
            return cls(tfmlirShapeAttrGet(ctx, dims->size(), dims->data()));
          },
          nb::arg("cls"), nb::arg("dims").none(), nb::arg("context") = nb::none(),
          "#tf_type.shape: None for unranked, -1 (or None inside) for unknown dims")
      .def_property_readonly(
          "rank",
          [](MlirAttribute a) -> std::optional<intptr_t> {
            intptr_t r = tfmlirShapeAttrGetRank(a);
            if (r < 0)
              return std::nullopt;
            return r;
          })
      .def_property_readonly(
          "dims", [](MlirAttribute a) -> std::optional<std::vector<std::optional<int64_t>>> {
            intptr_t r = tfmlirShapeAttrGetRank(a);
            if (r < 0)
              return std::nullopt;
            std::vector<std::optional<int64_t>> dims;
            for (intptr_t i = 0; i < r; ++i) {
              int64_t d = tfmlirShapeAttrGetDim(a, i);
              if (d == tfmlirShapeDynamicDim())
                dims.push_back(std::nullopt);
              else
                dims.push_back(d);
            }
            return dims;
          });

  mlir_attribute_subclass(m, "FuncAttr", tfmlirAttributeIsAFuncAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &name, std::optional<MlirAttribute> attrs,
             MlirContext ctx) {
            if (attrs && !mlirAttributeIsADictionary(*attrs))
              throw nb::value_error("FuncAttr attrs must be a DictionaryAttr");
            if (attrs && !mlirContextEqual(mlirAttributeGetContext(*attrs), ctx))
              throw nb::value_error("FuncAttr attrs belong to another Context");
            return cls(tfmlirFuncAttrGet(
                ctx, mlirStringRefCreate(name.data(), name.size()),
                attrs ? *attrs : MlirAttribute{nullptr}));
          },
          nb::arg("cls"), nb::arg("name"), nb::arg("attrs") = nb::none(),
          nb::arg("context") = nb::none(), "#tf_type.func<@name, {attrs}>")
      .def_property_readonly("name", tfmlirFuncAttrGetName)
      .def_property_readonly("attrs", tfmlirFuncAttrGetAttrs);

  mlir_attribute_subclass(m, "PlaceholderAttr", tfmlirAttributeIsAPlaceholderAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &value, MlirContext ctx) {
            return cls(tfmlirPlaceholderAttrGet(
                ctx, mlirStringRefCreate(value.data(), value.size())));
          },
          nb::arg("cls"), nb::arg("value"), nb::arg("context") = nb::none(),
          "#tf_type.placeholder<\"name\">")
      .def_property_readonly("value", [](MlirAttribute a) {
        MlirStringRef s = tfmlirPlaceholderAttrGetValue(a);
        return std::string(s.data, s.length);
      });
  mlir_attribute_subclass(m, "TensorProtoAttr", tfmlirAttributeIsATensorProtoAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirType type, nb::bytes value) {
            if (!mlirTypeIsAShaped(type) || !mlirShapedTypeHasStaticShape(type))
              throw nb::value_error("TensorProtoAttr needs a statically shaped type (e.g. tensor<2xi8>)");
            return cls(tfmlirTensorProtoAttrGet(
                type, mlirStringRefCreate(static_cast<const char *>(value.data()), value.size())));
          },
          nb::arg("cls"), nb::arg("type"), nb::arg("value"),
          "#tf_type<tensor_proto : \"0x...\"> : type, from the mangled TensorProto bytes")
      .def_property_readonly(
          "value",
          [](MlirAttribute a) {
            MlirStringRef s = tfmlirTensorProtoAttrGetValue(a);
            return nb::bytes(s.data, s.length);
          },
          "the mangled TensorProto bytes (b\"tftensor$...\")")
      .def_property_readonly("hex", [](MlirAttribute a) {
        MlirStringRef s = tfmlirTensorProtoAttrGetValue(a);
        static const char digits[] = "0123456789ABCDEF";
        std::string out = "0x";
        out.reserve(2 + 2 * s.length);
        for (size_t i = 0; i < s.length; ++i) {
          unsigned char c = static_cast<unsigned char>(s.data[i]);
          out += digits[c >> 4];
          out += digits[c & 15];
        }
        return out;
      }, "the bytes as TensorFlow prints them: \"0x\" and upper-case hex");
}
