//===- GemmTiling.h - How a GEMM kernel splits its dot -----------*- C++ -*-===//
//
// Owns the tiling of the tensor-core GEMM emitter (GemmEmitter.cpp): the
// output tile each block computes and its step along K, the warps and
// which mma tiles each computes, and the shared-memory tiles the block
// stages its operands in. XLA's tile and warps are taken where its config
// names them; otherwise the tile follows the dot's shape. Pure arithmetic,
// so that the choices can be tested without emitting.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_GEMMTILING_H
#define HLO_EMITTERS_GEMMTILING_H

#include "analysis/GemmAnalysis.h"
#include "dialect/MmaSyncKind.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace hlo {

/// What XLA's config asks of a GEMM kernel, where it says.
struct GemmConfig {
  /// The block's output tile (rows, columns of the dot) and its warps.
  std::optional<std::pair<int64_t, int64_t>> tile;
  std::optional<int64_t> warps;
  /// The step along K (the dot's backend_config "sizes").
  std::optional<int64_t> blockK;
  /// The device's SMs: without XLA's tile, a dot with a full wave of
  /// large tiles (GemmTiling::large) gets them.
  int64_t multiprocessors = 0;
  /// Whether the large tile may be 128 x 256 (warpgroups of 64 x 256 on
  /// sm_90a, 16-bit or 8-bit float inputs).
  bool wideLargeTile = false;
  /// The architecture (its cost-model figures: abi/GemmCostModel.h).
  std::string arch = "sm_90";
};

struct GemmTiling {
  /// The block's output tile, its step along K and its warps.
  int64_t blockM = 0, blockN = 0, blockK = 0, warps = 0;
  /// Whether the tile is the emitter's large one (128 x 128 on 8 warps, or
  /// 128 x 256 where GemmConfig::wideLargeTile and the GEMM cost model
  /// estimates it faster), for dots without XLA's config that fill every
  /// SM with 128 x 128 tiles; elements of at most 32 bits, not 3xTF32:
  /// room for one block an SM.
  bool large = false;
  /// The mma tiles that cover the block's tile (it may be smaller than
  /// one: XLA's 8 x 16 tiles on m16 mmas).
  int64_t mmaTilesM = 0, mmaTilesN = 0;
  /// How the warps share the mma tiles: as a warpsM x warpsN grid of
  /// warpTilesM x warpTilesN mma tiles each (a warp reuses each A fragment
  /// along its row and each B fragment along its column), or, where the
  /// tiles do not divide so, tile `warp + j * warps` for j < tilesPerWarp
  /// (round robin: a warp may have fewer).
  bool warpGrid = false;
  int64_t warpsM = 1, warpsN = 1, warpTilesM = 1, warpTilesN = 1;
  int64_t tilesPerWarp = 1;
  /// The blocks' tiles along M and N (times the batch: the grid).
  int64_t tilesM = 0, tilesN = 0;
  /// The shared tiles of A (mmaTilesM * m rows) and B (mmaTilesN * n
  /// rows), each row blockK elements and a 16-byte pad (so that the eight
  /// rows one fragment load reads fall in different banks); the emitter
  /// may store a tile K by rows instead (the same elements and pad).
  int64_t sharedRowsA = 0, sharedRowsB = 0, sharedColumns = 0;

  int64_t sharedMemoryBytes(int64_t elementBytes) const {
    return (sharedRowsA + sharedRowsB) * sharedColumns * elementBytes;
  }
};

/// The tiling of `gemm` computed with `mma`s, honouring `config` where it
/// fits (its warps doubled where a thread would hold more than 128
/// accumulators) and staying within `sharedMemoryLimit` bytes of static
/// shared memory.
GemmTiling chooseGemmTiling(const GemmDescription &gemm, const xla_gpu::MmaSyncKind &mma,
                            const GemmConfig &config, int64_t elementBytes,
                            int64_t sharedMemoryLimit);

/// Steps K by `blockK` elements (at most K rounded up to an mma step, a
/// whole number of mma steps) in `t`, its shared tiles widened alike.
void widenBlockK(GemmTiling &t, const xla_gpu::MmaSyncKind &mma, const GemmDescription &gemm,
                 int64_t blockK);

/// The K step of the emitter's own wgmma tiles, in bytes of a row.
inline constexpr int64_t kWideBlockKBytes = 128;

} // namespace hlo

#endif // HLO_EMITTERS_GEMMTILING_H
