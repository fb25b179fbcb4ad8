//===- ReductionKind.cpp - Which reduction emitter a fusion needs ---------===//
#include "analysis/ReductionKind.h"

#include <algorithm>

namespace hlo {
namespace {

constexpr int64_t kWarpSize = 32;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
bool isPowerOfTwo(int64_t value) { return value > 0 && (value & (value - 1)) == 0; }

} // namespace

int64_t reductionKeptThreads(int64_t keptSize, int64_t reducedThreads) {
  if (keptSize * reducedThreads <= kReductionThreadsPerBlock)
    return keptSize;
  return std::max<int64_t>(1, kReductionThreadsPerBlock / reducedThreads);
}

std::optional<int64_t> multiRowVectorSize(const ReductionDimensions &dims,
                                          const FusionElementBits &bits,
                                          const GpuDeviceInfo &device) {
  if (!dims.isRowReduction || !isPowerOfTwo(dims.dimensions[2]))
    return std::nullopt;
  int64_t reduced = dims.dimensions[2];
  // Rows are short against the inputs: outputs count for the vector size.
  int64_t smallest = std::min(bits.smallestInput, bits.smallestOutput);
  int64_t largest = std::max(bits.smallestInput, bits.smallestOutput);
  if (largest == FusionElementBits::kNoBits)
    largest = bits.smallestOutput;
  if (smallest == FusionElementBits::kNoBits || smallest <= 0)
    return std::nullopt;
  int64_t vector = std::min<int64_t>(reduced, std::max<int64_t>(1, 64 / smallest));
  // At most 16 bytes per thread when some data is 32 bits or wider.
  if (largest >= 32)
    vector = std::min<int64_t>(vector, std::max<int64_t>(1, 128 / largest));
  if (reduced > device.warpSize * vector)
    return std::nullopt;
  auto blocks = [&](int64_t v) {
    int64_t reducedThreads = reduced / v;
    return ceilDiv(dims.dimensions[1], reductionKeptThreads(dims.dimensions[1], reducedThreads));
  };
  // At least one block per SM.
  while (vector > 1 && blocks(vector) < device.smCount)
    vector /= 2;
  if (reduced > device.warpSize * vector)
    return std::nullopt;
  return vector;
}

ReductionKind chooseReductionKind(const ReductionDimensions &dims,
                                  const FusionElementBits &bits,
                                  const GpuDeviceInfo &device) {
  if (dims.isRowReduction)
    return multiRowVectorSize(dims, bits, device) ? ReductionKind::MultiRow
                                                  : ReductionKind::Row;
  return kWarpSize % dims.dimensions[2] == 0 ? ReductionKind::SmallColumn
                                             : ReductionKind::Column;
}

} // namespace hlo
