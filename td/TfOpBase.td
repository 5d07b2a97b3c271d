//===- TfOpBase.td - the tf dialect: base definitions -----*- tablegen -*-===//
//
// The `tf` dialect is open: any `tf.*` operation parses and prints (in the
// generic form, as TF prints it). Operations defined in ODS get verifiers,
// typed accessors, derived attributes and side-effect declarations.
//
// Conventions (TF's): OpDef attributes inferable from operand/result types
// (`T`, `Tin`, `N`, ...) are *derived* (computed, never stored); the others
// are inherent attributes stored as properties and printed inside `<{...}>`.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TF_OP_BASE_TD
#define TFMLIR_TF_OP_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DerivedAttributeOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TF_Dialect : Dialect {
  let name = "tf";
  let cppNamespace = "::tfmlir::TF";
  let summary = "TensorFlow operations (an open dialect)";
  let description = [{
    TensorFlow operations outside the executor: functional control flow,
    calls, variables, and the ops TensorFlow's own dialect defines. Other
    `tf.*` operations (the rest of TF's registry, custom ops) are unknown
    operations that verify with any operands, results and attributes, as in
    TensorFlow.
  }];
  let dependentDialects = ["::tfmlir::tf_type::TFTypeDialect"];
  // Folded values become tf.Const ops.
  let hasConstantMaterializer = 1;
  // Unknown ops of TF's registry that are not stateful have no memory effects.
  let hasOperationInterfaceFallback = 1;
  let extraClassDeclaration = [{
    /// Adds the ops generated from TF's op registry (td/generated/).
    void registerGeneratedOps();
    /// Used by each generated shard's translation unit to add its ops.
    template <typename... Ops> void addGeneratedOperations() { addOperations<Ops...>(); }
  }];
}

class TF_Op<string mnemonic, list<Trait> traits = []>
    : Op<TF_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// TF's op traits (cpp/include/tfmlir/TfBase.h), read by the dialect's inliner
// and constant-folding interfaces (cpp/lib/TfInterfaces.cpp).
//===----------------------------------------------------------------------===//

class TF_NativeOpTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::tfmlir::TF::trait";
}
// The op must not be duplicated (random ops): TF's CannotDuplicate.
def TF_CannotDuplicate : TF_NativeOpTrait<"CannotDuplicate">;
// TF's constant-folding hook skips the op: TF's NoConstantFold.
def TF_NoConstantFold : TF_NativeOpTrait<"NoConstantFold">;

//===----------------------------------------------------------------------===//
// Side-effect resources
//===----------------------------------------------------------------------===//

def TF_VariableResource : Resource<"::tfmlir::TF::ResourceEffects::Variable">;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TF_ElementType : Type<Or<[
    AnyInteger.predicate, AnyFloat.predicate, AnyComplex.predicate,
    CPred<"::tfmlir::tf_type::isTFType($_self)">]>, "tf.dtype">;
def TF_Tensor : TensorOf<[TF_ElementType]>;
def TF_Resource : Type<CPred<"::llvm::isa<::tfmlir::tf_type::ResourceType>($_self)">,
                       "resource", "::tfmlir::tf_type::ResourceType">;
def TF_Str : Type<CPred<"::llvm::isa<::tfmlir::tf_type::StringType>($_self)">,
                  "string", "::tfmlir::tf_type::StringType">;
def TF_ResourceTensor : TensorOf<[TF_Resource]>;
def TF_StrTensor : TensorOf<[TF_Str]>;
def TF_BoolTensor : TensorOf<[I1]>;
def TF_Int32Tensor : TensorOf<[I32]>;
def TF_I32OrI64Tensor : TensorOf<[I32, I64]>;

//===----------------------------------------------------------------------===//
// Derived attributes: computed from operand/result types, never stored.
//===----------------------------------------------------------------------===//

class TF_DerivedOperandTypeAttr<int idx> : DerivedTypeAttr<
  "return ::tfmlir::tf_type::getElementTypeOrSelf((*this)->getOperand(" # idx # ").getType());">;
class TF_DerivedResultTypeAttr<int idx> : DerivedTypeAttr<
  "return ::tfmlir::tf_type::getElementTypeOrSelf((*this)->getResult(" # idx # ").getType());">;

// The element types of the operands (or results) starting at `start`.
class TF_DerivedOperandTypeListAttr<int start> : DerivedAttr<"::mlir::ArrayAttr",
  "return ::tfmlir::TF::getElementTypeArray(getContext(), ::llvm::to_vector((*this)->getOperands().drop_front(" # start # ").getTypes()));",
  [{ $_self }]>;
