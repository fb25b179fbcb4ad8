//===- GemmTiling.cpp - How a GEMM kernel splits its dot ------------------===//
#include "emitters/GemmTiling.h"

#include "abi/GemmCostModel.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdlib>

namespace hlo {
namespace {

/// Without XLA's config, a block's tile is at most this many rows and
/// columns, computed by at most this many warps.
constexpr int64_t kMaxBlockRows = 64, kMaxBlockColumns = 64, kMaxWarps = 4;
/// The large tile and its warps (GemmTiling::large).
constexpr int64_t kLargeTile = 128, kLargeTileWarps = 8;
/// Without XLA's config, a block steps along K by this many bytes of each
/// operand row (32 bf16, 16 f32, 8 f64, 64 s8 elements).
constexpr int64_t kBlockKBytes = 64;
/// Each shared row's pad: 16 bytes.
constexpr int64_t kPadBytes = 16;
/// At most this many accumulator values a thread: XLA's warps are doubled
/// (to 16 at most) for a tile that would give a thread more. (A fuzzed
/// config of one warp for a 128 x 128 f32 tile, 512 a thread, took 82 s
/// to bufferize and would spill on any GPU.)
constexpr int64_t kMaxAccumulatorsPerThread = 128, kMaxConfiguredWarps = 16;

/// The warps as a grid over the mma tiles, each warp's part as square as
/// can be (in elements), if some grid divides them evenly.
void arrangeWarps(GemmTiling &t, const xla_gpu::MmaSyncKind &mma) {
  int64_t best = -1;
  for (int64_t warpsM = 1; warpsM <= t.warps; ++warpsM) {
    if (t.warps % warpsM)
      continue;
    int64_t warpsN = t.warps / warpsM;
    if (t.mmaTilesM % warpsM || t.mmaTilesN % warpsN)
      continue;
    int64_t rows = t.mmaTilesM / warpsM * mma.m, columns = t.mmaTilesN / warpsN * mma.n;
    int64_t imbalance = std::abs(rows - columns);
    if (best >= 0 && imbalance >= best)
      continue;
    best = imbalance;
    t.warpGrid = true;
    t.warpsM = warpsM;
    t.warpsN = warpsN;
    t.warpTilesM = t.mmaTilesM / warpsM;
    t.warpTilesN = t.mmaTilesN / warpsN;
  }
  t.tilesPerWarp = t.warpGrid ? t.warpTilesM * t.warpTilesN
                              : llvm::divideCeil(t.mmaTilesM * t.mmaTilesN, t.warps);
}

/// The large tile's columns for `gemm`, or 0 for the small tile (at most
/// 64 x 64): large where a full wave of 128 x 128 tiles fills every SM
/// (the model below has no figures for mma.sync's one-stage large tile,
/// nor for per-SM bandwidth with most SMs idle: it would decide that
/// unmeasured); then, where the config allows 128 x 256 (wgmma), the
/// width the cost model (abi/GemmCostModel.h) estimates faster, each as
/// the emitter builds it (warp-specialized, persistent, K steps of 128
/// bytes, 4 stages).
int64_t largeTileColumns(const GemmDescription &gemm, const xla_gpu::MmaSyncKind &mma,
                         const GemmConfig &config, int64_t elementBytes) {
  if (gemm.batchCount() * (gemm.m / kLargeTile) * (gemm.n / kLargeTile) < config.multiprocessors)
    return 0;
  if (!config.wideLargeTile || gemm.n < 2 * kLargeTile)
    return kLargeTile;
  abi::GemmDeviceFigures device = abi::gemmDeviceFigures(config.arch);
  device.multiprocessors = config.multiprocessors;
  device.wgmma = true;
  abi::GemmProblem problem = gemmCostProblem(gemm);
  auto estimate = [&](int64_t columns) {
    abi::GemmTuning t;
    t.blockM = kLargeTile;
    t.blockN = columns;
    t.blockK = std::max(mma.k, 2 * kBlockKBytes / elementBytes);
    t.warps = kLargeTileWarps;
    t.stages = 4;
    t.warpSpecialized = t.persistent = true;
    return abi::estimateGemmCost(problem, t, device).microseconds;
  };
  return estimate(2 * kLargeTile) < estimate(kLargeTile) ? 2 * kLargeTile : kLargeTile;
}

} // namespace

GemmTiling chooseGemmTiling(const GemmDescription &gemm, const xla_gpu::MmaSyncKind &mma,
                            const GemmConfig &config, int64_t elementBytes,
                            int64_t sharedMemoryLimit) {
  GemmTiling t;
  if (config.tile && config.warps) {
    std::tie(t.blockM, t.blockN) = *config.tile;
    t.warps = std::clamp<int64_t>(*config.warps, 1, 32);
    while (t.warps < kMaxConfiguredWarps &&
           t.blockM * t.blockN > kMaxAccumulatorsPerThread * 32 * t.warps)
      t.warps *= 2;
    t.mmaTilesM = llvm::divideCeil(t.blockM, mma.m);
    t.mmaTilesN = llvm::divideCeil(t.blockN, mma.n);
  } else if (int64_t columns =
                 config.multiprocessors > 0 && elementBytes <= 4 &&
                         gemm.input != GemmInput::TF32x3 && gemm.m >= kLargeTile &&
                         gemm.n >= kLargeTile
                     ? largeTileColumns(gemm, mma, config, elementBytes)
                     : 0) {
    // The large tile: 128 x 128, each warp a quarter of the rows by half
    // the columns (64 x 32: four A and four B fragments for 16 mma
    // tiles), or, on sm_90a, two 64-row warpgroup slabs; or 128 x 256,
    // each warpgroup's product 64 x 256 (as CUTLASS's and Triton's
    // fastest Hopper GEMMs), where the cost model estimates it faster.
    t.large = true;
    t.blockM = kLargeTile;
    t.blockN = columns;
    t.warps = kLargeTileWarps;
    t.mmaTilesM = t.blockM / mma.m;
    t.mmaTilesN = t.blockN / mma.n;
  } else {
    // The dot's rows and columns rounded up to mma tiles, at most 64 x 64,
    // a warp per two mma tiles, at most 4.
    t.mmaTilesM = llvm::divideCeil(std::min(gemm.m, kMaxBlockRows), mma.m);
    t.mmaTilesN = llvm::divideCeil(std::min(gemm.n, kMaxBlockColumns), mma.n);
    t.blockM = t.mmaTilesM * mma.m;
    t.blockN = t.mmaTilesN * mma.n;
    t.warps = std::clamp<int64_t>(t.mmaTilesM * t.mmaTilesN / 2, 1, kMaxWarps);
  }
  arrangeWarps(t, mma);
  t.tilesM = llvm::divideCeil(gemm.m, t.blockM);
  t.tilesN = llvm::divideCeil(gemm.n, t.blockN);

  // The step along K: XLA's where it is a whole number of mma steps, else
  // 64 bytes of a row; never past K (rounded up to an mma step), and
  // halved while the shared tiles do not fit.
  int64_t kLimit = llvm::divideCeil(gemm.k, mma.k) * mma.k;
  t.blockK = config.blockK && *config.blockK % mma.k == 0
                 ? *config.blockK
                 : std::max(mma.k, kBlockKBytes / elementBytes);
  t.blockK = std::min(t.blockK, kLimit);
  t.sharedRowsA = t.mmaTilesM * mma.m;
  t.sharedRowsB = t.mmaTilesN * mma.n;
  int64_t pad = std::max<int64_t>(1, kPadBytes / elementBytes);
  t.sharedColumns = t.blockK + pad;
  while (t.blockK > mma.k && t.sharedMemoryBytes(elementBytes) > sharedMemoryLimit) {
    t.blockK = std::max(mma.k, t.blockK / 2 / mma.k * mma.k);
    t.sharedColumns = t.blockK + pad;
  }
  return t;
}

void widenBlockK(GemmTiling &t, const xla_gpu::MmaSyncKind &mma, const GemmDescription &gemm,
                 int64_t blockK) {
  int64_t kLimit = llvm::divideCeil(gemm.k, mma.k) * mma.k;
  int64_t wide = std::min(blockK / mma.k * mma.k, kLimit);
  if (wide <= t.blockK)
    return;
  t.sharedColumns += wide - t.blockK;
  t.blockK = wide;
}

} // namespace hlo
