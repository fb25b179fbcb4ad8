//===- OpAttributes.h - Typed views of op-specific attributes ---*- C++ -*-===//
//
// The attributes that later stages interpret, each read by one function:
// a comparison's direction and type and the dimension numbers of dot,
// gather and scatter decoded into enums and structs; the computations an
// instruction calls, by role; and the other op-specific attributes
// (tuple index, custom-call target, window, padding, ...) by name.
// The verifier has checked them (Verifier.cpp and its Verify*.cpp rule
// files), so the decoders only read. Code outside this file does not look
// these attributes up by name.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_OPATTRIBUTES_H
#define HLO_PARSER_OPATTRIBUTES_H

#include "HloAttributes.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace hlo {

class HloComputation;
class HloModule;
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
/// Whether a dot lets f32 products be TF32 products, as XLA multiplies f32
/// on tensor cores: at default precision (no `operand_precision=` beyond
/// DEFAULT, no `algorithm=`), or with `algorithm=dot_tf32_tf32_f32`.
bool allowsTf32DotProducts(const HloInstruction &dot);

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

/// The computations an instruction calls, by their role.
HloComputation *toApply(const HloInstruction &instruction);
/// Whether `computation` (a reducer or combiner) is add(parameter,
/// parameter): a plain sum.
bool isParameterSum(const HloComputation *computation);
HloComputation *whileCondition(const HloInstruction &loop);
HloComputation *whileBody(const HloInstruction &loop);
/// A conditional's branches: `branch_computations`, or the predicated
/// form's {true_computation, false_computation}.
std::vector<HloComputation *> conditionalBranches(const HloInstruction &conditional);
HloComputation *selectComputation(const HloInstruction &selectAndScatter);
HloComputation *scatterComputation(const HloInstruction &selectAndScatter);

/// get-tuple-element's `index=`.
int64_t tupleIndex(const HloInstruction &getTupleElement);
/// custom-call's `custom_call_target=`.
std::string_view customCallTarget(const HloInstruction &customCall);
/// `backend_config=`, verbatim ("" when absent).
std::string_view backendConfigText(const HloInstruction &instruction);
/// iota's `iota_dimension=`.
int64_t iotaDimension(const HloInstruction &iota);
/// sort's `is_stable=`.
bool isStableSort(const HloInstruction &sort);
/// reduce-precision's `exponent_bits=` and `mantissa_bits=`.
struct ReducedPrecision {
  int64_t exponentBits = 0;
  int64_t mantissaBits = 0;
};
ReducedPrecision reducedPrecisionOf(const HloInstruction &reducePrecision);
/// convolution's group counts (1 when absent).
int64_t featureGroupCount(const HloInstruction &convolution);
int64_t batchGroupCount(const HloInstruction &convolution);
/// convolution's `dim_labels=`; null when absent.
const ConvDimLabels *convDimLabelsOf(const HloInstruction &convolution);
/// slice's `slice=`, pad's `padding=`, the `window=` of reduce-window,
/// select-and-scatter and convolution, dynamic-slice's sizes: empty when
/// absent.
const std::vector<SliceRange> &sliceRangesOf(const HloInstruction &slice);
const std::vector<PaddingDimension> &paddingOf(const HloInstruction &pad);
const std::vector<WindowDimension> &windowOf(const HloInstruction &instruction);
const std::vector<int64_t> &dynamicSliceSizesOf(const HloInstruction &dynamicSlice);

/// The module's input_output_alias pairs whose parameter side is a whole
/// parameter: {output, parameter}, the output an element of the entry's
/// root tuple (-1: the root itself, not a tuple).
struct DonatedParameter {
  int64_t output = -1;
  int64_t parameter = 0;
};
std::vector<DonatedParameter> donatedParameters(const HloModule &module);

} // namespace hlo

#endif // HLO_PARSER_OPATTRIBUTES_H
