//===- TransposeTiling.cpp - Launch figures of the transpose emitter ------===//
#include "emitters/TransposeTiling.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace hlo {
namespace {

constexpr int64_t kMaxVectorBytes = 4;

int64_t product(const std::vector<int64_t> &values) {
  return std::accumulate(values.begin(), values.end(), int64_t{1}, std::multiplies<>());
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

void setTiles(TransposeTiling &tiling, int64_t vector) {
  int64_t rank = static_cast<int64_t>(tiling.inputDimensions.size());
  int64_t size = TransposeTiling::kBaseTile * vector;
  tiling.vectorSize = vector;
  tiling.tile.assign(rank, 1);
  tiling.tile[tiling.inputMinorTiled] = size;
  tiling.tile[tiling.outputMinorTiled] = size;
  bool minorStays = tiling.permutation.back() == rank - 1;
  if (minorStays)
    tiling.tile[rank - 1] = tiling.inputDimensions[rank - 1];
  tiling.tileCounts.clear();
  for (int64_t d = 0; d < rank; ++d)
    tiling.tileCounts.push_back(ceilDiv(tiling.inputDimensions[d], tiling.tile[d]));
  tiling.sharedTile = tiling.tile;
  ++tiling.sharedTile[tiling.inputMinorTiled];
}

/// Where a tiled dimension of the swizzled tile is shorter than the tile,
/// the tile takes that many of its neighbour too (see packedWithColumns).
void packShortDimensions(TransposeTiling &tiling) {
  int64_t rank = static_cast<int64_t>(tiling.inputDimensions.size());
  int64_t size = tiling.tile[tiling.inputMinorTiled];
  auto pack = [&](int64_t tiled, int64_t neighbour) -> bool {
    int64_t extent = tiling.inputDimensions[tiled];
    if (neighbour < 0 || neighbour == tiling.inputMinorTiled ||
        neighbour == tiling.outputMinorTiled || tiling.tile[neighbour] != 1 ||
        size / extent < 2)
      return false;
    tiling.tile[tiled] = extent;
    tiling.tile[neighbour] = std::min(size / extent, tiling.inputDimensions[neighbour]);
    return tiling.tile[neighbour] > 1;
  };
  if (tiling.inputDimensions[tiling.inputMinorTiled] < size &&
      pack(tiling.inputMinorTiled, rank - 2))
    tiling.packedWithColumns = rank - 2;
  if (tiling.inputDimensions[tiling.outputMinorTiled] < size &&
      pack(tiling.outputMinorTiled, tiling.permutation[rank - 2]))
    tiling.packedWithRows = tiling.permutation[rank - 2];
  tiling.tileCounts.clear();
  for (int64_t d = 0; d < rank; ++d)
    tiling.tileCounts.push_back(ceilDiv(tiling.inputDimensions[d], tiling.tile[d]));
}

} // namespace

int64_t TransposeTiling::blockCount() const { return product(tileCounts); }
int64_t TransposeTiling::tileElements() const { return product(tile); }
int64_t TransposeTiling::sharedTileElements() const { return product(sharedTile); }

std::vector<int64_t> TransposeTiling::outputDimensions() const {
  std::vector<int64_t> output;
  for (int64_t p : permutation)
    output.push_back(inputDimensions[p]);
  return output;
}

TransposeTiling computeTransposeTiling(const TransposeDescription &description,
                                       int64_t maxElementBytes, int64_t heroCount,
                                       const GpuDeviceInfo &device) {
  TransposeTiling tiling;
  tiling.inputDimensions = description.inputDimensions();
  tiling.permutation = description.permutation;
  // At least rank 3, as XLA's normal forms: leading dimensions of 1.
  while (tiling.inputDimensions.size() < 3) {
    tiling.inputDimensions.insert(tiling.inputDimensions.begin(), 1);
    for (int64_t &p : tiling.permutation)
      ++p;
    tiling.permutation.insert(tiling.permutation.begin(), 0);
  }
  int64_t rank = static_cast<int64_t>(tiling.inputDimensions.size());
  if (tiling.permutation.back() != rank - 1) {
    tiling.inputMinorTiled = rank - 1;
    tiling.outputMinorTiled = tiling.permutation.back();
  } else {
    tiling.inputMinorTiled = rank - 2;
    tiling.outputMinorTiled = tiling.permutation[rank - 2];
  }
  setTiles(tiling, 1);
  int64_t sharedBytes = heroCount * tiling.sharedTileElements() * maxElementBytes;
  auto aligned = [&](int64_t vector) {
    return tiling.inputDimensions[tiling.inputMinorTiled] % vector == 0 &&
           tiling.inputDimensions[tiling.outputMinorTiled] % vector == 0;
  };
  int64_t widest = kMaxVectorBytes / std::max<int64_t>(1, maxElementBytes);
  if (description.packed) {
    // Narrow elements XLA packs into 32-bit words: the widest vector whose
    // (32v) x (32v + 1) tiles fit, on aligned dimensions, however little
    // work there is (the packed variant's tile, padded instead of
    // swizzled).
    // The swizzled tile takes ragged edges (the walks' constraints cut
    // them, element by element, as XLA's packed transpose does); the
    // padded one needs both tiled dimensions aligned.
    bool minorMoves = tiling.permutation.back() != rank - 1;
    for (int64_t vector = widest; vector > 1; vector /= 2)
      if ((aligned(vector) || (minorMoves && vector * maxElementBytes == kMaxVectorBytes)) &&
          sharedBytes * vector * vector <= device.sharedMemoryPerBlock) {
        setTiles(tiling, vector);
        if (vector * maxElementBytes == kMaxVectorBytes && minorMoves) {
          // Only the two tiled dimensions, in input order: (32v) x (32v).
          tiling.swizzled = true;
          int64_t size = tiling.tile[tiling.inputMinorTiled];
          tiling.sharedTile = {size, size};
          packShortDimensions(tiling);
        }
        break;
      }
    return tiling;
  }
  // XLA's vectorization rule: enough work, enough shared memory, aligned
  // tiled dimensions.
  for (int64_t vector = widest; vector > 1; vector /= 2) {
    int64_t perThread = vector * vector;
    bool enoughWork = tiling.blockCount() * TransposeTiling::kThreads >=
                      perThread * device.smCount * device.threadsPerSM;
    bool enoughShared = sharedBytes * perThread <= device.sharedMemoryPerBlock;
    if (enoughWork && enoughShared && aligned(vector)) {
      setTiles(tiling, vector);
      break;
    }
  }
  return tiling;
}

TransposeTiling computeTransposeTiling(const FusionAnalysis &analysis,
                                       const GpuDeviceInfo &device) {
  std::set<const HloInstruction *> transposed;
  int64_t maxBytes = 1;
  for (const HloInstruction *hero : analysis.heroes)
    if (getTiledTransposeDescription(*hero) && transposed.insert(hero).second)
      maxBytes = std::max<int64_t>(maxBytes, primitiveByteWidth(hero->shape().elementType()));
  return computeTransposeTiling(*analysis.transpose, maxBytes,
                                static_cast<int64_t>(transposed.size()), device);
}

} // namespace hlo
