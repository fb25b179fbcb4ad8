//===- MultiOutputRules.h - When fusions may become one kernel --*- C++ -*-===//
//
// Owns what the passes that merge whole fusions (multi-output fusion:
// siblings and producer-consumer pairs; horizontal loop fusion) ask of a
// pair: the iteration space a fusion's kernel runs over (two fusions merge
// only where it is the same), whether one reaches the other (the merged
// kernel would then need its own output), and the size limits.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_MULTIOUTPUTRULES_H
#define HLO_OPT_MULTIOUTPUTRULES_H

#include "hlo_parser/HloInstruction.h"

#include <string>

namespace hlo::opt {

/// What a fusion's kernel iterates over ("loop 26 10", "reduce f32[..]
/// over 1"), as a key two fusions must share to be merged; empty if it is
/// no candidate (GEMMs, in-place updates, sorts, transposes, concatenates).
std::string iterationSpace(const HloInstruction &fusion);

/// Whether `to` is reachable from `from` through users.
bool reaches(const HloInstruction *from, const HloInstruction *to);

/// Whether fusions `a` and `b` merged stay within the operand and
/// instruction limits of FusionRules.h.
bool withinFusionLimits(const HloInstruction &a, const HloInstruction &b);

} // namespace hlo::opt

#endif // HLO_OPT_MULTIOUTPUTRULES_H
