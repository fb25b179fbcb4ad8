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

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kThreadsPerBlock = 128;

class ScatterDistributedUpdatesEmitter : public ScatterEmitter {
public:
  using ScatterEmitter::ScatterEmitter;

protected:
  LaunchDimensions scatterLaunch() const override {
    return threadPerItemLaunch(form.sliceCount * form.windowElements, kThreadsPerBlock,
                               device);
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
          return emitIf(
              nested, start->inBounds, iterArgs,
              [&](ImplicitLocOpBuilder &inner) -> SmallVector<Value> {
                SmallVector<Value> operandIndex(start->start);
                for (size_t j = 0; j < form.updateWindowDims.size(); ++j) {
                  Value &position = operandIndex[form.windowOperandDims[j]];
                  position = arith::AddIOp::create(inner, position,
                                                   updateIndex[form.updateWindowDims[j]]);
                }
                SmallVector<Value> values = updateValues(inner, context, updateIndex, error);
                if (values.empty())
                  return {};
                return combineInto(inner, context, iterArgs, operandIndex, values, error);
              },
              failed);
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
