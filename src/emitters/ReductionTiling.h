//===- ReductionTiling.h - Launch figures of the reduction emitters -*- C++ -*-===//
//
// Owns the numbers each reduction emitter launches with (XLA's figures, from
// ../shared/notes/xla-reference.md): threads per block and how
// they split into kept and reduced threads, the vector size, the elements
// each thread reduces, the blocks, the shared-memory tile and how far the
// warp shuffles reach. Each reduction emitter computes its tiling when it
// is built (the analysis chose the variant: analysis/ReductionKind.h).
//
// Per variant, on the 3-D normal form [d0, d1, d2]:
//  - Row ([major reduced, kept, minor reduced]): reduced threads =
//    min(1024, roundup(ceil(d2 / 16), 32)); kept threads fill up to 256;
//    each thread reads `minorTile` vectors of `vector` elements per row;
//    warps of one row meet in shared memory [kept][warps (+1 if 32)].
//  - MultiRow (d2 a power of two within a warp's vectors): d2 / vector
//    threads per row, rows fill up to 256 threads, shuffles only.
//  - Column ([major kept, reduced, minor kept]): 32 x 32 threads, a tile
//    of ceil(d1 / 32) rows per thread, shared memory [32][32 * vector + 1]
//    read transposed.
//  - SmallColumn (32 % d2 == 0): 128 threads (fewer when a block would
//    need more than 32 shared rows) walk d1 * d2 linearly; shared memory
//    [rows][d2 + padding].
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_REDUCTIONTILING_H
#define HLO_EMITTERS_REDUCTIONTILING_H

#include "analysis/DeviceInfo.h"
#include "analysis/ReductionAnalysis.h"
#include "analysis/ReductionKind.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace hlo {

struct ReductionTiling {
  ReductionKind kind = ReductionKind::Row;
  ReductionDimensions dimensions;
  int64_t vectorSize = 1;
  /// Row and MultiRow: {kept, reduced}; Column: {warps, lanes} = {32, 32};
  /// SmallColumn: {threads, 1}.
  std::array<int64_t, 2> threads = {1, 1};
  /// Row: vectors of one row each thread reads per major-reduced index.
  /// Column: rows each thread reads. SmallColumn: loop iterations.
  /// MultiRow: 1.
  int64_t tilePerThread = 1;
  /// Logical blocks: Row and MultiRow {rows / kept threads, 1}; Column
  /// {d0, ceil(d2 / (32 * vector))}; SmallColumn {d0, 1}.
  std::array<int64_t, 2> blocks = {1, 1};
  /// SmallColumn: rows of the shared tile (threads * vector / d2).
  int64_t sharedRows = 0;
  /// The shared tile per reduced value, empty when the variant needs none.
  std::vector<int64_t> sharedTile;
  /// The warp shuffles' first distance (`shuffle_reduce ... to N`).
  int64_t shuffleDistance = 16;

  int64_t threadsPerBlock() const { return threads[0] * threads[1]; }
  int64_t blockCount() const { return blocks[0] * blocks[1]; }
  /// Row: warps that work on one row.
  int64_t warpsPerRow() const { return (threads[1] + 31) / 32; }
  /// Elements of the shared tile (0 when none).
  int64_t sharedTileElements() const;
};

/// XLA's vector size for the row, column and small-column emitters: 1 for
/// odd minor sizes, when threads would run out of work, for complex
/// operands and 64-bit inputs; 2 for 32-bit inputs; else 4 (2 when the
/// minor size is not a multiple of 4 or too small for 4 per thread).
int64_t reductionVectorSize(int64_t minorSize, int64_t threads,
                            const FusionElementBits &bits);

/// The launch figures of the variant chooseReductionKind picks; vectors
/// are halved while the shared tiles would not fit a block.
ReductionTiling computeReductionTiling(const ReductionDimensions &dimensions,
                                       const FusionElementBits &bits,
                                       const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_EMITTERS_REDUCTIONTILING_H
