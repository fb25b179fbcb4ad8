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
// split-fused-reductions does the same inside fusions of a module that is
// already fused (hand-written, or from another producer): a kInput or
// kLoop fusion with one root and one such reduce becomes two fusions, the
// first computing the partial reduction from the fusion's operands, the
// second reducing the partials and computing the rest (the epilogue).
//
//===----------------------------------------------------------------------===//
#include "FusionBuilder.h"
#include "HloPass.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

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

/// The one reduce of `computation` that is not race free, and how it
/// splits; none if there is none, or other reduces beside it.
std::optional<std::tuple<HloInstruction *, Reduced, int64_t>>
longReduction(const HloComputation &computation) {
  std::optional<std::tuple<HloInstruction *, Reduced, int64_t>> found;
  for (const auto &instruction : computation.instructions()) {
    if (instruction->opcode() != HloOpcode::Reduce)
      continue;
    if (found || instruction->operand(0)->shape().elementType() !=
                     instruction->shape().elementType())
      return std::nullopt;
    if (int64_t n = reducedElements(*instruction, Reduced::Minor); n > kMaxRaceFreeRow)
      found = {instruction.get(), Reduced::Minor, n};
    else if (int64_t n = reducedElements(*instruction, Reduced::Major); n > kMaxRaceFreeColumn)
      found = {instruction.get(), Reduced::Major, n};
    else
      return std::nullopt;
  }
  return found;
}

/// A copy of `fused`'s parameters and of the instructions `keep` accepts,
/// in order, into a new computation of `module`; `replace` may stand in
/// for an instruction (its copy then is what `replace` returns).
HloComputation *copyComputation(
    HloModule &module, const HloComputation &fused, const std::string &name,
    const std::function<bool(const HloInstruction &)> &keep,
    const std::function<HloInstruction *(HloComputation &, const HloInstruction &,
                                         std::map<const HloInstruction *, HloInstruction *> &)>
        &replace,
    std::map<const HloInstruction *, HloInstruction *> &copies) {
  auto computation = std::make_unique<HloComputation>(name);
  computation->setParent(&module);
  for (const auto &instruction : fused.instructions()) {
    const HloInstruction &original = *instruction;
    if (original.opcode() == HloOpcode::Parameter) {
      copies[&original] = addParameter(*computation, original.parameterNumber(),
                                       original.shape(), original.name());
      continue;
    }
    if (!keep(original))
      continue;
    if (HloInstruction *replacement = replace(*computation, original, copies)) {
      copies[&original] = replacement;
      continue;
    }
    std::vector<HloInstruction *> operands;
    for (const HloInstruction *operand : original.operands())
      operands.push_back(copies.at(operand));
    copies[&original] = cloneInstruction(*computation, original, operands, original.name());
  }
  return module.addComputation(std::move(computation));
}

/// Removes the parameters of `computation` that nothing reads, numbering
/// the others in order; returns the fusion operands (of `operands`, one
/// per old parameter number) the remaining ones stand for.
std::vector<HloInstruction *> dropUnusedParameters(HloComputation &computation,
                                                   const std::vector<HloInstruction *> &operands) {
  std::vector<HloInstruction *> kept;
  std::set<const HloInstruction *> unused;
  std::vector<HloInstruction *> parameters(computation.parameters().begin(),
                                           computation.parameters().end());
  for (HloInstruction *parameter : parameters) {
    if (parameter->users().empty()) {
      unused.insert(parameter);
      continue;
    }
    kept.push_back(operands.at(static_cast<size_t>(parameter->parameterNumber())));
    parameter->setParameterNumber(static_cast<int64_t>(kept.size()) - 1);
  }
  computation.removeInstructionsIf(
      [&](const HloInstruction &instruction) { return unused.count(&instruction) > 0; });
  computation.finalizeParameters();
  return kept;
}

