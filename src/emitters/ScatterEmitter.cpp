//===- ScatterEmitter.cpp - What the scatter variants share ---------------===//
#include "emitters/ScatterEmitter.h"

#include "dialect/XlaGpuDialect.h"
#include "emitters/StartIndices.h"
#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <set>

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kCopyThreadsPerBlock = 128;

const HloInstruction *scatterRoot(const FusionAnalysis &analysis) {
  return analysis.roots.front();
}

/// Whether computing `value` reads fused parameter `parameter`.
bool readsParameter(const HloInstruction *value, int64_t parameter) {
  std::vector<const HloInstruction *> stack{value};
  std::set<const HloInstruction *> visited{value};
  while (!stack.empty()) {
    const HloInstruction *inst = stack.back();
    stack.pop_back();
    if (inst->opcode() == HloOpcode::Parameter && inst->parameterNumber() == parameter)
      return true;
    for (const HloInstruction *operand : inst->operands())
      if (visited.insert(operand).second)
        stack.push_back(operand);
  }
  return false;
}

} // namespace

ScatterEmitter::ScatterEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                               const GpuDeviceInfo &device)
    : EmitterBase(analysis, fused, device), scatter(scatterRoot(analysis)),
      form(scatterCanonicalForm(*scatter)), uniqueIndices(scatterDimensionNumbers(*scatter).uniqueIndices) {
  // In place when every operand is a distinct parameter whose buffer the
  // outputs may take.
  inPlace = true;
  std::vector<int64_t> taken;
  for (int64_t i = 0; i < form.arrays; ++i) {
    const HloInstruction *operand = scatter->operand(i);
    bool reusable = operand->opcode() == HloOpcode::Parameter &&
                    llvm::is_contained(analysis.reusableParameters,
                                       operand->parameterNumber()) &&
                    !llvm::is_contained(taken, operand->parameterNumber()) &&
                    operand->shape().dimensions() == fusionOutputs()[i].shape->dimensions() &&
                    operand->shape().layoutOrDefault().minorToMajor ==
                        fusionOutputs()[i].shape->layoutOrDefault().minorToMajor;
    inPlace = inPlace && reusable;
    if (reusable)
      taken.push_back(operand->parameterNumber());
  }
  // The indices and updates are read while the scatter writes: computed
  // from a buffer it updates in place, a thread would read another's
  // writes. Then the operand is copied first and the scatter reads the
  // original.
  for (int64_t i = form.arrays; inPlace && i < scatter->operandCount(); ++i)
    for (int64_t parameter : taken)
      if (readsParameter(scatter->operand(i), parameter))
        inPlace = false;
}

std::string ScatterEmitter::emitterName() const {
  return launchCount() > 1 && currentLaunch() == 0 ? "kScatter/OperandCopy"
                                                   : analysis().kindString();
}

LaunchDimensions ScatterEmitter::launchDimensions() const {
  if (launchCount() == 1 || currentLaunch() == 1)
    return scatterLaunch();
  int64_t elements = 1;
  for (int64_t dim : form.operandDims)
    elements *= dim;
  return threadPerItemLaunch(elements, kCopyThreadsPerBlock, device);
}

std::vector<int64_t> ScatterEmitter::outputAliases() const {
  if (!inPlace)
    return {};
  std::vector<int64_t> aliases;
  for (int64_t i = 0; i < form.arrays; ++i)
    aliases.push_back(scatter->operand(i)->parameterNumber());
  return aliases;
}

std::vector<const HloInstruction *> ScatterEmitter::valuesReadByEmitter() const {
  return std::vector<const HloInstruction *>(scatter->operands().begin(),
                                             scatter->operands().end());
}

llvm::Error ScatterEmitter::emitEntryFunction(EmitterContext &context) {
  if (launchCount() > 1 && currentLaunch() == 0)
    return emitOperandCopy(context);
  if (form.sliceCount * form.windowElements == 0) {
    func::ReturnOp::create(context.b, SmallVector<Value>(context.outputs));
    return llvm::Error::success();
  }
  return emitScatter(context);
}

