//===- TfSavedModelOps.td - the tf_saved_model dialect ----*- tablegen -*-===//
//
// Module-level objects of an imported SavedModel: global tensors (variables
// and constants), assets and the session initializer. The argument/result
// attributes `tf_saved_model.index_path`, `tf_saved_model.bound_input` and the
// module attribute `tf_saved_model.semantics` belong to this dialect too.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TF_SAVED_MODEL_OPS_TD
#define TFMLIR_TF_SAVED_MODEL_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"

def TfSavedModel_Dialect : Dialect {
  let name = "tf_saved_model";
  let cppNamespace = "::tfmlir::tf_saved_model";
  let summary = "Objects of an imported TensorFlow SavedModel";
  let description = [{
    A module with the `tf_saved_model.semantics` attribute is a SavedModel:
    its functions are exported (`tf_saved_model.exported_names`, public, every
    argument with `tf_saved_model.index_path` or `tf_saved_model.bound_input`,
    every result with `tf_saved_model.index_path`) or private, exported
    functions are not referenced from inside the module (except by the
    session initializer), and exported names are unique. The dialect's
    attribute verifiers check these rules as TF 2.21 does.
  }];
  // The bound-input types are tf_type types.
  let dependentDialects = ["::tfmlir::tf_type::TFTypeDialect"];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

class TfSavedModel_Op<string mnemonic, list<Trait> traits = []>
    : Op<TfSavedModel_Dialect, mnemonic, traits>;

def TfSavedModel_GlobalTensorOp : TfSavedModel_Op<"global_tensor", [Symbol]> {
  let summary = "A global tensor (a variable if mutable, else a constant)";
  let arguments = (ins StrAttr:$sym_name, OptionalAttr<ElementsAttr>:$value,
                   TypeAttr:$type, UnitAttr:$is_mutable);
  let hasVerifier = 1;
}

def TfSavedModel_SessionInitializerOp : TfSavedModel_Op<"session_initializer"> {
  let summary = "The functions that initialize the session, run before any export";
  let arguments = (ins SymbolRefArrayAttr:$initializers);
  let hasVerifier = 1;
}

def TfSavedModel_AssetOp : TfSavedModel_Op<"asset", [Symbol]> {
  let summary = "An asset file of the SavedModel";
  let arguments = (ins StrAttr:$sym_name, StrAttr:$filename);
}

#endif // TFMLIR_TF_SAVED_MODEL_OPS_TD
