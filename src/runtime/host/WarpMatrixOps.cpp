//===- WarpMatrixOps.cpp - mma.sync and ldmatrix over a warp's lanes ------===//
#include "host/WarpMatrixOps.h"

#include "abi/HostKernelAbi.h"
#include "abi/MmaFragmentLayout.h"
#include "hlo_parser/FloatFormat.h"

#include <cstring>
#include <optional>
#include <vector>

namespace hlo::runtime {
namespace {

/// An mma.sync kind: its tile and its operands' element types.
struct MmaKind {
  int m, n, k;
  PrimitiveType input;       // A (and B, unless inputB says otherwise)
  PrimitiveType accumulator; // C and D
  /// TF32 inputs: f32 registers of which only the top 19 bits count.
  bool tf32 = false;
  /// B's type where it differs from A's (mixed 8-bit floats).
  std::optional<PrimitiveType> inputB;
  PrimitiveType inputOf(MmaOperand operand) const {
    return operand == MmaOperand::B && inputB ? *inputB : input;
  }
};

std::optional<MmaKind> mmaKind(uint32_t kind) {
  switch (kind) {
  case HLO_HOST_MMA_M16N8K16_F32_BF16:
    return MmaKind{16, 8, 16, PrimitiveType::BF16, PrimitiveType::F32, false, std::nullopt};
  case HLO_HOST_MMA_M16N8K16_F32_F16:
    return MmaKind{16, 8, 16, PrimitiveType::F16, PrimitiveType::F32, false, std::nullopt};
  case HLO_HOST_MMA_M16N8K8_F32_TF32:
    return MmaKind{16, 8, 8, PrimitiveType::F32, PrimitiveType::F32, /*tf32=*/true,
                   std::nullopt};
  case HLO_HOST_MMA_M8N8K4_F64_F64:
    return MmaKind{8, 8, 4, PrimitiveType::F64, PrimitiveType::F64, false, std::nullopt};
  case HLO_HOST_MMA_M16N8K32_S32_S8:
    return MmaKind{16, 8, 32, PrimitiveType::S8, PrimitiveType::S32, false, std::nullopt};
  case HLO_HOST_MMA_M16N8K32_F32_E4M3:
    return MmaKind{16, 8, 32, PrimitiveType::F8E4M3FN, PrimitiveType::F32, false, std::nullopt};
  case HLO_HOST_MMA_M16N8K32_F32_E5M2:
    return MmaKind{16, 8, 32, PrimitiveType::F8E5M2, PrimitiveType::F32, false, std::nullopt};
  case HLO_HOST_MMA_M16N8K32_F32_E4M3_E5M2:
    return MmaKind{16, 8, 32, PrimitiveType::F8E4M3FN, PrimitiveType::F32, false,
                   PrimitiveType::F8E5M2};
  case HLO_HOST_MMA_M16N8K32_F32_E5M2_E4M3:
    return MmaKind{16, 8, 32, PrimitiveType::F8E5M2, PrimitiveType::F32, false,
                   PrimitiveType::F8E4M3FN};
  default:
    return std::nullopt;
  }
}

/// One operand's fragments: A is M x K, B is N x K, C is M x N; their
/// elements' bits, and where each value lies (abi/MmaFragmentLayout.h).
struct FragmentTiling {
  int rows, columns, bits;
  bool accumulator;
  int values() const { return rows * columns / static_cast<int>(kLanesPerWarp); }
};

FragmentTiling tilingOf(const MmaKind &kind, MmaOperand operand) {
  if (operand == MmaOperand::C)
    return {kind.m, kind.n, primitiveBitWidth(kind.accumulator), true};
  return {operand == MmaOperand::A ? kind.m : kind.n, kind.k,
          primitiveBitWidth(kind.inputOf(operand)), false};
}

FragmentPosition positionIn(const FragmentTiling &tiling, int lane, int value) {
  abi::MmaFragmentOffset offset =
      abi::mmaFragmentOffset(tiling.rows, tiling.bits, tiling.accumulator, value);
  return {lane / 4 + static_cast<int>(offset.rowOffset),
          (lane % 4) * static_cast<int>(offset.perRegister) +
              static_cast<int>(offset.columnOffset)};
}

uint64_t loadBits(const void *base, int value, int bits) {
  uint64_t word = 0;
  std::memcpy(&word, static_cast<const uint8_t *>(base) + value * bits / 8, bits / 8);
  return word;
}

double inputValue(const MmaKind &kind, MmaOperand operand, uint64_t bits) {
  if (kind.input == PrimitiveType::S8)
    return static_cast<int8_t>(bits);
  if (kind.tf32)
    bits &= ~uint64_t(0x1fff);
  return decodeFloatBits(bits, kind.inputOf(operand));
}

/// Every lane's values of one operand, gathered into a row-major matrix.
std::vector<double> gather(const MmaKind &kind, MmaOperand operand,
                           const std::array<MmaLane, kLanesPerWarp> &lanes) {
  FragmentTiling tiling = tilingOf(kind, operand);
  std::vector<double> matrix(static_cast<size_t>(tiling.rows * tiling.columns));
  for (int lane = 0; lane < static_cast<int>(kLanesPerWarp); ++lane) {
    const void *base = operand == MmaOperand::A   ? lanes[lane].a
                       : operand == MmaOperand::B ? lanes[lane].b
                                                  : lanes[lane].c;
    for (int value = 0; value < tiling.values(); ++value) {
      FragmentPosition at = positionIn(tiling, lane, value);
      uint64_t bits = loadBits(base, value, tiling.bits);
      double element;
      if (operand != MmaOperand::C)
        element = inputValue(kind, operand, bits);
      else if (kind.accumulator == PrimitiveType::S32)
        element = static_cast<int32_t>(bits);
      else
        element = decodeFloatBits(bits, kind.accumulator);
      matrix[at.row * tiling.columns + at.column] = element;
    }
  }
  return matrix;
}

} // namespace

ErrorOr<FragmentPosition> mmaFragmentPosition(uint32_t kind, MmaOperand operand, int lane,
                                              int value) {
  std::optional<MmaKind> info = mmaKind(kind);
  if (!info)
    return makeError("unknown mma.sync kind " + std::to_string(kind));
  FragmentTiling tiling = tilingOf(*info, operand);
  if (lane < 0 || lane >= static_cast<int>(kLanesPerWarp) || value < 0 ||
      value >= tiling.values())
    return makeError("no value " + std::to_string(value) + " of lane " + std::to_string(lane));
  return positionIn(tiling, lane, value);
}

Status warpMma(uint32_t kind, const std::array<MmaLane, kLanesPerWarp> &lanes) {
  std::optional<MmaKind> info = mmaKind(kind);
  if (!info)
    return Status::failure("ran mma.sync of unknown kind " + std::to_string(kind));
  std::vector<double> a = gather(*info, MmaOperand::A, lanes);
  std::vector<double> b = gather(*info, MmaOperand::B, lanes);
  std::vector<double> c = gather(*info, MmaOperand::C, lanes);
  const int m = info->m, n = info->n, k = info->k;
  // Exact products summed in double (integers: exactly), then rounded once
  // to the accumulator's type; s32 wraps as the hardware's does.
  std::vector<uint64_t> d(static_cast<size_t>(m * n));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      if (info->accumulator == PrimitiveType::S32) {
        int64_t sum = static_cast<int64_t>(c[i * n + j]);
        for (int l = 0; l < k; ++l)
          sum += static_cast<int64_t>(a[i * k + l]) * static_cast<int64_t>(b[j * k + l]);
        d[i * n + j] = static_cast<uint32_t>(sum);
        continue;
      }
      double sum = c[i * n + j];
      for (int l = 0; l < k; ++l)
        sum += a[i * k + l] * b[j * k + l];
      d[i * n + j] = encodeFloatBits(sum, info->accumulator);
    }
  FragmentTiling tiling = tilingOf(*info, MmaOperand::C);
  for (int lane = 0; lane < static_cast<int>(kLanesPerWarp); ++lane)
    for (int value = 0; value < tiling.values(); ++value) {
      FragmentPosition at = positionIn(tiling, lane, value);
      std::memcpy(static_cast<uint8_t *>(lanes[lane].d) + value * tiling.bits / 8,
                  &d[at.row * n + at.column], tiling.bits / 8);
    }
  return Status::success();
}

