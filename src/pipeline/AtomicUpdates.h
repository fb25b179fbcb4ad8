//===- AtomicUpdates.h - Atomic read-modify-writes as code ------*- C++ -*-===//
//
// Owns the atomic updates that have no single native instruction, written
// out as code both the bufferization of xla_gpu.atomic_rmw (complex
// elements, which memref.generic_atomic_rmw cannot hold) and
// xla-gpu-lower-atomic-rmw (floats and sub-byte elements) build:
// - a compare-and-swap loop on an integer word: a float swaps its bits as
//   the integer of its width, a sub-byte element (pred, s4, u4) its byte
//   (the element zero-extended: the buffers' encoding,
//   interpreter/ElementBytes.h), complex<f32> an i64 (real part low: it
//   comes first in memory);
// - a complex addition as two float atomic adds, one per part, as XLA's.
// complex<f64> with another combiner would need a 16-byte exchange: the
// scatter emitter refuses it at the instruction.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_ATOMICUPDATES_H
#define HLO_PIPELINE_ATOMICUPDATES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <functional>

namespace hlo::pipeline {

/// Computes the new element from the current one, at the builder's point.
using AtomicCombiner =
    std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::Value current)>;

/// Updates element `indices` of `memref` (global memory) by `combine` in a
/// compare-and-swap loop; the value stored. Fails (with an error at `loc`)
/// for element types it cannot swap.
mlir::FailureOr<mlir::Value> emitCompareAndSwapLoop(mlir::OpBuilder &b, mlir::Location loc,
                                                    mlir::Value memref, mlir::ValueRange indices,
                                                    const AtomicCombiner &combine);

/// Adds complex `addend` to element `indices` of `memref` with one float
/// atomic add per part.
void emitComplexAtomicAdd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value memref,
                          mlir::ValueRange indices, mlir::Value addend);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_ATOMICUPDATES_H
