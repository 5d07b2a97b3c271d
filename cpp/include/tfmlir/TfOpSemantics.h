//===- TfOpSemantics.h - hand-written semantics of generated tf ops -*- C++ -*-===//
//
// Verifiers, folders, result type inference and canonicalization patterns of
// ops generated from TF's registry. Every generated op calls verifyTfOp,
// foldTfOp and populateTfOpPatterns, which look the op's functions up by
// name in tables of the files that define them (scripts/gen_tf_ops.py only
// attaches INFERENCE), so adding or changing one recompiles only that file. They take the generic Operation API, so they work on
// any op of the right shape and need none of the generated op classes.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TFOPSEMANTICS_H
#define TFMLIR_TFOPSEMANTICS_H

#include "tfmlir/TfBase.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

namespace tfmlir {
namespace TF {

/// The integer values of `v` if it is defined by a constant-like op holding
/// integer elements (a tf.Const, or any op folding to dense integers).
std::optional<llvm::SmallVector<int64_t>> getConstantInts(mlir::Value v);

// Verifiers (cpp/lib/TfVerifiers.cpp). Messages follow TF's wording where TF
// has one; unranked or dynamic shapes are accepted wherever a rule cannot be
// decided.
/// The hand-written semantics of the generated ops, looked up by op name:
/// the generated verify(), fold() and getCanonicalizationPatterns() of every
/// op TF defines in ODS call these (no-ops for ops without any).
mlir::LogicalResult verifyTfOp(mlir::Operation *op);
mlir::OpFoldResult foldTfOp(mlir::Operation *op, llvm::ArrayRef<mlir::Attribute> operands);
void populateTfOpPatterns(llvm::StringRef opName, mlir::RewritePatternSet &results,
                          mlir::MLIRContext *context);
/// A hand-written verifier of a generated op, and the tables of the files
/// that define them (by op name, "tf.X"; a later registration replaces an
/// earlier one): cpp/lib/TfVerifiersArray.cpp (shapes, indices, slicing,
/// segments, parsing), cpp/lib/TfVerifiersNn.cpp (pooling, normalization,
/// losses, fake quantization, uniform quantization, XLA ops),
/// cpp/lib/TfVerifiersCalls.cpp (symbol uses of BatchFunction, XlaCallModule).
using OpVerifier = mlir::LogicalResult (*)(mlir::Operation *);
void registerArrayVerifiers(llvm::StringMap<OpVerifier> &table);
void registerCallVerifiers(llvm::StringMap<OpVerifier> &table);
void registerNnVerifiers(llvm::StringMap<OpVerifier> &table);
/// Adds canonicalization patterns (of TF's canonicalize.td and op classes)
/// to a set; the tables of the files that define them map op names ("tf.X")
/// to the populators of the patterns rooted at that op (several per op):
/// cpp/lib/TfPatternsRewrite.cpp (an op rewritten into its newer or simpler
/// form: V1 -> V2 ops, calls of constant branches, ...),
/// cpp/lib/TfPatternsSimplify.cpp (algebraic and shape simplifications).
using PatternPopulator = void (*)(mlir::RewritePatternSet &, mlir::MLIRContext *);
void registerRewritePatterns(llvm::StringMap<llvm::SmallVector<PatternPopulator, 1>> &table);
void registerSimplificationPatterns(llvm::StringMap<llvm::SmallVector<PatternPopulator, 1>> &table);
/// The names of the ops that have a hand-written verifier, folder or
/// canonicalization patterns.
void forEachVerifiedOp(llvm::function_ref<void(llvm::StringRef)> fn);
void forEachFoldedOp(llvm::function_ref<void(llvm::StringRef)> fn);
void forEachCanonicalizedOp(llvm::function_ref<void(llvm::StringRef)> fn);

/// TF's VerifyTypesCompatibility: ranked `values` have one rank and equal
/// static dimensions; with `maskOneDim`, the first dimension found to differ is
/// exempted from then on (Concat's axis, whichever it is).
mlir::LogicalResult verifyTypesCompatibility(mlir::Operation *op, mlir::ValueRange values,
                                             bool maskOneDim);

/// TF's CopyDeviceAndUnderscoredAttributes: copies `device` and every
/// discardable attribute whose name starts with '_' from `from` to `to` (what
/// TF's canonicalization patterns keep of the op they replace).
void copyDeviceAndUnderscoredAttributes(mlir::Operation *from, mlir::Operation *to);

/// A canonicalization pattern rooted at op `root` (matched by name) given as
/// a function, as the pattern files write TF's patterns.
struct FnPattern : public mlir::RewritePattern {
  using Fn = std::function<mlir::LogicalResult(mlir::Operation *, mlir::PatternRewriter &)>;
  FnPattern(llvm::StringRef root, mlir::MLIRContext *context, Fn fn)
      : mlir::RewritePattern(root, /*benefit=*/1, context), fn(std::move(fn)) {}
  mlir::LogicalResult matchAndRewrite(mlir::Operation *op,
                                      mlir::PatternRewriter &rw) const override {
    return fn(op, rw);
  }
  Fn fn;
};

/// The reduction indices of BroadcastGradientArgs' r0 and r1 for
/// broadcasting shapes s0 and s1 to `shape`, as TF's kernel computes them
/// (shared by its verifier and its folding pattern).
void broadcastGradientIndices(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> s0,
                              llvm::ArrayRef<int64_t> s1, llvm::SmallVectorImpl<int64_t> &r0,
                              llvm::SmallVectorImpl<int64_t> &r1);

#define TFMLIR_VERIFIER(name) mlir::LogicalResult name(mlir::Operation *op);
TFMLIR_VERIFIER(verifyBatchMatMulOp)
TFMLIR_VERIFIER(verifyBatchMatMulV2Op)
TFMLIR_VERIFIER(verifyBiasAddOp)
TFMLIR_VERIFIER(verifyBroadcastBinaryOp)
TFMLIR_VERIFIER(verifySameOperandsAndResultElementTypeResolveRef)
TFMLIR_VERIFIER(verifyCastOp)
TFMLIR_VERIFIER(verifyConcatV2Op)
TFMLIR_VERIFIER(verifyConv2DOp)
TFMLIR_VERIFIER(verifyFillOp)
TFMLIR_VERIFIER(verifyGatherV2Op)
TFMLIR_VERIFIER(verifyPackOp)
TFMLIR_VERIFIER(verifyReshapeOp)
TFMLIR_VERIFIER(verifySelectOp)
TFMLIR_VERIFIER(verifySelectV2Op)
TFMLIR_VERIFIER(verifySliceOp)
TFMLIR_VERIFIER(verifySplitOp)
TFMLIR_VERIFIER(verifySplitVOp)
TFMLIR_VERIFIER(verifySqueezeOp)
TFMLIR_VERIFIER(verifyStridedSliceOp)
TFMLIR_VERIFIER(verifyTransposeOp)
TFMLIR_VERIFIER(verifyUnpackOp)
#undef TFMLIR_VERIFIER

// Folders (cpp/lib/TfFolders.cpp): `operands` holds the constant value of
// each operand, or null. An attribute result always has the op's (static)
// result type; a Value result always has the op's result type.
#define TFMLIR_FOLDER(name)                                                    \
  mlir::OpFoldResult name(mlir::Operation *op,                                 \
                          llvm::ArrayRef<mlir::Attribute> operands);
TFMLIR_FOLDER(foldAddOp)
TFMLIR_FOLDER(foldCastOp)
TFMLIR_FOLDER(foldComparisonOp)
TFMLIR_FOLDER(foldConcatV2Op)
TFMLIR_FOLDER(foldDivOp)
TFMLIR_FOLDER(foldFillOp)
TFMLIR_FOLDER(foldLogicalOp)
TFMLIR_FOLDER(foldMaximumOp)
TFMLIR_FOLDER(foldMinimumOp)
TFMLIR_FOLDER(foldMulOp)
TFMLIR_FOLDER(foldPackOp)
TFMLIR_FOLDER(foldRankOp)
TFMLIR_FOLDER(foldReshapeOp)
TFMLIR_FOLDER(foldSelectOp)
TFMLIR_FOLDER(foldSizeOp)
TFMLIR_FOLDER(foldSubOp)
TFMLIR_FOLDER(foldTransposeOp)
TFMLIR_FOLDER(foldUnaryOp)
TFMLIR_FOLDER(foldZerosOnesLikeOp)
#undef TFMLIR_FOLDER
/// The static shape of `type` as a constant of element type `elementType`
/// (i32 or i64), or null when the shape is not static (tf.Shape's folder).
mlir::Attribute foldShapeOf(mlir::Type type, mlir::Type resultType);

// Result type inference (cpp/lib/TfInference.cpp). Never fails on valid IR:
// what cannot be inferred is left dynamic (unranked, or `?` dimensions).
#define TFMLIR_INFERENCE(name)                                                 \
  llvm::LogicalResult name(mlir::MLIRContext *context,                         \
                           std::optional<mlir::Location> location,             \
                           mlir::ValueRange operands, AttrGetter getAttr,      \
                           llvm::SmallVectorImpl<mlir::Type> &inferred);
TFMLIR_INFERENCE(inferConv2DOp)
TFMLIR_INFERENCE(inferSameTypeAsFirstOperand)
TFMLIR_INFERENCE(inferToBoolOp)
#undef TFMLIR_INFERENCE

// Canonicalization patterns (td/TfCanonicalize.td, cpp/lib/TfCanonicalize.cpp).
#define TFMLIR_PATTERNS(name)                                                  \
  void name(mlir::RewritePatternSet &results, mlir::MLIRContext *context);
TFMLIR_PATTERNS(populateAddV2Patterns)
TFMLIR_PATTERNS(populateLogicalNotPatterns)
TFMLIR_PATTERNS(populateNegPatterns)
TFMLIR_PATTERNS(populateRealDivPatterns)
TFMLIR_PATTERNS(populateReshapePatterns)
TFMLIR_PATTERNS(populateSubPatterns)
TFMLIR_PATTERNS(populateTransposePatterns)
#undef TFMLIR_PATTERNS
/// Helpers of the DRR patterns: true if both are integer permutations of the
/// same rank; the permutation of Transpose(Transpose(x, inner), outer); copies
/// the discardable attributes of `from`'s op to `to`'s op (returns `to`).
bool arePermutationsComposable(mlir::Attribute inner, mlir::Attribute outer);
mlir::ElementsAttr composePermutations(mlir::Attribute inner, mlir::Attribute outer);
mlir::Value copyDiscardableAttrs(mlir::Value from, mlir::Value to);

} // namespace TF
} // namespace tfmlir

#endif // TFMLIR_TFOPSEMANTICS_H
