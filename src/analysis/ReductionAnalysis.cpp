//===- ReductionAnalysis.cpp - Reduction classification -------------------===//
#include "analysis/ReductionAnalysis.h"

#include <algorithm>

namespace hlo {

namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kRowRaceFreeBound = kWarpSize * 512; // 16384
constexpr int64_t kBatchedRaceFreeBound = 8;
constexpr int64_t kColumnRaceFreeBound = 4096;

bool contains(const std::vector<int64_t> &values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

/// `dims` occupy consecutive physical positions.
bool areConsecutive(const Shape &shape, const std::vector<int64_t> &dims) {
  if (dims.empty())
    return true;
  std::vector<int64_t> order = shape.physicalOrder();
  std::vector<int64_t> positions;
  for (int64_t dim : dims)
    positions.push_back(std::find(order.begin(), order.end(), dim) - order.begin());
  std::sort(positions.begin(), positions.end());
  return positions.back() - positions.front() + 1 ==
         static_cast<int64_t>(positions.size());
}

/// [product of dims before `middle`, product of `middle`, product after],
/// in physical order (size-1 dims may sit anywhere).
std::array<int64_t, 3> partitionByMiddle(const Shape &shape,
                                         const std::vector<int64_t> &middle) {
  std::array<int64_t, 3> values = {1, 1, 1};
  int segment = 0;
  for (int64_t dim : shape.physicalOrder()) {
    if (contains(middle, dim)) {
      segment = 1;
      values[1] *= shape.dimension(dim);
    } else {
      if (segment == 1)
        segment = 2;
      values[segment] *= shape.dimension(dim);
    }
  }
  return values;
}

} // namespace

std::string ReductionDimensions::toString() const {
  return std::string(isRowReduction ? "row" : "col") + "[" +
         std::to_string(dimensions[0]) + ", " + std::to_string(dimensions[1]) +
         ", " + std::to_string(dimensions[2]) + "]";
}

ReductionDimensions getReductionDimensions(const HloInstruction &reduce) {
  const Shape &input = reduce.operand(0)->shape();
  const auto &reduced = reduce.dimensions();
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d)
    if (!contains(reduced, d))
      kept.push_back(d);
  int64_t elements = std::max<int64_t>(input.elementCount(), 1);
  if (kept.empty())
    return {true, {1, 1, elements}};
  if (areConsecutive(input, kept)) {
    std::array<int64_t, 3> parts = partitionByMiddle(input, kept);
    if (parts[1] == 1)
      return {true, {1, 1, parts[0] * parts[2]}};
    if (parts[2] == 1)
      return {false, {1, parts[0], parts[1]}};
    return {true, parts};
  }
  std::array<int64_t, 3> parts = partitionByMiddle(input, reduced);
  if (parts[2] == 1)
    return {true, {1, parts[0], parts[1]}};
  return {false, parts};
}

static bool fasterThanElemental(const ReductionDimensions &dims) {
  if (dims.isRowReduction)
    return dims.dimensions[2] >= kWarpSize ||
           kWarpSize % dims.dimensions[2] == 0;
  int64_t major = dims.dimensions[1], minor = dims.dimensions[2];
  bool preferElemental = major < kWarpSize ||
                         (major < 2 * kWarpSize && minor < kWarpSize) ||
                         (major < 4 * kWarpSize && minor < 8) ||
                         (major < 8 * kWarpSize && minor < 3);
  return !preferElemental;
}

bool isReductionFromOrToContiguousDimensions(const HloInstruction &reduce) {
  if (reduce.opcode() != HloOpcode::Reduce)
    return false;
  const Shape &input = reduce.operand(0)->shape();
  if (!input.isArray() || !input.isStatic())
    return false;
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d)
    if (!contains(reduce.dimensions(), d))
      kept.push_back(d);
  if (!areConsecutive(input, kept) && !areConsecutive(input, reduce.dimensions()))
    return false;
  return fasterThanElemental(getReductionDimensions(reduce));
}

bool isReductionRaceFree(const ReductionDimensions &dims) {
  if (dims.isRowReduction)
    return dims.dimensions[2] <= kRowRaceFreeBound &&
           dims.dimensions[0] <= kBatchedRaceFreeBound;
  return dims.dimensions[1] <= kColumnRaceFreeBound;
}

bool isRealReductionHero(const HloInstruction &root,
                         const HloInstruction &hero) {
  if (!isReductionFromOrToContiguousDimensions(hero))
    return false;
  return &root == &hero || isReductionRaceFree(getReductionDimensions(hero));
}

} // namespace hlo
