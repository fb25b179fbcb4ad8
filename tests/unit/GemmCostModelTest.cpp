//===- GemmCostModelTest.cpp - The GEMM cost model's estimates -------------===//
//
// The cost model (abi/GemmCostModel.h) against what was measured: cuBLAS's
// bf16 GEMMs on an H200 (bench/results/h200-gemm-baselines-2026-11-27.tsv)
// at the four shapes, estimated for a 128 x 256 warp-specialized
// persistent kernel, each within 15%; and the choices it exists for: wider
// tiles where the tensor cores bound the time, 8-bit floats twice as fast
// there, a decode step's GEMM split along K (S = 8 at 1 x 4096 x 4096),
// mma.sync below wgmma, the autotuner's candidates in its order.
//
//===----------------------------------------------------------------------===//
#include "GemmAutotune.h"

#include "abi/GemmCostModel.h"

#include <gtest/gtest.h>

using namespace hlo::abi;

namespace {

GemmProblem shape(int64_t m, int64_t n, int64_t k, int64_t bytes = 2) {
  GemmProblem problem;
  problem.m = m;
  problem.n = n;
  problem.k = k;
  problem.inputBytes = bytes;
  problem.outputBytes = 2;
  return problem;
}

GemmTuning tile(int64_t m, int64_t n, int64_t k, int64_t warps, int64_t stages, bool ws,
                bool persistent) {
  return GemmTuning{m, n, k, warps, stages, ws, persistent};
}

double tflops(const GemmProblem &p, double microseconds) {
  return 2.0 * p.m * p.n * p.k / microseconds / 1e6;
}

TEST(GemmCostModel, EstimatesCublasOnAnH200WithinFifteenPercent) {
  GemmDeviceFigures h100 = gemmDeviceFigures("sm_90a");
  GemmTuning wide = tile(128, 256, 64, 8, 4, true, true);
  struct Measured {
    int64_t m, n, k;
    double tflops;
  };
  for (Measured measured : {Measured{4096, 4096, 4096, 795.9}, Measured{8192, 8192, 1024, 724.9},
                            Measured{4096, 32000, 2048, 781.5},
                            Measured{2048, 2048, 2048, 600.8}}) {
    GemmProblem p = shape(measured.m, measured.n, measured.k);
    double estimated = tflops(p, estimateGemmCost(p, wide, h100).microseconds);
    EXPECT_NEAR(estimated / measured.tflops, 1.0, 0.15)
        << measured.m << "x" << measured.n << "x" << measured.k << ": " << estimated;
  }
}

TEST(GemmCostModel, PrefersWhatTheHardwareRewards) {
  GemmDeviceFigures h100 = gemmDeviceFigures("sm_90a");
  GemmProblem big = shape(4096, 4096, 4096);
  double wide = estimateGemmCost(big, tile(128, 256, 64, 8, 4, true, true), h100).microseconds;
  double square = estimateGemmCost(big, tile(128, 128, 64, 8, 4, true, true), h100).microseconds;
  double plain = estimateGemmCost(big, tile(128, 256, 64, 8, 4, false, false), h100).microseconds;
  double small = estimateGemmCost(big, tile(64, 64, 32, 4, 2, false, false), h100).microseconds;
  EXPECT_LT(wide, square);
  EXPECT_LT(wide, plain);
  EXPECT_LT(square, small);
  // Compute-bound: 8-bit floats (K steps of 128) at about twice the rate.
  GemmProblem fp8 = shape(4096, 4096, 4096, 1);
  double wide8 = estimateGemmCost(fp8, tile(128, 256, 128, 8, 4, true, true), h100).microseconds;
  EXPECT_GT(wide / wide8, 1.6);
  // No wgmma without sm_90a's `a`: the same tile on mma.sync is slower.
  EXPECT_GT(estimateGemmCost(big, tile(128, 256, 64, 8, 4, true, true), gemmDeviceFigures("sm_90"))
                .microseconds,
            1.3 * wide);
  // A cluster of two halves a block's B traffic: faster where the
  // operands bound the tile (128 x 128), never slower where the tensor
  // cores do; an odd count of tile rows is counted up to even (133 and
  // 131 rows on 132 SMs: two rounds and one, as alone).
  GemmTuning squareTile = tile(128, 128, 64, 8, 4, true, true);
  GemmTuning squarePair = squareTile;
  squarePair.cluster = 2;
  EXPECT_LT(estimateGemmCost(big, squarePair, h100).microseconds, square);
  GemmTuning widePair = tile(128, 256, 64, 8, 4, true, true);
  widePair.cluster = 2;
  EXPECT_LE(estimateGemmCost(big, widePair, h100).microseconds, wide);
  GemmProblem odd = shape(128 * 133, 256, 4096);
  GemmTuning oddAlone = tile(128, 256, 64, 8, 4, true, true);
  GemmTuning oddPair = oddAlone;
  oddPair.cluster = 2;
  EXPECT_EQ(estimateGemmCost(odd, oddPair, h100).rounds, 2);
  EXPECT_EQ(estimateGemmCost(odd, oddAlone, h100).rounds, 2);
  EXPECT_EQ(estimateGemmCost(shape(128 * 131, 256, 4096), oddPair, h100).rounds, 1);
}

TEST(GemmCostModel, SplitsADecodeStepsGemmAlongK) {
  GemmDeviceFigures h100 = gemmDeviceFigures("sm_90a");
  GemmProblem decode = shape(1, 4096, 4096);
  GemmTuning emitters = tile(16, 64, 32, 4, 2, false, false);
  int64_t best = 1;
  double bestTime = 1e30;
  for (int64_t splits : {1, 2, 4, 8, 16, 32}) {
    GemmCost cost = estimateGemmCost(decode, emitters, h100, splits);
    if (splits > 1)
      EXPECT_GE(cost.reductionMicroseconds, h100.launchMicroseconds);
    if (cost.microseconds < bestTime) {
      bestTime = cost.microseconds;
      best = splits;
    }
  }
  EXPECT_EQ(best, 8);
  EXPECT_GT(estimateGemmCost(decode, emitters, h100).microseconds, 3 * bestTime);
  // 32 MB of B from DRAM bound it below: 10 us at 3.35 TB/s.
  EXPECT_GT(bestTime, estimateGemmCost(decode, emitters, h100, 8).dramMicroseconds);
}

TEST(GemmCostModel, OrdersTheAutotunersCandidates) {
  using namespace hlo::runtime;
  GemmKeyFields big = *parseGemmKey("bf16,bf16->bf16 m4096 n4096 k4096 a:k b:k");
  EXPECT_EQ(big.outputBytes, 2);
  GemmTuning current = tile(64, 64, 32, 4, 4, true, false);
  std::vector<GemmTuning> candidates = gemmTuningCandidates("sm_90a", big, current, 100);
  ASSERT_GT(candidates.size(), 3u);
  EXPECT_EQ(candidates.front(), current);
  GemmDeviceFigures h100 = gemmDeviceFigures("sm_90a");
  for (size_t i = 2; i < candidates.size(); ++i)
    EXPECT_LE(estimateGemmCost(big.problem(), candidates[i - 1], h100).microseconds,
              estimateGemmCost(big.problem(), candidates[i], h100).microseconds);
  // The wide persistent tile first (alone or in clusters of two).
  GemmTuning first = candidates[1];
  first.cluster = 1;
  EXPECT_EQ(first, tile(128, 256, 64, 8, 4, true, true));
}

} // namespace
