//===- ArrayShape.cpp - A buffer's array as the manifest states it --------===//
#include "abi/ArrayShape.h"

#include <algorithm>
#include <array>
#include <utility>

namespace hlo::abi {

ArrayShape ArrayShape::rowMajor(std::string elementType, std::vector<int64_t> dimensions) {
  std::vector<int64_t> minorToMajor;
  for (size_t i = dimensions.size(); i-- > 0;)
    minorToMajor.push_back(static_cast<int64_t>(i));
  return {std::move(elementType), std::move(dimensions), std::move(minorToMajor)};
}

int64_t ArrayShape::elementCount() const {
  int64_t count = 1;
  for (int64_t dimension : dimensions)
    count *= dimension;
  return count;
}

std::string ArrayShape::str() const {
  auto list = [](const std::vector<int64_t> &values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i)
      text += (i ? "," : "") + std::to_string(values[i]);
    return text;
  };
  return elementType + "[" + list(dimensions) + "]{" + list(minorToMajor) + "}";
}

bool isArrayElementType(std::string_view name) {
  // The manifest's vocabulary of element types (HLO's array types).
  static constexpr std::array<std::string_view, 28> kNames = {
      "pred",          "s2",       "s4",           "s8",          "s16",     "s32",
      "s64",           "u2",       "u4",           "u8",          "u16",     "u32",
      "u64",           "f16",      "bf16",         "f32",         "f64",     "f8e4m3fn",
      "f8e5m2",        "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz", "f8e3m4", "f8e4m3",
      "f8e8m0fnu",     "f4e2m1fn", "c64",          "c128"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

} // namespace hlo::abi
