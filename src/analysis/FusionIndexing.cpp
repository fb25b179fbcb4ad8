//===- FusionIndexing.cpp - Indexing maps through a computation -----------===//
#include "analysis/FusionIndexing.h"

#include "analysis/OpIndexingUtils.h"
#include "hlo_parser/OpAttributes.h"

#include <map>

using namespace mlir;

namespace hlo {

void addUnique(std::vector<IndexingMap> &set, IndexingMap map) {
  for (const IndexingMap &existing : set)
    if (existing == map)
      return;
  set.push_back(std::move(map));
}

namespace {

/// A value inside a computation: an instruction's output.
using Value = std::pair<const HloInstruction *, int64_t>;

/// The array outputs of a computation: its root, a multi-output root's
/// outputs, or the leaves of a (nested) tuple root, in order.
void collectLeaves(const HloInstruction *inst, std::vector<Value> &leaves) {
  if (inst->opcode() == HloOpcode::Tuple) {
    for (const HloInstruction *operand : inst->operands())
      collectLeaves(operand, leaves);
    return;
  }
  for (int64_t i = 0; i < outputCount(*inst); ++i)
    leaves.push_back({inst, i});
}

std::vector<Value> rootLeaves(const HloComputation &computation) {
  std::vector<Value> leaves;
  collectLeaves(computation.root(), leaves);
  return leaves;
}

} // namespace

int64_t rootOutputCount(const HloComputation &computation) {
  return static_cast<int64_t>(rootLeaves(computation).size());
}

namespace {

/// Maps from output `outputIndex` of the root to every value it reads,
/// through each path (the walk both output-to-* functions share).
llvm::Expected<std::map<Value, std::vector<IndexingMap>>>
walkOutputToValues(const HloComputation &computation, int64_t outputIndex,
                   MLIRContext *context, const HloInstruction **failedAt) {
  std::vector<Value> leaves = rootLeaves(computation);
  if (outputIndex < 0 || outputIndex >= static_cast<int64_t>(leaves.size()))
    return indexingError("computation '" + computation.name() + "' has no output " +
                         std::to_string(outputIndex));
  std::map<Value, std::vector<IndexingMap>> reached;
  Value start = leaves[outputIndex];
  std::vector<int64_t> outDims =
      outputShape(*start.first, start.second).dimensions();
  reached[start].push_back(IndexingMap::identity(outDims, context));
  // Users come after their operands: walk backwards from the root.
  for (auto it = computation.instructions().rbegin();
       it != computation.instructions().rend(); ++it) {
    const HloInstruction *inst = it->get();
    for (int64_t output = 0; output < outputCount(*inst); ++output) {
      auto found = reached.find({inst, output});
      if (found == reached.end() || inst->opcode() == HloOpcode::Parameter)
        continue;
      if (inst->opcode() == HloOpcode::GetTupleElement) {
        // Pass through to the tuple producer's output.
        Value producer{inst->operand(0), tupleIndex(*inst)};
        if (inst->operand(0)->opcode() == HloOpcode::Tuple)
          producer = {inst->operand(0)->operand(tupleIndex(*inst)), 0};
        for (const IndexingMap &map : found->second)
          addUnique(reached[producer], map);
        continue;
      }
      llvm::Expected<IndexingMapSets> computed =
          computeOutputToInputIndexing(*inst, output, context);
      if (!computed) {
        if (failedAt)
          *failedAt = inst;
        return computed.takeError();
      }
      IndexingMapSets &opMaps = *computed;
      for (int64_t operand = 0; operand < inst->operandCount(); ++operand) {
        const HloInstruction *producer = inst->operand(operand);
        // Tuple-shaped operands (a tuple or a multi-output op) are read
        // through get-tuple-element only.
        Value value{producer, 0};
        for (const IndexingMap &fromOutput : found->second)
          for (const IndexingMap &opMap : opMaps[operand]) {
            if (opMap.isUndefined())
              continue;
            addUnique(reached[value],
                      finalize(composeIndexingMaps(fromOutput, opMap)));
          }
      }
    }
  }
  return reached;
}

} // namespace

llvm::Expected<IndexingMapSets>
computeFusionOutputToInputIndexing(const HloComputation &computation,
                                   int64_t outputIndex, MLIRContext *context,
                                   const HloInstruction **failedAt) {
  IndexingMapSets maps(computation.parameterCount());
  auto reached = walkOutputToValues(computation, outputIndex, context, failedAt);
  if (!reached)
    return reached.takeError();
  for (const auto &[value, set] : *reached)
    if (value.first->opcode() == HloOpcode::Parameter)
      for (const IndexingMap &map : set)
        addUnique(maps[value.first->parameterNumber()], map);
  return maps;
}

llvm::Expected<std::map<const HloInstruction *, std::vector<IndexingMap>>>
computeFusionOutputToInstructionIndexing(const HloComputation &computation,
                                         int64_t outputIndex, MLIRContext *context,
                                         const HloInstruction **failedAt) {
  std::map<const HloInstruction *, std::vector<IndexingMap>> maps;
  auto reached = walkOutputToValues(computation, outputIndex, context, failedAt);
  if (!reached)
    return reached.takeError();
  for (const auto &[value, set] : *reached)
    if (value.second == 0 && value.first->shape().isArray())
      for (const IndexingMap &map : set)
        addUnique(maps[value.first], map);
  return maps;
}

llvm::Expected<IndexingMapSets>
computeFusionInputToOutputIndexing(const HloComputation &computation,
                                   int64_t parameterNumber, MLIRContext *context,
                                   const HloInstruction **failedAt) {
  std::vector<Value> leaves = rootLeaves(computation);
  IndexingMapSets maps(leaves.size());
  const HloInstruction *parameter = computation.parameter(parameterNumber);
  std::map<Value, std::vector<IndexingMap>> reached;
  reached[{parameter, 0}].push_back(
      IndexingMap::identity(parameter->shape().dimensions(), context));
  auto collect = [&](const Value &value, const std::vector<IndexingMap> &set) {
    for (size_t i = 0; i < leaves.size(); ++i)
      if (leaves[i] == value)
        for (const IndexingMap &map : set)
          addUnique(maps[i], map);
  };
  for (const auto &owned : computation.instructions()) {
    const HloInstruction *inst = owned.get();
    if (inst->opcode() == HloOpcode::Tuple)
      continue; // tuples only group outputs (at the root)
    for (int64_t output = 0; output < outputCount(*inst); ++output) {
      auto found = reached.find({inst, output});
      if (found == reached.end())
        continue;
      collect(found->first, found->second);
      for (const HloInstruction *user : inst->users()) {
        if (user->opcode() == HloOpcode::Tuple)
          continue;
        if (user->opcode() == HloOpcode::GetTupleElement) {
          if (tupleIndex(*user) == output)
            for (const IndexingMap &map : found->second)
              addUnique(reached[{user, 0}], map);
          continue;
        }
        for (int64_t operand = 0; operand < user->operandCount(); ++operand) {
          if (user->operand(operand) != inst)
            continue;
          llvm::Expected<IndexingMapSets> computed =
              computeInputToOutputIndexing(*user, operand, context);
          if (!computed) {
            if (failedAt)
              *failedAt = user;
            return computed.takeError();
          }
          IndexingMapSets &opMaps = *computed;
          for (int64_t userOutput = 0;
               userOutput < static_cast<int64_t>(opMaps.size()); ++userOutput)
            for (const IndexingMap &fromInput : found->second)
              for (const IndexingMap &opMap : opMaps[userOutput])
                addUnique(reached[{user, userOutput}],
                          finalize(composeIndexingMaps(fromInput, opMap)));
        }
      }
    }
  }
  return maps;
}

} // namespace hlo
