//===- SplitMix64.h - A small deterministic random generator -----*- C++ -*-===//
//
// Owns the pseudo-random sequence every deterministic generator of values
// here uses (the interpreter's inputs, the parser's values for elided
// constants): splitmix64, one 64-bit value a step from a 64-bit state, and
// a double uniform in [0, 1) from it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_SUPPORT_SPLITMIX64_H
#define HLO_SUPPORT_SPLITMIX64_H

#include <cstdint>

namespace hlo {

inline uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Uniform in [0, 1), 53 bits.
inline double unitInterval(uint64_t &state) {
  return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
}

} // namespace hlo

#endif // HLO_SUPPORT_SPLITMIX64_H
