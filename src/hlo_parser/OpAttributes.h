//===- OpAttributes.h - Typed views of op-specific attributes ---*- C++ -*-===//
//
// The attribute groups that later stages interpret, each decoded by one
// function into a struct or an enum: a comparison's direction and type, a
// dot's dimension numbers, a gather's and a scatter's dimension numbers.
// The verifier has checked them (Verifier.cpp, VerifyGatherScatter.cpp), so
// the decoders only read. Code outside this file does not look these
// attributes up by name.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_OPATTRIBUTES_H
#define HLO_PARSER_OPATTRIBUTES_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace hlo {

class HloInstruction;

/// compare's `direction=`.
enum class ComparisonDirection : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
/// compare's `type=` (DEFAULT when absent: the element type decides).
enum class ComparisonType : uint8_t { Default, Float, TotalOrder, Signed, Unsigned };

struct Comparison {
  ComparisonDirection direction = ComparisonDirection::Eq;
  ComparisonType type = ComparisonType::Default;
};
Comparison comparisonOf(const HloInstruction &compare);
/// "EQ", "NE", ... as HLO writes them.
std::string_view toString(ComparisonDirection direction);

/// dot's `lhs_batch_dims=` ... `rhs_contracting_dims=`.
struct DotDimensionNumbers {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
};
DotDimensionNumbers dotDimensionNumbers(const HloInstruction &dot);

/// gather's dimension numbers (with the batching dims of the StableHLO
/// RFC), its slice sizes and its promise of sorted indices.
struct GatherDimensionNumbers {
  std::vector<int64_t> offsetDims, collapsedSliceDims, operandBatchingDims,
      startIndicesBatchingDims, startIndexMap, sliceSizes;
  int64_t indexVectorDim = 0;
  bool indicesAreSorted = false;
};
GatherDimensionNumbers gatherDimensionNumbers(const HloInstruction &gather);

/// scatter's dimension numbers and its promises about the indices.
struct ScatterDimensionNumbers {
  std::vector<int64_t> updateWindowDims, insertedWindowDims, inputBatchingDims,
      scatterIndicesBatchingDims, scatterDimsToOperandDims;
  int64_t indexVectorDim = 0;
  bool indicesAreSorted = false;
  bool uniqueIndices = false;
};
ScatterDimensionNumbers scatterDimensionNumbers(const HloInstruction &scatter);

} // namespace hlo

#endif // HLO_PARSER_OPATTRIBUTES_H
