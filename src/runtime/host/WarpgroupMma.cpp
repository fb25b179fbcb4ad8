//===- WarpgroupMma.cpp - wgmma over a warpgroup's threads ----------------===//
#include "host/WarpgroupMma.h"

#include "abi/HostKernelAbi.h"
#include "hlo_parser/FloatFormat.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace hlo::runtime {
namespace {

constexpr int kRows = 64;
/// The bytes of K each row of an operand spans (16 16-bit, 8 TF32 or 32
/// 8-bit elements).
constexpr int kDepthBytes = 32;

/// The operands' types and width of a kind (A's and B's differ only for
/// mixed 8-bit floats).
struct WgmmaInput {
  PrimitiveType typeA, typeB;
  int bytes;
  /// f32 registers of which only the top 19 bits count.
  bool tf32;
  int depth() const { return kDepthBytes / bytes; }
};

std::optional<WgmmaInput> inputOf(uint32_t kind) {
  constexpr PrimitiveType e4m3 = PrimitiveType::F8E4M3FN, e5m2 = PrimitiveType::F8E5M2;
  switch (kind) {
  case HLO_HOST_WGMMA_M64K16_F32_BF16:
    return WgmmaInput{PrimitiveType::BF16, PrimitiveType::BF16, 2, false};
  case HLO_HOST_WGMMA_M64K16_F32_F16:
    return WgmmaInput{PrimitiveType::F16, PrimitiveType::F16, 2, false};
  case HLO_HOST_WGMMA_M64K8_F32_TF32:
    return WgmmaInput{PrimitiveType::F32, PrimitiveType::F32, 4, true};
  case HLO_HOST_WGMMA_M64K32_F32_E4M3_E4M3:
    return WgmmaInput{e4m3, e4m3, 1, false};
  case HLO_HOST_WGMMA_M64K32_F32_E4M3_E5M2:
    return WgmmaInput{e4m3, e5m2, 1, false};
  case HLO_HOST_WGMMA_M64K32_F32_E5M2_E4M3:
    return WgmmaInput{e5m2, e4m3, 1, false};
  case HLO_HOST_WGMMA_M64K32_F32_E5M2_E5M2:
    return WgmmaInput{e5m2, e5m2, 1, false};
  }
  return std::nullopt;
}

/// `start`'s address in the swizzle's pattern (from `sharedBase`).
int64_t patternAddress(const void *start, const void *sharedBase) {
  return int64_t(reinterpret_cast<uintptr_t>(start) - reinterpret_cast<uintptr_t>(sharedBase));
}

/// The byte offset of element (row, k) of an operand from its start.
int64_t elementOffset(const WgmmaOperands &operands, const WgmmaInput &input, const void *start,
                      uint32_t leading, uint32_t stride, bool transposed, int row, int k) {
  uint32_t swizzle = operands.swizzle;
  int perCore = 16 / input.bytes;
  if (transposed) {
    // N-major: `row` is n; rows of the swizzle's bytes along N, one a k.
    int64_t perAtom = swizzle / input.bytes;
    int64_t origin = patternAddress(start, operands.sharedBase);
    int64_t address = origin + row / perAtom * int64_t(leading) + k / 8 * int64_t(stride) +
                      k % 8 * int64_t(swizzle) + row % perAtom * input.bytes;
    int64_t mask = swizzle / 16 - 1;
    return (address ^ (((address >> 7) & mask) << 4)) - origin;
  }
  if (swizzle == 0)
    return int64_t(row / 8) * stride + int64_t(k / perCore) * leading + row % 8 * 16 +
           k % perCore * input.bytes;
  // The address in shared memory, its 16-byte chunk XORed with the
  // 128-byte line's place in the swizzle pattern.
  int64_t origin = patternAddress(start, operands.sharedBase);
  int64_t address = origin + int64_t(row / 8) * stride + int64_t(row % 8) * swizzle +
                    k * input.bytes;
  int64_t mask = swizzle / 16 - 1;
  return (address ^ (((address >> 7) & mask) << 4)) - origin;
}

/// Element (row, k) of operand A (`isA`) or B, as a double.
double operandElement(const WgmmaOperands &operands, const WgmmaInput &input, bool isA, int row,
                      int k) {
  const void *start = isA ? operands.a : operands.b;
  int64_t offset =
      elementOffset(operands, input, start, isA ? operands.aLeading : operands.bLeading,
                    isA ? operands.aStride : operands.bStride,
                    isA ? operands.aTransposed : operands.bTransposed, row, k);
  uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const uint8_t *>(start) + offset, input.bytes);
  if (input.tf32)
    bits &= ~uint64_t(0x1fff);
  return decodeFloatBits(bits, isA ? input.typeA : input.typeB);
}

} // namespace

