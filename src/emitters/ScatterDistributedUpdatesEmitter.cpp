//===- ScatterDistributedUpdatesEmitter.cpp - A thread per update element -===//
//
// The scatter variant XLA uses unless the indices are sorted, repeat and
// are many: one thread per update element (128 per block), which reads its
// slice's indices, skips a window that does not fit, and combines its
// element into the output (atomically for non-unique indices).
//
// Atomic updates of 16-bit floats go in pairs where the window walks the
// operand's minor dimension from 0 in steps of two: a thread combines two
// neighbouring elements with two atomics on an even and the next index,
// which the NVPTX target packs into one f16x2/bf16x2 atomic
// (nvptx/PackAtomics.cpp); elsewhere they stay two atomics.
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
    return threadPerItemLaunch(form.sliceCount * form.windowElements / elementsPerThread(),
                               kThreadsPerBlock, device);
  }

  /// The update dimension whose neighbouring pairs a thread takes: the one
  /// walking the operand's minor dimension when the atomics are on 16-bit
  /// floats, that window starts at 0 and its extent and the operand's are
  /// even (so each pair starts at an even element of the buffer).
  std::optional<size_t> pairedUpdateDim() const {
    const Shape &operand = scatter->operand(0)->shape();
    PrimitiveType element = operand.elementType();
    if (uniqueIndices || form.arrays != 1 ||
        (element != PrimitiveType::F16 && element != PrimitiveType::BF16))
      return std::nullopt;
    int64_t minor = operand.layoutOrDefault().minorToMajor.front();
    if (form.starts[minor].kind != ScatterCanonicalForm::Start::Zero ||
        form.windowSize[minor] % 2 != 0 || form.operandDims[minor] % 2 != 0)
      return std::nullopt;
    for (size_t j = 0; j < form.windowOperandDims.size(); ++j)
      if (form.windowOperandDims[j] == minor)
        return form.updateWindowDims[j];
    return std::nullopt;
  }
  int64_t elementsPerThread() const { return pairedUpdateDim() ? 2 : 1; }

  llvm::Error emitScatter(EmitterContext &context) override {
    ImplicitLocOpBuilder &b = context.b;
    SmallVector<Value> outputs(context.outputs);
    std::optional<size_t> paired = pairedUpdateDim();
    std::vector<int64_t> threadDims = form.updateDims;
    if (paired)
      threadDims[*paired] /= 2;
    llvm::Expected<Operation *> loop = emitLoop(
        b, context.threadAndBlockIds, elementIndexing(threadDims, 1, b.getContext()), outputs,
        [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange threadIndex,
            ValueRange iterArgs) -> BodyValues {
          SmallVector<Value> slice;
          for (int64_t d : form.updateScatterDims)
            slice.push_back(threadIndex[d]);
          llvm::Expected<WindowStart> start = windowStart(nested, context, slice);
          if (!start)
            return start.takeError();
          return emitIf(
              nested, start->inBounds, iterArgs,
              [&](ImplicitLocOpBuilder &inner) -> BodyValues {
                SmallVector<Value> results(iterArgs);
                for (int64_t k = 0; k < elementsPerThread(); ++k) {
                  SmallVector<Value> updateIndex(threadIndex);
                  if (paired)
                    updateIndex[*paired] = arith::AddIOp::create(
                        inner,
                        arith::MulIOp::create(inner, threadIndex[*paired],
                                              arith::ConstantIndexOp::create(inner, 2)),
                        arith::ConstantIndexOp::create(inner, k));
                  llvm::Expected<SmallVector<Value>> combined =
                      combineElement(inner, context, *start, updateIndex, results);
                  if (!combined)
                    return combined.takeError();
                  results = std::move(*combined);
                }
                return results;
              });
        });
    if (!loop)
      return loop.takeError();
    func::ReturnOp::create(b, (*loop)->getResults());
    return llvm::Error::success();
  }

  /// The update element at `updateIndex` combined into `outputs` at its
  /// place in the window starting at `start`.
  llvm::Expected<SmallVector<Value>> combineElement(ImplicitLocOpBuilder &b,
                                                    EmitterContext &context,
                                                    const WindowStart &start,
                                                    ValueRange updateIndex,
                                                    ValueRange outputs) const {
    SmallVector<Value> operandIndex(start.start);
    for (size_t j = 0; j < form.updateWindowDims.size(); ++j) {
      Value &position = operandIndex[form.windowOperandDims[j]];
      position = arith::AddIOp::create(b, position, updateIndex[form.updateWindowDims[j]]);
    }
    llvm::Expected<SmallVector<Value>> values = updateValues(b, context, updateIndex);
    if (!values)
      return values.takeError();
    return combineInto(b, context, outputs, operandIndex, *values);
  }
};

} // namespace

std::unique_ptr<EmitterBase> createScatterDistributedUpdatesEmitter(
    const FusionAnalysis &analysis, const HloComputation &fused, const GpuDeviceInfo &device) {
  return std::make_unique<ScatterDistributedUpdatesEmitter>(analysis, fused, device);
}

} // namespace hlo
