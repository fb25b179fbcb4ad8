//===- GemmTilingTest.cpp - The GEMM emitter's tiles, warps and K steps ---===//
//
// chooseGemmTiling (emitters/GemmTiling.h) against hand-worked cases:
// XLA's configs taken as given (the corpus's common 16 x 8 tile on 2 warps,
// 64 x 32 on 4), its own tile for unconfigured dots, the K step (XLA's
// where it is whole mma steps, 64 bytes of a row otherwise, never past K),
// the warp grid or round robin, and shared memory kept under its limit.
//
//===----------------------------------------------------------------------===//
#include "emitters/GemmTiling.h"

#include <gtest/gtest.h>

namespace hlo {
namespace {

const xla_gpu::MmaSyncKind kBf16{16, 8, 16, xla_gpu::MmaInput::BF16};
const xla_gpu::MmaSyncKind kTf32{16, 8, 8, xla_gpu::MmaInput::TF32};
constexpr int64_t kLimit = 48 * 1024;

GemmDescription gemmOf(int64_t m, int64_t n, int64_t k) {
  GemmDescription gemm;
  gemm.m = m;
  gemm.n = n;
  gemm.k = k;
  return gemm;
}

TEST(GemmTiling, XlasSmallTileOnTwoWarpsIsDealtRoundRobin) {
  GemmConfig config{std::make_pair<int64_t, int64_t>(16, 8), 2, std::nullopt};
  GemmTiling t = chooseGemmTiling(gemmOf(8192, 2304, 768), kBf16, config, 2, kLimit);
  EXPECT_EQ(t.blockM, 16);
  EXPECT_EQ(t.blockN, 8);
  EXPECT_EQ(t.warps, 2);
  // One mma tile for two warps: no grid divides it; the second warp idles.
  EXPECT_FALSE(t.warpGrid);
  EXPECT_EQ(t.tilesPerWarp, 1);
  EXPECT_EQ(t.tilesM, 512);
  EXPECT_EQ(t.tilesN, 288);
  // 64 bytes of bf16 along K, rows padded by 16 bytes.
  EXPECT_EQ(t.blockK, 32);
  EXPECT_EQ(t.sharedColumns, 40);
  EXPECT_EQ(t.sharedMemoryBytes(2), (16 + 8) * 40 * 2);
}

TEST(GemmTiling, XlasWarpsDoubleWhereAThreadWouldHoldOver128Accumulators) {
  // One warp for 128 x 128 (fuzz seed 640057): 512 a thread; four warps
  // hold 128 each. 128 x 256 on 8 warps is 128 a thread: kept.
  GemmConfig lone{std::make_pair<int64_t, int64_t>(128, 128), 1, 32};
  EXPECT_EQ(chooseGemmTiling(gemmOf(123, 281, 77), kTf32, lone, 4, kLimit).warps, 4);
  GemmConfig wide{std::make_pair<int64_t, int64_t>(128, 256), 8, 64};
  EXPECT_EQ(chooseGemmTiling(gemmOf(4096, 4096, 4096), kBf16, wide, 2, 227 * 1024).warps, 8);
  GemmConfig small{std::make_pair<int64_t, int64_t>(64, 64), 1, 32};
  EXPECT_EQ(chooseGemmTiling(gemmOf(64, 64, 64), kBf16, small, 2, kLimit).warps, 1);
}

TEST(GemmTiling, WarpsFormTheSquarestGrid) {
  GemmConfig config{std::make_pair<int64_t, int64_t>(64, 32), 4, 32};
  GemmTiling t = chooseGemmTiling(gemmOf(1024, 1024, 1024), kBf16, config, 2, kLimit);
  // 4 x 4 mma tiles of 16 x 8: 2 x 2 warps of 32 x 16 each (4 x 1 warps
  // of 16 x 32 are as square; the first found is kept).
  ASSERT_TRUE(t.warpGrid);
  EXPECT_EQ(t.warpsM, 2);
  EXPECT_EQ(t.warpsN, 2);
  EXPECT_EQ(t.warpTilesM, 2);
  EXPECT_EQ(t.warpTilesN, 2);
  EXPECT_EQ(t.tilesPerWarp, 4);
}

TEST(GemmTiling, UnconfiguredDotsGetAtMost64By64OnFourWarps) {
  GemmTiling big = chooseGemmTiling(gemmOf(4096, 4096, 4096), kBf16, {}, 2, kLimit);
  EXPECT_EQ(big.blockM, 64);
  EXPECT_EQ(big.blockN, 64);
  EXPECT_EQ(big.warps, 4);
  ASSERT_TRUE(big.warpGrid);
  EXPECT_EQ(big.warpTilesM * 16, 32);
  EXPECT_EQ(big.warpTilesN * 8, 32);
  // A matrix-vector product: one mma row, a warp.
  GemmTiling vector = chooseGemmTiling(gemmOf(26, 1, 26), kBf16, {}, 2, kLimit);
  EXPECT_EQ(vector.blockM, 32);
  EXPECT_EQ(vector.blockN, 8);
  EXPECT_EQ(vector.warps, 1);
  EXPECT_EQ(vector.tilesPerWarp, 2);
}

TEST(GemmTiling, HopperLargeTileIsTwiceAsWideWhereTheCostModelSaysFaster) {
  GemmConfig device;
  device.multiprocessors = 132;
  device.wideLargeTile = true;
  device.arch = "sm_90a";
  // 32 x 16 tiles of 128 x 256 on 8 warps (two warpgroups of 64 x 256).
  GemmTiling wide = chooseGemmTiling(gemmOf(4096, 4096, 4096), kBf16, device, 2, 227 * 1024);
  EXPECT_TRUE(wide.large);
  EXPECT_EQ(wide.blockM, 128);
  EXPECT_EQ(wide.blockN, 256);
  EXPECT_EQ(wide.warps, 8);
  EXPECT_EQ(wide.tilesN, 16);
  EXPECT_EQ(wide.sharedRowsB, 256);
  // 2048^3: 128 tiles of 128 x 256 in one round on 132 SMs (estimated 25
  // us) beat 256 of 128 x 128 in two (32 us).
  GemmTiling wide2k = chooseGemmTiling(gemmOf(2048, 2048, 2048), kBf16, device, 2, 227 * 1024);
  EXPECT_TRUE(wide2k.large);
  EXPECT_EQ(wide2k.blockN, 256);
  // Without the wide tile: 128 x 128.
  device.wideLargeTile = false;
  GemmTiling square = chooseGemmTiling(gemmOf(2048, 2048, 2048), kBf16, device, 2, 227 * 1024);
  EXPECT_TRUE(square.large);
  EXPECT_EQ(square.blockN, 128);
  // Fewer 128 x 128 tiles than SMs (11 x 11): the small tile.
  EXPECT_FALSE(chooseGemmTiling(gemmOf(1500, 1500, 4096), kBf16, device, 2, 227 * 1024).large);
}

TEST(GemmTiling, DotsFillingEverySmGetTheLargeTile) {
  GemmConfig device;
  device.multiprocessors = 132;
  // 32 x 32 tiles of 128 x 128: 128 x 128 on 8 warps, 2 x 4 warps of 64 x 32.
  GemmTiling big = chooseGemmTiling(gemmOf(4096, 4096, 4096), kBf16, device, 2, kLimit);
  EXPECT_TRUE(big.large);
  EXPECT_EQ(big.blockM, 128);
  EXPECT_EQ(big.blockN, 128);
  EXPECT_EQ(big.warps, 8);
  ASSERT_TRUE(big.warpGrid);
  EXPECT_EQ(big.warpTilesM * 16, 64);
  EXPECT_EQ(big.warpTilesN * 8, 32);
  EXPECT_EQ(big.blockK, 32);
  // 11 x 11 whole tiles (121 < 132): the 64 x 64 tile.
  GemmTiling wave = chooseGemmTiling(gemmOf(1500, 1500, 4096), kBf16, device, 2, kLimit);
  EXPECT_FALSE(wave.large);
  EXPECT_EQ(wave.blockM, 64);
  // f64 (and 3xTF32) keep the 64 x 64 tile: their accumulators would not fit.
  GemmDescription f64 = gemmOf(4096, 4096, 4096);
  f64.input = GemmInput::F64;
  const xla_gpu::MmaSyncKind kF64{8, 8, 4, xla_gpu::MmaInput::F64};
  EXPECT_FALSE(chooseGemmTiling(f64, kF64, device, 8, kLimit).large);
  // XLA's tile wins over the large one.
  GemmConfig xla{std::make_pair<int64_t, int64_t>(64, 32), 4, std::nullopt, 132};
  EXPECT_FALSE(chooseGemmTiling(gemmOf(4096, 4096, 4096), kBf16, xla, 2, kLimit).large);
}

TEST(GemmTiling, KStepIsXlasWhenWholeAndNeverPastK) {
  GemmConfig whole{std::nullopt, std::nullopt, 48};
  EXPECT_EQ(chooseGemmTiling(gemmOf(64, 64, 4096), kBf16, whole, 2, kLimit).blockK, 48);
  // 24 is not a whole number of k16 steps: 64 bytes instead.
  GemmConfig ragged{std::nullopt, std::nullopt, 24};
  EXPECT_EQ(chooseGemmTiling(gemmOf(64, 64, 4096), kBf16, ragged, 2, kLimit).blockK, 32);
  // f32: 16 elements, but K = 10 needs only two k8 steps.
  EXPECT_EQ(chooseGemmTiling(gemmOf(64, 64, 10), kTf32, {}, 4, kLimit).blockK, 16);
  EXPECT_EQ(chooseGemmTiling(gemmOf(64, 64, 5), kTf32, {}, 4, kLimit).blockK, 8);
}

TEST(GemmTiling, SharedTilesStayUnderTheLimit) {
  GemmConfig config{std::make_pair<int64_t, int64_t>(256, 256), 8, 128};
  GemmTiling t = chooseGemmTiling(gemmOf(4096, 4096, 4096), kBf16, config, 2, kLimit);
  EXPECT_LE(t.sharedMemoryBytes(2), kLimit);
  EXPECT_EQ(t.blockK % 16, 0);
  // (256 + 256) rows of 32 + 8 bf16: 40 KiB; 64 + 8 would be 72 KiB.
  EXPECT_EQ(t.blockK, 32);
}

TEST(GemmTiling, WidenedKStepWidensTheSharedRowsAndStopsAtK) {
  GemmTiling t = chooseGemmTiling(gemmOf(4096, 4096, 4096), kBf16, {}, 2, kLimit);
  ASSERT_EQ(t.blockK, 32);
  int64_t pad = t.sharedColumns - t.blockK;
  widenBlockK(t, kBf16, gemmOf(4096, 4096, 4096), kWideBlockKBytes / 2);
  EXPECT_EQ(t.blockK, 64);
  EXPECT_EQ(t.sharedColumns, 64 + pad);
  // K = 40: three k16 steps at most; never narrower than it was.
  GemmTiling shallow = chooseGemmTiling(gemmOf(4096, 4096, 40), kBf16, {}, 2, kLimit);
  widenBlockK(shallow, kBf16, gemmOf(4096, 4096, 40), 64);
  EXPECT_EQ(shallow.blockK, 48);
  widenBlockK(shallow, kBf16, gemmOf(4096, 4096, 40), 16);
  EXPECT_EQ(shallow.blockK, 48);
}

} // namespace
} // namespace hlo
