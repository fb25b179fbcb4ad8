//===- ScatterToDynamicUpdateSlice.cpp - One-index scatters as DUS --------===//
//
// A scatter of one update window (its indices hold a single index vector)
// is a dynamic-update-slice of the operand: the window, reshaped to the
// operand's rank, written at the index. This is what XLA's scatter
// expander makes of such "simple" scatters once its one-trip loop is gone,
// and what lets the fusion passes put the update into a loop fusion
// instead of a scatter kernel (and, where the operand lives on, a copy
// kernel before it). JAX writes `x.at[i].set(v)` and `x.at[:, j].add(v)`
// this way; torax's f64 physics has 136 of them.
//
// Exact for every index:
//  - a scatter skips a window that does not fit at its index, where
//    dynamic-update-slice clamps the start into the operand. A constant
//    index is checked here (out of bounds: the scatter is its operand);
//    a computed one selects, at run time, between the new window and the
//    operand's own elements at the clamped start, so an out-of-bounds
//    window writes back what is there;
//  - a combiner other than overwrite (`to_apply` returning its second
//    parameter) that is one binary op of its two parameters is applied to
//    the operand's window (a dynamic-slice at the same start) and the
//    update. Other combiners, several operands and batching dimensions
//    keep the scatter.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"
#include "HloRewriting.h"

#include "hlo_parser/OpAttributes.h"

#include <optional>

namespace hlo::opt {
namespace {

/// How `to_apply` combines the operand's element (parameter 0) with the
/// update's (parameter 1): its root when that is a binary op of the two
/// parameters or parameter 1 itself (overwrite); null otherwise.
const HloInstruction *combinerRoot(const HloComputation *combiner) {
  if (!combiner || combiner->isDeclaration() || combiner->parameterCount() != 2)
    return nullptr;
  const HloInstruction *root = combiner->root();
  if (root->opcode() == HloOpcode::Parameter)
    return root->parameterNumber() == 1 ? root : nullptr;
  if (!isElementwiseOpcode(root->opcode()) || root->operandCount() != 2 ||
      root->operand(0)->opcode() != HloOpcode::Parameter ||
      root->operand(1)->opcode() != HloOpcode::Parameter ||
      root->shape() != root->operand(0)->shape())
    return nullptr;
  return root;
}

class Rewriter {
public:
  Rewriter(HloInstruction &scatter, PassContext &context)
      : scatter(scatter), computation(*scatter.parent()), context(context) {}

  /// The scatter's replacement, or null when it is not a one-window
  /// scatter this pass rewrites.
  HloInstruction *rewrite();

private:
  HloInstruction *add(HloOpcode opcode, const std::string &name, Shape shape,
                      std::vector<HloInstruction *> operands,
                      std::vector<HloAttribute> attributes = {}) {
    return addInstruction(computation, opcode, context.names.unique(name), std::move(shape),
                          operands, std::move(attributes), scatter.sourceOffset());
  }
  HloInstruction *integer(PrimitiveType type, int64_t value) {
    HloInstruction *constant = add(HloOpcode::Constant, "constant", Shape(type, {}), {});
    Literal literal(Shape(type, {}));
    literal.setInt(0, value);
    constant->setLiteral(std::move(literal));
    return constant;
  }
  static HloAttribute intList(const std::string &name, std::vector<int64_t> values) {
    AttrValue value;
    value.kind = AttrKind::IntList;
    value.ints = std::move(values);
    return {name, std::move(value)};
  }
  /// Component `k` of the one index vector, a scalar.
  HloInstruction *indexComponent(int64_t k, int64_t indexVectorDim);

