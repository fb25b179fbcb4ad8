//===- ReductionGroups.cpp - Disjoint reductions of one fusion ------------===//
#include "analysis/ReductionGroups.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <map>
#include <numeric>
#include <set>

namespace hlo {
namespace {

/// Union-find over root positions.
class RootSets {
public:
  explicit RootSets(size_t count) : parent(count) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  size_t find(size_t i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  }
  void merge(size_t a, size_t b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b);
  }

private:
  std::vector<size_t> parent;
};

/// A scalar, or a broadcast of a constant or scalar: cheap to recompute.
bool isBroadcastedConstantOrScalar(const HloInstruction &inst) {
  if (inst.shape().isArray() && inst.shape().rank() == 0)
    return true;
  if (inst.opcode() == HloOpcode::Constant)
    return true;
  if (inst.opcode() == HloOpcode::Broadcast) {
    const HloInstruction *operand = inst.operand(0);
    return operand->opcode() == HloOpcode::Constant ||
           (operand->shape().isArray() && operand->shape().rank() == 0);
  }
  return false;
}

} // namespace

ReductionGroups groupDisjointReductions(const FusionAnalysis &analysis) {
  const auto &roots = analysis.roots;
  ReductionGroups groups;
  groups.groupOfRoot.assign(roots.size(), 0);
  for (size_t i = 0; i < roots.size(); ++i)
    groups.isReductionRoot.push_back(isRealReductionHero(*roots[i], *analysis.heroes[i]));
  if (roots.size() == 1) {
    groups.groupedRoots = {{roots[0]}};
    return groups;
  }
  RootSets sets(roots.size());
  // Side outputs share one group.
  std::optional<size_t> firstSideOutput;
  for (size_t i = 0; i < roots.size(); ++i) {
    if (groups.isReductionRoot[i])
      continue;
    if (firstSideOutput)
      sets.merge(*firstSideOutput, i);
    else
      firstSideOutput = i;
  }
  // The roots each instruction reaches (itself included).
  std::map<const HloInstruction *, std::set<size_t>> reaches;
  std::vector<const HloInstruction *> order;
  std::set<const HloInstruction *> seen;
  std::function<void(const HloInstruction *, size_t)> visit =
      [&](const HloInstruction *inst, size_t root) {
        if (!reaches[inst].insert(root).second)
          return;
        if (seen.insert(inst).second)
          order.push_back(inst);
        for (const HloInstruction *operand : inst->operands())
          visit(operand, root);
      };
  for (size_t i = 0; i < roots.size(); ++i)
    visit(roots[i], i);
  for (const HloInstruction *inst : order) {
    const std::set<size_t> &reached = reaches[inst];
    std::vector<size_t> joined;
    bool joinedReduction = false;
    for (size_t root : reached) {
      // Reductions are not joined through a value each can recompute.
      if (groups.isReductionRoot[root] && isBroadcastedConstantOrScalar(*inst) &&
          joinedReduction)
        continue;
      joined.push_back(root);
      joinedReduction |= groups.isReductionRoot[root];
    }
    for (size_t j = 1; j < joined.size(); ++j)
      sets.merge(joined[0], joined[j]);
  }
  std::map<size_t, int64_t> groupOfSet;
  for (size_t i = 0; i < roots.size(); ++i) {
    size_t set = sets.find(i);
    auto [it, inserted] = groupOfSet.emplace(set, groups.groupedRoots.size());
    if (inserted)
      groups.groupedRoots.emplace_back();
    groups.groupOfRoot[i] = it->second;
    groups.groupedRoots[it->second].push_back(roots[i]);
  }
  return groups;
}

} // namespace hlo