llvm::Error ScatterEmitter::emitOperandCopy(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  SmallVector<Value> outputs(context.outputs);
  llvm::Expected<Operation *> loop = emitLoop(
      b, context.threadAndBlockIds, elementIndexing(form.operandDims, 1, b.getContext()),
      outputs,
      [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange index,
          ValueRange iterArgs) -> BodyValues {
        SmallVector<Value> results(iterArgs);
        for (int64_t i = 0; i < form.arrays; ++i) {
          llvm::Expected<SmallVector<Value>> value = context.elemental.emitValue(
              nested, *scatter->operand(i), context.parameters, index);
          if (!value)
            return value.takeError();
          results[i] = tensor::InsertOp::create(
              nested, (*value)[0], results[i], bufferIndices(*fusionOutputs()[i].shape, index));
        }
        return results;
      });
  if (!loop)
    return loop.takeError();
  func::ReturnOp::create(b, (*loop)->getResults());
  return llvm::Error::success();
}

std::optional<size_t> ScatterEmitter::minorUpdateDim() const {
  int64_t minor = scatter->operand(0)->shape().layoutOrDefault().minorToMajor.front();
  for (size_t j = 0; j < form.windowOperandDims.size(); ++j)
    if (form.windowOperandDims[j] == minor)
      return form.updateWindowDims[j];
  return std::nullopt;
}

llvm::Expected<ScatterEmitter::WindowStart>
ScatterEmitter::windowStart(ImplicitLocOpBuilder &b, EmitterContext &context,
                            ValueRange slice) const {
  const HloInstruction *indices = scatter->operand(form.arrays);
  std::vector<Value> sliceValues(slice.begin(), slice.end());
  WindowStart result;
  Value zero = arith::ConstantIndexOp::create(b, 0);
  result.inBounds = arith::ConstantIntOp::create(b, 1, 1);
  for (size_t d = 0; d < form.operandDims.size(); ++d) {
    const ScatterCanonicalForm::Start &start = form.starts[d];
    switch (start.kind) {
    case ScatterCanonicalForm::Start::Zero:
      result.start.push_back(zero);
      break;
    case ScatterCanonicalForm::Start::BatchPosition:
      result.start.push_back(slice[start.value]);
      break;
    case ScatterCanonicalForm::Start::IndexColumn: {
      std::vector<Value> index = form.indicesIndex<Value>(
          sliceValues, arith::ConstantIndexOp::create(b, start.value));
      llvm::Expected<SmallVector<Value>> value =
          context.elemental.emitValue(b, *indices, context.parameters, index);
      if (!value)
        return value.takeError();
      // 0 <= start <= operand - window in the start's own width, or the
      // window is skipped.
      CheckedStart checked = checkStartInBounds(
          b, (*value)[0], indices->shape().elementType(),
          form.operandDims[d] - form.windowSize[d]);
      Value position = checked.index;
      result.inBounds = arith::AndIOp::create(b, result.inBounds, checked.inBounds);
      result.start.push_back(position);
      break;
    }
    }
  }
  return result;
}

llvm::Expected<SmallVector<Value>>
ScatterEmitter::updateValues(ImplicitLocOpBuilder &b, EmitterContext &context,
                             ValueRange updateIndex) const {
  SmallVector<Value> values;
  for (int64_t i = 0; i < form.arrays; ++i) {
    llvm::Expected<SmallVector<Value>> value = context.elemental.emitValue(
        b, *scatter->operand(form.arrays + 1 + i), context.parameters, updateIndex);
    if (!value)
      return value.takeError();
    values.push_back((*value)[0]);
  }
  return values;
}

