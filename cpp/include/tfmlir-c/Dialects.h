/*===- tfmlir-c/Dialects.h - C API of the tfmlir dialects ---------*- C -*-===*/
#ifndef TFMLIR_C_DIALECTS_H
#define TFMLIR_C_DIALECTS_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TFType, tf_type);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TfExecutor, tf_executor);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TfDevice, tf_device);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TF, tf);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TfSavedModel, tf_saved_model);

/// Inserts tf_type, tf, tf_executor, tf_device and tf_saved_model into `registry`.
MLIR_CAPI_EXPORTED void tfmlirRegisterAllDialects(MlirDialectRegistry registry);

/* Simple tf_type types: tfmlirTypeIsA<Name>Type / tfmlir<Name>TypeGet. */
#define TFMLIR_FOR_EACH_SIMPLE_TYPE(X)                                         \
  X(Qint8) X(Qint16) X(Qint32) X(Quint8) X(Quint16) X(String)                 \
  X(FloatRef) X(DoubleRef) X(Uint4Ref) X(Int4Ref) X(Uint8Ref) X(Int8Ref)      \
  X(Uint16Ref) X(Int16Ref) X(Uint32Ref) X(Int32Ref) X(Uint64Ref) X(Int64Ref)  \
  X(StringRef) X(BoolRef) X(Quint8Ref) X(Qint8Ref) X(Quint16Ref)              \
  X(Qint16Ref) X(Qint32Ref) X(Bfloat16Ref) X(Complex64Ref) X(Complex128Ref)   \
  X(HalfRef) X(ResourceRef) X(Float8E4M3FNRef) X(Float8E5M2Ref)               \
  X(Float8E4M3FNUZRef) X(Float8E4M3B11FNUZRef) X(Float8E5M2FNUZRef)           \
  X(VariantRef)

#define TFMLIR_DECLARE_SIMPLE_TYPE(Name)                                       \
  MLIR_CAPI_EXPORTED bool tfmlirTypeIsA##Name##Type(MlirType type);            \
  MLIR_CAPI_EXPORTED MlirType tfmlir##Name##TypeGet(MlirContext ctx);
TFMLIR_FOR_EACH_SIMPLE_TYPE(TFMLIR_DECLARE_SIMPLE_TYPE)
#undef TFMLIR_DECLARE_SIMPLE_TYPE

/* !tf_type.resource<...> and !tf_type.variant<...> */
MLIR_CAPI_EXPORTED bool tfmlirTypeIsAResourceType(MlirType type);
MLIR_CAPI_EXPORTED MlirType tfmlirResourceTypeGet(MlirContext ctx, intptr_t n,
                                                  MlirType const *subtypes);
MLIR_CAPI_EXPORTED bool tfmlirTypeIsAVariantType(MlirType type);
MLIR_CAPI_EXPORTED MlirType tfmlirVariantTypeGet(MlirContext ctx, intptr_t n,
                                                 MlirType const *subtypes);
/* Subtypes of a resource or variant type. */
MLIR_CAPI_EXPORTED intptr_t tfmlirTypeWithSubtypesGetNumSubtypes(MlirType type);
MLIR_CAPI_EXPORTED MlirType tfmlirTypeWithSubtypesGetSubtype(MlirType type,
                                                             intptr_t pos);

/* !tf_executor.control and !tf_executor.token */
MLIR_CAPI_EXPORTED bool tfmlirTypeIsAControlType(MlirType type);
MLIR_CAPI_EXPORTED MlirType tfmlirControlTypeGet(MlirContext ctx);
MLIR_CAPI_EXPORTED bool tfmlirTypeIsATokenType(MlirType type);
MLIR_CAPI_EXPORTED MlirType tfmlirTokenTypeGet(MlirContext ctx);

/* #tf_type.shape<...>: rank -1 means unranked; dims use INT64_MIN for '?'. */
MLIR_CAPI_EXPORTED bool tfmlirAttributeIsAShapeAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute tfmlirShapeAttrGet(MlirContext ctx,
                                                    intptr_t rank,
                                                    int64_t const *dims);
