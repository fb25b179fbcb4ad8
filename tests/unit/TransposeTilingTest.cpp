//===- TransposeTilingTest.cpp - Launch figures of the transpose emitter --===//
//
// The figures emitters/TransposeTiling.h computes, against XLA's: the
// shared tiles of the corpus' CHECK lines (1x32x33 for 021, 32x1x33 for
// 210, 32x33x3 for 102), the grids XLA's own compiler launched for the
// same fusions (shared/tools/xla-gpu-reference, H100), and the vector
// rules on chosen shapes.
//
//===----------------------------------------------------------------------===//
#include "analysis/FusionAnalysis.h"
#include "analysis/KernelPlan.h"
#include "emitters/TransposeTiling.h"

#include "TestUtils.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

std::optional<TransposeTiling> corpusTiling(const std::string &file) {
  std::string errors;
  auto module = testing_utils::parseCorpusModule(file, errors);
  if (!module)
    return std::nullopt;
  KernelPlan plan(*module);
  const KernelSource &kernel = plan.kernels().front();
  GpuDeviceInfo device = deviceInfoForArch("sm_90").value();
  FusionAnalysis analysis = analyzeFusion(*kernel.computation, kernel.fusion, device);
  if (!analysis.transpose)
    return std::nullopt;
  return computeTransposeTiling(analysis, device);
}

TEST(TransposeTiling, SharedTilesAndGridsOfTheCorpus) {
  if (!std::filesystem::exists(testing_utils::kCorpus / "xla" / "transpose"))
    GTEST_SKIP() << "no corpus";
  struct Expected {
    const char *file;
    std::vector<int64_t> sharedTile;
    int64_t blocks; // what XLA launched (H100)
  };
  const Expected cases[] = {
      {"transpose/fused_transpose_021.hlo", {1, 32, 33}, 600},
      {"transpose/fused_transpose_210.hlo", {32, 1, 33}, 960},
      {"transpose/fused_transpose_102.hlo", {32, 33, 3}, 30},
      {"transpose/transpose_021.hlo", {1, 32, 33}, 200},
      {"transpose/transpose_1302.hlo", {1, 1, 32, 33}, 1520},
      {"transpose/transpose_10.hlo", {1, 32, 33}, 4},
  };
  for (const Expected &expected : cases) {
    std::optional<TransposeTiling> tiling = corpusTiling(expected.file);
    ASSERT_TRUE(tiling) << expected.file;
    EXPECT_EQ(tiling->sharedTile, expected.sharedTile) << expected.file;
    EXPECT_EQ(tiling->blockCount(), expected.blocks) << expected.file;
    EXPECT_EQ(tiling->vectorSize, 1) << expected.file;
  }
}

TransposeDescription description(std::vector<int64_t> outputDims,
                                 std::vector<int64_t> permutation, bool packed = false) {
  TransposeDescription result;
  result.dimensions = std::move(outputDims);
  result.permutation = std::move(permutation);
  result.packed = packed;
  return result;
}

TEST(TransposeTiling, VectorizesWithAWaveOfWorkPerVectorSquared) {
  GpuDeviceInfo h100 = deviceInfoForArch("sm_90").value();
  // f16 [16384, 1024] -> [1024, 16384]: 16384 tiles of 32x32 give 128 *
  // 16384 threads >= 4 * 132 * 2048: vector 2, 64x65 tiles.
  TransposeTiling large = computeTransposeTiling(description({1024, 16384}, {1, 0}), 2, 1, h100);
  EXPECT_EQ(large.vectorSize, 2);
  EXPECT_EQ(large.sharedTile, (std::vector<int64_t>{1, 64, 65}));
  EXPECT_EQ(large.blockCount(), 16 * 256);
  // A small one stays at 1; f32 never vectorizes (4 bytes already).
  EXPECT_EQ(computeTransposeTiling(description({64, 64}, {1, 0}), 2, 1, h100).vectorSize, 1);
  EXPECT_EQ(computeTransposeTiling(description({1024, 16384}, {1, 0}), 4, 1, h100).vectorSize,
            1);
  // Unaligned tiled dimensions stay at 1.
  EXPECT_EQ(computeTransposeTiling(description({1023, 16384}, {1, 0}), 2, 1, h100).vectorSize,
            1);
}

TEST(TransposeTiling, PackedMovesWholeWordsWhereTilesFit) {
  GpuDeviceInfo h100 = deviceInfoForArch("sm_90").value();
  // bf16: XLA's packed 64x64 tile, swizzled, however small.
  TransposeTiling bf16 = computeTransposeTiling(description({64, 128}, {1, 0}, true), 2, 1, h100);
  EXPECT_EQ(bf16.vectorSize, 2);
  EXPECT_EQ(bf16.blockCount(), 2);
  EXPECT_TRUE(bf16.swizzled);
  EXPECT_EQ(bf16.sharedTile, (std::vector<int64_t>{64, 64}));
  // s8: 128x128; two heroes of s8 still fit (2 * 128 * 129 bytes).
  EXPECT_EQ(computeTransposeTiling(description({128, 128}, {1, 0}, true), 1, 2, h100).vectorSize,
            4);
  // Four heroes of s8 at 128x129 do not: 64x65 tiles, padded (a 2-element
  // vector of bytes is no whole word to swizzle).
  TransposeTiling four = computeTransposeTiling(description({128, 128}, {1, 0}, true), 1, 4, h100);
  EXPECT_EQ(four.vectorSize, 2);
  EXPECT_FALSE(four.swizzled);
  EXPECT_EQ(four.sharedTile, (std::vector<int64_t>{1, 64, 65}));
}

} // namespace
