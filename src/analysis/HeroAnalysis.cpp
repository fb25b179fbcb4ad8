//===- HeroAnalysis.cpp - Fusion roots and their heroes -------------------===//
#include "analysis/HeroAnalysis.h"

#include "analysis/TransposeAnalysis.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>

namespace hlo {

namespace {

void collectRoots(const HloInstruction *inst,
                  std::vector<const HloInstruction *> &roots) {
  if (inst->opcode() == HloOpcode::Tuple) {
    for (const HloInstruction *operand : inst->operands())
      collectRoots(operand, roots);
    return;
  }
  if (std::find(roots.begin(), roots.end(), inst) == roots.end())
    roots.push_back(inst);
}


/// BFS from `root` through intermediates (up to 3 operands) for the single
/// instruction matching `predicate`, none of whose users is non-trivial.
const HloInstruction *
findUniqueHero(const HloInstruction &root,
               const std::function<bool(const HloInstruction &)> &predicate) {
  const HloInstruction *hero = nullptr;
  std::deque<const HloInstruction *> queue{&root};
  std::set<const HloInstruction *> seen{&root};
  while (!queue.empty()) {
    const HloInstruction *node = queue.front();
    queue.pop_front();
    if (predicate(*node)) {
      if (hero)
        return nullptr; // more than one candidate
      hero = node;
      continue;
    }
    if (!isIntermediate(*node, 3))
      continue;
    for (const HloInstruction *operand : node->operands())
      if (seen.insert(operand).second)
        queue.push_back(operand);
  }
  if (!hero)
    return nullptr;
  // Nothing that reads the hero may be more than an intermediate op.
  std::deque<const HloInstruction *> users(hero->users().begin(),
                                           hero->users().end());
  std::set<const HloInstruction *> visited;
  while (!users.empty()) {
    const HloInstruction *user = users.front();
    users.pop_front();
    if (!visited.insert(user).second)
      continue;
    if (user->opcode() == HloOpcode::Tuple ||
        user->opcode() == HloOpcode::Parameter)
      continue;
    if (!isIntermediate(*user, 3))
      return nullptr;
    for (const HloInstruction *next : user->users())
      users.push_back(next);
  }
  return hero;
}

/// Physical dims without the size-1 ones.
std::vector<int64_t> physicalDims(const Shape &shape) {
  std::vector<int64_t> dims;
  for (int64_t dim : shape.physicalOrder())
    if (shape.dimension(dim) != 1)
      dims.push_back(shape.dimension(dim));
  return dims;
}

} // namespace

/// A reshape or transpose whose data order in memory does not change.
bool movesNoData(const HloInstruction &inst) {
  const Shape &from = inst.operand(0)->shape();
  const Shape &to = inst.shape();
  if (!from.isArray() || !to.isArray() || from.elementCount() != to.elementCount())
    return false;
  if (inst.opcode() == HloOpcode::Reshape) {
    // Row-major reshapes between default layouts are bitcasts; otherwise
    // require identical physical shapes (size-1 dims aside).
    bool defaults = from.layoutOrDefault() == Layout::defaultForRank(from.rank()) &&
                    to.layoutOrDefault() == Layout::defaultForRank(to.rank());
    return defaults || physicalDims(from) == physicalDims(to);
  }
  // A transpose is a bitcast if, in physical order, it only moves size-1
  // dims.
  std::vector<int64_t> dims, perm;
  Layout outLayout = to.layoutOrDefault(), inLayout = from.layoutOrDefault();
  std::vector<int64_t> inPosition(from.rank());
  for (int64_t p = 0; p < from.rank(); ++p)
    inPosition[inLayout.minorToMajor[from.rank() - 1 - p]] = p;
  std::vector<int64_t> order;
  for (auto it = outLayout.minorToMajor.rbegin();
       it != outLayout.minorToMajor.rend(); ++it)
    if (to.dimension(*it) != 1)
      order.push_back(inPosition[inst.dimensions()[*it]]);
  return std::is_sorted(order.begin(), order.end());
}

std::vector<const HloInstruction *>
getFusionRoots(const HloComputation &computation) {
  std::vector<const HloInstruction *> roots;
  collectRoots(computation.root(), roots);
  return roots;
}

bool isIntermediate(const HloInstruction &inst, int allowedOperands) {
  if (inst.operandCount() == 0 || inst.operandCount() > allowedOperands)
    return false;
  if (inst.opcode() == HloOpcode::BitcastConvert)
    return primitiveBitWidth(inst.shape().elementType()) ==
           primitiveBitWidth(inst.operand(0)->shape().elementType());
  if (isElementwiseOpcode(inst.opcode()) || inst.opcode() == HloOpcode::Copy)
    return true;
  switch (inst.opcode()) {
  case HloOpcode::Bitcast:
    return true;
  case HloOpcode::Reshape:
  case HloOpcode::Transpose:
    return movesNoData(inst);
  default:
    return false;
  }
}

const HloInstruction &findNonTrivialHero(const HloInstruction &root) {
  const HloInstruction *hero = &root;
  // Up the chain of single-operand intermediates.
  while (isIntermediate(*hero, 1) &&
         hero->operand(0)->opcode() != HloOpcode::Parameter)
    hero = hero->operand(0);
  // A transpose or concatenate may sit behind multi-operand elementwise ops.
  if (const HloInstruction *transpose =
          findUniqueHero(*hero, [](const HloInstruction &node) {
            return getTiledTransposeDescription(node).has_value();
          }))
    return *transpose;
  if (const HloInstruction *concatenate =
          findUniqueHero(*hero, [](const HloInstruction &node) {
            return node.opcode() == HloOpcode::Concatenate;
          }))
    return *concatenate;
  if (hero->opcode() != HloOpcode::Reduce)
    return root;
  return *hero;
}

} // namespace hlo
