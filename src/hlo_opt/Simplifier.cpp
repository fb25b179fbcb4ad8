//===- Simplifier.cpp - Drop instructions that do nothing -----------------===//
//
// The part of XLA's algebraic simplifier that changes which kernels a
// module needs: instructions that return their operand unchanged are
// replaced by it (sharding annotations, which mean nothing on one device;
// reshapes, copies, converts and broadcasts to the operand's own shape;
// identity transposes; slices, pads and dynamic slices of the whole
// operand; one-operand concatenates), a reshape of a reshape reads the
// first one's operand, a get-tuple-element of a tuple is the element, and
// a dynamic-update-slice that overwrites its whole operand is its update,
// a reduce over dimensions of size 1 from its reducer's identity is a
// reshape of its operand (JAX's transpose of a broadcast: a kernel that
// reduces nothing), and a transpose of a dot that swaps its operands' free
// dimensions is the dot of the swapped operands.
// What becomes unused is removed by the dead-code pass after it.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"
#include "HloRewriting.h"

#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hlo::opt {
namespace {

bool isIdentityPermutation(const std::vector<int64_t> &permutation) {
  for (size_t i = 0; i < permutation.size(); ++i)
    if (permutation[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

bool sameShape(const HloInstruction &a, const HloInstruction &b) {
  return a.shape() == b.shape();
}

/// Whether `init` is the identity of the binary op `reducer`'s root
/// applies to its two parameters: reducing one element from it gives the
/// element.
bool isReducerIdentity(const HloComputation *reducer, const HloInstruction &init) {
  if (!reducer || reducer->isDeclaration() || init.opcode() != HloOpcode::Constant ||
      !init.hasLiteral() || init.literal().isElided() || init.shape().rank() != 0)
    return false;
  std::optional<HloOpcode> opcode = reducerOpcode(*reducer);
  const HloInstruction *root = reducer->root();
  if (!opcode || root->operand(0) == root->operand(1))
    return false;
  PrimitiveType type = init.shape().elementType();
  if (!isFloatingPoint(type) && !isIntegral(type) && type != PrimitiveType::Pred)
    return false;
  double value = init.literal().getAsDouble(0);
  switch (*opcode) {
  case HloOpcode::Add:
  case HloOpcode::Or:
    return value == 0 && !std::signbit(value);
  case HloOpcode::Multiply:
  case HloOpcode::And:
    return value == 1;
  case HloOpcode::Maximum:
    return isFloatingPoint(type) && std::isinf(value) && value < 0;
  default: // Minimum
    return isFloatingPoint(type) && std::isinf(value) && value > 0;
  }
}

/// A reshape of a reduce's operand where it reduces only dimensions of
/// size 1 from its reducer's identity, else null.
HloInstruction *reduceOfOne(HloInstruction &reduce, PassContext &context) {
  if (reduce.opcode() != HloOpcode::Reduce || reduce.operandCount() != 2 ||
      !reduce.shape().isArray())
    return nullptr;
  HloInstruction *input = reduce.operand(0);
  for (int64_t dimension : reduce.dimensions())
    if (input->shape().dimension(dimension) != 1)
      return nullptr;
  if (input->shape().elementType() != reduce.shape().elementType() ||
      !isReducerIdentity(reduce.computationAttr("to_apply"), *reduce.operand(1)))
    return nullptr;
  return addInstruction(*reduce.parent(), HloOpcode::Reshape, context.names.unique(reduce.name()),
                        reduce.shape(), {input}, {}, reduce.sourceOffset());
}

/// The value `instruction` can be replaced by, or null.
HloInstruction *simplified(HloInstruction &instruction) {
  if (instruction.operandCount() == 0)
    return nullptr;
  HloInstruction *operand = instruction.operand(0);
  switch (instruction.opcode()) {
  case HloOpcode::CustomCall:
    if (instruction.operandCount() == 1 &&
        isShardingAnnotation(instruction.textAttr("custom_call_target")) &&
        sameShape(instruction, *operand))
      return operand;
    return nullptr;
  case HloOpcode::Reshape:
  case HloOpcode::Bitcast:
  case HloOpcode::Copy:
  case HloOpcode::Convert:
    return sameShape(instruction, *operand) ? operand : nullptr;
  case HloOpcode::Broadcast:
    return sameShape(instruction, *operand) &&
                   isIdentityPermutation(instruction.dimensions())
               ? operand
               : nullptr;
  case HloOpcode::Transpose:
    return sameShape(instruction, *operand) && isIdentityPermutation(instruction.dimensions())
               ? operand
               : nullptr;
  case HloOpcode::Slice:
  case HloOpcode::Pad:
  case HloOpcode::DynamicSlice:
  case HloOpcode::Concatenate:
  case HloOpcode::Reverse:
    if (instruction.opcode() == HloOpcode::Concatenate && instruction.operandCount() != 1)
      return nullptr;
    if (instruction.opcode() == HloOpcode::Reverse) {
      // Reversing dimensions of one element.
      for (int64_t dimension : instruction.dimensions())
        if (operand->shape().dimension(dimension) != 1)
          return nullptr;
    }
    if (instruction.opcode() == HloOpcode::Pad) {
      const AttrValue *padding = instruction.findAttribute("padding");
      if (!padding)
        return nullptr;
      for (const PaddingDimension &dimension : padding->padding)
        if (dimension.low != 0 || dimension.high != 0 || dimension.interior != 0)
          return nullptr;
    }
    return sameShape(instruction, *operand) ? operand : nullptr;
  case HloOpcode::DynamicUpdateSlice: {
    HloInstruction *update = instruction.operand(1);
    return sameShape(instruction, *update) ? update : nullptr;
  }
  case HloOpcode::GetTupleElement:
    if (operand->opcode() == HloOpcode::Tuple)
      return operand->operand(instruction.intAttr("index"));
    return nullptr;
  default:
    return nullptr;
  }
}

/// transpose(dot(a, b)) that orders the result as dot(b, a) does (batch
/// dimensions first, then b's free ones, then a's): that dot, built in the
/// transpose's shape, else null. A GEMM then writes the transposed result
/// itself (JAX's weight gradients are such dots), where a transpose
/// kernel would move it again.
HloInstruction *swappedDot(HloInstruction &transpose, PassContext &context) {
  HloInstruction *dot = transpose.operand(0);
  if (dot->opcode() != HloOpcode::Dot || dot->users().size() != 1 ||
      dot->findAttribute("sparsity"))
    return nullptr;
  // An operand precision per operand would swap too; equal ones do not.
  std::string precision(dot->textAttr("operand_precision"));
  if (!precision.empty()) {
    size_t comma = precision.find(',');
    if (comma == std::string::npos ||
        precision.substr(precision.find('{') + 1, comma - precision.find('{') - 1) !=
            precision.substr(comma + 1, precision.find('}') - comma - 1))
      return nullptr;
  }
  DotDimensionNumbers numbers = dotDimensionNumbers(*dot);
  int64_t batch = static_cast<int64_t>(numbers.lhsBatch.size());
  int64_t lhsFree = dot->operand(0)->shape().rank() - batch -
                    static_cast<int64_t>(numbers.lhsContracting.size());
  int64_t rhsFree = dot->shape().rank() - batch - lhsFree;
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < batch; ++i)
    expected.push_back(i);
  for (int64_t i = 0; i < rhsFree; ++i)
    expected.push_back(batch + lhsFree + i);
  for (int64_t i = 0; i < lhsFree; ++i)
    expected.push_back(batch + i);
  if (lhsFree == 0 || rhsFree == 0 || transpose.dimensions() != expected)
    return nullptr;
  std::vector<HloAttribute> attributes;
  for (HloAttribute attribute : dot->attributes()) {
    llvm::StringRef name = attribute.name;
    if (name.consume_front("lhs_"))
      attribute.name = "rhs_" + name.str();
    else if (name.consume_front("rhs_"))
      attribute.name = "lhs_" + name.str();
    attributes.push_back(std::move(attribute));
  }
  // lhs_* before rhs_*, as XLA prints them.
  std::stable_partition(attributes.begin(), attributes.end(), [](const HloAttribute &a) {
    return llvm::StringRef(a.name).starts_with("lhs_");
  });
  return addInstruction(*transpose.parent(), HloOpcode::Dot, context.names.unique(dot->name()),
                        transpose.shape(), {dot->operand(1), dot->operand(0)},
                        std::move(attributes), dot->sourceOffset());
}

class Simplifier : public HloPass {
public:
  llvm::StringRef name() const override { return "simplifier"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      std::vector<HloInstruction *> candidates; // transposes and reduces
      for (const auto &owned : computation->instructions()) {
        HloInstruction &instruction = *owned;
        if (HloInstruction *replacement = simplified(instruction)) {
          // An instruction that is the computation's root and its result
          // layout matters (a while body's): replacing keeps the shape.
          instruction.replaceAllUsesWith(replacement);
          changed = true;
          continue;
        }
        // reshape(reshape(x)) -> reshape(x).
        if (instruction.opcode() == HloOpcode::Reshape &&
            instruction.operand(0)->opcode() == HloOpcode::Reshape) {
          instruction.replaceOperand(0, instruction.operand(0)->operand(0));
          changed = true;
        }
        if (instruction.opcode() == HloOpcode::Transpose ||
            instruction.opcode() == HloOpcode::Reduce)
          candidates.push_back(&instruction);
      }
      bool added = false;
      for (HloInstruction *candidate : candidates) {
        HloInstruction *replacement = candidate->opcode() == HloOpcode::Reduce
                                          ? reduceOfOne(*candidate, context)
                                          : swappedDot(*candidate, context);
        if (replacement) {
          candidate->replaceAllUsesWith(replacement);
          added = changed = true;
        }
      }
      if (added)
        computation->sortTopologically();
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createSimplifierPass() { return std::make_unique<Simplifier>(); }

} // namespace hlo::opt
