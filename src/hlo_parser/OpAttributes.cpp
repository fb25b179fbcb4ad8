//===- OpAttributes.cpp - Typed views of op-specific attributes -----------===//
//
// The one place the attribute names of OpAttributes.h are spelled for
// reading.
//
//===----------------------------------------------------------------------===//
#include "OpAttributes.h"
#include "HloComputation.h"
#include "HloInstruction.h"
#include "HloModule.h"

#include <cctype>
#include <regex>

namespace hlo {

Comparison comparisonOf(const HloInstruction &compare) {
  Comparison comparison;
  std::string_view direction = compare.textAttr("direction");
  for (ComparisonDirection candidate :
       {ComparisonDirection::Eq, ComparisonDirection::Ne, ComparisonDirection::Lt,
        ComparisonDirection::Le, ComparisonDirection::Gt, ComparisonDirection::Ge})
    if (direction == toString(candidate))
      comparison.direction = candidate;
  std::string_view type = compare.textAttr("type");
  if (type == "FLOAT")
    comparison.type = ComparisonType::Float;
  else if (type == "TOTALORDER")
    comparison.type = ComparisonType::TotalOrder;
  else if (type == "SIGNED")
    comparison.type = ComparisonType::Signed;
  else if (type == "UNSIGNED")
    comparison.type = ComparisonType::Unsigned;
  return comparison;
}

std::string_view toString(ComparisonDirection direction) {
  switch (direction) {
  case ComparisonDirection::Eq: return "EQ";
  case ComparisonDirection::Ne: return "NE";
  case ComparisonDirection::Lt: return "LT";
  case ComparisonDirection::Le: return "LE";
  case ComparisonDirection::Gt: return "GT";
  case ComparisonDirection::Ge: return "GE";
  }
  return "EQ";
}

DotDimensionNumbers dotDimensionNumbers(const HloInstruction &dot) {
  return {dot.intListAttr("lhs_batch_dims"), dot.intListAttr("rhs_batch_dims"),
          dot.intListAttr("lhs_contracting_dims"), dot.intListAttr("rhs_contracting_dims")};
}

bool allowsTf32DotProducts(const HloInstruction &dot) {
  if (dot.findAttribute("algorithm"))
    return dot.textAttr("algorithm") == "dot_tf32_tf32_f32";
  // operand_precision={default,high,highest,...}, verbatim (any case).
  std::string precision(dot.textAttr("operand_precision"));
  for (char &c : precision)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return precision.find("high") == std::string::npos;
}

GatherDimensionNumbers gatherDimensionNumbers(const HloInstruction &gather) {
  GatherDimensionNumbers numbers;
  numbers.offsetDims = gather.intListAttr("offset_dims");
  numbers.collapsedSliceDims = gather.intListAttr("collapsed_slice_dims");
  numbers.operandBatchingDims = gather.intListAttr("operand_batching_dims");
  numbers.startIndicesBatchingDims = gather.intListAttr("start_indices_batching_dims");
  numbers.startIndexMap = gather.intListAttr("start_index_map");
  numbers.sliceSizes = gather.intListAttr("slice_sizes");
  numbers.indexVectorDim = gather.intAttr("index_vector_dim");
  numbers.indicesAreSorted = gather.boolAttr("indices_are_sorted");
  return numbers;
}

ScatterDimensionNumbers scatterDimensionNumbers(const HloInstruction &scatter) {
  ScatterDimensionNumbers numbers;
  numbers.updateWindowDims = scatter.intListAttr("update_window_dims");
  numbers.insertedWindowDims = scatter.intListAttr("inserted_window_dims");
  numbers.inputBatchingDims = scatter.intListAttr("input_batching_dims");
  numbers.scatterIndicesBatchingDims = scatter.intListAttr("scatter_indices_batching_dims");
  numbers.scatterDimsToOperandDims = scatter.intListAttr("scatter_dims_to_operand_dims");
  numbers.indexVectorDim = scatter.intAttr("index_vector_dim");
  numbers.indicesAreSorted = scatter.boolAttr("indices_are_sorted");
  numbers.uniqueIndices = scatter.boolAttr("unique_indices");
  return numbers;
}

HloComputation *toApply(const HloInstruction &instruction) {
  return instruction.computationAttr("to_apply");
}

bool isParameterSum(const HloComputation *computation) {
  if (!computation || computation->isDeclaration())
    return false;
  const HloInstruction *root = computation->root();
  return root->opcode() == HloOpcode::Add &&
         root->operand(0)->opcode() == HloOpcode::Parameter &&
         root->operand(1)->opcode() == HloOpcode::Parameter;
}

HloComputation *whileCondition(const HloInstruction &loop) {
  return loop.computationAttr("condition");
}

HloComputation *whileBody(const HloInstruction &loop) { return loop.computationAttr("body"); }

std::vector<HloComputation *> conditionalBranches(const HloInstruction &conditional) {
  if (const AttrValue *list = conditional.findAttribute("branch_computations"))
    return list->computations;
  if (!conditional.computationAttr("true_computation"))
    return {};
  return {conditional.computationAttr("true_computation"),
          conditional.computationAttr("false_computation")};
}

HloComputation *selectComputation(const HloInstruction &selectAndScatter) {
  return selectAndScatter.computationAttr("select");
}

HloComputation *scatterComputation(const HloInstruction &selectAndScatter) {
  return selectAndScatter.computationAttr("scatter");
}

int64_t tupleIndex(const HloInstruction &getTupleElement) {
  return getTupleElement.intAttr("index");
}

std::string_view customCallTarget(const HloInstruction &customCall) {
  return customCall.textAttr("custom_call_target");
}

std::string_view backendConfigText(const HloInstruction &instruction) {
  return instruction.textAttr("backend_config");
}

int64_t iotaDimension(const HloInstruction &iota) { return iota.intAttr("iota_dimension"); }

bool isStableSort(const HloInstruction &sort) { return sort.boolAttr("is_stable"); }

ReducedPrecision reducedPrecisionOf(const HloInstruction &reducePrecision) {
  return {reducePrecision.intAttr("exponent_bits"), reducePrecision.intAttr("mantissa_bits")};
}

int64_t featureGroupCount(const HloInstruction &convolution) {
  return convolution.intAttr("feature_group_count", 1);
}

int64_t batchGroupCount(const HloInstruction &convolution) {
  return convolution.intAttr("batch_group_count", 1);
}

const ConvDimLabels *convDimLabelsOf(const HloInstruction &convolution) {
  const AttrValue *labels = convolution.findAttribute("dim_labels");
  return labels ? labels->dimLabels.get() : nullptr;
}

const std::vector<SliceRange> &sliceRangesOf(const HloInstruction &slice) {
  static const std::vector<SliceRange> none;
  const AttrValue *value = slice.findAttribute("slice");
  return value ? value->slices : none;
}

const std::vector<PaddingDimension> &paddingOf(const HloInstruction &pad) {
  static const std::vector<PaddingDimension> none;
  const AttrValue *value = pad.findAttribute("padding");
  return value ? value->padding : none;
}

const std::vector<WindowDimension> &windowOf(const HloInstruction &instruction) {
  static const std::vector<WindowDimension> none;
  const AttrValue *value = instruction.findAttribute("window");
  return value ? value->window : none;
}

const std::vector<int64_t> &dynamicSliceSizesOf(const HloInstruction &dynamicSlice) {
  return dynamicSlice.intListAttr("dynamic_slice_sizes");
}

std::vector<DonatedParameter> donatedParameters(const HloModule &module) {
  // input_output_alias={ {OUTPUT}: (PARAMETER, {}, kind), ... }
  static const std::regex pair(R"(\{\s*([0-9]*)\s*\}\s*:\s*\(\s*([0-9]+)\s*,\s*\{\s*\})");
  std::vector<DonatedParameter> donated;
  for (const ModuleAttribute &attribute : module.attributes()) {
    if (attribute.name != "input_output_alias")
      continue;
    for (std::sregex_iterator it(attribute.text.begin(), attribute.text.end(), pair), end;
         it != end; ++it)
      donated.push_back({(*it)[1].str().empty() ? -1 : std::stoll((*it)[1].str()),
                         std::stoll((*it)[2].str())});
  }
  return donated;
}

} // namespace hlo
