//===- ScatterDistributedUpdatesEmitter.cpp - A thread per update element -===//
//
// The scatter variant XLA uses unless the indices are sorted, repeat and
// are many: one thread per update element (128 per block), which reads its
// slice's indices, skips a window that does not fit, and combines its
// element into the output (atomically for non-unique indices).
//
//===----------------------------------------------------------------------===//
#include "emitters/ScatterEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kThreadsPerBlock = 128;

class ScatterDistributedUpdatesEmitter : public ScatterEmitter {
public:
  using ScatterEmitter::ScatterEmitter;

protected:
  LaunchDimensions scatterLaunch() const override {
    LaunchDimensions launch;
    int64_t elements = std::max<int64_t>(form.sliceCount * form.windowElements, 1);
    launch.threads[0] = std::min(kThreadsPerBlock, elements);
    launch.blocks = splitGrid((elements + launch.threads[0] - 1) / launch.threads[0], device);
    return launch;
  }

  bool emitScatter(EmitterContext &context, EmissionError &error) override {
    ImplicitLocOpBuilder &b = context.b;
    SmallVector<Value> outputs(context.outputs);
    bool failed = false;
    Operation *loop = emitLoop(
        b, context.threadAndBlockIds, elementIndexing(form.updateDims, 1, b.getContext()),
        outputs,
        [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange updateIndex,
            ValueRange iterArgs) -> SmallVector<Value> {
          SmallVector<Value> slice;
          for (int64_t d : form.updateScatterDims)
            slice.push_back(updateIndex[d]);
          std::optional<WindowStart> start = windowStart(nested, context, slice, error);
          if (!start) {
            failed = true;
            return {};
          }
          auto branch = scf::IfOp::create(
              nested, start->inBounds,
              [&](OpBuilder &builder, Location location) {
                ImplicitLocOpBuilder inner(location, builder);
                SmallVector<Value> operandIndex(start->start);
                for (size_t j = 0; j < form.updateWindowDims.size(); ++j) {
                  Value &position = operandIndex[form.windowOperandDims[j]];
                  position = arith::AddIOp::create(inner, position,
                                                   updateIndex[form.updateWindowDims[j]]);
                }
                SmallVector<Value> values = updateValues(inner, context, updateIndex, error);
                SmallVector<Value> results =
                    values.empty() ? SmallVector<Value>()
                                   : combineInto(inner, context, iterArgs, operandIndex,
                                                 values, error);
                if (results.empty()) {
                  failed = true;
                  results.assign(iterArgs.begin(), iterArgs.end());
                }
                scf::YieldOp::create(inner, results);
              },
              [&](OpBuilder &builder, Location location) {
                scf::YieldOp::create(builder, location, iterArgs);
              });
          return SmallVector<Value>(branch.getResults());
        });
    if (failed || !loop)
      return false;
    func::ReturnOp::create(b, loop->getResults());
    return true;
  }
};

} // namespace

std::unique_ptr<EmitterBase> createScatterDistributedUpdatesEmitter(
    const FusionAnalysis &analysis, const HloComputation &fused, const GpuDeviceInfo &device) {
  return std::make_unique<ScatterDistributedUpdatesEmitter>(analysis, fused, device);
}

} // namespace hlo
