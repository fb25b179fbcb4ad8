//===- HeroAnalysis.h - Fusion roots and their heroes ------------*- C++ -*-===//
//
// Owns hero finding: from a fusion root, walk up through "intermediate"
// ops (elementwise, bitcasts, reshapes/transposes that are bitcasts) to the
// op that shapes code generation — a shared-memory transpose, a
// concatenate, or a reduce — else the root itself.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_HEROANALYSIS_H
#define HLO_ANALYSIS_HEROANALYSIS_H

#include "hlo_parser/HloComputation.h"

#include <vector>

namespace hlo {

/// The roots of a fused computation: a (nested) tuple root's operands, or
/// the root.
std::vector<const HloInstruction *>
getFusionRoots(const HloComputation &computation);

/// Elementwise ops (bitcast-converts of equal width), bitcasts, and
/// reshapes / transposes that move no data, with 1..allowedOperands
/// operands.
bool isIntermediate(const HloInstruction &instruction, int allowedOperands);

/// A reshape or transpose whose elements keep their order in memory (its
/// layouts make it a bitcast).
bool movesNoData(const HloInstruction &instruction);

/// The hero of `root` within its computation.
const HloInstruction &findNonTrivialHero(const HloInstruction &root);

} // namespace hlo

#endif // HLO_ANALYSIS_HEROANALYSIS_H