class SplitFusedReductions : public HloPass {
public:
  llvm::StringRef name() const override { return "split-fused-reductions"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *host : hostComputations(module)) {
      std::vector<HloInstruction *> fusions;
      for (const auto &instruction : host->instructions()) {
        const HloAttribute *kind = instruction->findAttributeEntry("kind");
        const HloComputation *fused = instruction->fusedComputation();
        if (instruction->opcode() == HloOpcode::Fusion && fused && kind &&
            (kind->value.text == "kInput" || kind->value.text == "kLoop") &&
            fused->root()->shape().isArray() && longReduction(*fused))
          fusions.push_back(instruction.get());
      }
      for (HloInstruction *fusion : fusions)
        split(module, *host, *fusion, context);
      if (!fusions.empty()) {
        removeDeadInstructions(*host);
        host->sortTopologically();
        changed = true;
      }
    }
    return changed;
  }

private:
  /// `fusion` as a fusion computing the partial reduction and one reducing
  /// the partials into the rest of its computation.
  void split(HloModule &module, HloComputation &host, HloInstruction &fusion,
             PassContext &context) {
    const HloComputation &fused = *fusion.fusedComputation();
    auto [reduce, where, elements] = *longReduction(fused);
    // The reduce and what it reads, then the reduce split in two there.
    std::set<const HloInstruction *> prologue = {reduce};
    for (auto it = fused.instructions().rbegin(); it != fused.instructions().rend(); ++it)
      if (prologue.count(it->get()))
        for (const HloInstruction *operand : (*it)->operands())
          prologue.insert(operand);
    std::map<const HloInstruction *, HloInstruction *> first;
    HloComputation *partialComputation = copyComputation(
        module, fused, context.names.unique(fused.name() + ".tree_partial"),
        [&](const HloInstruction &i) { return prologue.count(&i) > 0; },
        [](HloComputation &, const HloInstruction &, auto &) { return nullptr; }, first);
    HloInstruction *whole = splitReduction(*first.at(reduce), elements, where, context);
    HloInstruction *partial = whole->operand(0);
    // What the second reduce needs of the first split's, which goes now.
    HloAttribute partialsDimension = *whole->findAttributeEntry("dimensions");
    Shape partialsShape = partial->shape();
    partialComputation->setRoot(partial);
    removeDeadInstructions(*partialComputation);
    partialComputation->finalizeParameters();
    partialComputation->sortTopologically();
    std::vector<HloInstruction *> operands(fusion.operands().begin(), fusion.operands().end());
    HloInstruction *partials = addFusionInstruction(
        host, partialComputation, dropUnusedParameters(*partialComputation, operands), context);

    // The rest: the partials a new last parameter, reduced where the
    // reduce was.
    std::map<const HloInstruction *, HloInstruction *> second;
    HloInstruction *partialParameter = nullptr;
    HloComputation *restComputation = copyComputation(
        module, fused, context.names.unique(fused.name() + ".tree_final"),
        [](const HloInstruction &) { return true; },
        [&](HloComputation &into, const HloInstruction &original,
            std::map<const HloInstruction *, HloInstruction *> &copies) -> HloInstruction * {
          if (&original != reduce)
            return nullptr;
          partialParameter = addParameter(into, fused.parameterCount(), partialsShape,
                                          context.names.unique(reduce->name() + ".partials"));
          return addInstruction(into, HloOpcode::Reduce, reduce->name(), reduce->shape(),
                                {partialParameter, copies.at(reduce->operand(1))},
                                {partialsDimension, *reduce->findAttributeEntry("to_apply")},
                                reduce->sourceOffset());
        },
        second);
    restComputation->setRoot(second.at(fused.root()));
    removeDeadInstructions(*restComputation);
    restComputation->finalizeParameters();
    restComputation->sortTopologically();
    operands.push_back(partials);
    HloInstruction *rest = addFusionInstruction(
        host, restComputation, dropUnusedParameters(*restComputation, operands), context);
    replaceFusionKeepingName(fusion, *rest, ".split", context);
  }
};

} // namespace

std::unique_ptr<HloPass> createTreeReductionPass() { return std::make_unique<TreeReduction>(); }
std::unique_ptr<HloPass> createSplitFusedReductionsPass() {
  return std::make_unique<SplitFusedReductions>();
}

} // namespace hlo::opt
