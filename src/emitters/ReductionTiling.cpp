//===- ReductionTiling.cpp - Launch figures of the reduction emitters -----===//
#include "emitters/ReductionTiling.h"

#include <algorithm>

namespace hlo {
namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kTileSize = 32;
constexpr int64_t kMaxRowThreads = 1024;
/// Minor reduced elements a row-reduction thread reads per pass.
constexpr int64_t kMinorReducedElementsPerThread = 16;
constexpr int64_t kSmallColumnThreads = 128;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// A shared tile whose minor dimension is a multiple of the warp size gets
/// one element of padding (no bank conflicts on the transposed read).
std::vector<int64_t> paddedTile(int64_t rows, int64_t columns) {
  return {rows, columns % kWarpSize == 0 ? columns + 1 : columns};
}

ReductionTiling rowTiling(const ReductionDimensions &dims,
                          const FusionElementBits &bits) {
  ReductionTiling tiling;
  tiling.kind = ReductionKind::Row;
  tiling.dimensions = dims;
  const auto &d = dims.dimensions;
  int64_t reduced = std::min(kMaxRowThreads,
                             roundUp(ceilDiv(d[2], kMinorReducedElementsPerThread),
                                     kWarpSize));
  int64_t kept = 1;
  if (reduced * 2 <= kReductionThreadsPerBlock)
    kept = reductionKeptThreads(d[1], reduced);
  tiling.vectorSize = reductionVectorSize(d[2], reduced, bits);
  tiling.threads = {kept, reduced};
  int64_t vectors = d[2] / tiling.vectorSize;
  // XLA caps a thread's pass at 16 elements; past 16384 elements a row
  // would then need several blocks (XLA splits such reductions before
  // emission). One block per row instead: the threads loop further.
  tiling.tilePerThread = std::max<int64_t>(
      1, std::min(kMinorReducedElementsPerThread / tiling.vectorSize,
                  ceilDiv(vectors, reduced)));
  if (tiling.tilePerThread * reduced < vectors)
    tiling.tilePerThread = ceilDiv(vectors, reduced);
  tiling.blocks = {ceilDiv(d[1], kept), 1};
  if (tiling.warpsPerRow() > 1)
    tiling.sharedTile = paddedTile(kept, tiling.warpsPerRow());
  tiling.shuffleDistance = kWarpSize / 2;
  return tiling;
}

ReductionTiling multiRowTiling(const ReductionDimensions &dims, int64_t vectorSize) {
  ReductionTiling tiling;
  tiling.kind = ReductionKind::MultiRow;
  tiling.dimensions = dims;
  tiling.vectorSize = vectorSize;
  int64_t reduced = dims.dimensions[2] / vectorSize;
  tiling.threads = {reductionKeptThreads(dims.dimensions[1], reduced), reduced};
  tiling.blocks = {ceilDiv(dims.dimensions[1], tiling.threads[0]), 1};
  tiling.shuffleDistance = reduced / 2;
  return tiling;
}

ReductionTiling columnTiling(const ReductionDimensions &dims,
                             const FusionElementBits &bits, int64_t maxVector) {
  ReductionTiling tiling;
  tiling.kind = ReductionKind::Column;
  tiling.dimensions = dims;
  const auto &d = dims.dimensions;
  tiling.vectorSize = std::min(maxVector, reductionVectorSize(d[2], kTileSize, bits));
  tiling.threads = {kTileSize, kTileSize};
  tiling.tilePerThread = ceilDiv(d[1], kTileSize);
  tiling.blocks = {d[0], ceilDiv(d[2], kTileSize * tiling.vectorSize)};
  tiling.sharedTile = paddedTile(kTileSize, kTileSize * tiling.vectorSize);
  tiling.shuffleDistance = kTileSize / 2;
  return tiling;
}

ReductionTiling smallColumnTiling(const ReductionDimensions &dims,
                                  const FusionElementBits &bits, int64_t maxVector) {
  ReductionTiling tiling;
  tiling.kind = ReductionKind::SmallColumn;
  tiling.dimensions = dims;
  const auto &d = dims.dimensions;
  // One loop over d1 * d2: that is the minor size for vectorization.
  int64_t vector = std::min(maxVector, reductionVectorSize(d[1] * d[2], kTileSize, bits));
  int64_t threads = kSmallColumnThreads;
  int64_t rows = vector * threads / d[2];
  // More than 32 shared rows would need a second pass through shared
  // memory: use a smaller vector, then fewer threads.
  while (rows > kTileSize && vector > 1) {
    vector /= 2;
    rows /= 2;
  }
  if (rows > kTileSize) {
    threads /= rows / kTileSize;
    rows = kTileSize;
  }
  tiling.vectorSize = vector;
  tiling.threads = {threads, 1};
  tiling.sharedRows = rows;
  tiling.tilePerThread = ceilDiv(d[1] * d[2], vector * threads);
  tiling.blocks = {d[0], 1};
  int64_t padding = threads == 32 && vector == 1 ? 0 : ceilDiv(d[2], threads * vector);
  tiling.sharedTile = {rows, d[2] + padding};
  tiling.shuffleDistance = rows / 2;
  return tiling;
}

} // namespace

int64_t ReductionTiling::sharedTileElements() const {
  int64_t elements = sharedTile.empty() ? 0 : 1;
  for (int64_t size : sharedTile)
    elements *= size;
  return elements;
}

int64_t reductionVectorSize(int64_t minorSize, int64_t threads,
                            const FusionElementBits &bits) {
  if (minorSize % 2 != 0 || threads * 2 > minorSize || bits.complexHeroOperand)
    return 1;
  // 16-byte loads are often slower than 8-byte ones (a fusion without
  // inputs counts as 64-bit, as in XLA).
  if (bits.smallestInput >= 64)
    return 1;
  if (bits.smallestInput >= 32)
    return 2;
  if (threads * 4 > minorSize)
    return 2;
  return minorSize % 4 == 0 ? 4 : 2;
}

namespace {

ReductionTiling tilingOfKind(ReductionKind kind, const ReductionDimensions &dims,
                             const FusionElementBits &bits, const GpuDeviceInfo &device,
                             int64_t maxVector) {
  ReductionTiling tiling;
  switch (kind) {
  case ReductionKind::MultiRow:
    return multiRowTiling(dims, *multiRowVectorSize(dims, bits, device));
  case ReductionKind::Row:
    tiling = rowTiling(dims, bits);
    break;
  case ReductionKind::SmallColumn:
    tiling = smallColumnTiling(dims, bits, maxVector);
    break;
  case ReductionKind::Column:
    tiling = columnTiling(dims, bits, maxVector);
    break;
  }
  return tiling;
}

/// Shared bytes of the tiles, each at a 16-byte aligned offset.
int64_t sharedBytes(const ReductionTiling &tiling, const FusionElementBits &bits) {
  if (tiling.sharedTile.empty())
    return 0;
  return tiling.sharedTileElements() * bits.reducedValueBytes + 16 * bits.reducedValueCount;
}

} // namespace

ReductionTiling computeReductionTiling(const ReductionDimensions &dims,
                                       const FusionElementBits &bits,
                                       const GpuDeviceInfo &device) {
  ReductionKind kind = chooseReductionKind(dims, bits, device);
  ReductionTiling tiling = tilingOfKind(kind, dims, bits, device, 4);
  while (tiling.vectorSize > 1 &&
         sharedBytes(tiling, bits) > device.sharedMemoryPerBlock)
    tiling = tilingOfKind(kind, dims, bits, device, tiling.vectorSize / 2);
  return tiling;
}

} // namespace hlo
