//===- Limits.h - Bounds on sizes read from textual IR -----------*- C++ -*-===//
//
// Custom parsers that derive a number of results from an integer in the input
// (`_SwitchN ... of N`, `tf_device.replicate {n = N}`) check it against this
// bound before allocating anything, so a hostile or corrupted input gets a
// diagnostic instead of exhausting memory. Far above any real program (TPU
// pods have thousands of replicas, not millions of results per op).
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_LIMITS_H
#define TFMLIR_LIMITS_H

#include <cstdint>

namespace mlir::tfmlir_limits {

/// The most results a custom parser creates for one operation.
constexpr int64_t kMaxParsedResults = int64_t(1) << 20;

} // namespace mlir::tfmlir_limits

#endif // TFMLIR_LIMITS_H