MLIR_CAPI_EXPORTED intptr_t tfmlirShapeAttrGetRank(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t tfmlirShapeAttrGetDim(MlirAttribute attr,
                                                 intptr_t pos);
MLIR_CAPI_EXPORTED int64_t tfmlirShapeDynamicDim(void);

/* #tf_type.func<@name, {attrs}> */
MLIR_CAPI_EXPORTED bool tfmlirAttributeIsAFuncAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute tfmlirFuncAttrGet(MlirContext ctx,
                                                   MlirStringRef name,
                                                   MlirAttribute attrs);
MLIR_CAPI_EXPORTED MlirAttribute tfmlirFuncAttrGetName(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute tfmlirFuncAttrGetAttrs(MlirAttribute attr);

/* #tf_type.placeholder<"name"> */
MLIR_CAPI_EXPORTED bool tfmlirAttributeIsAPlaceholderAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute tfmlirPlaceholderAttrGet(MlirContext ctx,
                                                          MlirStringRef value);
MLIR_CAPI_EXPORTED MlirStringRef tfmlirPlaceholderAttrGetValue(MlirAttribute attr);

/* #tf_type<tensor_proto : "0x..."> : <type>: TensorFlow's mangled TensorProto
   bytes with a shaped type (`type` must be a statically shaped ShapedType). */
MLIR_CAPI_EXPORTED bool tfmlirAttributeIsATensorProtoAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute tfmlirTensorProtoAttrGet(MlirType type, MlirStringRef value);
MLIR_CAPI_EXPORTED MlirStringRef tfmlirTensorProtoAttrGetValue(MlirAttribute attr);

/* ODS facts of a registered op: calls `callback(name, isDerived, userData)`
   for each attribute its definition declares (stored or derived). Returns
   false if `opName` is not a registered operation in `ctx`. */
/* The first operation under (and including) `root`, in pre-order, that MLIR's
   symbol-use walk cannot see into -- an op with one region from a dialect that
   is not loaded (an unregistered dialect), which may be an unknown symbol
   table -- or a null operation if there is none. Upstream passes that need
   all symbol uses (the inliner) assert on such IR. */
MLIR_CAPI_EXPORTED MlirOperation
tfmlirFindPotentiallyUnknownSymbolTable(MlirOperation root);

/* Every attribute of `op` (inherent and discardable) as one DictionaryAttr, built
   once (the C API's mlirOperationGetAttribute(op, i) builds it on every call for
   ops with properties). */
MLIR_CAPI_EXPORTED MlirAttribute tfmlirOperationGetAttributeDictionary(MlirOperation op);

/* The length of the well-formed UTF-8 sequence starting at `p` (before `end`),
   or 0 (overlong forms, surrogates and code points above U+10FFFF are not). */
MLIR_CAPI_EXPORTED size_t tfmlirUtf8SequenceLength(const char *p, const char *end);

/* Whether `s` is well-formed UTF-8 (see tfmlirUtf8SequenceLength). */
MLIR_CAPI_EXPORTED bool tfmlirIsValidUtf8(MlirStringRef s);

/* The first op under (and including) `root` (pre-order) whose name, attribute
   names (inherent and discardable), symbol name, symbol references (inside
   arrays and dictionaries, dictionary keys too) or location names and file
   names are not UTF-8; null if there is none. `what` (if not null) receives a
   description of what is wrong through `callback`. Each uniqued name,
   attribute and location is checked once. */
MLIR_CAPI_EXPORTED MlirOperation tfmlirFindNonUtf8(MlirOperation root,
                                                  MlirStringCallback callback,
                                                  void *userData);

/* The first op under (and including) `root` (pre-order) holding a shaped type
   whose static element count overflows int64 -- in a result, a block argument
   of its regions or an attribute (types nested anywhere included) -- with the
   type in `culprit`; a null operation if there is none.
   ShapedType::getNumElements asserts on such types. */
MLIR_CAPI_EXPORTED MlirOperation tfmlirFindElementCountOverflow(MlirOperation root,
                                                               MlirType *culprit);

typedef void (*TfmlirAttributeNameCallback)(MlirStringRef name, bool isDerived,
                                            void *userData);
MLIR_CAPI_EXPORTED bool tfmlirRegisteredOpAttributes(
    MlirContext ctx, MlirStringRef opName, TfmlirAttributeNameCallback callback,
    void *userData);

/* Calls `callback(name, userData)` for each tf op with a hand-written
   verifier (kind 0), folder (kind 1) or canonicalization patterns (kind 2). */
typedef void (*TfmlirNameCallback)(MlirStringRef name, void *userData);
MLIR_CAPI_EXPORTED void tfmlirForEachTfOpWithSemantics(int kind, TfmlirNameCallback callback,
                                                       void *userData);

/* Emits a diagnostic of `severity` (error, warning or remark; a note cannot
   stand alone and is emitted as a remark) with `message` at `loc`, as MLIR's
   emitError/emitWarning/emitRemark do. */
MLIR_CAPI_EXPORTED void tfmlirEmitDiagnostic(MlirLocation loc,
                                             MlirDiagnosticSeverity severity,
                                             MlirStringRef message);

/* tfmlirEmitDiagnostic with `numNotes` notes attached (each at its location). */
MLIR_CAPI_EXPORTED void tfmlirEmitDiagnosticWithNotes(MlirLocation loc,
                                                      MlirDiagnosticSeverity severity,
                                                      MlirStringRef message, intptr_t numNotes,
                                                      MlirLocation const *noteLocations,
                                                      MlirStringRef const *noteMessages);

/* Whether `ctx` runs passes on several threads. */
MLIR_CAPI_EXPORTED bool tfmlirContextIsMultithreadingEnabled(MlirContext ctx);

/* Hooks of the tf dialect's interfaces (tfmlir/TfInterfaces.h), process-wide;
   a null function removes the hook.

   Constant evaluation (TF's constant-folding hook runs TF's kernels): evaluate
   op `opName` with all its attributes `attributes` (a DictionaryAttr) on
   constant `operands` (ElementsAttrs) for results of `resultTypes`; return
   true with `results[0..numResults)` set to ElementsAttrs, or false to leave
   the op unfolded. */
typedef bool (*TfmlirConstantEvaluator)(MlirStringRef opName, MlirAttribute attributes,
                                        intptr_t numOperands, MlirAttribute const *operands,
                                        intptr_t numResults, MlirType const *resultTypes,
                                        MlirAttribute *results, void *userData);
MLIR_CAPI_EXPORTED void tfmlirSetConstantEvaluator(TfmlirConstantEvaluator fn,
                                                   void *userData);
/* Device names for the inliner's multi-device placement: pass to `merged` the
   device name DeviceNameUtils::MergeUnsetDevNames makes of `node` with the
   unset parts taken from `caller` (ParsedNameToString) and return true, or
   return false if either name does not parse. */
typedef bool (*TfmlirDeviceNameMerger)(MlirStringRef caller, MlirStringRef node,
                                       MlirStringCallback merged, void *mergedUserData,
                                       void *userData);
MLIR_CAPI_EXPORTED void tfmlirSetDeviceNameMerger(TfmlirDeviceNameMerger fn,
                                                  void *userData);

#ifdef __cplusplus
}
#endif

#endif /* TFMLIR_C_DIALECTS_H */
