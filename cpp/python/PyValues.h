//===- PyValues.h - MLIR values handed to Python, safely ------------------===//
//
// Conversions shared by the nanobind glue's translation units: they throw a
// catchable nb::python_error (never the NanobindAdaptors casters' silent
// std::terminate) and read text without the bindings' UTF-8-only getters.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_PYTHON_PYVALUES_H
#define TFMLIR_PYTHON_PYVALUES_H

#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Nanobind.h"

namespace tfmlir_python {
namespace nb = nanobind;

/// `s` as a Python str; bytes outside well-formed UTF-8 become `\XX`.
nb::str safeStr(MlirStringRef s);
/// The attribute as mlir.ir's object, downcast where the bindings can.
nb::object attributeToPython(MlirAttribute attr);
/// The type as mlir.ir's object, downcast where the bindings can.
nb::object typeToPython(MlirType type);

/// Registers the structural view (`OpTable`) in module `m`.
void registerOpTable(nb::module_ &m);
} // namespace tfmlir_python

#endif // TFMLIR_PYTHON_PYVALUES_H
