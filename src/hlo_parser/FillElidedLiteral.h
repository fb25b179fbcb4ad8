//===- FillElidedLiteral.h - Made-up values for `{...}` constants -*- C++ -*-===//
//
// Owns what a constant printed without its values (`constant({...})`, as
// XLA's dumps elide large literals) holds once parsed: deterministic
// pseudo-random values of its shape, as XLA's own parser fills such
// constants (HloParserOptions::fill_shortform_constants_with_random_values),
// seeded by the constant's name alone, so that every tool that parses the
// same text -- hlo-compile, hlo-run's interpreter and its buffers -- makes
// up the same values. Floats are uniform in [-0.1, 0.2) rounded to their
// type (the range of XLA's fake literals), integers uniform in [0, 8)
// (small enough to index with), preds either.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_FILLELIDEDLITERAL_H
#define HLO_PARSER_FILLELIDEDLITERAL_H

#include "Literal.h"

#include <string_view>

namespace hlo {

/// Fills the elided array literal `literal` (or each elided element of a
/// tuple literal) with the values named `name` selects, and marks it
/// filled (no longer elided).
void fillElidedLiteral(Literal &literal, std::string_view name);

} // namespace hlo

#endif // HLO_PARSER_FILLELIDEDLITERAL_H
