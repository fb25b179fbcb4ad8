//===- GemmAnalysis.cpp - The dots the tensor-core emitter computes -------===//
#include "analysis/GemmAnalysis.h"

#include "hlo_parser/HloOpcode.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <map>

namespace hlo {
namespace {

/// The dimensions of an operand of `rank` that are neither batch nor
/// contracting, in order.
std::vector<int64_t> freeDimensions(int64_t rank, const std::vector<int64_t> &batch,
                                    const std::vector<int64_t> &contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!std::count(batch.begin(), batch.end(), d) &&
        !std::count(contracting.begin(), contracting.end(), d))
      free.push_back(d);
  return free;
}

/// The elements of `shape`'s `dimensions`.
int64_t elementsOf(const Shape &shape, const std::vector<int64_t> &dimensions) {
  int64_t count = 1;
  for (int64_t d : dimensions)
    count *= shape.dimension(d);
  return count;
}

/// Which values are computed from `dot`, each answered once.
class DotReaders {
public:
  explicit DotReaders(const HloInstruction *dot) : dot(dot) {}
  bool reads(const HloInstruction *value) {
    if (value == dot)
      return true;
    auto [it, inserted] = known.try_emplace(value, false);
    if (inserted)
      it->second = std::any_of(value->operands().begin(), value->operands().end(),
                               [&](const HloInstruction *operand) { return reads(operand); });
    return known.at(value);
  }

private:
  const HloInstruction *dot;
  std::map<const HloInstruction *, bool> known;
};

/// Whether `value` reaches `dot` through ops of one operand each.
bool isOneOperandChain(const HloInstruction *value, const HloInstruction *dot) {
  for (; value != dot; value = value->operand(0))
    if (value->operandCount() != 1)
      return false;
  return true;
}

/// How `root` is computed from `dot`: a chain of one-operand ops (bitcasts,
/// copies, converts: `top` is its last op, the dot itself for none), then
/// elementwise ops of `top`'s dimensions whose other operands do not read
/// the dot. The top, or none for another form.
const HloInstruction *epilogueChainTop(const HloInstruction *dot, const HloInstruction *root,
                                       DotReaders &readers) {
  if (isOneOperandChain(root, dot))
    return root;
  if (!isElementwiseOpcode(root->opcode()))
    return nullptr;
  const HloInstruction *top = nullptr;
  for (const HloInstruction *operand : root->operands()) {
    if (!readers.reads(operand))
      continue;
    const HloInstruction *operandTop = epilogueChainTop(dot, operand, readers);
    if (!operandTop || (top && operandTop != top) ||
        operandTop->shape().dimensions() != root->shape().dimensions())
      return nullptr;
    top = operandTop;
  }
  return top;
}

} // namespace

bool tensorCoresTake(GemmInput input, int computeCapability) {
  if (input == GemmInput::F8E4M3FN || input == GemmInput::F8E5M2)
    return computeCapability >= 89;
  return computeCapability >= 80;
}

int64_t GemmDescription::batchCount() const {
  int64_t count = 1;
  for (int64_t size : batchSizes)
    count *= size;
  return count;
}

abi::GemmProblem gemmCostProblem(const GemmDescription &gemm) {
  abi::GemmProblem problem;
  problem.batch = gemm.batchCount();
  problem.m = gemm.m;
  problem.n = gemm.n;
  problem.k = gemm.k;
  switch (gemm.input) {
  case GemmInput::BF16:
  case GemmInput::F16:
    problem.inputBytes = 2;
    break;
  case GemmInput::TF32:
  case GemmInput::TF32x3:
    problem.inputBytes = 4;
    break;
  case GemmInput::F64:
    problem.inputBytes = 8;
    break;
  case GemmInput::S8:
  case GemmInput::F8E4M3FN:
  case GemmInput::F8E5M2:
    problem.inputBytes = 1;
    break;
  }
  problem.outputBytes =
      gemm.dot ? std::max(1, primitiveBitWidth(gemm.dot->shape().elementType()) / 8)
               : problem.inputBytes;
  // (Three TF32 products as one: the model knows no 3xTF32.)
  problem.tf32 = gemm.input == GemmInput::TF32 || gemm.input == GemmInput::TF32x3;
  return problem;
}

