//===- GemmAnalysis.h - The dots the tensor-core emitter computes -*- C++ -*-===//
//
// Owns the decision whether a fusion's dot is one the tensor-core GEMM
// emitter (emitters/GemmEmitter.cpp) computes, and its description in the
// emitter's terms: batch, M, N and K, where each lives in the operands'
// and the result's dimensions, and the tensor-core input type. XLA's Triton
// GEMM fusions that this accepts become kernels of ours; the others stay
// library calls.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_GEMMANALYSIS_H
#define HLO_ANALYSIS_GEMMANALYSIS_H

#include "hlo_parser/HloComputation.h"
#include "support/ErrorOr.h"

#include <cstdint>
#include <vector>

namespace hlo {

/// What the tensor cores multiply: bf16/f16 (m16n8k16), f32 as TF32
/// (m16n8k8, XLA's default precision), f64 (m8n8k4), s8 into s32
/// (m16n8k32).
enum class GemmInput { BF16, F16, TF32, F64, S8 };

struct GemmDescription {
  const HloInstruction *dot = nullptr;
  /// The root is computed from the dot by a chain of one-operand ops
  /// (bitcasts, copies, converts) ending here (the dot itself for none),
  /// whose indexing takes the dot's index to the root's, then elementwise
  /// ops of this one's dimensions.
  const HloInstruction *epilogueChainTop = nullptr;
  GemmInput input = GemmInput::BF16;
  /// The dot's result is [batch dims..., m, n] (batch dims in order).
  std::vector<int64_t> batchSizes;
  int64_t m = 1, n = 1, k = 1;
  /// Per operand: its batch dimensions (in the result's order), its free
  /// (row of A, column of B) and its contracting dimension.
  std::vector<int64_t> lhsBatch, rhsBatch;
  int64_t lhsFree = 0, lhsContracting = 0, rhsFree = 0, rhsContracting = 0;

  int64_t batchCount() const;
};

/// The GEMM of `computation` (a fusion's), or why the emitter does not
/// take it: one dot, the single root computed from it as epilogueChainTop
/// says, one free and one contracting dimension per operand, bf16/f16/f64
/// operands, f32 at default precision, or s8 into s32.
ErrorOr<GemmDescription> describeGemm(const HloComputation &computation);

} // namespace hlo

#endif // HLO_ANALYSIS_GEMMANALYSIS_H
