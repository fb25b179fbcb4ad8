//===- LinearIndex.h - Row-major linear indices, folded ---------*- C++ -*-===//
//
// Owns the linear index that xla-gpu-flatten-buffers gives a
// multi-dimensional access. The emitters index each dimension on its own,
// often by delinearizing a thread's linear id ((b / 768, (b / 3) mod 256,
// (b mod 3) * 512 + t)); linearizing those again with multiplies and adds
// leaves the divisions in the code, which LLVM does not fold. As XLA's
// indexing-map simplifier does, the index is rebuilt here as an affine
// expression over the values the divisions and remainders start from,
// folded (nested divisions merged, a / n * n + a mod n = a), and emitted
// only where that leaves fewer divisions and remainders.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_LINEARINDEX_H
#define HLO_PIPELINE_LINEARINDEX_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace hlo::pipeline {

/// The row-major linear index of `indices` into `shape`, built before
/// the builder's insertion point.
mlir::Value linearIndex(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange indices,
                        llvm::ArrayRef<int64_t> shape);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_LINEARINDEX_H
