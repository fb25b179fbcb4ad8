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

#include "abi/GemmCostModel.h"
#include "hlo_parser/HloComputation.h"
#include "support/ErrorOr.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace hlo {

/// What the tensor cores multiply: bf16/f16 (m16n8k16), f32 as TF32
/// (m16n8k8, XLA's default precision), f32 as three TF32 products (each
/// operand split into a TF32 part and the TF32 remainder; the product of
/// the remainders dropped: about 2^-21 of each product, for HIGH/HIGHEST
/// and the f32 algorithms), f64 (m8n8k4), s8 into s32 (m16n8k32), 8-bit
/// floats f8e4m3fn and f8e5m2 (m16n8k32 into f32, sm_89 on).
enum class GemmInput { BF16, F16, TF32, TF32x3, F64, S8, F8E4M3FN, F8E5M2 };

/// Whether the tensor cores of sm_`computeCapability` multiply `input`
/// (8-bit floats from sm_89, the others from sm_80).
bool tensorCoresTake(GemmInput input, int computeCapability);

struct GemmDescription {
  const HloInstruction *dot = nullptr;
  /// The root is computed from the dot by a chain of one-operand ops
  /// (bitcasts, copies, converts) ending here (the dot itself for none),
  /// whose indexing takes the dot's index to the root's, then elementwise
  /// ops of this one's dimensions.
  const HloInstruction *epilogueChainTop = nullptr;
  GemmInput input = GemmInput::BF16;
  /// B's type where it is not A's: mixed 8-bit floats (an FP8 backward
  /// pass's e5m2 gradients times e4m3 weights).
  std::optional<GemmInput> inputB;
  /// The dot's result is [batch dims..., lhs free dims..., rhs free
  /// dims...]: a batch of m x n matrices, m the lhs free dimensions'
  /// elements (row-major over them, 1 for none), n the rhs's, k the
  /// contracting dimensions' (row-major in the order the dot lists them).
  std::vector<int64_t> batchSizes;
  int64_t m = 1, n = 1, k = 1;
  /// Per operand: its batch dimensions (in the result's order), its free
  /// dimensions (in order: the rows of A, the columns of B) and its
  /// contracting dimensions (in the dot's order).
  std::vector<int64_t> lhsBatch, rhsBatch;
  std::vector<int64_t> lhsFree, rhsFree, lhsContracting, rhsContracting;

  int64_t batchCount() const;
  /// Whether each operand has exactly one free dimension (the result is
  /// [batch..., m, n]).
  bool hasMatrixResult() const { return lhsFree.size() == 1 && rhsFree.size() == 1; }
};

/// `gemm` as the GEMM cost model (abi/GemmCostModel.h) takes it: batch,
/// M, N, K, the bytes of an input element (by the tensor-core type) and
/// of a result element (the dot's type; the inputs' where there is no dot).
abi::GemmProblem gemmCostProblem(const GemmDescription &gemm);

/// The GEMM of `computation` (a fusion's, or an unfused dot's), or why the
/// emitter does not take it: one dot, the single root computed from it as
/// epilogueChainTop says, at least one contracting dimension (a dot
/// without is an outer product: elementwise), operands of one type:
/// bf16/f16/f32/f64/f8e4m3fn/f8e5m2 (or one of each 8-bit float), or s8
/// into s32.
ErrorOr<GemmDescription> describeGemm(const HloComputation &computation);

} // namespace hlo

#endif // HLO_ANALYSIS_GEMMANALYSIS_H
