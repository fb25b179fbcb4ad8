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

/// The rows each output of `reduce` reduces, if they are its operand's
/// major dimensions in a row-major layout and some dimension is kept;
/// else 0.
int64_t majorReducedElements(const HloInstruction &reduce) {
  if (reduce.operandCount() != 2 || !reduce.shape().isArray())
    return 0;
  const Shape &shape = reduce.operand(0)->shape();
  if (!(shape.layoutOrDefault() == Layout::defaultForRank(shape.rank())))
    return 0;
  std::vector<int64_t> dimensions = reduce.dimensions();
  std::sort(dimensions.begin(), dimensions.end());
  if (dimensions.empty() || static_cast<int64_t>(dimensions.size()) >= shape.rank())
    return 0;
  int64_t n = 1;
  for (size_t i = 0; i < dimensions.size(); ++i) {
    if (dimensions[i] != static_cast<int64_t>(i))
      return 0;
    n *= shape.dimension(dimensions[i]);
  }
  return n;
}

/// The elements each output of `reduce` reduces, if they are its
/// operand's minor dimensions in a row-major layout; else 0.
int64_t minorReducedElements(const HloInstruction &reduce) {
  if (reduce.operandCount() != 2 || !reduce.shape().isArray())
    return 0;
  const Shape &shape = reduce.operand(0)->shape();
  if (!(shape.layoutOrDefault() == Layout::defaultForRank(shape.rank())))
    return 0;
  std::vector<int64_t> dimensions = reduce.dimensions();
  std::sort(dimensions.begin(), dimensions.end());
  int64_t n = 1;
  for (size_t i = 0; i < dimensions.size(); ++i) {
    if (dimensions[i] != shape.rank() - static_cast<int64_t>(dimensions.size() - i))
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

HloInstruction *splitReduction(HloInstruction &reduce, int64_t n, PassContext &context) {
  HloComputation &computation = *reduce.parent();
  HloInstruction *input = reduce.operand(0), *init = reduce.operand(1);
  PrimitiveType type = input->shape().elementType();
  std::vector<int64_t> kept = reduce.shape().dimensions();
  int64_t k = 32 * static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(n)) / 32));
  int64_t rows = (n + k - 1) / k;
  std::vector<int64_t> flatDims = kept;
  flatDims.push_back(n);
  HloInstruction *flat = add(computation, reduce, context, HloOpcode::Reshape, "tree_flat",
                             Shape(type, flatDims), {input});
  if (rows * k != n) {
    AttrValue padding;
    padding.kind = AttrKind::Padding;
    for (size_t i = 0; i < flatDims.size(); ++i)
      padding.padding.push_back({0, i + 1 == flatDims.size() ? rows * k - n : 0, 0});
    flatDims.back() = rows * k;
    flat = add(computation, reduce, context, HloOpcode::Pad, "tree_padded", Shape(type, flatDims),
               {flat, init}, {{"padding", padding}});
  }
  std::vector<int64_t> splitDims = kept;
  splitDims.push_back(rows);
  splitDims.push_back(k);
  HloInstruction *split = add(computation, reduce, context, HloOpcode::Reshape, "tree_split",
                              Shape(type, splitDims), {flat});
  std::vector<int64_t> partialDims = kept;
  partialDims.push_back(rows);
  const HloAttribute &reducer = *reduce.findAttributeEntry("to_apply");
  int64_t rank = static_cast<int64_t>(splitDims.size());
  HloInstruction *partial =
      add(computation, reduce, context, HloOpcode::Reduce, reduce.name() + ".partial",
          Shape(reduce.shape().elementType(), partialDims), {split, init},
          {reduceDimensions(rank - 1), reducer});
  return add(computation, reduce, context, HloOpcode::Reduce, reduce.name(), reduce.shape(),
             {partial, init}, {reduceDimensions(rank - 2), reducer});
}

/// The column reduction `reduce` of `n` rows in two (see the top).
HloInstruction *splitColumnReduction(HloInstruction &reduce, int64_t n, PassContext &context) {
  HloComputation &computation = *reduce.parent();
  HloInstruction *input = reduce.operand(0), *init = reduce.operand(1);
  PrimitiveType type = input->shape().elementType();
  std::vector<int64_t> kept = reduce.shape().dimensions();
  int64_t k = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  int64_t rows = (n + k - 1) / k;
  std::vector<int64_t> flatDims = {n};
  flatDims.insert(flatDims.end(), kept.begin(), kept.end());
  HloInstruction *flat = add(computation, reduce, context, HloOpcode::Reshape, "tree_flat",
                             Shape(type, flatDims), {input});
  if (rows * k != n) {
    AttrValue padding;
    padding.kind = AttrKind::Padding;
    for (size_t i = 0; i < flatDims.size(); ++i)
      padding.padding.push_back({0, i == 0 ? rows * k - n : 0, 0});
    flatDims.front() = rows * k;
    flat = add(computation, reduce, context, HloOpcode::Pad, "tree_padded", Shape(type, flatDims),
               {flat, init}, {{"padding", padding}});
  }
  std::vector<int64_t> splitDims = {rows, k};
  splitDims.insert(splitDims.end(), kept.begin(), kept.end());
  HloInstruction *split = add(computation, reduce, context, HloOpcode::Reshape, "tree_split",
                              Shape(type, splitDims), {flat});
  std::vector<int64_t> partialDims = {rows};
  partialDims.insert(partialDims.end(), kept.begin(), kept.end());
  const HloAttribute &reducer = *reduce.findAttributeEntry("to_apply");
  HloInstruction *partial =
      add(computation, reduce, context, HloOpcode::Reduce, reduce.name() + ".partial",
          Shape(reduce.shape().elementType(), partialDims), {split, init},
          {reduceDimensions(1), reducer});
  return add(computation, reduce, context, HloOpcode::Reduce, reduce.name(), reduce.shape(),
             {partial, init}, {reduceDimensions(0), reducer});
}

class TreeReduction : public HloPass {
public:
  llvm::StringRef name() const override { return "tree-reduction"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      std::vector<HloInstruction *> rows, columns;
      for (const auto &instruction : computation->instructions()) {
        if (instruction->opcode() != HloOpcode::Reduce ||
            instruction->operand(0)->shape().elementType() != instruction->shape().elementType())
          continue;
        if (minorReducedElements(*instruction) > kMaxRaceFreeRow)
          rows.push_back(instruction.get());
        else if (majorReducedElements(*instruction) > kMaxRaceFreeColumn)
          columns.push_back(instruction.get());
      }
      for (HloInstruction *reduce : rows)
        reduce->replaceAllUsesWith(splitReduction(*reduce, minorReducedElements(*reduce), context));
      for (HloInstruction *reduce : columns)
        reduce->replaceAllUsesWith(
            splitColumnReduction(*reduce, majorReducedElements(*reduce), context));
      if (!rows.empty() || !columns.empty()) {
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
