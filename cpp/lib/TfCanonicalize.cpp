//===- TfCanonicalize.cpp - canonicalization patterns of tf ops ------------===//
//
// The DRR patterns of td/TfCanonicalize.td, handed to `-canonicalize` through
// the getCanonicalizationPatterns of their root ops, and their helpers.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"
#include "tfmlir/TfPatternOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

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

// TF's dialect has no canonicalization of tf.Identity (an Identity of an
// Identity stays: each may name a fetched node or carry a device).
void tfmlir::TF::IdentityOp::getCanonicalizationPatterns(RewritePatternSet &,
                                                        MLIRContext *) {}

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

//===----------------------------------------------------------------------===//
// Dispatch: the canonicalization patterns of each generated op, by name.
//===----------------------------------------------------------------------===//

namespace {
using Populate = tfmlir::TF::PatternPopulator;

const llvm::StringMap<llvm::SmallVector<Populate, 1>> &patternTable() {
  static const llvm::StringMap<llvm::SmallVector<Populate, 1>> table = [] {
    llvm::StringMap<llvm::SmallVector<Populate, 1>> t;
    using namespace tfmlir::TF;
    for (auto [name, fn] : std::initializer_list<std::pair<const char *, Populate>>{
             {"AddV2", populateAddV2Patterns}, {"LogicalNot", populateLogicalNotPatterns},
             {"Neg", populateNegPatterns}, {"RealDiv", populateRealDivPatterns},
             {"Reshape", populateReshapePatterns}, {"Sub", populateSubPatterns},
             {"Transpose", populateTransposePatterns}})
      t[std::string("tf.") + name].push_back(fn);
    registerRewritePatterns(t);
    registerSimplificationPatterns(t);
    return t;
  }();
  return table;
}
} // namespace

void tfmlir::TF::populateTfOpPatterns(StringRef opName, RewritePatternSet &results,
                                      MLIRContext *context) {
  const auto &table = patternTable();
  auto it = table.find(opName);
  if (it != table.end())
    for (Populate fn : it->second)
      fn(results, context);
}

void tfmlir::TF::forEachCanonicalizedOp(llvm::function_ref<void(llvm::StringRef)> fn) {
  for (const auto &entry : patternTable())
    fn(entry.getKey());
}

//===----------------------------------------------------------------------===//
// tf.WhileRegion (TF's patterns of the same names)
//===----------------------------------------------------------------------===//

/// `v` through any chain of tf.Identity / tf.IdentityN.
static Value lookThroughIdentity(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    StringRef name = def->getName().getStringRef();
    if (name != "tf.Identity" && name != "tf.IdentityN")
      break;
    v = def->getOperand(llvm::cast<OpResult>(v).getResultNumber());
  }
  return v;
}

namespace {
/// An operand whose type is not its (agreeing) cond and body arguments'
/// becomes a tf.Cast to that type.
struct WhileRegionExplicitCast : public OpRewritePattern<tfmlir::TF::WhileRegionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tfmlir::TF::WhileRegionOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front(), &cond = op.getCond().front();
    bool changed = false;
    for (unsigned i = 0, e = op.getNumOperands(); i < e; ++i) {
      Type type = body.getArgument(i).getType();
      Value operand = op->getOperand(i);
      if (type != cond.getArgument(i).getType() || type == operand.getType())
        continue;
      rewriter.setInsertionPoint(op);
      OperationState state(op.getLoc(), "tf.Cast");
      state.addOperands(operand);
      state.addTypes(type);
      Operation *cast = rewriter.create(state);
      rewriter.modifyOpInPlace(op, [&] { op->setOperand(i, cast->getResult(0)); });
      changed = true;
    }
    return success(changed);
  }
};