ErrorOr<GemmDescription> describeGemm(const HloComputation &computation) {
  const HloInstruction *dot = nullptr;
  for (const auto &instruction : computation.instructions())
    if (instruction->opcode() == HloOpcode::Dot) {
      if (dot)
        return makeError("more than one dot");
      dot = instruction.get();
    }
  if (!dot)
    return makeError("no dot");
  const HloInstruction *root = computation.root();
  if (root->shape().isTuple())
    return makeError("several outputs");
  DotReaders readers(dot);
  const HloInstruction *chainTop = epilogueChainTop(dot, root, readers);
  if (!chainTop)
    return makeError("an epilogue other than one-operand ops then elementwise ones");
  GemmDescription gemm;
  gemm.epilogueChainTop = chainTop;
  gemm.dot = dot;
  PrimitiveType lhsType = dot->operand(0)->shape().elementType(),
                rhsType = dot->operand(1)->shape().elementType();
  auto isFp8 = [](PrimitiveType type) {
    return type == PrimitiveType::F8E4M3FN || type == PrimitiveType::F8E5M2;
  };
  bool mixedFp8 = lhsType != rhsType && isFp8(lhsType) && isFp8(rhsType);
  if (lhsType != rhsType && !mixedFp8)
    return makeError("operands of different types");
  if (mixedFp8)
    gemm.inputB = rhsType == PrimitiveType::F8E4M3FN ? GemmInput::F8E4M3FN : GemmInput::F8E5M2;
  PrimitiveType resultType = dot->shape().elementType();
  if (lhsType == PrimitiveType::S8) {
    // IMMA: s8 x s8 summed in s32 (wrapping, as XLA's s32 dot does).
    if (resultType != PrimitiveType::S32)
      return makeError("s8 operands with a result other than s32");
  } else if (!isFloatingPoint(resultType)) {
    return makeError("a non-float result");
  }
  switch (lhsType) {
  case PrimitiveType::S8:
    gemm.input = GemmInput::S8;
    break;
  case PrimitiveType::BF16:
    gemm.input = GemmInput::BF16;
    break;
  case PrimitiveType::F16:
    gemm.input = GemmInput::F16;
    break;
  case PrimitiveType::F32:
    gemm.input = allowsTf32DotProducts(*dot) ? GemmInput::TF32 : GemmInput::TF32x3;
    break;
  case PrimitiveType::F64:
    gemm.input = GemmInput::F64;
    break;
  case PrimitiveType::F8E4M3FN:
    gemm.input = GemmInput::F8E4M3FN;
    break;
  case PrimitiveType::F8E5M2:
    gemm.input = GemmInput::F8E5M2;
    break;
  default:
    return makeError(std::string(primitiveTypeName(lhsType)) + " operands");
  }
  DotDimensionNumbers numbers = dotDimensionNumbers(*dot);
  if (numbers.lhsContracting.empty())
    return makeError("no contracting dimension (an outer product)");
  const Shape &lhs = dot->operand(0)->shape(), &rhs = dot->operand(1)->shape();
  gemm.lhsBatch = numbers.lhsBatch;
  gemm.rhsBatch = numbers.rhsBatch;
  for (int64_t d : numbers.lhsBatch)
    gemm.batchSizes.push_back(lhs.dimension(d));
  gemm.lhsContracting = numbers.lhsContracting;
  gemm.rhsContracting = numbers.rhsContracting;
  gemm.lhsFree = freeDimensions(lhs.rank(), numbers.lhsBatch, numbers.lhsContracting);
  gemm.rhsFree = freeDimensions(rhs.rank(), numbers.rhsBatch, numbers.rhsContracting);
  gemm.m = elementsOf(lhs, gemm.lhsFree);
  gemm.n = elementsOf(rhs, gemm.rhsFree);
  gemm.k = elementsOf(lhs, gemm.lhsContracting);
  if (gemm.m == 0 || gemm.n == 0 || gemm.k == 0 || gemm.batchCount() == 0)
    return makeError("an empty dot");
  return gemm;
}

} // namespace hlo
