//===- TfInterfaces.h - tf dialect interfaces and their hooks ---*- C++ -*-===//
//
// TF 2.21's dialect interfaces need two things TF computes with its own C++
// runtime: constant evaluation of any op (TF runs its CPU kernels) and device
// name merging (DeviceNameUtils). tfmlir has no TF runtime in C++: the
// embedding program registers hooks, which the Python package does when it is
// imported (evaluation with tfmlir.shapes' evaluators, device names with
// tfmlir.device_names, so each exists once). Without a hook the interfaces
// fold nothing beyond TF's empty-result rule and leave device attributes of
// inlined ops unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TFINTERFACES_H
#define TFMLIR_TFINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace tfmlir {
namespace TF {
class TFDialect;

/// Evaluates op `name` (with all attributes `attributes`, inherent and
/// discardable) on constant `operands`, for results of types `resultTypes`:
/// returns true with one ElementsAttr per result in `results`, or false to
/// leave the op (ops it cannot evaluate exactly as TF's kernels would).
using ConstantEvaluator = bool (*)(llvm::StringRef name, mlir::DictionaryAttr attributes,
                                   llvm::ArrayRef<mlir::Attribute> operands,
                                   mlir::TypeRange resultTypes,
                                   llvm::SmallVectorImpl<mlir::Attribute> &results,
                                   void *userData);
/// DeviceNameUtils::MergeUnsetDevNames of `node` with `caller`, printed by
/// ParsedNameToString, into `merged`; false if either name does not parse.
using DeviceNameMerger = bool (*)(llvm::StringRef caller, llvm::StringRef node,
                                  std::string &merged, void *userData);

/// Installs (or, with null, removes) the process-wide hooks.
void setConstantEvaluator(ConstantEvaluator fn, void *userData);
void setDeviceNameMerger(DeviceNameMerger fn, void *userData);

/// TensorFlowDialect::CanDuplicate: not CannotDuplicate and either free of
/// memory effects, marked `is_stateless`, or an op TF's dialect registers.
bool canDuplicate(mlir::Operation *op);
/// TF's CanBeFolded: results, no regions, no NoConstantFold trait, free of
/// memory effects, no variant results, not a call or functional control flow.
bool canBeConstantFolded(mlir::Operation *op);

/// `tf.Cast(input) {Truncate = false}` of type `type`: the call conversion of
/// the tf and tf_device inliner interfaces (null unless both are tensors).
mlir::Operation *createCallConversionCast(mlir::OpBuilder &builder, mlir::Value input,
                                          mlir::Type type, mlir::Location loc);

/// Adds the inliner and constant-folding interfaces to the tf dialect.
void addTFDialectInterfaces(TFDialect &dialect);
} // namespace TF
} // namespace tfmlir

#endif // TFMLIR_TFINTERFACES_H