class TF_DerivedResultTypeListAttr<int start> : DerivedAttr<"::mlir::ArrayAttr",
  "return ::tfmlir::TF::getElementTypeArray(getContext(), ::llvm::to_vector((*this)->getResults().drop_front(" # start # ").getTypes()));",
  [{ $_self }]>;
// Shapes of the results as #tf_type.shape attributes.
def TF_DerivedResultShapeListAttr : DerivedAttr<"::mlir::ArrayAttr",
  "return ::tfmlir::TF::getShapeArray(getContext(), ::llvm::to_vector((*this)->getResultTypes()));",
  [{ $_self }]>;
// The shape of the subtype of resource operand/result `idx`.
class TF_DerivedResultSubtypeShapeAttr<int idx> : DerivedAttr<"::mlir::Attribute",
  "return ::tfmlir::TF::getResourceSubtypeShape((*this)->getResult(" # idx # ").getType());",
  [{ $_self }]>;
class TF_DerivedResultSubtypeTypeAttr<int idx> : DerivedTypeAttr<
  "return ::tfmlir::TF::getResourceSubtypeElementType((*this)->getResult(" # idx # ").getType());">;
class TF_DerivedOperandSubtypeTypeAttr<int idx> : DerivedTypeAttr<
  "return ::tfmlir::TF::getResourceSubtypeElementType((*this)->getOperand(" # idx # ").getType());">;
// Counts (N, num_replicas, ...).
class TF_DerivedSizeAttr<string countExpr> : DerivedAttr<"size_t",
  "return " # countExpr # ";",
  [{ ::mlir::IntegerAttr::get(::mlir::IntegerType::get($_ctxt, 64), $_self) }]>;

// Generated ops: a tensor whose element type is one of the TF DataTypes in
// `mask` (bit i = DataType enum value i; ref types count as their base type).
class TF_TensorOfDTypes<string mask, string desc>
    : Type<CPred<"::tfmlir::TF::isTensorOfDTypes($_self, " # mask # "ull)">,
           "tensor of " # desc # " values", "::mlir::TensorType">;

// Derived attributes of generated ops, addressed by ODS operand/result group.
class TF_DerivedOperandGroupTypeAttr<int group> : DerivedTypeAttr<
  "return ::tfmlir::TF::firstElementType(getODSOperands(" # group # ").getTypes(), getContext());">;
class TF_DerivedResultGroupTypeAttr<int group> : DerivedTypeAttr<
  "return ::tfmlir::TF::firstElementType(getODSResults(" # group # ").getTypes(), getContext());">;
class TF_DerivedOperandGroupTypeListAttr<int group> : DerivedAttr<"::mlir::ArrayAttr",
  "return ::tfmlir::TF::getElementTypeArray(getContext(), ::llvm::to_vector(getODSOperands(" # group # ").getTypes()));",
  [{ $_self }]>;
class TF_DerivedResultGroupTypeListAttr<int group> : DerivedAttr<"::mlir::ArrayAttr",
  "return ::tfmlir::TF::getElementTypeArray(getContext(), ::llvm::to_vector(getODSResults(" # group # ").getTypes()));",
  [{ $_self }]>;
class TF_DerivedOperandGroupSizeAttr<int group> : TF_DerivedSizeAttr<"getODSOperands(" # group # ").size()">;
class TF_DerivedResultGroupSizeAttr<int group> : TF_DerivedSizeAttr<"getODSResults(" # group # ").size()">;
// The shape of result 0 / the subtype element type of the first resource or
// variant value (operands, then results).
def TF_DerivedResultShapeAttr : DerivedAttr<"::mlir::Attribute",
  "return ::tfmlir::tf_type::ShapeAttr::get(getContext(), (*this)->getResult(0).getType());",
  [{ $_self }]>;
def TF_DerivedSubtypeElementTypeAttr : DerivedTypeAttr<
  "return ::tfmlir::TF::subtypeElementType(*this);">;

//===----------------------------------------------------------------------===//
// Attribute kinds
//===----------------------------------------------------------------------===//

def TF_ShapeAttr : Attr<CPred<"::llvm::isa<::tfmlir::tf_type::ShapeAttr>($_self)">, "#tf_type.shape"> {
  let storageType = "::tfmlir::tf_type::ShapeAttr";
  let returnType = "::tfmlir::tf_type::ShapeAttr";
  let convertFromStorage = "$_self";
}
def TF_ShapeAttrArray : TypedArrayAttrBase<
    Attr<CPred<"::llvm::isa<::tfmlir::tf_type::ShapeAttr>($_self)">, "shape">,
    "array of #tf_type.shape">;

#endif // TFMLIR_TF_OP_BASE_TD
