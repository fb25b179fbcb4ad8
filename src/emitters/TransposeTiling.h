//===- TransposeTiling.h - Launch figures of the transpose emitter -*- C++ -*-===//
//
// Owns the numbers the shared-memory transpose launches with (XLA's figures, from
// ../shared/notes/xla-reference.md), on the normalized
// transpose of TransposeAnalysis.h:
//  - two input dimensions are tiled by 32 * vector: when the minor
//    dimension moves, the input's minor one and the one that becomes the
//    output's minor ("021", "210", any other permutation); when it stays
//    ("102"), the input's second-minor one and the one that becomes the
//    output's second-minor, the tile then spanning the whole minor
//    dimension; every other dimension has tiles of 1;
//  - the shared tile is the tile in input order, one element wider in the
//    input-contiguous tiled dimension (no bank conflicts when it is read
//    transposed): 1x32x33 for 021, 32x1x33 for 210, 32x33xM for 102;
//  - 128 threads per block, one block per tile;
//  - the vector size: 4 bytes / the widest transposed element, halved
//    until there is at least a wave of work per vector element squared,
//    the tiles fit into shared memory and both tiled dimensions are
//    multiples of it (else 1); for the packed kind (elements under 32
//    bits) the widest aligned vector whose tiles fit, regardless of the
//    work, so that each thread moves whole 32-bit words as XLA's packed
//    transpose does; when the vector packs a whole word (v * bytes = 4)
//    and the minor dimension moves, the tile is XLA's packed one:
//    (32v) x (32v), unpadded, swizzled (64x64 for 16-bit, 128x128 for
//    8-bit elements), also where the tiled dimensions are not multiples
//    of v (the walks' constraints cut the ragged edge element by element,
//    as XLA's packed transpose does).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_TRANSPOSETILING_H
#define HLO_EMITTERS_TRANSPOSETILING_H

#include "analysis/DeviceInfo.h"
#include "analysis/FusionAnalysis.h"
#include "analysis/TransposeAnalysis.h"

#include <cstdint>
#include <vector>

namespace hlo {

struct TransposeTiling {
  static constexpr int64_t kBaseTile = 32;
  static constexpr int64_t kThreads = 128;
  static_assert(kThreads % 32 == 0, "transpose blocks are whole warps");

  /// The normalized input dimensions and, for each output dimension, the
  /// input dimension it reads (TransposeDescription, at least rank 3:
  /// leading 1s are added).
  std::vector<int64_t> inputDimensions;
  std::vector<int64_t> permutation;
  /// The input dimension whose elements are contiguous in the input tile
  /// and the one contiguous in the output tile (the tiled pair).
  int64_t inputMinorTiled = 0;
  int64_t outputMinorTiled = 0;
  int64_t vectorSize = 1;
  /// Tile size per input dimension.
  std::vector<int64_t> tile;
  /// Tiles per input dimension; blocks are their product.
  std::vector<int64_t> tileCounts;
  /// The shared tile per transposed hero: the tile in input order, padded;
  /// or, swizzled, just the two tiled dimensions (y, x).
  std::vector<int64_t> sharedTile;
  /// The packed variant's tile: (32v) x (32v) elements of v per 32-bit
  /// word, no padding; element (y, x) is stored at column
  /// ((x / v) xor ((y / v) mod 32)) * v + x mod v, so that a warp reading
  /// a row or a column of words touches 32 different banks.
  bool swizzled = false;
  /// The swizzled tile's rows or columns, where a tiled dimension is
  /// shorter than the tile, hold several of it side by side (XLA's packed
  /// transpose does so): the input dimension before the input's minor one
  /// (`packedWithColumns`, a column is then a * T1 + x) or the one before
  /// the output's minor one in output order (`packedWithRows`, a row is
  /// a * T2 + y); -1 where none.
  int64_t packedWithColumns = -1;
  int64_t packedWithRows = -1;

  int64_t blockCount() const;
  /// Elements of one tile, and of its shared (padded) form.
  int64_t tileElements() const;
  int64_t sharedTileElements() const;
  /// Output dimensions (the input's, permuted).
  std::vector<int64_t> outputDimensions() const;
};

/// The tiling for `description`, whose transposed heroes' widest element
/// takes `maxElementBytes` and whose heroes number `heroCount`.
TransposeTiling computeTransposeTiling(const TransposeDescription &description,
                                       int64_t maxElementBytes, int64_t heroCount,
                                       const GpuDeviceInfo &device);

/// The tiling of a transpose fusion: its widest transposed element and its
/// distinct transposed heroes (one shared tile each) decide the vector.
TransposeTiling computeTransposeTiling(const FusionAnalysis &analysis,
                                       const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_EMITTERS_TRANSPOSETILING_H
