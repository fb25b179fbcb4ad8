//===- FillElidedLiteral.cpp - Made-up values for `{...}` constants -------===//
#include "FillElidedLiteral.h"

#include "FloatFormat.h"

#include "support/SplitMix64.h"

#include <string>

namespace hlo {
namespace {

/// FNV-1a of the name: the seed.
uint64_t seedOf(std::string_view name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

/// Uniform in [-0.1, 0.2), the range XLA's fake literals take
/// (test_utils' floating-point data).
double smallValue(uint64_t &state) { return unitInterval(state) * 0.3 - 0.1; }

} // namespace

void fillElidedLiteral(Literal &literal, std::string_view name) {
  const Shape &shape = literal.shape();
  if (shape.isTuple()) {
    std::vector<Literal> &elements = literal.mutableTupleElements();
    for (size_t i = 0; i < elements.size(); ++i)
      if (elements[i].isElided() || elements[i].shape().isTuple())
        fillElidedLiteral(elements[i], std::string(name) + "." + std::to_string(i));
    return;
  }
  if (!literal.isElided() || !shape.isArray())
    return;
  uint64_t state = seedOf(name);
  PrimitiveType type = shape.elementType();
  int64_t count = literal.elementCount();
  for (int64_t i = 0; i < count; ++i) {
    if (type == PrimitiveType::Pred)
      literal.setInt(i, int64_t(splitmix64(state) >> 63));
    else if (isIntegral(type))
      literal.setInt(i, int64_t(splitmix64(state) >> 61));
    else if (isComplex(type)) {
      PrimitiveType component =
          type == PrimitiveType::C64 ? PrimitiveType::F32 : PrimitiveType::F64;
      double re = roundToFloatType(smallValue(state), component);
      literal.setComplex(i, {re, roundToFloatType(smallValue(state), component)});
    } else
      literal.setFloat(i, roundToFloatType(smallValue(state), type));
  }
  literal.setElided(false);
  literal.setFilled(true);
}

} // namespace hlo
