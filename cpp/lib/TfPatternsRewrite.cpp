//===- TfPatternsRewrite.cpp - canonicalization patterns of tf ops ---------===//
//
// TensorFlow 2.21's canonicalization patterns of generated tf ops: ops rewritten into their newer or simpler form (V1 -> V2 ops, constant-branch control flow to calls, ...).
// Each pattern does what TF's does, on the same conditions (TF's
// canonicalize.td and op classes), written with the generic Operation API
// (patterns match root ops by name; new ops are built from an
// OperationState), so this file needs none of the generated op classes.
// Registered by root op name in the table of TfCanonicalize.cpp.
//
// New ops are built detached, get TF's copied attributes, and are verified
// before anything is inserted: where TF's pattern would build an op its
// verifier rejects (TF builds it anyway), the pattern does not apply.
// Patterns that TF writes in DRR give every attribute they carry over
// explicitly, its default where the source op has none, as DRR does.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Dialect/Traits.h"

#include <complex>
#include <functional>

using namespace mlir;
using tfmlir::TF::FnPattern;
namespace tf_type = tfmlir::tf_type;

namespace {

Operation *definingOp(Value v, StringRef name) {
  Operation *def = v.getDefiningOp();
  return def && def->getName().getStringRef() == name ? def : nullptr;
}

bool isRankedOfRank(Type type, int64_t rank) {
  auto ranked = llvm::dyn_cast<RankedTensorType>(type);
  return ranked && ranked.getRank() == rank;
}

/// The new ops of one rewrite of `root`: built detached, inserted before
/// `root` only once every one of them verifies, destroyed otherwise.
class NewOps {
public:
  NewOps(PatternRewriter &rw, Operation *root) : rw(rw), root(root) {}
  NewOps(const NewOps &) = delete;
  ~NewOps() {
    for (Operation *op : llvm::reverse(ops))
      op->destroy();
  }

  /// A new op `name`; `copyFrom` (default: the root) gives its device and
  /// underscored attributes, as TF's CopyAttrs / CreateTfOp do.
  Operation *create(StringRef name, ValueRange operands, TypeRange types,
                    ArrayRef<NamedAttribute> attrs = {}, bool copyAttrs = true) {
    OperationState state(root->getLoc(), name);
    state.addOperands(operands);
    state.addTypes(types);
    for (NamedAttribute attr : attrs) {
      if (attr.getValue())
        state.addAttribute(attr.getName(), attr.getValue());
      else
        missingAttr = true;
    }
    Operation *op = Operation::create(state);
    ops.push_back(op);
    if (copyAttrs)
      tfmlir::TF::copyDeviceAndUnderscoredAttributes(root, op);
    return op;
  }

  /// A tf.Const holding `value` (of the value's type; nothing copied).
  Value constant(DenseElementsAttr value) {
    return create("tf.Const", {}, value.getType(), {named("value", value)}, false)->getResult(0);
  }
  /// A scalar tf.Const of i32 `v` (TF's TF_ConstOp (GetI32Attr<v>)).
  Value i32Constant(int32_t v) {
    auto type = RankedTensorType::get({}, rw.getI32Type());
    return constant(DenseElementsAttr::get(type, rw.getI32IntegerAttr(v)));
  }

  NamedAttribute named(StringRef name, Attribute value) {
    return NamedAttribute(rw.getStringAttr(name), value);
  }
  /// `name` as `from` carries it, else `dflt` (DRR's default-valued
  /// attributes); a null result means the source lacks a required attribute.
  NamedAttribute carried(Operation *from, StringRef name, Attribute dflt = {}) {
    Attribute value = from->getAttr(name);
    return named(name, value ? value : dflt);
  }

