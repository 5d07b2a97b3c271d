//===- TfVerifiersCalls.cpp - verifiers of generated tf ops (calls) -------===//
//
// Hand-written verifiers of generated tf ops that refer to functions:
// BatchFunction and XlaCallModule. TensorFlow 2.21 checks their symbol uses
// (the functions exist, as func.func) and nothing else; the generated ops
// check them from their verifier, through verifyTfOp (registered by name in
// the table of TfVerifiers.cpp). An op outside any symbol table (e.g. built
// on its own in Python) is not checked, as TF checks symbol uses only from
// the enclosing symbol table.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace {

/// The func.func `ref` names from `op`, or null.
func::FuncOp lookupFunc(Operation *op, SymbolRefAttr ref) {
  return llvm::dyn_cast_or_null<func::FuncOp>(SymbolTable::lookupNearestSymbolFrom(op, ref));
}

bool inSymbolTable(Operation *op) {
  return op->getParentOp() && SymbolTable::getNearestSymbolTable(op->getParentOp());
}

/// TF's BatchFunction: `f` (its root reference) is a function.
LogicalResult verifyBatchFunction(Operation *op) {
  auto f = op->getAttrOfType<SymbolRefAttr>("f");
  if (!f || !inSymbolTable(op))
    return success();
  StringAttr root = f.getRootReference();
  if (!lookupFunc(op, FlatSymbolRefAttr::get(root)))
    return op->emitError() << "'f' attribute refers to an undefined function: "
                           << root.getValue();
  return success();
}

/// TF's XlaCallModule: every entry of `function_list` is a function.
LogicalResult verifyXlaCallModule(Operation *op) {
  auto functions = op->getAttrOfType<ArrayAttr>("function_list");
  if (!functions || !inSymbolTable(op))
    return success();
  for (Attribute f : functions) {
    auto ref = llvm::dyn_cast<SymbolRefAttr>(f);
    if (!ref || !lookupFunc(op, ref))
      return op->emitOpError() << "refers to an undefined function: " << f;
  }
  return success();
}

} // namespace

void tfmlir::TF::registerCallVerifiers(llvm::StringMap<OpVerifier> &table) {
  table["tf.BatchFunction"] = verifyBatchFunction;
  table["tf.XlaCallModule"] = verifyXlaCallModule;
}