/// Values the body passes through unchanged (and the cond, if it forwards
/// values) are replaced by the operand; loop values nothing uses any more are
/// removed.
struct WhileRegionEliminatePassThrough : public OpRewritePattern<tfmlir::TF::WhileRegionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tfmlir::TF::WhileRegionOp op,
                                PatternRewriter &rewriter) const override {
    unsigned numOperands = op.getNumOperands();
    Block &body = op.getBody().front(), &cond = op.getCond().front();
    Operation *bodyYield = body.getTerminator(), *condYield = cond.getTerminator();
    bool condForwards = condYield->getNumOperands() > 1;
    llvm::BitVector removed(numOperands);
    bool replaced = false;
    for (unsigned i = 0; i < numOperands; ++i) {
      BlockArgument bodyArg = body.getArgument(i), condArg = cond.getArgument(i);
      Value yielded = lookThroughIdentity(bodyYield->getOperand(i));
      Value condYielded = condForwards ? lookThroughIdentity(condYield->getOperand(i + 1)) : Value();
      Value operand = op->getOperand(i);
      if ((yielded == bodyArg || yielded == operand) &&
          (!condForwards || condYielded == condArg || condYielded == operand)) {
        for (Value v : {Value(bodyArg), Value(condArg), Value(op->getResult(i))})
          if (v.getType() == operand.getType() && !v.use_empty()) {
            rewriter.replaceAllUsesWith(v, operand);
            replaced = true;
          }
      }
      if (bodyArg.use_empty() && condArg.use_empty() && op->getResult(i).use_empty())
        removed.set(i);
    }
    if (removed.none())
      return success(replaced);

    SmallVector<Value> operands;
    SmallVector<Type> types;
    for (unsigned i = 0; i < numOperands; ++i)
      if (!removed.test(i)) {
        operands.push_back(op->getOperand(i));
        types.push_back(op->getResult(i).getType());
      }
    rewriter.setInsertionPoint(op);
    auto newOp = rewriter.create<tfmlir::TF::WhileRegionOp>(op.getLoc(), types, operands,
                                                            op->getAttrs());
    rewriter.inlineRegionBefore(op.getCond(), newOp.getCond(), newOp.getCond().end());
    rewriter.inlineRegionBefore(op.getBody(), newOp.getBody(), newOp.getBody().end());
    Block &newBody = newOp.getBody().front(), &newCond = newOp.getCond().front();
    rewriter.modifyOpInPlace(newOp, [&] {
      newCond.eraseArguments(removed);
      newBody.eraseArguments(removed);
      newBody.getTerminator()->eraseOperands(removed);
      if (condForwards) {
        llvm::BitVector shifted(numOperands + 1);
        for (unsigned i = 0; i < numOperands; ++i)
          if (removed.test(i))
            shifted.set(i + 1);
        newCond.getTerminator()->eraseOperands(shifted);
      }
    });
    SmallVector<Value> results(numOperands);
    unsigned next = 0;
    for (unsigned i = 0; i < numOperands; ++i)
      if (!removed.test(i))
        results[i] = newOp->getResult(next++);
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void tfmlir::TF::WhileRegionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                           MLIRContext *context) {
  results.add<WhileRegionExplicitCast, WhileRegionEliminatePassThrough>(context);
}

//===----------------------------------------------------------------------===//
// tf.If, tf.Case, tf.IfRegion, tf.CaseRegion (TF's patterns of the same
// names); tf.ReadVariableOp (its patterns by name, as the generated ops')
//===----------------------------------------------------------------------===//

void tfmlir::TF::copyDeviceAndUnderscoredAttributes(Operation *from, Operation *to) {
  for (NamedAttribute attr : from->getDiscardableAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name == "device" || name.starts_with("_"))
      to->setDiscardableAttr(attr.getName(), attr.getValue());
  }
}

/// `op` replaced by a call `callName` of `f` on `args`, with empty config,
/// config_proto and executor_type and `op`'s device and underscored
/// attributes (`output_shapes` is not carried over).
static void replaceByCall(PatternRewriter &rewriter, Operation *op, StringRef callName,
                          Attribute f, ValueRange args) {
  StringAttr empty = rewriter.getStringAttr("");
  OperationState state(op->getLoc(), callName);
  state.addOperands(args);
  state.addTypes(op->getResultTypes());
  state.addAttribute("f", f);
  state.addAttribute("config", empty);
  state.addAttribute("config_proto", empty);
  state.addAttribute("executor_type", empty);
  rewriter.setInsertionPoint(op);
  Operation *call = rewriter.create(state);
  tfmlir::TF::copyDeviceAndUnderscoredAttributes(op, call);
  rewriter.replaceOp(op, call->getResults());
}

/// The constant integer elements of `v` (null if not constant).
static DenseIntElementsAttr constantInts(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return {};
  return llvm::dyn_cast<DenseIntElementsAttr>(attr);
}

namespace {
/// tf.If of a constant scalar bool: a (Stateful)PartitionedCall of the
/// branch it takes, stateful unless the If is stateless.
struct FoldConstantIfOp : public OpRewritePattern<tfmlir::TF::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tfmlir::TF::IfOp op, PatternRewriter &rewriter) const override {
    DenseIntElementsAttr cond = constantInts(op->getOperand(0));
    if (!cond || cond.getNumElements() != 1 || !cond.getElementType().isInteger(1))
      return failure();
    bool taken = *cond.getValues<bool>().begin();
    Attribute f = op->getAttr(taken ? "then_branch" : "else_branch");
    auto stateless = op->getAttrOfType<BoolAttr>("is_stateless");
    replaceByCall(rewriter, op,
                  stateless && stateless.getValue() ? "tf.PartitionedCall"
                                                    : "tf.StatefulPartitionedCall",
                  f, op->getOperands().drop_front());
    return success();
  }
};