  /// Verifies the new ops, inserts them before the root and replaces the
  /// root by `replacements` (or erases it when it has no results).
  LogicalResult replaceRoot(ValueRange replacements) {
    if (!insertAll())
      return failure();
    if (root->getNumResults() == 0)
      rw.eraseOp(root);
    else
      rw.replaceOp(root, replacements);
    return success();
  }
  LogicalResult replaceRoot(Operation *replacement) {
    return replaceRoot(replacement->getResults());
  }

private:
  /// Verified in place (for verifiers that look at the enclosing module),
  /// inserted unseen and taken out again before the rewriter inserts them.
  bool insertAll() {
    if (missingAttr)
      return false;
    Block *block = root->getBlock();
    for (Operation *op : ops)
      block->getOperations().insert(Block::iterator(root), op);
    bool verified = true;
    {
      ScopedDiagnosticHandler quiet(root->getContext(), [](Diagnostic &) { return success(); });
      for (Operation *op : ops)
        verified = verified && succeeded(mlir::verify(op, /*verifyRecursively=*/false));
    }
    for (Operation *op : ops)
      op->remove();
    if (!verified)
      return false;
    rw.setInsertionPoint(root);
    for (Operation *op : ops)
      rw.insert(op);
    ops.clear();
    return true;
  }

  PatternRewriter &rw;
  Operation *root;
  SmallVector<Operation *> ops;
  bool missingAttr = false;
};

/// `op` (one result) -> `name` on `operands` with `op`'s result types, the
/// inherent `attrs` and `op`'s device and underscored attributes.
LogicalResult rewriteAs(Operation *op, PatternRewriter &rw, StringRef name, ValueRange operands,
                        ArrayRef<NamedAttribute> attrs = {}) {
  NewOps ops(rw, op);
  return ops.replaceRoot(ops.create(name, operands, op->getResultTypes(), attrs));
}

void add(RewritePatternSet &results, MLIRContext *context, StringRef root, FnPattern::Fn fn) {
  results.add<FnPattern>(root, context, std::move(fn));
}

/// TF's TF_Number (integers incl. 4-bit, floats incl. f8E4M3FN/f8E5M2,
/// quantized, complex; refs resolved).
bool isNumber(Type elementType) {
  Type e = tf_type::dropRefType(elementType);
  if (auto i = llvm::dyn_cast<IntegerType>(e)) {
    unsigned w = i.getWidth();
    if (w == 4)
      return !i.isSignless();
    return (w == 8 || w == 16 || w == 32 || w == 64) && !i.isSigned();
  }
  if (e.isF16() || e.isF32() || e.isF64() || e.isBF16() ||
      llvm::isa<Float8E4M3FNType, Float8E5M2Type>(e))
    return true;
  if (llvm::isa<tf_type::Qint8Type, tf_type::Qint16Type, tf_type::Qint32Type, tf_type::Quint8Type,
                tf_type::Quint16Type>(e))
    return true;
  auto complex = llvm::dyn_cast<ComplexType>(e);
  return complex && (complex.getElementType().isF32() || complex.getElementType().isF64());
}

bool isNumberTensor(Type type) {
  auto tensor = llvm::dyn_cast<TensorType>(type);
  return tensor && isNumber(tensor.getElementType());
}

/// TF's GetScalarOfType(type, 0): a scalar zero of an integer, float or
/// complex<f32/f64> element type (null for others).
DenseElementsAttr scalarZero(Type element) {
  auto type = RankedTensorType::get({}, element);
  if (auto f = llvm::dyn_cast<FloatType>(element))
    return DenseElementsAttr::get(type, FloatAttr::get(f, 0.0));
  if (auto i = llvm::dyn_cast<IntegerType>(element))
    return DenseElementsAttr::get(type, IntegerAttr::get(i, 0));
  if (auto c = llvm::dyn_cast<ComplexType>(element)) {
    if (c.getElementType().isF32())
      return DenseElementsAttr::get(type, std::complex<float>(0));
    if (c.getElementType().isF64())
      return DenseElementsAttr::get(type, std::complex<double>(0));
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Assert with a constant true condition is erased (TF's AssertWithTrue)
//===----------------------------------------------------------------------===//

void populateAssert(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.Assert", [](Operation *op, PatternRewriter &rw) {
    Attribute attr;
    if (!matchPattern(op->getOperand(0), m_Constant(&attr)))
      return failure();
    auto cond = llvm::dyn_cast<DenseIntElementsAttr>(attr);
    if (!cond || !cond.getElementType().isInteger(1) || cond.getNumElements() == 0 ||
        !*cond.getValues<bool>().begin())
      return failure();
    rw.eraseOp(op);
    return success();
  });
}

//===----------------------------------------------------------------------===//
// V1 -> V2 ops of canonicalize.td
//===----------------------------------------------------------------------===//

void populateAdd(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.Add", [](Operation *op, PatternRewriter &rw) {
    if (!isNumberTensor(op->getOperand(0).getType()) ||
        !isNumberTensor(op->getOperand(1).getType()))
      return failure();
    return rewriteAs(op, rw, "tf.AddV2", op->getOperands());
  });
}