llvm::Expected<SmallVector<Value>> ScatterEmitter::combine(ImplicitLocOpBuilder &b,
                                                           EmitterContext &context,
                                                           ValueRange accumulated,
                                                           ValueRange values) const {
  SmallVector<Value> arguments(accumulated);
  arguments.append(values.begin(), values.end());
  return callComputation(b, context.elemental, *toApply(*scatter), arguments);
}

llvm::Expected<SmallVector<Value>>
ScatterEmitter::combineInto(ImplicitLocOpBuilder &b, EmitterContext &context,
                            ValueRange outputs, ValueRange operandIndex,
                            ValueRange values) const {
  SmallVector<Value> results(outputs);
  if (!uniqueIndices) {
    // One array (createScatterEmitter checks): an atomic read-modify-write.
    const Shape &shape = *fusionOutputs()[0].shape;
    auto rmw = xla_gpu::AtomicRMWOp::create(b, outputs[0].getType(), outputs[0],
                                            bufferIndices(shape, operandIndex));
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = b.createBlock(&rmw.getComputation());
      Value current = body->addArgument(values[0].getType(), b.getLoc());
      llvm::Expected<SmallVector<Value>> combined = combine(b, context, current, values);
      if (!combined)
        return combined.takeError();
      xla_gpu::YieldOp::create(b, *combined);
    }
    results[0] = rmw.getResult();
    return results;
  }
  SmallVector<Value> current;
  for (int64_t i = 0; i < form.arrays; ++i)
    current.push_back(tensor::ExtractOp::create(
        b, outputs[i], bufferIndices(*fusionOutputs()[i].shape, operandIndex)));
  llvm::Expected<SmallVector<Value>> combined = combine(b, context, current, values);
  if (!combined)
    return combined.takeError();
  for (int64_t i = 0; i < form.arrays; ++i)
    results[i] = tensor::InsertOp::create(b, (*combined)[i], results[i],
                                          bufferIndices(*fusionOutputs()[i].shape, operandIndex));
  return results;
}

std::unique_ptr<EmitterBase>
createScatterDistributedUpdatesEmitter(const FusionAnalysis &analysis,
                                       const HloComputation &fused,
                                       const GpuDeviceInfo &device);
std::unique_ptr<EmitterBase>
createScatterDistributedIndicesEmitter(const FusionAnalysis &analysis,
                                       const HloComputation &fused,
                                       const GpuDeviceInfo &device);

llvm::Expected<std::unique_ptr<EmitterBase>>
createScatterEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                     const GpuDeviceInfo &device) {
  const HloInstruction *scatter = scatterRoot(analysis);
  int64_t arrays = (scatter->operandCount() - 1) / 2;
  if (arrays > 1 && !scatterDimensionNumbers(*scatter).uniqueIndices) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "unsupported: a variadic scatter ('" + scatter->name() + "', " +
            std::to_string(arrays) +
            " arrays) needs unique_indices=true: with repeated indices its arrays "
            "cannot be updated together atomically (XLA expands such scatters into "
            "loops before emission)");
  }
  // A c128 element is 16 bytes: with repeated indices only an addition
  // can update it atomically (two f64 atomic adds); other combiners would
  // need a 16-byte compare-and-swap.
  if (scatter->operand(0)->shape().elementType() == PrimitiveType::C128 &&
      !scatterDimensionNumbers(*scatter).uniqueIndices && !isParameterSum(toApply(*scatter)))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "unsupported: a c128 scatter ('" + scatter->name() +
            "') whose combiner is not an addition needs unique_indices=true: a "
            "16-byte element has no atomic compare-and-swap here");
  if (analysis.variant == FusionVariant::ScatterWithDistributedIndices &&
      !isComplex(scatter->operand(0)->shape().elementType()))
    return createScatterDistributedIndicesEmitter(analysis, fused, device);
  return createScatterDistributedUpdatesEmitter(analysis, fused, device);
}

} // namespace hlo
