//===- ConcatenateEmitter.cpp - The concatenate fusion emitter ------------===//
#include "emitters/ConcatenateEmitter.h"

#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace hlo {
namespace {

int64_t largestOperand(const FusionAnalysis &analysis) {
  int64_t elements = 1;
  for (const HloInstruction *operand : analysis.heroes.front()->operands())
    elements = std::max(elements, operand->shape().elementCount());
  return elements;
}

} // namespace

ConcatenateEmitter::ConcatenateEmitter(const FusionAnalysis &analysis,
                                       const HloComputation &fused,
                                       const GpuDeviceInfo &device)
    : LoopFusionEmitter(analysis, fused, device, largestOperand(analysis)) {}

std::vector<const HloInstruction *> ConcatenateEmitter::valuesReadByEmitter() const {
  const auto &operands = hero().operands();
  return {operands.begin(), operands.end()};
}

std::vector<EpilogueSpecification> ConcatenateEmitter::epilogues() const {
  return {{&hero(), &root()}};
}

llvm::Error ConcatenateEmitter::emitEntryFunction(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  std::optional<IndexingMap> toRoot = heroToRootIndexing(&hero(), &root(), mlirContext);
  if (!toRoot)
    return epilogueWithoutIndexing(&hero(), &root());
  const Subgraph *epilogue = context.partitioned.epilogueFor(&hero(), &root());
  const Shape &outputShape = *fusionOutputs().front().shape;
  int64_t axis = hero().dimensions().front();
  Value output = context.outputs.front();
  int64_t offset = 0;
  for (const HloInstruction *operand : hero().operands()) {
    const Shape &shape = operand->shape();
    if (shape.elementCount() == 0)
      continue;
    llvm::Expected<Operation *> loop = emitLoop(
        b, context.threadAndBlockIds, outputIndexingForDims(shape.dimensions(), mlirContext),
        {output},
        [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange indices,
            ValueRange iterArgs) -> BodyValues {
          llvm::Expected<SmallVector<Value>> value =
              context.elemental.emitValue(nested, *operand, context.parameters, indices);
          if (!value)
            return value.takeError();
          // The operand's element, at its place in the concatenation.
          SmallVector<Value> heroIndex(indices.begin(), indices.end());
          if (offset != 0)
            heroIndex[axis] = arith::AddIOp::create(
                nested, heroIndex[axis], arith::ConstantIndexOp::create(nested, offset));
          SmallVector<Value> rootIndex = applyIndexing(nested, *toRoot, heroIndex);
          SmallVector<Value> values = context.elemental.callEpilogue(
              nested, *epilogue, context.parameters, rootIndex, *value);
          return SmallVector<Value>{tensor::InsertOp::create(
              nested, values.front(), iterArgs.front(), bufferIndices(outputShape, rootIndex))};
        });
    if (!loop)
      return loop.takeError();
    output = (*loop)->getResult(0);
    offset += shape.dimension(axis);
  }
  func::ReturnOp::create(b, ValueRange{output});
  return llvm::Error::success();
}

} // namespace hlo