void populateGather(RewritePatternSet &results, MLIRContext *context) {
  // validate_indices is dropped (neither kernel checks it); axis 0.
  add(results, context, "tf.Gather", [](Operation *op, PatternRewriter &rw) {
    NewOps ops(rw, op);
    Value axis = ops.i32Constant(0);
    return ops.replaceRoot(ops.create("tf.GatherV2",
                                      {op->getOperand(0), op->getOperand(1), axis},
                                      op->getResultTypes(),
                                      {ops.named("batch_dims", rw.getI64IntegerAttr(0))}));
  });
}

void populateBatchMatMul(RewritePatternSet &results, MLIRContext *context) {
  // Only static shapes: V1 requires equal batch dimensions, V2 broadcasts.
  add(results, context, "tf.BatchMatMul", [](Operation *op, PatternRewriter &rw) {
    for (Value v : op->getOperands()) {
      auto type = llvm::dyn_cast<RankedTensorType>(v.getType());
      if (!type || !type.hasStaticShape())
        return failure();
    }
    NewOps ops(rw, op);
    BoolAttr f = rw.getBoolAttr(false);
    return ops.replaceRoot(ops.create(
        "tf.BatchMatMulV2", op->getOperands(), op->getResultTypes(),
        {ops.carried(op, "adj_x", f), ops.carried(op, "adj_y", f), ops.carried(op, "grad_x", f),
         ops.carried(op, "grad_y", f)}));
  });
}

void populateBatchMatMulV2(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.BatchMatMulV2", [](Operation *op, PatternRewriter &rw) {
    if (!isRankedOfRank(op->getOperand(0).getType(), 2) ||
        !isRankedOfRank(op->getOperand(1).getType(), 2))
      return failure();
    NewOps ops(rw, op);
    auto get = [&](StringRef name) {
      Attribute v = op->getAttr(name);
      return v ? v : rw.getBoolAttr(false);
    };
    return ops.replaceRoot(ops.create(
        "tf.MatMul", op->getOperands(), op->getResultTypes(),
        {ops.named("transpose_a", get("adj_x")), ops.named("transpose_b", get("adj_y")),
         ops.named("grad_a", get("grad_x")), ops.named("grad_b", get("grad_y"))}));
  });
}

void populateBatchToSpace(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.BatchToSpace", [](Operation *op, PatternRewriter &rw) {
    auto blockSize = op->getAttrOfType<IntegerAttr>("block_size");
    if (!blockSize || !isRankedOfRank(op->getOperand(0).getType(), 4) ||
        !isRankedOfRank(op->getOperand(1).getType(), 2))
      return failure();
    NewOps ops(rw, op);
    APInt size = blockSize.getValue().sextOrTrunc(64);
    Value blockShape = ops.constant(
        DenseElementsAttr::get(RankedTensorType::get({2}, rw.getI64Type()), {size, size}));
    return ops.replaceRoot(ops.create("tf.BatchToSpaceND",
                                      {op->getOperand(0), blockShape, op->getOperand(1)},
                                      op->getResultTypes()));
  });
}

void populateBiasAddV1(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.BiasAddV1", [](Operation *op, PatternRewriter &rw) {
    return rewriteAs(op, rw, "tf.BiasAdd", op->getOperands(),
                     {NamedAttribute(rw.getStringAttr("data_format"), rw.getStringAttr("NHWC"))});
  });
}

