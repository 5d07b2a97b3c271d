//===- TfCanonicalize.cpp - canonicalization patterns of tf ops ------------===//
//
// The DRR patterns of td/TfCanonicalize.td, handed to `-canonicalize` through
// the getCanonicalizationPatterns of their root ops, and their helpers.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"
#include "tfmlir/TfPatternOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;

bool tfmlir::TF::arePermutationsComposable(Attribute inner, Attribute outer) {
  auto a = llvm::dyn_cast_or_null<DenseIntElementsAttr>(inner);
  auto b = llvm::dyn_cast_or_null<DenseIntElementsAttr>(outer);
  if (!a || !b || a.getType().getRank() != 1 || a.getNumElements() != b.getNumElements())
    return false;
  int64_t n = a.getNumElements();
  for (DenseIntElementsAttr perm : {a, b}) {
    SmallVector<bool> seen(n, false);
    for (const APInt &v : perm.getValues<APInt>()) {
      int64_t i = v.getSExtValue();
      if (i < 0 || i >= n || seen[i])
        return false;
      seen[i] = true;
    }
  }
  return true;
}

ElementsAttr tfmlir::TF::composePermutations(Attribute inner, Attribute outer) {
  auto a = llvm::cast<DenseIntElementsAttr>(inner);
  auto b = llvm::cast<DenseIntElementsAttr>(outer);
  SmallVector<APInt> p = llvm::to_vector(a.getValues<APInt>());
  SmallVector<APInt> composed;
  for (const APInt &v : b.getValues<APInt>())
    composed.push_back(p[v.getSExtValue()]);
  return DenseElementsAttr::get(a.getType(), composed);
}

Value tfmlir::TF::copyDiscardableAttrs(Value from, Value to) {
  Operation *src = from.getDefiningOp(), *dst = to.getDefiningOp();
  if (src && dst)
    for (NamedAttribute attr : src->getDiscardableAttrs())
      if (!dst->getDiscardableAttr(attr.getName()))
        dst->setDiscardableAttr(attr.getName(), attr.getValue());
  return to;
}

namespace {
#include "tfmlir/TfCanonicalize.inc"
} // namespace

void tfmlir::TF::IdentityOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                        MLIRContext *context) {
  results.add<TF_IdentityOfIdentity>(context);
}

void tfmlir::TF::populateAddV2Patterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<TF_AddV2OfNegLeft, TF_AddV2OfNegRight>(context);
}

void tfmlir::TF::populateSubPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<TF_SubOfNeg>(context);
}

void tfmlir::TF::populateNegPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<TF_NegOfNeg>(context);
}

void tfmlir::TF::populateLogicalNotPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<TF_LogicalNotOfLogicalNot>(context);
}

void tfmlir::TF::populateReshapePatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<TF_ReshapeOfReshape>(context);
}

void tfmlir::TF::populateTransposePatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<TF_TransposeOfTranspose>(context);
}

void tfmlir::TF::populateRealDivPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<TF_RealDivOfSqrt, TF_RealDivOfF32Const>(context);
}
