//===- OpIndexing.cpp - Dispatch of the per-op indexing rules -------------===//
#include "analysis/OpIndexing.h"

#include "analysis/OpIndexingUtils.h"

using namespace mlir;

namespace hlo {

const Shape &outputShape(const HloInstruction &instruction,
                         int64_t outputIndex) {
  const Shape &shape = instruction.shape();
  if (shape.isTuple() && outputIndex < shape.tupleSize())
    return shape.tupleShapes()[outputIndex];
  return shape;
}

int64_t outputCount(const HloInstruction &instruction) {
  return instruction.shape().isTuple() ? instruction.shape().tupleSize() : 1;
}

IndexingMap makeMap(const std::vector<int64_t> &dimSizes,
                    const std::vector<int64_t> &rangeSizes,
                    const std::vector<Interval> &runtimeBounds,
                    const std::vector<AffineExpr> &results,
                    MLIRContext *context) {
  std::vector<IndexingVar> dims, ranges, runtime;
  for (int64_t size : dimSizes)
    dims.push_back({Interval{0, size - 1}, ""});
  for (int64_t size : rangeSizes)
    ranges.push_back({Interval{0, size - 1}, ""});
  for (const Interval &bounds : runtimeBounds)
    runtime.push_back({bounds, ""});
  AffineMap map = AffineMap::get(dimSizes.size(),
                                 rangeSizes.size() + runtimeBounds.size(),
                                 results, context);
  return IndexingMap(map, std::move(dims), std::move(ranges),
                     std::move(runtime));
}

IndexingMap scalarMap(const std::vector<int64_t> &dimSizes,
                      MLIRContext *context) {
  return makeMap(dimSizes, {}, {}, {}, context);
}

IndexingMap allElementsMap(const std::vector<int64_t> &sourceDims,
                           const std::vector<int64_t> &targetDims,
                           MLIRContext *context) {
  std::vector<AffineExpr> results;
  for (size_t i = 0; i < targetDims.size(); ++i)
    results.push_back(getAffineSymbolExpr(i, context));
  return makeMap(sourceDims, targetDims, {}, results, context);
}

IndexingMap finalize(IndexingMap map) {
  map.simplify();
  map.removeUnusedSymbols();
  return map;
}

static std::string noRule(const HloInstruction &inst, const char *direction) {
  return "no " + std::string(direction) + " indexing rule for " +
         std::string(opcodeName(inst.opcode())) + " ('" + inst.name() + "')";
}

llvm::Expected<IndexingMapSets>
computeOutputToInputIndexing(const HloInstruction &inst, int64_t outputIndex,
                             MLIRContext *context) {
  IndexingMapSets maps(inst.operandCount());
  switch (inst.opcode()) {
  case HloOpcode::Reshape:
  case HloOpcode::Bitcast:
    if (llvm::Error error = reshapeOutputToInputIndexing(inst, context, maps))
      return error;
    return maps;
  case HloOpcode::Reduce:
  case HloOpcode::ReduceWindow:
  case HloOpcode::Dot:
    if (llvm::Error error = reductionOutputToInput(inst, outputIndex, context, maps))
      return error;
    return maps;
  case HloOpcode::DynamicSlice:
  case HloOpcode::DynamicUpdateSlice:
  case HloOpcode::Gather:
  case HloOpcode::Scatter:
    if (llvm::Error error = dynamicOpOutputToInput(inst, outputIndex, context, maps))
      return error;
    return maps;
  default:
    if (!shapeOpOutputToInput(inst, outputIndex, context, maps))
      return indexingError(noRule(inst, "output-to-input"));
    return maps;
  }
}

llvm::Expected<IndexingMapSets>
computeInputToOutputIndexing(const HloInstruction &inst, int64_t operandIndex,
                             MLIRContext *context) {
  IndexingMapSets maps(outputCount(inst));
  switch (inst.opcode()) {
  case HloOpcode::Reshape:
  case HloOpcode::Bitcast:
    if (llvm::Error error = reshapeInputToOutputIndexing(inst, context, maps))
      return error;
    return maps;
  case HloOpcode::Reduce:
  case HloOpcode::ReduceWindow:
  case HloOpcode::Dot:
    if (llvm::Error error = reductionInputToOutput(inst, operandIndex, context, maps))
      return error;
    return maps;
  case HloOpcode::DynamicSlice:
  case HloOpcode::DynamicUpdateSlice:
  case HloOpcode::Gather:
  case HloOpcode::Scatter:
    if (llvm::Error error = dynamicOpInputToOutput(inst, operandIndex, context, maps))
      return error;
    return maps;
  default:
    if (!shapeOpInputToOutput(inst, operandIndex, context, maps))
      return indexingError(noRule(inst, "input-to-output"));
    return maps;
  }
}

} // namespace hlo