void populateBitcast(RewritePatternSet &results, MLIRContext *context) {
  // BitcastSameType: TF compares element types only; the value replaces the
  // result only where the whole types agree.
  add(results, context, "tf.Bitcast", [](Operation *op, PatternRewriter &rw) {
    Value arg = op->getOperand(0);
    if (arg.getType() != op->getResult(0).getType())
      return failure();
    rw.replaceOp(op, arg);
    return success();
  });
  // BitcastNested.
  add(results, context, "tf.Bitcast", [](Operation *op, PatternRewriter &rw) {
    Operation *inner = definingOp(op->getOperand(0), "tf.Bitcast");
    if (!inner)
      return failure();
    return rewriteAs(op, rw, "tf.Bitcast", inner->getOperand(0));
  });
}

void populateConcat(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.Concat", [](Operation *op, PatternRewriter &rw) {
    SmallVector<Value> operands(op->getOperands().drop_front());
    operands.push_back(op->getOperand(0));
    return rewriteAs(op, rw, "tf.ConcatV2", operands);
  });
}

void populateMatrixDiag(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.MatrixDiag", [](Operation *op, PatternRewriter &rw) {
    DenseElementsAttr zero = scalarZero(getElementTypeOrSelf(op->getOperand(0).getType()));
    if (!zero)
      return failure();
    NewOps ops(rw, op);
    Value k = ops.i32Constant(0), rows = ops.i32Constant(-1), cols = ops.i32Constant(-1);
    Value padding = ops.constant(zero);
    return ops.replaceRoot(ops.create("tf.MatrixDiagV3", {op->getOperand(0), k, rows, cols, padding},
                                      op->getResultTypes(),
                                      {ops.named("align", rw.getStringAttr("RIGHT_LEFT"))}));
  });
}

void populateMatrixSetDiag(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.MatrixSetDiag", [](Operation *op, PatternRewriter &rw) {
    NewOps ops(rw, op);
    Value k = ops.i32Constant(0);
    return ops.replaceRoot(ops.create("tf.MatrixSetDiagV3",
                                      {op->getOperand(0), op->getOperand(1), k},
                                      op->getResultTypes(),
                                      {ops.named("align", rw.getStringAttr("RIGHT_LEFT"))}));
  });
}

void populateMatrixSetDiagV2(RewritePatternSet &results, MLIRContext *context) {
  // MatrixSetDiagV2 aligned LEFT_LEFT.
  add(results, context, "tf.MatrixSetDiagV2", [](Operation *op, PatternRewriter &rw) {
    return rewriteAs(op, rw, "tf.MatrixSetDiagV3", op->getOperands(),
                     {NamedAttribute(rw.getStringAttr("align"), rw.getStringAttr("LEFT_LEFT"))});
  });
}

void populateQuantizeAndDequantizeV2(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.QuantizeAndDequantizeV2", [](Operation *op, PatternRewriter &rw) {
    NewOps ops(rw, op);
    return ops.replaceRoot(ops.create(
        "tf.QuantizeAndDequantizeV4", op->getOperands(), op->getResultTypes(),
        {ops.carried(op, "signed_input", rw.getBoolAttr(true)),
         ops.carried(op, "num_bits", rw.getI64IntegerAttr(8)),
         ops.carried(op, "range_given", rw.getBoolAttr(false)),
         ops.carried(op, "round_mode", rw.getStringAttr("HALF_TO_EVEN")),
         ops.carried(op, "narrow_range", rw.getBoolAttr(false)),
         ops.carried(op, "axis", rw.getI64IntegerAttr(-1))}));
  });
}

void populateVariable(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.Variable", [](Operation *op, PatternRewriter &rw) {
    NewOps ops(rw, op);
    return ops.replaceRoot(ops.create("tf.VariableV2", {}, op->getResultTypes(),
                                      {ops.carried(op, "shape"),
                                       ops.carried(op, "container", rw.getStringAttr("")),
                                       ops.carried(op, "shared_name", rw.getStringAttr(""))}));
  });
}

