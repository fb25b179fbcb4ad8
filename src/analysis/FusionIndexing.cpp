//===- FusionIndexing.cpp - Indexing maps through a computation -----------===//
#include "analysis/FusionIndexing.h"

#include "analysis/OpIndexingUtils.h"

#include <map>

using namespace mlir;

namespace hlo {

void addUnique(std::vector<IndexingMap> &set, IndexingMap map) {
  for (const IndexingMap &existing : set)
    if (existing == map)
      return;
  set.push_back(std::move(map));
}

int64_t rootOutputCount(const HloComputation &computation) {
  return outputCount(*computation.root());
}

namespace {

/// A value inside a computation: an instruction's output.
using Value = std::pair<const HloInstruction *, int64_t>;

} // namespace

bool computeFusionOutputToInputIndexing(const HloComputation &computation,
                                        int64_t outputIndex,
                                        MLIRContext *context,
                                        IndexingMapSets &maps,
                                        std::string &error) {
  maps.assign(computation.parameterCount(), {});
  const HloInstruction *root = computation.root();
  // Maps from the fusion output to each value reached so far.
  std::map<Value, std::vector<IndexingMap>> reached;
  std::vector<int64_t> outDims = outputShape(*root, outputIndex).dimensions();
  Value start{root, outputIndex};
  if (root->opcode() == HloOpcode::Tuple)
    start = {root->operand(outputIndex), 0};
  reached[start].push_back(IndexingMap::identity(outDims, context));
  // Users come after their operands: walk backwards from the root.
  for (auto it = computation.instructions().rbegin();
       it != computation.instructions().rend(); ++it) {
    const HloInstruction *inst = it->get();
    for (int64_t output = 0; output < outputCount(*inst); ++output) {
      auto found = reached.find({inst, output});
      if (found == reached.end())
        continue;
      if (inst->opcode() == HloOpcode::Parameter) {
        for (const IndexingMap &map : found->second)
          addUnique(maps[inst->parameterNumber()], map);
        continue;
      }
      if (inst->opcode() == HloOpcode::GetTupleElement) {
        // Pass through to the tuple producer's output.
        Value producer{inst->operand(0), inst->intAttr("index")};
        if (inst->operand(0)->opcode() == HloOpcode::Tuple)
          producer = {inst->operand(0)->operand(inst->intAttr("index")), 0};
        for (const IndexingMap &map : found->second)
          addUnique(reached[producer], map);
        continue;
      }
      IndexingMapSets opMaps;
      if (!computeOutputToInputIndexing(*inst, output, context, opMaps, error))
        return false;
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
  return true;
}

bool computeFusionInputToOutputIndexing(const HloComputation &computation,
                                        int64_t parameterNumber,
                                        MLIRContext *context,
                                        IndexingMapSets &maps,
                                        std::string &error) {
  const HloInstruction *root = computation.root();
  int64_t outputs = rootOutputCount(computation);
  maps.assign(outputs, {});
  const HloInstruction *parameter = computation.parameter(parameterNumber);
  std::map<Value, std::vector<IndexingMap>> reached;
  reached[{parameter, 0}].push_back(
      IndexingMap::identity(parameter->shape().dimensions(), context));
  auto collect = [&](const Value &value, const std::vector<IndexingMap> &set) {
    // A value reaching the root (or an element of a tuple root).
    if (value.first == root && root->opcode() != HloOpcode::Tuple) {
      for (const IndexingMap &map : set)
        addUnique(maps[value.second], map);
    }
    if (root->opcode() == HloOpcode::Tuple)
      for (int64_t i = 0; i < root->operandCount(); ++i)
        if (root->operand(i) == value.first && value.second == 0)
          for (const IndexingMap &map : set)
            addUnique(maps[i], map);
  };
  for (const auto &owned : computation.instructions()) {
    const HloInstruction *inst = owned.get();
    if (inst->opcode() == HloOpcode::Tuple && inst == root)
      continue;
    for (int64_t output = 0; output < outputCount(*inst); ++output) {
      auto found = reached.find({inst, output});
      if (found == reached.end())
        continue;
      collect(found->first, found->second);
      for (const HloInstruction *user : inst->users()) {
        if (user == root && root->opcode() == HloOpcode::Tuple)
          continue;
        if (user->opcode() == HloOpcode::GetTupleElement) {
          if (user->intAttr("index") == output)
            for (const IndexingMap &map : found->second)
              addUnique(reached[{user, 0}], map);
          continue;
        }
        for (int64_t operand = 0; operand < user->operandCount(); ++operand) {
          if (user->operand(operand) != inst)
            continue;
          IndexingMapSets opMaps;
          if (!computeInputToOutputIndexing(*user, operand, context, opMaps,
                                            error))
            return false;
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
  return true;
}

} // namespace hlo