/// tf.Case of a constant index: a PartitionedCall of its branch (the last
/// one for an index out of range).
struct FoldConstantCaseOp : public OpRewritePattern<tfmlir::TF::CaseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tfmlir::TF::CaseOp op, PatternRewriter &rewriter) const override {
    DenseIntElementsAttr index = constantInts(op->getOperand(0));
    auto branches = op->getAttrOfType<ArrayAttr>("branches");
    if (!index || index.getNumElements() == 0 || !branches || branches.empty())
      return failure();
    int64_t i = (*index.getValues<APInt>().begin()).getSExtValue();
    int64_t n = branches.size();
    if (i < 0 || i >= n)
      i = n - 1;
    replaceByCall(rewriter, op, "tf.PartitionedCall", branches[i], op->getOperands().drop_front());
    return success();
  }
};

/// TF's DropAttributes: the `output_shapes` attribute an import may leave.
template <typename OpT>
struct DropOutputShapes : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    if (!op->getDiscardableAttr("output_shapes"))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op->removeDiscardableAttr("output_shapes"); });
    return success();
  }
};

/// tf.IfRegion of a constant condition: the branch it takes inlined, its
/// yielded values cast (Truncate = false) to the result types they differ
/// from.
struct FoldConstantIfRegionOp : public OpRewritePattern<tfmlir::TF::IfRegionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tfmlir::TF::IfRegionOp op,
                                PatternRewriter &rewriter) const override {
    DenseIntElementsAttr cond = constantInts(op->getOperand(0));
    if (!cond || cond.getNumElements() != 1 || !cond.getElementType().isInteger(1))
      return failure();
    Region &region = *cond.getValues<bool>().begin() ? op.getThenBranch() : op.getElseBranch();
    Block &block = region.front();
    Operation *yield = block.getTerminator();
    SmallVector<Value> results(yield->getOperands());
    rewriter.setInsertionPoint(yield);
    for (auto [type, value] : llvm::zip(op->getResultTypes(), results)) {
      if (value.getType() == type)
        continue;
      OperationState state(op.getLoc(), "tf.Cast");
      state.addOperands(value);
      state.addTypes(type);
      state.addAttribute("Truncate", rewriter.getBoolAttr(false));
      value = rewriter.create(state)->getResult(0);
    }
    rewriter.inlineBlockBefore(&block, op);
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Results every branch of a tf.IfRegion / tf.CaseRegion yields the same
/// value from outside for are that value; the op is rebuilt without them
/// (TF's CaseOrIfRegionEliminatePassThrough). A value of another type than
/// its result is kept as a result.
template <typename OpT>
struct CaseOrIfRegionEliminatePassThrough : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    MutableArrayRef<Region> branches = op->getRegions();
    Block &first = branches.front().front();
    unsigned numResults = op->getNumResults();
    SmallVector<Value> external(numResults);
    SmallVector<Type> types;
    llvm::BitVector passThrough(numResults);
    for (unsigned i = 0; i < numResults; ++i) {
      Value returned = first.getTerminator()->getOperand(i);
      Type type = op->getResult(i).getType();
      if (returned.getParentBlock() == &first) {
        types.push_back(type);
        continue;
      }
      for (Region &region : branches.drop_front())
        if (region.front().getTerminator()->getOperand(i) != returned)
          return failure();
      if (returned.getType() != type) {
        types.push_back(type);
        continue;
      }
      external[i] = returned;
      passThrough.set(i);
    }
    if (passThrough.none())
      return failure();

    OperationState state(op.getLoc(), op->getName());
    state.addOperands(op->getOperands());
    state.addTypes(types);
    state.addAttributes(op->getAttrs());
    for (unsigned r = 0, e = op->getNumRegions(); r < e; ++r)
      state.addRegion();
    rewriter.setInsertionPoint(op);
    Operation *newOp = rewriter.create(state);
    for (unsigned r = 0, e = op->getNumRegions(); r < e; ++r) {
      Region &to = newOp->getRegion(r);
      rewriter.inlineRegionBefore(op->getRegion(r), to, to.end());
      Operation *yield = to.front().getTerminator();
      rewriter.modifyOpInPlace(yield, [&] { yield->eraseOperands(passThrough); });
    }
    SmallVector<Value> replacements(numResults);
    unsigned next = 0;
    for (unsigned i = 0; i < numResults; ++i)
      replacements[i] = passThrough.test(i) ? external[i] : newOp->getResult(next++);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};
} // namespace

void tfmlir::TF::IfOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<FoldConstantIfOp, DropOutputShapes<IfOp>>(context);
}

void tfmlir::TF::CaseOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                    MLIRContext *context) {
  results.add<FoldConstantCaseOp, DropOutputShapes<CaseOp>>(context);
}

void tfmlir::TF::IfRegionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                        MLIRContext *context) {
  results.add<FoldConstantIfRegionOp, CaseOrIfRegionEliminatePassThrough<IfRegionOp>>(context);
}

void tfmlir::TF::CaseRegionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                          MLIRContext *context) {
  results.add<CaseOrIfRegionEliminatePassThrough<CaseRegionOp>>(context);
}

void tfmlir::TF::ReadVariableOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                            MLIRContext *context) {
  populateTfOpPatterns(getOperationName(), results, context);
}