bool isWgmmaSwizzle(uint32_t swizzle) {
  return swizzle == 0 || swizzle == 32 || swizzle == 64 || swizzle == 128;
}

std::pair<int64_t, int64_t> wgmmaOperandSpan(const void *start, int64_t rows, uint32_t leading,
                                             uint32_t stride, uint32_t swizzle,
                                             const void *sharedBase) {
  if (swizzle == 0)
    // The last core matrix's last row ends the span.
    // (A row's K spans two core matrices.)
    return {0, (rows / 8 - 1) * int64_t(stride) + int64_t(leading) + 8 * 16};
  // Each row's 16-byte chunks may land anywhere in its swizzled line.
  int64_t back = patternAddress(start, sharedBase) % swizzle;
  return {-back, (rows / 8 - 1) * int64_t(stride) + 8 * int64_t(swizzle) - back};
}

std::pair<int64_t, int64_t> wgmmaTransposedSpan(const void *start, int64_t n, int64_t depth,
                                                uint32_t elementBytes, uint32_t leading,
                                                uint32_t stride, uint32_t swizzle,
                                                const void *sharedBase) {
  int64_t perAtom = swizzle / elementBytes;
  int64_t back = patternAddress(start, sharedBase) % swizzle;
  return {-back, (n / perAtom - 1) * int64_t(leading) + (depth / 8 - 1) * int64_t(stride) +
                     8 * int64_t(swizzle) - back};
}

FragmentPosition wgmmaAccumulatorPosition(int thread, int value) {
  int warp = thread / 32, lane = thread % 32;
  int j = value / 4, i = value % 4;
  return {16 * warp + lane / 4 + 8 * (i / 2), 8 * j + 2 * (lane % 4) + i % 2};
}

Status warpgroupMma(uint32_t kind, uint32_t n, const WgmmaOperands &operands,
                    const std::array<float *, kThreadsPerWarpgroup> &accumulators) {
  std::optional<WgmmaInput> input = inputOf(kind);
  if (!input)
    return Status::failure("ran wgmma of unknown kind " + std::to_string(kind));
  if (!isWgmmaSwizzle(operands.swizzle))
    return Status::failure("ran wgmma with swizzle mode " + std::to_string(operands.swizzle) +
                           " (0, 32, 64 or 128 bytes)");
  if (n < 8 || n > 256 || n % 8)
    return Status::failure("ran wgmma of width " + std::to_string(n) +
                           " (m64nNk takes N a multiple of 8 up to 256)");
  if (operands.bTransposed &&
      (input->bytes != 2 || operands.swizzle == 0 || n % (operands.swizzle / 2) != 0))
    return Status::failure("ran wgmma with an N-major B of width " + std::to_string(n) +
                           ", swizzle " + std::to_string(operands.swizzle) +
                           " (16-bit inputs, swizzled rows, whole rows of N)");
  if (operands.aTransposed &&
      (input->bytes != 2 || operands.swizzle == 0 || kRows % (operands.swizzle / 2) != 0))
    return Status::failure("ran wgmma with an M-major A, swizzle " +
                           std::to_string(operands.swizzle) +
                           " (16-bit inputs, swizzled rows)");
  // The products are exact in double; the sum rounds once to f32 (the
  // tensor cores' order of summation is unspecified).
  int depth = input->depth();
  std::vector<double> a(kRows * depth), b(size_t(n) * depth);
  for (int row = 0; row < kRows; ++row)
    for (int k = 0; k < depth; ++k)
      a[row * depth + k] = operandElement(operands, *input, /*isA=*/true, row, k);
  for (int row = 0; row < int(n); ++row)
    for (int k = 0; k < depth; ++k)
      b[row * depth + k] = operandElement(operands, *input, /*isA=*/false, row, k);
  int values = int(n) / 2;
  std::vector<float> results(size_t(kThreadsPerWarpgroup) * values);
  for (int thread = 0; thread < int(kThreadsPerWarpgroup); ++thread)
    for (int value = 0; value < values; ++value) {
      FragmentPosition at = wgmmaAccumulatorPosition(thread, value);
      double sum = accumulators[thread][value];
      for (int k = 0; k < depth; ++k)
        sum += a[at.row * depth + k] * b[at.column * depth + k];
      results[size_t(thread) * values + value] = static_cast<float>(sum);
    }
  for (int thread = 0; thread < int(kThreadsPerWarpgroup); ++thread)
    std::memcpy(accumulators[thread], &results[size_t(thread) * values],
                sizeof(float) * values);
  return Status::success();
}

} // namespace hlo::runtime
