//===- TransposeAnalysis.cpp - Shared-memory transpose detection ----------===//
//
// Thresholds (bits, 16 / 8 element minima, 8192-element products, the
// packed tile checks) follow XLA's ir_emission_utils, as summarised in
// shared/notes/xla-reference.md.
//
//===----------------------------------------------------------------------===//
#include "analysis/TransposeAnalysis.h"

#include <algorithm>

namespace hlo {

namespace {

constexpr int64_t kNumShmemBanks = 32;
constexpr int64_t kBankBitwidth = 32;
constexpr int64_t kMaxBitsInMostMinorDimension = 64;
constexpr int64_t kMinDimensionToTransposeTiled = 16;
constexpr int64_t kMinDimensionToTransposeTiled2 = 8;
constexpr int64_t kMinTotalDimensionsToTransposeTiled = 64 * 128;

int64_t bitWidth(PrimitiveType type) {
  return type == PrimitiveType::Pred ? 8 : primitiveBitWidth(type);
}

std::vector<int64_t> inverse(const std::vector<int64_t> &permutation) {
  std::vector<int64_t> result(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i)
    result[permutation[i]] = static_cast<int64_t>(i);
  return result;
}

/// Whether the packed transpose's tiles fit (XLA's packed tile sizes).
bool canEmitPacked(const std::vector<int64_t> &dims,
                   const std::vector<int64_t> &permutation, int64_t bits) {
  if (bits >= kBankBitwidth)
    return false;
  std::vector<int64_t> output = dims, perm = permutation;
  if (perm.back() != static_cast<int64_t>(output.size()) - 1) {
    perm.push_back(output.size());
    output.push_back(1); // B
  }
  int64_t rank = static_cast<int64_t>(output.size());
  if (rank < 3)
    return false;
  if (perm[rank - 3] != rank - 3) {
    output.insert(output.begin() + rank - 2, 1); // A
    for (int64_t &p : perm)
      if (p > rank - 3)
        ++p;
    perm.insert(perm.begin() + rank - 2, rank - 2);
    ++rank;
  }
  std::vector<int64_t> inv = inverse(perm);
  std::vector<int64_t> input(rank);
  for (int64_t i = 0; i < rank; ++i)
    input[i] = output[inv[i]];
  int64_t t1 = input[rank - 2], a = input[rank - 3];
  int64_t t2 = output[rank - 2], b = output[rank - 1];
  int64_t vector = kBankBitwidth / bits;
  int64_t shmemDim = kNumShmemBanks * vector;
  int64_t tileT1 = std::min(t1, shmemDim);
  int64_t tileA = std::min(a, shmemDim / tileT1);
  int64_t tileT2 = std::min(t2, shmemDim);
  int64_t rows = tileT2, cols = tileA * tileT1;
  if (cols < 10 * vector || rows < 10 * vector)
    return false;
  return b == 1 && rows % vector == 0 && cols % vector == 0 &&
         t2 % tileT2 % vector == 0;
}

} // namespace

std::vector<int64_t> TransposeDescription::inputDimensions() const {
  std::vector<int64_t> inv = inverse(permutation);
  std::vector<int64_t> input(dimensions.size());
  for (size_t i = 0; i < dimensions.size(); ++i)
    input[i] = dimensions[inv[i]];
  return input;
}

void normalizeTranspose(const std::vector<int64_t> &outputDims,
                        const std::vector<int64_t> &permutation,
                        std::vector<int64_t> &normalizedDims,
                        std::vector<int64_t> &normalizedPermutation) {
  // Drop size-1 dims (renumbering the input dims they leave).
  std::vector<int64_t> dims, perm;
  for (size_t i = 0; i < outputDims.size(); ++i)
    if (outputDims[i] != 1) {
      dims.push_back(outputDims[i]);
      perm.push_back(permutation[i]);
    }
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t &p : perm)
    p = std::lower_bound(sorted.begin(), sorted.end(), p) - sorted.begin();
  // Merge output dims that read adjacent input dims in order.
  normalizedDims.clear();
  std::vector<int64_t> groupInput;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0 && perm[i] == perm[i - 1] + 1) {
      normalizedDims.back() *= dims[i];
      continue;
    }
    normalizedDims.push_back(dims[i]);
    groupInput.push_back(perm[i]);
  }
  sorted = groupInput;
  std::sort(sorted.begin(), sorted.end());
  normalizedPermutation.clear();
  for (int64_t p : groupInput)
    normalizedPermutation.push_back(
        std::lower_bound(sorted.begin(), sorted.end(), p) - sorted.begin());
}

std::optional<TransposeDescription>
getTiledTransposeDescription(const HloInstruction &instruction) {
  if (instruction.opcode() != HloOpcode::Transpose)
    return std::nullopt;
  const Shape &output = instruction.shape();
  const Shape &input = instruction.operand(0)->shape();
  if (!output.isArray() || !output.isStatic())
    return std::nullopt;
  if ((output.hasLayout() && !output.layout().tiles.empty()) ||
      (input.hasLayout() && !input.layout().tiles.empty()))
    return std::nullopt;
  // The transpose in physical terms.
  std::vector<int64_t> outPhysical = output.physicalOrder();
  std::vector<int64_t> inPhysical = input.physicalOrder();
  std::vector<int64_t> inPosition(inPhysical.size());
  for (size_t p = 0; p < inPhysical.size(); ++p)
    inPosition[inPhysical[p]] = static_cast<int64_t>(p);
  const auto &perm = instruction.dimensions();
  std::vector<int64_t> dims, physicalPerm;
  for (int64_t logical : outPhysical) {
    dims.push_back(output.dimension(logical));
    physicalPerm.push_back(inPosition[perm[logical]]);
  }
  TransposeDescription description;
  description.instruction = &instruction;
  normalizeTranspose(dims, physicalPerm, description.dimensions,
                     description.permutation);
  const auto &normalized = description.dimensions;
  const auto &permutation = description.permutation;
  if (permutation.size() < 2)
    return std::nullopt;
  int64_t bits = bitWidth(output.elementType());
  std::vector<int64_t> operandDims = description.inputDimensions();
  int64_t n = static_cast<int64_t>(normalized.size());
  if (canEmitPacked(normalized, permutation, bits)) {
    description.packed = true;
    return description;
  }
  if (permutation.back() == n - 1) {
    // The minor dimension is preserved ("102").
    int64_t operandSecondMinor = operandDims[n - 2];
    if (bits * normalized.back() <= kMaxBitsInMostMinorDimension &&
        bits * normalized.back() *
                std::min(operandSecondMinor, normalized[n - 2]) >=
            8 * kMinDimensionToTransposeTiled)
      return description;
    return std::nullopt;
  }
  int64_t operandMinor = operandDims.back();
  bool large = operandMinor >= kMinDimensionToTransposeTiled &&
               normalized.back() >= kMinDimensionToTransposeTiled;
  bool enough = operandMinor >= kMinDimensionToTransposeTiled2 &&
                normalized.back() >= kMinDimensionToTransposeTiled2 &&
                operandMinor * normalized.back() >=
                    kMinTotalDimensionsToTransposeTiled;
  if (large || enough)
    return description;
  return std::nullopt;
}

} // namespace hlo