void warpLdmatrix(uint32_t matrices, bool transpose,
                  const std::array<LdmatrixLane, kLanesPerWarp> &lanes) {
  for (uint32_t matrix = 0; matrix < matrices; ++matrix) {
    uint16_t elements[8][8];
    for (int row = 0; row < 8; ++row)
      std::memcpy(elements[row], lanes[matrix * 8 + row].rowAddress, sizeof elements[row]);
    for (int lane = 0; lane < static_cast<int>(kLanesPerWarp); ++lane) {
      int row = lane / 4, column = 2 * (lane % 4);
      uint16_t low = transpose ? elements[column][row] : elements[row][column];
      uint16_t high = transpose ? elements[column + 1][row] : elements[row][column + 1];
      lanes[lane].result[matrix] = uint32_t(low) | uint32_t(high) << 16;
    }
  }
}

void warpStmatrix(uint32_t matrices, const std::array<StmatrixLane, kLanesPerWarp> &lanes) {
  for (uint32_t matrix = 0; matrix < matrices; ++matrix) {
    uint16_t elements[8][8];
    for (int lane = 0; lane < static_cast<int>(kLanesPerWarp); ++lane) {
      uint32_t word = lanes[lane].values[matrix];
      int row = lane / 4, column = 2 * (lane % 4);
      elements[row][column] = static_cast<uint16_t>(word);
      elements[row][column + 1] = static_cast<uint16_t>(word >> 16);
    }
    for (int row = 0; row < 8; ++row)
      std::memcpy(lanes[matrix * 8 + row].rowAddress, elements[row], sizeof elements[row]);
  }
}

} // namespace hlo::runtime
