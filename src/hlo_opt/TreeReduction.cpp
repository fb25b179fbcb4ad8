//===- TreeReduction.cpp - Long reductions in two kernels -----------------===//
//
// A reduction of more elements per output than one block reduces without
// atomics (a row longer than 16384) runs in the reduction emitter as one
// block per output: a 10^6-element sum to a scalar on one SM. As XLA's tree
// reduction rewriter does, such a reduce of its minor dimensions becomes
// two: the reduced elements, padded with the init value to a multiple of
// k = 32 * ceil(sqrt(n) / 32), are reshaped [n/k, k] and reduced over k
// (many independent rows), then over n/k. The init value must be the
// reducer's identity, as XLA assumes (the padding uses it). A reduction of
// the major dimensions (a column reduction) of more than 4096 rows is split
// the same way along its rows: [n, kept] padded to [n/k * k, kept], reshaped
// [n/k, k, kept], reduced over k, then over n/k (k = ceil(sqrt(n))), each a
// column reduction short enough for one block's shared-memory tile.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"

#include <cmath>

namespace hlo::opt {
namespace {

constexpr int64_t kMaxRaceFreeRow = 16384;
constexpr int64_t kMaxRaceFreeColumn = 4096;

/// Where a reduction's reduced elements sit in its operand: its minor
/// dimensions (a row reduction) or its major ones (a column reduction).
enum class Reduced { Minor, Major };

/// The elements each output of `reduce` reduces, if they are its
/// operand's dimensions `where` in a row-major layout (major: with some
/// dimension kept); else 0.
int64_t reducedElements(const HloInstruction &reduce, Reduced where) {
  if (reduce.operandCount() != 2 || !reduce.shape().isArray())
    return 0;
  const Shape &shape = reduce.operand(0)->shape();
  if (!(shape.layoutOrDefault() == Layout::defaultForRank(shape.rank())))
    return 0;
  std::vector<int64_t> dimensions = reduce.dimensions();
  std::sort(dimensions.begin(), dimensions.end());
  int64_t count = static_cast<int64_t>(dimensions.size());
  if (where == Reduced::Major && (count == 0 || count >= shape.rank()))
    return 0;
  int64_t n = 1;
  for (int64_t i = 0; i < count; ++i) {
    if (dimensions[i] != (where == Reduced::Minor ? shape.rank() - count + i : i))
      return 0;
    n *= shape.dimension(dimensions[i]);
  }
  return n;
}

HloInstruction *add(HloComputation &computation, const HloInstruction &at, PassContext &context,
                    HloOpcode opcode, const std::string &name, Shape shape,
                    std::vector<HloInstruction *> operands,
                    std::vector<HloAttribute> attributes = {}) {
  return addInstruction(computation, opcode, context.names.unique(name), std::move(shape),
                        operands, std::move(attributes), at.sourceOffset());
}

HloAttribute reduceDimensions(int64_t dimension) {
  AttrValue value;
  value.kind = AttrKind::IntList;
  value.ints = {dimension};
  return {"dimensions", value};
}

/// `reduce` of `n` elements `where` in two (see the top): the reduced
/// elements, flattened to one dimension in their place, padded, split
/// [n/k, k], reduced over k, then over n/k.
HloInstruction *splitReduction(HloInstruction &reduce, int64_t n, Reduced where,
                               PassContext &context) {
  HloComputation &computation = *reduce.parent();
  HloInstruction *input = reduce.operand(0), *init = reduce.operand(1);
  PrimitiveType type = input->shape().elementType();
  std::vector<int64_t> kept = reduce.shape().dimensions();
  double root = std::sqrt(static_cast<double>(n));
  int64_t k = where == Reduced::Minor ? 32 * static_cast<int64_t>(std::ceil(root / 32))
                                      : static_cast<int64_t>(std::ceil(root));
  int64_t rows = (n + k - 1) / k;
  // The position of the reduced elements among the kept dimensions.
  size_t position = where == Reduced::Minor ? kept.size() : 0;
  auto at = [&](std::vector<int64_t> &dims) {
    return dims.begin() + static_cast<std::ptrdiff_t>(position);
  };
  std::vector<int64_t> flatDims = kept;
  flatDims.insert(at(flatDims), n);
  HloInstruction *flat = add(computation, reduce, context, HloOpcode::Reshape, "tree_flat",
                             Shape(type, flatDims), {input});
  if (rows * k != n) {
    AttrValue padding;
    padding.kind = AttrKind::Padding;
    for (size_t i = 0; i < flatDims.size(); ++i)
      padding.padding.push_back({0, i == position ? rows * k - n : 0, 0});
    flatDims[position] = rows * k;
    flat = add(computation, reduce, context, HloOpcode::Pad, "tree_padded", Shape(type, flatDims),
               {flat, init}, {{"padding", padding}});
  }
  std::vector<int64_t> splitDims = kept;
  splitDims.insert(at(splitDims), {rows, k});
  HloInstruction *split = add(computation, reduce, context, HloOpcode::Reshape, "tree_split",
                              Shape(type, splitDims), {flat});
  std::vector<int64_t> partialDims = kept;
  partialDims.insert(at(partialDims), rows);
  const HloAttribute &reducer = *reduce.findAttributeEntry("to_apply");
  int64_t dimension = static_cast<int64_t>(position);
  HloInstruction *partial =
      add(computation, reduce, context, HloOpcode::Reduce, reduce.name() + ".partial",
          Shape(reduce.shape().elementType(), partialDims), {split, init},
          {reduceDimensions(dimension + 1), reducer});
  return add(computation, reduce, context, HloOpcode::Reduce, reduce.name(), reduce.shape(),
             {partial, init}, {reduceDimensions(dimension), reducer});
}

class TreeReduction : public HloPass {
public:
  llvm::StringRef name() const override { return "tree-reduction"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      struct Split {
        HloInstruction *reduce;
        Reduced where;
        int64_t elements;
      };
      std::vector<Split> splits;
      for (const auto &instruction : computation->instructions()) {
        if (instruction->opcode() != HloOpcode::Reduce ||
            instruction->operand(0)->shape().elementType() != instruction->shape().elementType())
          continue;
        if (int64_t n = reducedElements(*instruction, Reduced::Minor); n > kMaxRaceFreeRow)
          splits.push_back({instruction.get(), Reduced::Minor, n});
        else if (int64_t n = reducedElements(*instruction, Reduced::Major); n > kMaxRaceFreeColumn)
          splits.push_back({instruction.get(), Reduced::Major, n});
      }
      for (const Split &split : splits)
        split.reduce->replaceAllUsesWith(
            splitReduction(*split.reduce, split.elements, split.where, context));
      if (!splits.empty()) {
        removeDeadInstructions(*computation);
        computation->sortTopologically();
        changed = true;
      }
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createTreeReductionPass() { return std::make_unique<TreeReduction>(); }

} // namespace hlo::opt