/// HashTable and its users -> HashTableV2 and the V2 users (TF registers
/// these with tf.HashTable). Both new ops get the user's attributes.
void populateHashTable(RewritePatternSet &results, MLIRContext *context) {
  static const std::pair<StringRef, StringRef> users[] = {
      {"tf.InitializeTableFromTextFile", "tf.InitializeTableFromTextFileV2"},
      {"tf.LookupTableSize", "tf.LookupTableSizeV2"},
      {"tf.LookupTableFind", "tf.LookupTableFindV2"}};
  for (auto [from, to] : users)
    add(results, context, from, [to = to](Operation *op, PatternRewriter &rw) {
      Operation *table = definingOp(op->getOperand(0), "tf.HashTable");
      if (!table)
        return failure();
      NewOps ops(rw, op);
      auto handleType =
          RankedTensorType::get({}, tf_type::ResourceType::get(rw.getContext()));
      Operation *v2 = ops.create("tf.HashTableV2", {}, handleType,
                                 {ops.carried(table, "container", rw.getStringAttr("")),
                                  ops.carried(table, "shared_name", rw.getStringAttr("")),
                                  ops.carried(table, "use_node_name_sharing", rw.getBoolAttr(false)),
                                  ops.carried(table, "key_dtype"),
                                  ops.carried(table, "value_dtype")});
      SmallVector<Value> operands{v2->getResult(0)};
      llvm::append_range(operands, op->getOperands().drop_front());
      SmallVector<NamedAttribute> attrs;
      if (to == "tf.InitializeTableFromTextFileV2")
        attrs = {ops.carried(op, "key_index"), ops.carried(op, "value_index"),
                 ops.carried(op, "vocab_size", rw.getI64IntegerAttr(-1)),
                 ops.carried(op, "delimiter", rw.getStringAttr("\t")),
                 ops.carried(op, "offset", rw.getI64IntegerAttr(0))};
      return ops.replaceRoot(ops.create(to, operands, op->getResultTypes(), attrs));
    });
}

/// tf.ReadVariableOp of a tf.Cast whose users are all reads reads the
/// uncast handle (TF's ReadVariableOfCast).
void populateReadVariableOp(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.ReadVariableOp", [](Operation *op, PatternRewriter &rw) {
    Operation *cast = definingOp(op->getOperand(0), "tf.Cast");
    if (!cast || llvm::any_of(cast->getUsers(), [](Operation *user) {
          return user->getName().getStringRef() != "tf.ReadVariableOp";
        }))
      return failure();
    return rewriteAs(op, rw, "tf.ReadVariableOp", cast->getOperand(0));
  });
}

//===----------------------------------------------------------------------===//
// Op-class patterns of TF's tf_ops_a_m.cc / tf_ops_n_z.cc
//===----------------------------------------------------------------------===//

/// Equal/NotEqual: incompatible_shape_error false -> true where the shapes are
/// known to be compatible (TF's flipCompatibleShapeError).
void populateFlipShapeError(RewritePatternSet &results, MLIRContext *context, StringRef name) {
  add(results, context, name, [name = name.str()](Operation *op, PatternRewriter &rw) {
    auto flag = op->getAttrOfType<BoolAttr>("incompatible_shape_error");
    if (!flag || flag.getValue())
      return failure();
    auto type = llvm::dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return failure();
    Type x = op->getOperand(0).getType(), y = op->getOperand(1).getType();
    if (type.getRank() == 0 && (!isRankedOfRank(x, 0) || !isRankedOfRank(y, 0)))
      return failure();
    // TF's builder gives the new op the broadcast type (it fails on operands
    // that do not broadcast); the op keeps its own type where that refines it.
    Type broadcast = OpTrait::util::getBroadcastedType(x, y);
    if (!broadcast || failed(verifyCompatibleShape(broadcast, type)))
      return failure();
    return rewriteAs(op, rw, name, op->getOperands(),
                     {NamedAttribute(rw.getStringAttr("incompatible_shape_error"),
                                     rw.getBoolAttr(true))});
  });
}

