//===- GemmCostModel.h - A GEMM kernel's time, estimated ---------*- C++ -*-===//
//
// Owns the analytic estimate of a GEMM kernel's time for a configuration
// (tile, K step, stages, warp specialization, persistence, clusters,
// split-K) on a GPU of an architecture: per block, the tensor cores' time
// for its tile and the time to stream its operands (bounded by the SM's
// share of L2 and by the bytes its stages keep in flight over the memory
// latency; in a cluster of two, a block reads half of B from L2),
// the epilogue, the waves of blocks the SMs take (blocks resident at once
// by shared memory), the DRAM traffic as a floor, and for split-K the
// reduction's launch and traffic. First order and uncalibrated beyond the
// figures below (the H200 cuBLAS baselines of bench/results: GemmCostModelTest);
// `hlo-run --autotune` prints it beside each measured time, so that every
// GPU run calibrates it.
//
// Here, beside the tuning records (GemmTuning.h), because both tools use
// it and one links no LLVM: hlo-compile's gemm-split-k picks S by it, and
// hlo-run --autotune orders its candidates by it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_GEMMCOSTMODEL_H
#define HLO_ABI_GEMMCOSTMODEL_H

#include "abi/GemmTuning.h"

#include <cstdint>
#include <string_view>

namespace hlo::abi {

/// What the model knows of a GPU: a representative part per architecture.
struct GemmDeviceFigures {
  int64_t multiprocessors = 132;
  /// Dense tensor-core peak for 16-bit inputs (8-bit floats: twice; TF32:
  /// half), and the peak of mma.sync where wgmma is not used.
  double tensorTflops16 = 989;
  double mmaSyncFraction = 0.6;
  double memoryGBs = 3350, l2GBs = 10000;
  /// Shared memory of an SM (blocks resident at once), and the latency a
  /// block's loads wait for.
  int64_t sharedMemoryPerSm = 228 * 1024;
  double latencyMicroseconds = 1.0;
  double launchMicroseconds = 3.0;
  bool wgmma = true;
};

/// The figures for `arch` ("sm_90a", "sm_80", ...): H100 SXM for sm_90,
/// A100 for sm_80, L40S for sm_89, B200 for sm_100 (wgmma only with the
/// `a` of sm_90a).
GemmDeviceFigures gemmDeviceFigures(std::string_view arch);

/// A GEMM as the model sees it.
struct GemmProblem {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  int64_t inputBytes = 2, outputBytes = 2;
  /// TF32 products (f32 inputs at default precision): half the 16-bit peak.
  bool tf32 = false;
};

struct GemmCost {
  double microseconds = 0;
  /// The parts: a block's tile (its mainloop and epilogue), the rounds of
  /// blocks the SMs take, the DRAM floor, the split's reduction.
  double tileMicroseconds = 0;
  int64_t rounds = 0;
  double dramMicroseconds = 0, reductionMicroseconds = 0;
};

/// The estimate for `problem` built as `tuning` (split along K in
/// `splits` slices, each a block of its own) on `device`.
GemmCost estimateGemmCost(const GemmProblem &problem, const GemmTuning &tuning,
                          const GemmDeviceFigures &device, int64_t splits = 1);

} // namespace hlo::abi

#endif // HLO_ABI_GEMMCOSTMODEL_H
