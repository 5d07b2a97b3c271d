//===- TfCanonicalize.td - canonicalization patterns of tf ops -*- tablegen -*-===//
//
// DRR patterns used by `-canonicalize` (attached to their root ops through
// PATTERNS in scripts/gen_tf_ops.py and cpp/lib/TfCanonicalize.cpp). Folds
// that only need constant operands or return an operand are folders instead
// (cpp/lib/TfFolders.cpp). A rewritten op keeps the discardable attributes
// (`device`, `_class`, ...) of the op it replaces.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TF_CANONICALIZE_TD
#define TFMLIR_TF_CANONICALIZE_TD

include "mlir/IR/PatternBase.td"
include "generated/TfGenOpsAll.td"

def TF_SameType : Constraint<CPred<"$0.getType() == $1.getType()">, "of the same type">;
def TF_IntElements : AttrConstraint<CPred<"::llvm::isa<::mlir::DenseIntElementsAttr>($_self)">,
                                    "integer elements">;
def TF_CopyAttrs : NativeCodeCall<"::tfmlir::TF::copyDiscardableAttrs($0, $1)">;
def TF_ComposablePermutations : Constraint<
    CPred<"::tfmlir::TF::arePermutationsComposable($0, $1)">, "permutations of the same rank">;
// perm of Transpose(Transpose(x, inner), outer) as one Transpose of x.
def TF_ComposePermutations : NativeCodeCall<"::tfmlir::TF::composePermutations($0, $1)">;

// Reshape(Reshape(x, s1), s2) -> Reshape(x, s2)
def TF_ReshapeOfReshape : Pattern<(TF_ReshapeOp:$src (TF_ReshapeOp $x, $inner), $shape),
    [(TF_ReshapeOp:$dst $x, $shape)], [], [(TF_CopyAttrs $src, $dst)]>;

// Transpose(Transpose(x, p1), p2) -> Transpose(x, p1[p2]) for constant perms
def TF_TransposeOfTranspose : Pattern<
    (TF_TransposeOp:$src (TF_TransposeOp $x, (TF_ConstOp TF_IntElements:$inner)),
                         (TF_ConstOp TF_IntElements:$outer)),
    [(TF_TransposeOp:$dst $x, (TF_ConstOp (TF_ComposePermutations $inner, $outer)))],
    [(TF_ComposablePermutations $inner, $outer)], [(TF_CopyAttrs $src, $dst)]>;

// x + (-y) -> x - y and (-x) + y -> y - x
def TF_AddV2OfNegRight : Pattern<(TF_AddV2Op:$src $x, (TF_NegOp $y)),
    [(TF_SubOp:$dst $x, $y)], [], [(TF_CopyAttrs $src, $dst)]>;
def TF_AddV2OfNegLeft : Pattern<(TF_AddV2Op:$src (TF_NegOp $x), $y),
    [(TF_SubOp:$dst $y, $x)], [], [(TF_CopyAttrs $src, $dst)]>;

// x - (-y) -> x + y
def TF_SubOfNeg : Pattern<(TF_SubOp:$src $x, (TF_NegOp $y)),
    [(TF_AddV2Op:$dst $x, $y)], [], [(TF_CopyAttrs $src, $dst)]>;

// x / sqrt(y) -> x * rsqrt(y)
def TF_RealDivOfSqrt : Pattern<(TF_RealDivOp:$src $x, (TF_SqrtOp $y)),
    [(TF_RsqrtOp:$rsqrt $y), (TF_MulOp:$dst $x, $rsqrt)], [],
    [(TF_CopyAttrs $src, $dst), (TF_CopyAttrs $src, $rsqrt)]>;

// x / c -> x * reciprocal(c) for an f32 constant c (the reciprocal then
// folds through the dialect's constant-folding hook)
def TF_RealDivOfF32Const : Pattern<(TF_RealDivOp:$src $x, (TF_ConstOp FloatElementsAttr<32>:$c)),
    [(TF_ReciprocalOp:$reciprocal (TF_ConstOp $c)), (TF_MulOp:$dst $x, $reciprocal)], [],
    [(TF_CopyAttrs $src, $dst), (TF_CopyAttrs $src, $reciprocal)]>;

// -(-x) -> x and !!x -> x (when nothing but the type would change)
def TF_NegOfNeg : Pat<(TF_NegOp:$src (TF_NegOp $x)), (replaceWithValue $x),
                      [(TF_SameType $src, $x)]>;
def TF_LogicalNotOfLogicalNot : Pat<(TF_LogicalNotOp:$src (TF_LogicalNotOp $x)),
                                    (replaceWithValue $x), [(TF_SameType $src, $x)]>;

#endif // TFMLIR_TF_CANONICALIZE_TD
