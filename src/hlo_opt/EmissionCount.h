//===- EmissionCount.h - Copies of each instruction's code in a fusion -*- C++ -*-===//
//
// Owns the fusion passes' bound on code duplication (XLA's
// FusionNodeIndexingEvaluation): the elemental emitter writes an
// instruction's code once per place it is read at an index of its own.
// Users that read a value where they are computed (elementwise ops of its
// shape) share one copy, as CSE merges them; any other read (a slice, a
// broadcast, a reduce's operand, either branch of a dynamic-update-slice)
// is a copy of its own. Counts multiply along paths, so a chain of
// dynamic-update-slices whose updates read the previous one (torax's
// column updates) doubles per link, and so does each level of an
// associative scan (its even and odd elements): the fusion passes stop
// such a chain at kMaxEmissions. 32 lets mamba_scan's ten levels fuse
// into 6 kernels (XLA: 7; 40 registers at most, no spills) while torax's
// codegen stays at 9 s (without the bound: 25 s).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_EMISSIONCOUNT_H
#define HLO_OPT_EMISSIONCOUNT_H

#include "hlo_parser/HloInstruction.h"

#include <cstdint>

namespace hlo::opt {

/// The most copies of one instruction's code a fusion may need.
constexpr int64_t kMaxEmissions = 32;

/// The most copies any instruction of `producer` (an instruction or a
/// fusion) would need once fused into `consumer` (likewise). The
/// consumer's own instructions keep their counts: a consumer past the
/// bound (instructions that two fused producers shared became one) still
/// takes producers that stay within it.
int64_t emissionsAfterFusion(const HloInstruction &producer, const HloInstruction &consumer);

} // namespace hlo::opt

#endif // HLO_OPT_EMISSIONCOUNT_H
