//===- ReductionGroups.h - Disjoint reductions of one fusion ----*- C++ -*-===//
//
// Owns the grouping of a reduction fusion's roots (XLA's
// GroupDisjointReductions): roots that share an instruction they depend on
// go into one group, except that reductions are not joined through a
// broadcast constant or scalar they can each recompute; all side outputs
// (roots without a reduction hero) share one group, so that no group
// writes what another reads. Each group is one grid row (`blockIdx.y`,
// as XLA launches them) so disjoint reductions run side by side.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_REDUCTIONGROUPS_H
#define HLO_ANALYSIS_REDUCTIONGROUPS_H

#include "analysis/FusionAnalysis.h"

#include <vector>

namespace hlo {

struct ReductionGroups {
  /// The roots of each group, in root order; groups ordered by their first
  /// root.
  std::vector<std::vector<const HloInstruction *>> groupedRoots;
  /// For each root (FusionAnalysis::roots order): its group.
  std::vector<int64_t> groupOfRoot;
  /// For each root: whether its hero is a real reduction hero (else it is
  /// a side output).
  std::vector<bool> isReductionRoot;
};

ReductionGroups groupDisjointReductions(const FusionAnalysis &analysis);

} // namespace hlo

#endif // HLO_ANALYSIS_REDUCTIONGROUPS_H