/// TF's AddNOp::fold as a pattern: one operand; all operands known zeros;
/// one operand not known zero, of the (static) result type.
void populateAddN(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.AddN", [](Operation *op, PatternRewriter &rw) {
    Type resultType = op->getResult(0).getType();
    if (op->getNumOperands() == 1) {
      if (op->getOperand(0).getType() != resultType)
        return failure();
      rw.replaceOp(op, op->getOperand(0));
      return success();
    }
    auto isKnownZero = [](Attribute attr) {
      auto splat = llvm::dyn_cast_or_null<SplatElementsAttr>(attr);
      if (!splat)
        return false;
      Type element = splat.getType().getElementType();
      if (llvm::isa<FloatType>(element))
        return splat.getSplatValue<APFloat>().isZero();
      if (llvm::isa<IntegerType>(element))
        return splat.getSplatValue<APInt>().isZero();
      return false;
    };
    int nonZero = -1;
    Attribute firstValue;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      Attribute attr;
      matchPattern(operand, m_Constant(&attr));
      if (i == 0)
        firstValue = attr;
      if (isKnownZero(attr))
        continue;
      if (nonZero != -1)
        return failure();
      nonZero = i;
    }
    auto type = llvm::dyn_cast<RankedTensorType>(resultType);
    if (!type || !type.hasStaticShape())
      return failure();
    if (nonZero == -1) {
      NewOps ops(rw, op);
      auto zero = DenseElementsAttr::get(
          type, llvm::cast<DenseElementsAttr>(firstValue).getSplatValue<Attribute>());
      return ops.replaceRoot(ValueRange{ops.constant(zero)});
    }
    Value value = op->getOperand(nonZero);
    if (value.getType() != type)
      return failure();
    rw.replaceOp(op, value);
    return success();
  });
}

/// ToBool of a ranked tensor (TF's ToBoolOfRankedTensor): i1 scalars are
/// themselves; other scalars are compared with zero (or ""); other shapes
/// are true unless a dimension is 0 (TF counts dynamic dimensions non-zero).
void populateToBool(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.ToBool", [](Operation *op, PatternRewriter &rw) {
    auto type = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto resultType = llvm::dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !resultType)
      return failure();
    if (type == resultType) {
      rw.replaceOp(op, op->getOperand(0));
      return success();
    }
    NewOps ops(rw, op);
    if (type.getRank() == 0) {
      Type element = type.getElementType();
      DenseElementsAttr zero;
      if (element.isIntOrFloat())
        zero = llvm::cast<DenseElementsAttr>(rw.getZeroAttr(type));
      else if (llvm::isa<tf_type::StringType>(element))
        zero = DenseStringElementsAttr::get(type, {StringRef("")});
      if (!zero)
        return failure();
      Value zeroValue = ops.constant(zero);
      return ops.replaceRoot(
          ops.create("tf.NotEqual", {op->getOperand(0), zeroValue}, resultType,
                     {ops.named("incompatible_shape_error", rw.getBoolAttr(false))}));
    }
    if (resultType.getNumElements() != 1)
      return failure();
    bool nonEmpty = !llvm::is_contained(type.getShape(), 0);
    return ops.replaceRoot(
        ValueRange{ops.constant(DenseElementsAttr::get(resultType, llvm::ArrayRef<bool>(nonEmpty)))});
  });
}

/// TensorListGetItem of a TensorListFromTensor only read by
/// TensorListGetItem ops -> Gather of the tensor.
void populateTensorListGetItem(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.TensorListGetItem", [](Operation *op, PatternRewriter &rw) {
    Operation *list = definingOp(op->getOperand(0), "tf.TensorListFromTensor");
    if (!list || llvm::any_of(list->getUsers(), [](Operation *user) {
          return user->getName().getStringRef() != "tf.TensorListGetItem";
        }))
      return failure();
    return rewriteAs(op, rw, "tf.Gather", {list->getOperand(0), op->getOperand(1)});
  });
}

void populateNonMaxSuppressionV3(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.NonMaxSuppressionV3", [](Operation *op, PatternRewriter &rw) {
    if (op->getNumOperands() != 5)
      return failure();
    Type selected = op->getResult(0).getType();
    Type validOutputs = RankedTensorType::get({}, getElementTypeOrSelf(selected));
    NewOps ops(rw, op);
    Operation *v4 = ops.create("tf.NonMaxSuppressionV4", op->getOperands(), {selected, validOutputs},
                               {ops.named("pad_to_max_output_size", rw.getBoolAttr(false))});
    return ops.replaceRoot(ValueRange{v4->getResult(0)});
  });
}