  HloInstruction &scatter;
  HloComputation &computation;
  PassContext &context;
};

HloInstruction *Rewriter::indexComponent(int64_t k, int64_t indexVectorDim) {
  HloInstruction *indices = scatter.operand(1);
  const Shape &shape = indices->shape();
  Shape scalar(shape.elementType(), {});
  if (shape.rank() == 0)
    return indices;
  HloInstruction *element = indices;
  if (indexVectorDim < shape.rank()) {
    AttrValue slice;
    slice.kind = AttrKind::SliceRanges;
    std::vector<int64_t> ones(shape.rank(), 1);
    for (int64_t d = 0; d < shape.rank(); ++d)
      slice.slices.push_back({d == indexVectorDim ? k : 0, d == indexVectorDim ? k + 1 : 1, 1});
    element = add(HloOpcode::Slice, "index", Shape(shape.elementType(), ones), {indices},
                  {{"slice", std::move(slice)}});
  }
  return add(HloOpcode::Reshape, "index", scalar, {element});
}

HloInstruction *Rewriter::rewrite() {
  if (scatter.operandCount() != 3 || !scatter.shape().isArray())
    return nullptr;
  HloInstruction *operand = scatter.operand(0);
  HloInstruction *indices = scatter.operand(1);
  HloInstruction *updates = scatter.operand(2);
  const HloInstruction *combiner = combinerRoot(toApply(scatter));
  ScatterDimensionNumbers numbers = scatterDimensionNumbers(scatter);
  const Shape &operandShape = operand->shape();
  const Shape &indicesShape = indices->shape();
  if (!combiner || !numbers.inputBatchingDims.empty() || !indicesShape.isArray() ||
      !isIntegral(indicesShape.elementType()) || updates->shape().elementCount() == 0)
    return nullptr;
  // One index vector: every indices dimension but the vector's is 1.
  int64_t vectorLength = 1;
  for (int64_t d = 0; d < indicesShape.rank(); ++d) {
    if (d == numbers.indexVectorDim)
      vectorLength = indicesShape.dimension(d);
    else if (indicesShape.dimension(d) != 1)
      return nullptr;
  }
  if (vectorLength != static_cast<int64_t>(numbers.scatterDimsToOperandDims.size()))
    return nullptr;

  // The window, per operand dimension: 1 where inserted, else the next
  // update window dimension's size.
  int64_t rank = operandShape.rank();
  std::vector<int64_t> window(rank, 1);
  size_t nextWindowDim = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(numbers.insertedWindowDims.begin(), numbers.insertedWindowDims.end(), d) !=
        numbers.insertedWindowDims.end())
      continue;
    if (nextWindowDim >= numbers.updateWindowDims.size())
      return nullptr;
    window[d] = updates->shape().dimension(numbers.updateWindowDims[nextWindowDim++]);
  }
  if (nextWindowDim != numbers.updateWindowDims.size())
    return nullptr;

  // The start per operand dimension: the index's component where the
  // scatter maps one, else 0. A constant index is known now.
  PrimitiveType indexType = indicesShape.elementType();
  bool constantIndex = indices->opcode() == HloOpcode::Constant && indices->hasLiteral() &&
                       !indices->literal().isElided();
  std::vector<std::optional<int64_t>> knownStart(rank, int64_t{0});
  for (int64_t k = 0; k < vectorLength; ++k) {
    int64_t d = numbers.scatterDimsToOperandDims[k];
    if (d < 0 || d >= rank)
      return nullptr;
    knownStart[d] = constantIndex ? std::optional<int64_t>(indices->literal().getInt(k))
                                  : std::nullopt;
  }
  if (constantIndex) {
    for (int64_t d = 0; d < rank; ++d)
      if (*knownStart[d] < 0 || *knownStart[d] > operandShape.dimension(d) - window[d])
        return operand; // the window does not fit: the scatter writes nothing
  }

  std::vector<HloInstruction *> starts(rank, nullptr);
  for (int64_t d = 0; d < rank; ++d)
    if (knownStart[d])
      starts[d] = integer(indexType, *knownStart[d]);
  for (int64_t k = 0; k < vectorLength && !constantIndex; ++k)
    starts[numbers.scatterDimsToOperandDims[k]] = indexComponent(k, numbers.indexVectorDim);

