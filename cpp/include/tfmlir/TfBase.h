//===- TfBase.h - the tf dialect class and helpers --------------*- C++ -*-===//
//
// What every tf op definition needs: the dialect, side-effect resources and
// the helpers used by generated verifiers and derived attributes. The
// generated op shards include only this header (and their own classes).
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TFBASE_H
#define TFMLIR_TFBASE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DerivedAttributeOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tfmlir/TfType.h"

namespace tfmlir {
namespace TF {
namespace ResourceEffects {
/// The side-effect resource of TF resource variables.
struct Variable : public mlir::SideEffects::Resource::Base<Variable> {
  llvm::StringRef getName() final { return "Variable"; }
};
// The resources of the generated ops' effects (scripts/gen_tf_ops.py).
#include "tfmlir/TfResourceKinds.h.inc"
} // namespace ResourceEffects

namespace trait {
/// TF's CannotDuplicate: the op may not be cloned by the inliner.
template <typename ConcreteType>
class CannotDuplicate : public mlir::OpTrait::TraitBase<ConcreteType, CannotDuplicate> {};
/// TF's NoConstantFold: the dialect's constant-folding hook skips the op.
template <typename ConcreteType>
class NoConstantFold : public mlir::OpTrait::TraitBase<ConcreteType, NoConstantFold> {};
} // namespace trait

/// [TypeAttr] of the element types of `types`.
mlir::ArrayAttr getElementTypeArray(mlir::MLIRContext *ctx,
                                    llvm::ArrayRef<mlir::Type> types);
/// [#tf_type.shape] of `types`.
mlir::ArrayAttr getShapeArray(mlir::MLIRContext *ctx,
                              llvm::ArrayRef<mlir::Type> types);
/// For tensor<!tf_type.resource<tensor<...xT>>>: T (null if no subtype).
mlir::Type getResourceSubtypeElementType(mlir::Type type);
/// For tensor<!tf_type.resource<tensor<S>>>: #tf_type.shape<S> (null if none).
mlir::Attribute getResourceSubtypeShape(mlir::Type type);
/// True if two tensor types may describe the same value in TF: same element
/// type (ref types and resource/variant subtypes aside) and compatible shapes.
bool areCastCompatible(mlir::Type a, mlir::Type b);

/// Result types inferred for an op are compatible with the declared ones when
/// they pairwise are (areCastCompatible): TF's printed IR may be more or less
/// refined than what an op's inference computes.
bool areCompatibleReturnTypes(mlir::TypeRange inferred, mlir::TypeRange actual);
/// For ops TF 2.21 does not infer: any declared result types (as many).
bool areAnyReturnTypes(mlir::TypeRange inferred, mlir::TypeRange actual);
/// For ops TF 2.21 does not infer but whose element types it ties together
/// (SameOperandsAndResultElementTypeResolveRef): the element types must be
/// compatible, the shapes are free.
bool areElementCompatibleReturnTypes(mlir::TypeRange inferred, mlir::TypeRange actual);
/// TF's BroadcastCompatible: same element types (ref types dropped; resource
/// and variant subtypes compatible where both have them) and broadcastable
/// shapes. tf.Const's value and result types must be.
bool areBroadcastCompatible(mlir::Type a, mlir::Type b);
/// Looks up an attribute by name while result types are inferred (in the
/// op's properties or its attribute dictionary); null if absent.
using AttrGetter = llvm::function_ref<mlir::Attribute(llvm::StringRef)>;

/// True if `type` is a tensor whose element type (ref types count as their
/// base type) is a TF DataType whose enum value's bit is set in `mask`.
bool isTensorOfDTypes(mlir::Type type, uint64_t mask);
/// The element type of the first of `types`, or NoneType if there is none.
mlir::Type firstElementType(mlir::TypeRange types, mlir::MLIRContext *ctx);
/// The element type held by the first resource/variant value of `op`
/// (operands, then results), else the element type of result 0, else NoneType.
mlir::Type subtypeElementType(mlir::Operation *op);
/// Verifies an OpDef attribute kept in the discardable dictionary: `kind` is
/// the OpDef type ("int", "list(type)", ...); checks presence when
/// `required`, the kind, `minimum` (value, or list length) and the allowed
/// string values.
mlir::LogicalResult verifyOpDefAttr(mlir::Operation *op, llvm::StringRef name,
                                    llvm::StringRef kind, bool required,
                                    std::optional<int64_t> minimum,
                                    llvm::ArrayRef<llvm::StringRef> allowed);

} // namespace TF
} // namespace tfmlir

#include "tfmlir/TfDialect.h.inc"

#endif // TFMLIR_TFBASE_H