void populateFusedBatchNorm(RewritePatternSet &results, MLIRContext *context) {
  // All attributes carried over; V3's extra reserve_space_3 result unused.
  add(results, context, "tf.FusedBatchNorm", [](Operation *op, PatternRewriter &rw) {
    SmallVector<Type> types(op->getResultTypes());
    types.push_back(UnrankedTensorType::get(rw.getF32Type()));
    NewOps ops(rw, op);
    SmallVector<NamedAttribute> attrs(op->getAttrs());
    Operation *v3 = ops.create("tf.FusedBatchNormV3", op->getOperands(), types, attrs);
    return ops.replaceRoot(v3->getResults().drop_back());
  });
}

void populateXlaConv(RewritePatternSet &results, MLIRContext *context) {
  add(results, context, "tf.XlaConv", [](Operation *op, PatternRewriter &rw) {
    NewOps ops(rw, op);
    return ops.replaceRoot(ops.create("tf.XlaConvV2", op->getOperands(), op->getResultTypes(),
                                      {ops.carried(op, "dimension_numbers"),
                                       ops.carried(op, "precision_config"),
                                       ops.named("batch_group_count", rw.getI64IntegerAttr(1))}));
  });
}

/// XlaReduce and XlaVariadicReduce -> XlaVariadicReduceV2 (inputs, then
/// init values, in equal numbers).
void populateXlaReduce(RewritePatternSet &results, MLIRContext *context, StringRef name) {
  add(results, context, name, [](Operation *op, PatternRewriter &rw) {
    int32_t n = op->getNumOperands() / 2;
    NewOps ops(rw, op);
    return ops.replaceRoot(ops.create(
        "tf.XlaVariadicReduceV2", op->getOperands(), op->getResultTypes(),
        {ops.carried(op, "dimensions_to_reduce"), ops.carried(op, "reducer"),
         ops.named("operandSegmentSizes", rw.getDenseI32ArrayAttr({n, n}))}));
  });
}

} // namespace

void tfmlir::TF::registerRewritePatterns(
    llvm::StringMap<llvm::SmallVector<PatternPopulator, 1>> &table) {
  table["tf.Add"].push_back(populateAdd);
  table["tf.AddN"].push_back(populateAddN);
  table["tf.Assert"].push_back(populateAssert);
  table["tf.BatchMatMul"].push_back(populateBatchMatMul);
  table["tf.BatchMatMulV2"].push_back(populateBatchMatMulV2);
  table["tf.BatchToSpace"].push_back(populateBatchToSpace);
  table["tf.BiasAddV1"].push_back(populateBiasAddV1);
  table["tf.Bitcast"].push_back(populateBitcast);
  table["tf.Concat"].push_back(populateConcat);
  table["tf.Equal"].push_back(
      [](RewritePatternSet &r, MLIRContext *c) { populateFlipShapeError(r, c, "tf.Equal"); });
  table["tf.NotEqual"].push_back(
      [](RewritePatternSet &r, MLIRContext *c) { populateFlipShapeError(r, c, "tf.NotEqual"); });
  table["tf.FusedBatchNorm"].push_back(populateFusedBatchNorm);
  table["tf.Gather"].push_back(populateGather);
  table["tf.HashTable"].push_back(populateHashTable);
  table["tf.MatrixDiag"].push_back(populateMatrixDiag);
  table["tf.MatrixSetDiag"].push_back(populateMatrixSetDiag);
  table["tf.MatrixSetDiagV2"].push_back(populateMatrixSetDiagV2);
  table["tf.NonMaxSuppressionV3"].push_back(populateNonMaxSuppressionV3);
  table["tf.QuantizeAndDequantizeV2"].push_back(populateQuantizeAndDequantizeV2);
  table["tf.ReadVariableOp"].push_back(populateReadVariableOp);
  table["tf.TensorListGetItem"].push_back(populateTensorListGetItem);
  table["tf.ToBool"].push_back(populateToBool);
  table["tf.Variable"].push_back(populateVariable);
  table["tf.XlaConv"].push_back(populateXlaConv);
  table["tf.XlaReduce"].push_back(
      [](RewritePatternSet &r, MLIRContext *c) { populateXlaReduce(r, c, "tf.XlaReduce"); });
  table["tf.XlaVariadicReduce"].push_back([](RewritePatternSet &r, MLIRContext *c) {
    populateXlaReduce(r, c, "tf.XlaVariadicReduce");
  });
}
