//===- MergeSorts.cpp - One sort for the sorts of one key -----------------===//
//
// Two stable sorts of a host computation along one dimension, with one
// comparison of their first operand (the key) and nothing else, put every
// operand in the same order: where one sorts a subset of the other's
// operands, its results are the other's (jnp.sort(k) beside
// jnp.argsort(k), which sorts (k, iota): one sort instead of two, each a
// few dozen launches of the sorting network for a long key).
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"
#include "HloRewriting.h"

#include "hlo_parser/OpAttributes.h"

#include <map>

namespace hlo::opt {
namespace {

/// Whether `a` in one comparator computes what `b` does in another, both
/// reading only their parameters 0 and 1 (the two keys compared).
bool sameKeyComparison(const HloInstruction &a, const HloInstruction &b,
                       std::map<const HloInstruction *, const HloInstruction *> &matched) {
  if (auto found = matched.find(&a); found != matched.end())
    return found->second == &b;
  if (a.opcode() != b.opcode() || !(a.shape() == b.shape()) ||
      a.operandCount() != b.operandCount())
    return false;
  if (a.opcode() == HloOpcode::Parameter) {
    if (a.parameterNumber() > 1 || a.parameterNumber() != b.parameterNumber())
      return false;
  } else if (valueKey(a, {}) != valueKey(b, {})) {
    return false; // opcode, shape, attributes and literal
  }
  for (int64_t i = 0; i < a.operandCount(); ++i)
    if (!sameKeyComparison(*a.operand(i), *b.operand(i), matched))
      return false;
  matched[&a] = &b;
  return true;
}

bool sameSortOrder(const HloInstruction &a, const HloInstruction &b) {
  if (!a.boolAttr("is_stable") || !b.boolAttr("is_stable") ||
      a.dimensions() != b.dimensions() || a.operand(0) != b.operand(0))
    return false;
  const HloComputation *first = toApply(a), *second = toApply(b);
  std::map<const HloInstruction *, const HloInstruction *> matched;
  return first && second && sameKeyComparison(*first->root(), *second->root(), matched);
}

/// The result of `sort` that is operand `operand` of it, sorted.
int64_t resultIndexOf(const HloInstruction &sort, const HloInstruction *operand) {
  for (int64_t i = 0; i < sort.operandCount(); ++i)
    if (sort.operand(i) == operand)
      return i;
  return -1;
}

class MergeSorts : public HloPass {
public:
  llvm::StringRef name() const override { return "merge-sorts"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      std::vector<HloInstruction *> sorts;
      for (const auto &instruction : computation->instructions())
        if (instruction->opcode() == HloOpcode::Sort)
          sorts.push_back(instruction.get());
      for (HloInstruction *subset : sorts) {
        for (HloInstruction *superset : sorts) {
          if (subset == superset || subset->users().empty() || superset->users().empty() ||
              superset->operandCount() <= subset->operandCount() ||
              !superset->shape().isTuple() || !sameSortOrder(*subset, *superset))
            continue;
          std::vector<int64_t> indices;
          for (const HloInstruction *operand : subset->operands())
            indices.push_back(resultIndexOf(*superset, operand));
          if (std::count(indices.begin(), indices.end(), -1))
            continue;
          replaceResults(*subset, *superset, indices, context);
          changed = true;
          break;
        }
      }
      if (changed)
        computation->sortTopologically();
    }
    return changed;
  }

private:
  /// `subset`'s results read from `superset`'s: its users (its
  /// get-tuple-elements, renumbered, or the array result) read those.
  static void replaceResults(HloInstruction &subset, HloInstruction &superset,
                             const std::vector<int64_t> &indices, PassContext &context) {
    if (!subset.shape().isTuple()) {
      subset.replaceAllUsesWith(
          addGetTupleElement(superset, indices[0], context.names.unique(subset.name())));
      return;
    }
    std::vector<HloInstruction *> users = subset.users();
    for (HloInstruction *user : users) {
      if (user->opcode() != HloOpcode::GetTupleElement)
        continue; // a tuple user keeps the sort: dead code leaves it
      user->replaceAllUsesWith(addGetTupleElement(
          superset, indices[tupleIndex(*user)], context.names.unique(user->name())));
    }
  }
};

} // namespace

std::unique_ptr<HloPass> createMergeSortsPass() { return std::make_unique<MergeSorts>(); }

} // namespace hlo::opt
