//===- ScatterDistributedUpdatesEmitter.cpp - A thread per update element -===//
//
// The scatter variant XLA uses unless the indices are sorted, repeat and
// are many: one thread per update element or run of neighbouring elements
// (128 threads per block), which reads its
// slice's indices, skips a window that does not fit, and combines its
// element into the output (atomically for non-unique indices).
//
// A thread takes up to 4 neighbouring update elements along the window's
// minor dimension where there is a wave of work (XLA's vector size), so
// that it reads them in one vector load. Atomic updates of 16-bit floats
// go at least in pairs where the window walks the operand's minor
// dimension from 0 in steps of two: two atomics on an even and the next
// index, which the NVPTX target packs into one f16x2/bf16x2 atomic
// (nvptx/PackAtomics.cpp); elsewhere they stay separate atomics.
//
//===----------------------------------------------------------------------===//
#include "emitters/ScatterEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kThreadsPerBlock = 128;

class ScatterDistributedUpdatesEmitter : public ScatterEmitter {
public:
  using ScatterEmitter::ScatterEmitter;

protected:
  /// A thread per update element (or run of them), in whole warps as
  /// XLA's scatter launches (24 updates: 32 threads, 8 of them idle).
  LaunchDimensions scatterLaunch() const override {
    LaunchDimensions launch = threadPerItemLaunch(
        form.sliceCount * form.windowElements / elementsPerThread(), kThreadsPerBlock, device);
    launch.threads[0] = llvm::alignTo(launch.threads[0], 32);
    return launch;
  }

  /// Whether a thread's atomics on 16-bit floats go in aligned pairs: the
  /// window walks the operand's minor dimension from 0 with an even
  /// extent, over an even dimension (so each pair starts at an even
  /// element of the buffer).
  bool pairsAtomics() const {
    const Shape &operand = scatter->operand(0)->shape();
    PrimitiveType element = operand.elementType();
    if (uniqueIndices || form.arrays != 1 ||
        (element != PrimitiveType::F16 && element != PrimitiveType::BF16))
      return false;
    int64_t minor = operand.layoutOrDefault().minorToMajor.front();
    return minorUpdateDim() && form.starts[minor].kind == ScatterCanonicalForm::Start::Zero &&
           form.windowSize[minor] % 2 == 0 && form.operandDims[minor] % 2 == 0;
  }

  /// The neighbouring update elements one thread takes along
  /// minorUpdateDim(), as XLA's vector size: the loop emitter's unroll
  /// factor for the updates (4 where there is a wave of work; a scatter
  /// fusion has none of the ops that stop the loop emitter unrolling) as
  /// far as the window's minor extent divides it; at
  /// least 2 where atomics pair. (XLA takes the gcd with all the slice's
  /// elements, so that a thread's neighbours may continue on the next row
  /// of the window; here they stay in one row.)
  int64_t elementsPerThread() const {
    std::optional<size_t> dim = minorUpdateDim();
    if (!dim)
      return 1;
    int64_t extent = form.updateDims[*dim];
    int64_t updates = 1;
    for (int64_t size : form.updateDims)
      updates *= size;
    bool large = updates >= device.threadsPerSM * device.smCount;
    int64_t vector = large ? std::gcd(extent, int64_t{4}) : 1;
    if (pairsAtomics())
      vector = std::max<int64_t>(vector, 2);
    return vector;
  }

  llvm::Error emitScatter(EmitterContext &context) override {
    ImplicitLocOpBuilder &b = context.b;
    SmallVector<Value> outputs(context.outputs);
    int64_t vector = elementsPerThread();
    std::optional<size_t> vectorDim;
    if (vector > 1)
      vectorDim = minorUpdateDim();
    std::vector<int64_t> threadDims = form.updateDims;
    if (vectorDim)
      threadDims[*vectorDim] /= vector;
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
                // The thread's update elements first, then their combines:
                // the reads are neighbours with no atomic between them, so
                // that they become one vector load.
                std::vector<SmallVector<Value>> updateIndices, values;
                for (int64_t k = 0; k < vector; ++k) {
                  SmallVector<Value> updateIndex(threadIndex);
                  if (vectorDim)
                    updateIndex[*vectorDim] = arith::AddIOp::create(
                        inner,
                        arith::MulIOp::create(inner, threadIndex[*vectorDim],
                                              arith::ConstantIndexOp::create(inner, vector)),
                        arith::ConstantIndexOp::create(inner, k));
                  llvm::Expected<SmallVector<Value>> read = updateValues(inner, context, updateIndex);
                  if (!read)
                    return read.takeError();
                  updateIndices.push_back(std::move(updateIndex));
                  values.push_back(std::move(*read));
                }
                SmallVector<Value> results(iterArgs);
                for (int64_t k = 0; k < vector; ++k) {
                  llvm::Expected<SmallVector<Value>> combined =
                      combineElement(inner, context, *start, updateIndices[k], values[k], results);
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

  /// The update element `values` (at `updateIndex`) combined into
  /// `outputs` at its place in the window starting at `start`.
  llvm::Expected<SmallVector<Value>> combineElement(ImplicitLocOpBuilder &b,
                                                    EmitterContext &context,
                                                    const WindowStart &start,
                                                    ValueRange updateIndex, ValueRange values,
                                                    ValueRange outputs) const {
    SmallVector<Value> operandIndex(start.start);
    for (size_t j = 0; j < form.updateWindowDims.size(); ++j) {
      Value &position = operandIndex[form.windowOperandDims[j]];
      position = arith::AddIOp::create(b, position, updateIndex[form.updateWindowDims[j]]);
    }
    return combineInto(b, context, outputs, operandIndex, values);
  }
};

} // namespace

std::unique_ptr<EmitterBase> createScatterDistributedUpdatesEmitter(
    const FusionAnalysis &analysis, const HloComputation &fused, const GpuDeviceInfo &device) {
  return std::make_unique<ScatterDistributedUpdatesEmitter>(analysis, fused, device);
}

} // namespace hlo
