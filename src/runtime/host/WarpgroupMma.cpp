//===- WarpgroupMma.cpp - wgmma over a warpgroup's threads ----------------===//
#include "host/WarpgroupMma.h"

#include "abi/HostKernelAbi.h"
#include "hlo_parser/FloatFormat.h"

#include <cstring>
#include <string>
#include <vector>

namespace hlo::runtime {
namespace {

constexpr int kRows = 64, kDepth = 16;

/// Element (row, k) of an operand in the canonical layout, as a double.
double operandElement(const void *base, uint32_t leading, uint32_t stride, int row, int k,
                      PrimitiveType type) {
  int64_t offset = int64_t(row / 8) * stride + int64_t(k / 8) * leading + row % 8 * 16 +
                   k % 8 * 2;
  uint16_t bits = 0;
  std::memcpy(&bits, static_cast<const uint8_t *>(base) + offset, sizeof bits);
  return decodeFloatBits(bits, type);
}

} // namespace

int64_t wgmmaOperandBytes(int64_t rows, uint32_t leading, uint32_t stride) {
  // The last core matrix's last row ends the span.
  return (rows / 8 - 1) * int64_t(stride) + (kDepth / 8 - 1) * int64_t(leading) + 8 * 16;
}

FragmentPosition wgmmaAccumulatorPosition(int thread, int value) {
  int warp = thread / 32, lane = thread % 32;
  int j = value / 4, i = value % 4;
  return {16 * warp + lane / 4 + 8 * (i / 2), 8 * j + 2 * (lane % 4) + i % 2};
}

Status warpgroupMma(uint32_t kind, uint32_t n, const WgmmaOperands &operands,
                    const std::array<float *, kThreadsPerWarpgroup> &accumulators) {
  PrimitiveType type;
  if (kind == HLO_HOST_WGMMA_M64K16_F32_BF16)
    type = PrimitiveType::BF16;
  else if (kind == HLO_HOST_WGMMA_M64K16_F32_F16)
    type = PrimitiveType::F16;
  else
    return Status::failure("ran wgmma of unknown kind " + std::to_string(kind));
  if (n < 8 || n > 256 || n % 8)
    return Status::failure("ran wgmma of width " + std::to_string(n) +
                           " (m64nNk16 takes N a multiple of 8 up to 256)");
  // The products are exact in double; the sum rounds once to f32 (the
  // tensor cores' order of summation is unspecified).
  std::vector<double> a(kRows * kDepth), b(size_t(n) * kDepth);
  for (int row = 0; row < kRows; ++row)
    for (int k = 0; k < kDepth; ++k)
      a[row * kDepth + k] =
          operandElement(operands.a, operands.aLeading, operands.aStride, row, k, type);
  for (int row = 0; row < int(n); ++row)
    for (int k = 0; k < kDepth; ++k)
      b[row * kDepth + k] =
          operandElement(operands.b, operands.bLeading, operands.bStride, row, k, type);
  int values = int(n) / 2;
  std::vector<float> results(size_t(kThreadsPerWarpgroup) * values);
  for (int thread = 0; thread < int(kThreadsPerWarpgroup); ++thread)
    for (int value = 0; value < values; ++value) {
      FragmentPosition at = wgmmaAccumulatorPosition(thread, value);
      double sum = accumulators[thread][value];
      for (int k = 0; k < kDepth; ++k)
        sum += a[at.row * kDepth + k] * b[at.column * kDepth + k];
      results[size_t(thread) * values + value] = static_cast<float>(sum);
    }
  for (int thread = 0; thread < int(kThreadsPerWarpgroup); ++thread)
    std::memcpy(accumulators[thread], &results[size_t(thread) * values],
                sizeof(float) * values);
  return Status::success();
}

} // namespace hlo::runtime
