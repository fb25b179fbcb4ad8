//===- StableSortTieBreak.cpp - A stable sort's ties broken by its iota ---===//
//
// A stable sort that sorts an iota along its dimension beside its keys
// (jnp.argsort, jax.lax.sort with num_keys=1 and an index operand) needs
// no stability of its own: the iota holds each element's original
// position, so ties broken by it give the stable order. The comparator
// becomes cmp(a, b) || (!cmp(b, a) && iota_a < iota_b) and the sort loses
// is_stable (XLA's StableSortExpander, where an iota operand exists). The
// sorting network then carries no positions of its own: no scratch buffer
// of s32 positions read and written by every launch of a long sort.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"
#include "HloRewriting.h"

#include "hlo_parser/OpAttributes.h"

#include <algorithm>

namespace hlo::opt {
namespace {

/// The operand of `sort` that is an iota of integers along its dimension,
/// or -1.
int64_t iotaOperand(const HloInstruction &sort) {
  if (sort.dimensions().size() != 1)
    return -1;
  int64_t dimension = sort.dimensions().front();
  for (int64_t i = 0; i < sort.operandCount(); ++i) {
    const HloInstruction *operand = sort.operand(i);
    if (operand->opcode() == HloOpcode::Iota && isIntegral(operand->shape().elementType()) &&
        iotaDimension(*operand) == dimension)
      return i;
  }
  return -1;
}

HloAttribute enumAttribute(const char *name, const char *text) {
  AttrValue value;
  value.kind = AttrKind::Enum;
  value.text = text;
  return {name, std::move(value)};
}

/// The comparator of `sort` with ties broken by operand `iota`.
HloComputation *tieBreakingComparator(HloModule &module, const HloComputation &comparator,
                                      int64_t iota, PassContext &context) {
  HloComputation *result =
      module.addComputation(std::make_unique<HloComputation>(context.names.unique(
          comparator.name() + ".tie_break")));
  std::vector<HloInstruction *> parameters;
  for (int64_t i = 0; i < comparator.parameterCount(); ++i)
    parameters.push_back(addParameter(*result, i, comparator.parameter(i)->shape(),
                                      context.names.unique(comparator.parameter(i)->name())));
  auto clone = [&](const HloInstruction &original, const std::vector<HloInstruction *> &operands) {
    return cloneInstruction(*result, original, operands, context.names.unique(original.name()));
  };
  HloInstruction *less = inlineComputation(comparator, parameters, clone);
  // cmp(b, a): each operand's pair swapped.
  std::vector<HloInstruction *> swapped = parameters;
  for (size_t i = 0; i + 1 < swapped.size(); i += 2)
    std::swap(swapped[i], swapped[i + 1]);
  HloInstruction *greater = inlineComputation(comparator, swapped, clone);
  Shape predicate = less->shape();
  HloInstruction *notGreater = addInstruction(*result, HloOpcode::Not,
                                              context.names.unique("not_greater"), predicate,
                                              {greater});
  HloInstruction *earlier = addInstruction(
      *result, HloOpcode::Compare, context.names.unique("earlier"), predicate,
      {parameters[2 * iota], parameters[2 * iota + 1]}, {enumAttribute("direction", "LT")});
  HloInstruction *tie = addInstruction(*result, HloOpcode::And, context.names.unique("tie"),
                                       predicate, {notGreater, earlier});
  HloInstruction *root = addInstruction(*result, HloOpcode::Or, context.names.unique("less"),
                                        predicate, {less, tie});
  result->setRoot(root);
  result->finalizeParameters();
  result->sortTopologically();
  return result;
}

class StableSortTieBreak : public HloPass {
public:
  llvm::StringRef name() const override { return "stable-sort-tie-break"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module))
      for (const auto &instruction : computation->instructions()) {
        HloInstruction &sort = *instruction;
        if (sort.opcode() != HloOpcode::Sort || !sort.boolAttr("is_stable"))
          continue;
        int64_t iota = iotaOperand(sort);
        HloComputation *comparator = toApply(sort);
        if (iota < 0 || !comparator || comparator->isDeclaration())
          continue;
        HloComputation *replacement = tieBreakingComparator(module, *comparator, iota, context);
        auto &attributes = sort.mutableAttributes();
        attributes.erase(std::remove_if(attributes.begin(), attributes.end(),
                                        [](const HloAttribute &a) { return a.name == "is_stable"; }),
                         attributes.end());
        for (HloAttribute &attribute : attributes)
          if (attribute.name == "to_apply")
            attribute.value.computations = {replacement};
        changed = true;
      }
    if (changed)
      removeUnusedComputations(module);
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createStableSortTieBreakPass() {
  return std::make_unique<StableSortTieBreak>();
}

} // namespace hlo::opt
