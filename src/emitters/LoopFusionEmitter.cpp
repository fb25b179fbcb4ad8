//===- LoopFusionEmitter.cpp - The loop (elementwise) fusion emitter ------===//
#include "emitters/LoopFusionEmitter.h"

#include "analysis/HeroAnalysis.h"
#include "analysis/OpIndexing.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <numeric>

using namespace mlir;

namespace hlo {

namespace {

constexpr int64_t kMaxThreadsPerBlock = 128;

/// Ops that make unrolling counter-productive (XLA's list).
bool hasExpensiveOp(const HloComputation &computation) {
  for (const auto &inst : computation.instructions()) {
    switch (inst->opcode()) {
    case HloOpcode::Sort:
    case HloOpcode::Dot:
      return true;
    case HloOpcode::Reduce:
      if (inst->operandCount() > 2)
        return true; // variadic
      break;
    case HloOpcode::ReduceWindow:
      if (inst->operand(0)->shape().elementCount() > 1024)
        return true;
      break;
    case HloOpcode::Concatenate:
      if (inst->operandCount() > 10)
        return true;
      break;
    default:
      break;
    }
  }
  return false;
}

} // namespace

LoopFusionEmitter::LoopFusionEmitter(const FusionAnalysis &analysis,
                                     const HloComputation &fusedComputation,
                                     const GpuDeviceInfo &deviceInfo)
    : LoopFusionEmitter(analysis, fusedComputation, deviceInfo, std::nullopt) {}

LoopFusionEmitter::LoopFusionEmitter(const FusionAnalysis &analysis,
                                     const HloComputation &fusedComputation,
                                     const GpuDeviceInfo &deviceInfo,
                                     std::optional<int64_t> launchedElements)
    : EmitterBase(analysis, fusedComputation, deviceInfo) {
  if (launchedElements)
    elements = *launchedElements;
  else // the largest output
    for (const FusionOutput &output : fusionOutputs())
      elements = std::max(elements, output.shape->elementCount());
  elements = std::max<int64_t>(elements, 1);
  bool large = elements >= device.threadsPerSM * device.smCount;
  unroll = large && !hasExpensiveOp(fused) ? std::gcd(elements, int64_t(4)) : 1;
  int64_t n = (elements + unroll - 1) / unroll;
  int64_t threads = std::min(kMaxThreadsPerBlock, n);
  launch.threads[0] = threads;
  launch.blocks = splitGrid((n + threads - 1) / threads, device);
}

std::optional<IndexingMap>
LoopFusionEmitter::threadIdToOutputIndexing(int64_t rootIndex,
                                            MLIRContext *context) const {
  const HloInstruction *root = analysis().roots[rootIndex];
  const Shape &shape = root->shape().isTuple() ? root->shape().tupleShapes()[0] : root->shape();
  return outputIndexingForDims(shape.dimensions(), context);
}

IndexingMap
LoopFusionEmitter::outputIndexingForDims(const std::vector<int64_t> &outputDims,
                                         MLIRContext *context) const {
  return elementIndexing(outputDims, unroll, context);
}

llvm::Error LoopFusionEmitter::emitEntryFunction(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  const std::vector<FusionOutput> &outputs = fusionOutputs();
  // Outputs of one shape share a loop; each shape gets its own.
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < outputs.size(); ++i) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto &group) {
      return outputs[group.front()].shape->dimensions() ==
             outputs[i].shape->dimensions();
    });
    if (it == groups.end())
      groups.push_back({i});
    else
      it->push_back(i);
  }
  SmallVector<Value> results(outputs.size());
  for (const std::vector<size_t> &group : groups) {
    std::vector<int64_t> dims = outputs[group.front()].shape->dimensions();
    if (outputs[group.front()].shape->elementCount() == 0) {
      for (size_t i : group) // nothing to write
        results[i] = context.outputs[i];
      continue;
    }
    IndexingMap map = outputIndexingForDims(dims, mlirContext);
    SmallVector<Value> inits;
    for (size_t i : group)
      inits.push_back(context.outputs[i]);
    llvm::Expected<Operation *> loop = emitLoop(
        b, context.threadAndBlockIds, map, inits,
        [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange indices,
            ValueRange iterArgs) -> BodyValues {
          SmallVector<Value> updated;
          std::map<const HloInstruction *, SmallVector<Value>> computed;
          for (size_t slot = 0; slot < group.size(); ++slot) {
            const FusionOutput &output = outputs[group[slot]];
            SmallVector<Value> &values = computed[output.root];
            if (values.empty()) {
              if (output.root->opcode() == HloOpcode::Tuple ||
                  (!context.partitioned.subgraphRootedAt(output.root) &&
                   output.root->opcode() != HloOpcode::Parameter &&
                   output.root->opcode() != HloOpcode::Constant)) {
                return emissionError(output.root,
                                     "unsupported: " +
                                         std::string(opcodeName(output.root->opcode())) +
                                         " as a fusion output");
              }
              llvm::Expected<SmallVector<Value>> emitted = context.elemental.emitValue(
                  nested, *output.root, context.parameters, indices);
              if (!emitted)
                return emitted.takeError();
              values = std::move(*emitted);
            }
            updated.push_back(tensor::InsertOp::create(nested, values[output.leaf],
                                                       iterArgs[slot],
                                                       bufferIndices(*output.shape, indices)));
          }
          return updated;
        });
    if (!loop)
      return loop.takeError();
    for (size_t slot = 0; slot < group.size(); ++slot)
      results[group[slot]] = (*loop)->getResult(slot);
  }
  func::ReturnOp::create(b, results);
  return llvm::Error::success();
}

} // namespace hlo
