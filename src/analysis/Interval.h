//===- Interval.h - Inclusive integer intervals -----------------*- C++ -*-===//
//
// Owns Interval, the inclusive [lower, upper] bounds of indexing variables
// and expressions, with the interval arithmetic the simplifier needs
// (saturating at int64 limits so huge shapes cannot overflow).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_INTERVAL_H
#define HLO_ANALYSIS_INTERVAL_H

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace hlo {

struct Interval {
  int64_t lower = 0;
  int64_t upper = -1;

  static constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
  static constexpr int64_t kMin = -kMax;

  bool isEmpty() const { return lower > upper; }
  bool isPoint() const { return lower == upper; }
  bool contains(int64_t value) const { return lower <= value && value <= upper; }
  bool contains(const Interval &other) const {
    return other.isEmpty() || (lower <= other.lower && other.upper <= upper);
  }
  int64_t size() const { return isEmpty() ? 0 : upper - lower + 1; }
  Interval intersect(const Interval &other) const {
    return {std::max(lower, other.lower), std::min(upper, other.upper)};
  }
  Interval unite(const Interval &other) const {
    return {std::min(lower, other.lower), std::max(upper, other.upper)};
  }
  bool operator==(const Interval &other) const {
    return lower == other.lower && upper == other.upper;
  }
  bool operator!=(const Interval &other) const { return !(*this == other); }
  /// "[lo, hi]".
  std::string toString() const {
    return "[" + std::to_string(lower) + ", " + std::to_string(upper) + "]";
  }
};

/// Clamps a wide value into [Interval::kMin, Interval::kMax].
inline int64_t saturate(__int128 value) {
  if (value > Interval::kMax)
    return Interval::kMax;
  if (value < Interval::kMin)
    return Interval::kMin;
  return static_cast<int64_t>(value);
}

inline Interval operator+(const Interval &a, const Interval &b) {
  return {saturate((__int128)a.lower + b.lower),
          saturate((__int128)a.upper + b.upper)};
}

inline Interval operator*(const Interval &a, int64_t factor) {
  __int128 x = (__int128)a.lower * factor, y = (__int128)a.upper * factor;
  return {saturate(std::min(x, y)), saturate(std::max(x, y))};
}

inline Interval operator*(const Interval &a, const Interval &b) {
  __int128 products[] = {(__int128)a.lower * b.lower, (__int128)a.lower * b.upper,
                         (__int128)a.upper * b.lower, (__int128)a.upper * b.upper};
  return {saturate(*std::min_element(products, products + 4)),
          saturate(*std::max_element(products, products + 4))};
}

/// Floor division and the non-negative remainder of affine `mod`, for a
/// positive divisor.
inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }
inline int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

} // namespace hlo

#endif // HLO_ANALYSIS_INTERVAL_H