  Shape windowShape(operandShape.elementType(), window);
  HloInstruction *update = add(HloOpcode::Reshape, "update", windowShape, {updates});
  bool overwrite = combiner->opcode() == HloOpcode::Parameter;
  HloInstruction *old = nullptr;
  if (!overwrite || !constantIndex) {
    std::vector<HloInstruction *> sliceOperands = {operand};
    sliceOperands.insert(sliceOperands.end(), starts.begin(), starts.end());
    old = add(HloOpcode::DynamicSlice, "window", windowShape, sliceOperands,
              {intList("dynamic_slice_sizes", window)});
  }
  if (!overwrite) {
    std::vector<HloInstruction *> combined;
    for (const HloInstruction *parameter : combiner->operands())
      combined.push_back(parameter->parameterNumber() == 0 ? old : update);
    update = add(combiner->opcode(), "combined", windowShape, combined, combiner->attributes());
  }
  if (!constantIndex) {
    // In bounds: 0 <= start <= dimension - window, per scattered dimension.
    Shape predicate(PrimitiveType::Pred, {});
    HloInstruction *inBounds = nullptr;
    auto direction = [](const char *name) {
      AttrValue value;
      value.kind = AttrKind::Enum;
      value.text = name;
      return HloAttribute{"direction", std::move(value)};
    };
    for (int64_t k = 0; k < vectorLength; ++k) {
      int64_t d = numbers.scatterDimsToOperandDims[k];
      HloInstruction *start = starts[d];
      HloInstruction *fits =
          add(HloOpcode::Compare, "fits", predicate,
              {start, integer(indexType, operandShape.dimension(d) - window[d])},
              {direction("LE")});
      if (isSignedIntegral(indexType)) {
        HloInstruction *nonNegative = add(HloOpcode::Compare, "fits", predicate,
                                          {start, integer(indexType, 0)}, {direction("GE")});
        fits = add(HloOpcode::And, "fits", predicate, {fits, nonNegative});
      }
      inBounds = inBounds ? add(HloOpcode::And, "fits", predicate, {inBounds, fits}) : fits;
    }
    HloInstruction *mask =
        add(HloOpcode::Broadcast, "fits", Shape(PrimitiveType::Pred, window), {inBounds},
            {intList("dimensions", {})});
    update = add(HloOpcode::Select, "update", windowShape, {mask, update, old});
  }
  std::vector<HloInstruction *> dusOperands = {operand, update};
  dusOperands.insert(dusOperands.end(), starts.begin(), starts.end());
  return add(HloOpcode::DynamicUpdateSlice, "dynamic-update-slice", scatter.shape(), dusOperands);
}

class ScatterToDynamicUpdateSlice : public HloPass {
public:
  llvm::StringRef name() const override { return "scatter-to-dus"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      std::vector<HloInstruction *> scatters;
      for (const auto &instruction : computation->instructions())
        if (instruction->opcode() == HloOpcode::Scatter)
          scatters.push_back(instruction.get());
      bool rewritten = false;
      for (HloInstruction *scatter : scatters)
        if (HloInstruction *replacement = Rewriter(*scatter, context).rewrite()) {
          if (replacement != scatter->operand(0)) {
            // The dynamic-update-slice takes the scatter's name.
            std::string name = scatter->name();
            scatter->setName(context.names.unique(name + ".scatter"));
            replacement->setName(name);
          }
          scatter->replaceAllUsesWith(replacement);
          rewritten = true;
        }
      if (rewritten) {
        removeDeadInstructions(*computation);
        computation->sortTopologically();
        changed = true;
      }
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createScatterToDynamicUpdateSlicePass() {
  return std::make_unique<ScatterToDynamicUpdateSlice>();
}

} // namespace hlo::opt
