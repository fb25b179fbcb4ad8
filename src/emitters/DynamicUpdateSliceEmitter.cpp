//===- DynamicUpdateSliceEmitter.cpp - In-place dynamic-update-slice ------===//
#include "emitters/DynamicUpdateSliceEmitter.h"

#include "analysis/OpIndexing.h"
#include "emitters/StartIndices.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace hlo {
namespace {

/// The update's element count (all updates have one shape).
int64_t updateElements(const FusionAnalysis &analysis) {
  return dynamicUpdateSliceOf(*analysis.roots.front()).operand(1)->shape().elementCount();
}

} // namespace

DynamicUpdateSliceEmitter::DynamicUpdateSliceEmitter(const FusionAnalysis &analysis,
                                                     const HloComputation &fused,
                                                     const GpuDeviceInfo &device)
    : LoopFusionEmitter(analysis, fused, device, updateElements(analysis)) {}

std::vector<const HloInstruction *> DynamicUpdateSliceEmitter::updates() const {
  std::vector<const HloInstruction *> result;
  for (const FusionOutput &output : fusionOutputs()) {
    const HloInstruction *root = output.root;
    if (root->opcode() == HloOpcode::Tuple)
      root = root->operand(output.leaf);
    result.push_back(&dynamicUpdateSliceOf(*root));
  }
  return result;
}

std::vector<int64_t> DynamicUpdateSliceEmitter::outputAliases() const {
  std::vector<int64_t> aliases;
  for (const HloInstruction *update : updates())
    aliases.push_back(inPlaceUpdatedParameter(*update).parameterNumber());
  return aliases;
}

std::vector<const HloInstruction *> DynamicUpdateSliceEmitter::valuesReadByEmitter() const {
  std::vector<const HloInstruction *> values;
  for (const HloInstruction *update : updates())
    for (int64_t i = 1; i < update->operandCount(); ++i)
      values.push_back(update->operand(i));
  return values;
}

llvm::Error DynamicUpdateSliceEmitter::emitEntryFunction(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  std::vector<const HloInstruction *> dusList = updates();
  const Shape &updateShape = dusList.front()->operand(1)->shape();
  SmallVector<Value> outputs(context.outputs.begin(), context.outputs.end());
  if (updateShape.elementCount() == 0) {
    func::ReturnOp::create(b, outputs);
    return llvm::Error::success();
  }
  // The start indices, clamped to [0, operand - update] per dimension
  // (HLO's semantics), once per kernel: they are scalars.
  std::vector<SmallVector<Value>> starts;
  for (const HloInstruction *dus : dusList) {
    SmallVector<Value> clamped;
    const Shape &operandShape = dus->operand(0)->shape();
    for (int64_t d = 0; d < updateShape.rank(); ++d) {
      const HloInstruction *index = dus->operand(2 + d);
      llvm::Expected<SmallVector<Value>> value =
          context.elemental.emitValue(b, *index, context.parameters, {});
      if (!value)
        return value.takeError();
      // Clamped in the start's own width, then an index (StartIndices.h).
      int64_t last = operandShape.dimension(d) - updateShape.dimension(d);
      Value start = clampStartToIndex(b, (*value)[0], index->shape().elementType(), last);
      clamped.push_back(start);
    }
    starts.push_back(clamped);
  }
  llvm::Expected<Operation *> loop = emitLoop(
      b, context.threadAndBlockIds, outputIndexingForDims(updateShape.dimensions(), mlirContext),
      outputs,
      [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange indices,
          ValueRange iterArgs) -> BodyValues {
        SmallVector<Value> results(iterArgs.begin(), iterArgs.end());
        for (auto [output, dus] : llvm::enumerate(dusList)) {
          llvm::Expected<SmallVector<Value>> value = context.elemental.emitValue(
              nested, *dus->operand(1), context.parameters, indices);
          if (!value)
            return value.takeError();
          SmallVector<Value> operandIndex;
          for (auto [index, start] : llvm::zip(indices, starts[output]))
            operandIndex.push_back(arith::AddIOp::create(nested, index, start));
          // A bitcast root: the same element at its index in the root.
          const Shape &outputShape = *fusionOutputs()[output].shape;
          SmallVector<Value> rootIndex = operandIndex;
          if (outputShape.dimensions() != dus->shape().dimensions() ||
              outputShape.layoutOrDefault().minorToMajor !=
                  dus->shape().layoutOrDefault().minorToMajor)
            rootIndex = applyIndexing(
                nested, bitcastIndexingMap(dus->shape(), outputShape, mlirContext),
                operandIndex);
          results[output] = tensor::InsertOp::create(nested, (*value)[0], results[output],
                                                     bufferIndices(outputShape, rootIndex));
        }
        return results;
      });
  if (!loop)
    return loop.takeError();
  func::ReturnOp::create(b, (*loop)->getResults());
  return llvm::Error::success();
}

} // namespace hlo
