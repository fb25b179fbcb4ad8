//===- ReductionAnalysis.h - Reduction classification ------------*- C++ -*-===//
//
// Owns the reduction emitter's view of a reduce: its 3-D normal form (row:
// [major reduced, kept, minor reduced]; column: [major kept, reduced, minor
// kept]) computed in the layout's physical order, whether the unnested
// emitter beats the elemental loop, whether a non-root reduce is race
// free, and the variants (row, multi-row, column, small column;
// ReductionKind.h chooses one, its emitter's ReductionTiling.h computes
// its launch figures).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_REDUCTIONANALYSIS_H
#define HLO_ANALYSIS_REDUCTIONANALYSIS_H

#include "analysis/DeviceInfo.h"
#include "hlo_parser/HloInstruction.h"

#include <array>
#include <string>

namespace hlo {

struct ReductionDimensions {
  bool isRowReduction = true;
  std::array<int64_t, 3> dimensions = {1, 1, 1};
  bool operator==(const ReductionDimensions &other) const {
    return isRowReduction == other.isRowReduction &&
           dimensions == other.dimensions;
  }
  /// "row[1, 8, 2048]" / "col[13, 1051, 321]".
  std::string toString() const;
};

enum class ReductionKind { Row, MultiRow, Column, SmallColumn };

/// The 3-D normal form of a reduce (its first input's layout decides).
ReductionDimensions getReductionDimensions(const HloInstruction &reduce);

/// Kept or reduced dims are consecutive in the layout, and the unnested
/// emitter is faster than the elemental one for these sizes.
bool isReductionFromOrToContiguousDimensions(const HloInstruction &reduce);

/// A non-root reduce must have no races between threads writing it.
bool isReductionRaceFree(const ReductionDimensions &dimensions);

/// `hero` is a reduce the reduction emitter handles for this root.
bool isRealReductionHero(const HloInstruction &root, const HloInstruction &hero);

} // namespace hlo

#endif // HLO_ANALYSIS_REDUCTIONANALYSIS_H
